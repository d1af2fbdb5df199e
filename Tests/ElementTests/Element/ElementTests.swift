import CGStreamer
import Foundation
import XCTest

/// Tests of the `rlbarcode` element through the built plugin.
///
/// Tests marked "needs the engine" rely on the decoding engine reading the
/// synthetic EAN/UPC codes; the others hold for any engine.
final class ElementTests: XCTestCase {
    override func setUpWithError() throws {
        switch gstreamerReady {
        case .success: break
        case .failure(let error): XCTFail("\(error)"); throw error
        }
    }

    /// A 320x240 frame with the EAN-13 test code, 2 px per module.
    private func ean13Canvas(width: Int = 320, height: Int = 240) throws -> (
        Canvas, (x: Int, y: Int, width: Int, height: Int)
    ) {
        var canvas = Canvas(width: width, height: height)
        let modules = try Zint.modules(symbology: 13, data: Codes.ean13Data)
        let bars = canvas.drawLinear(modules, x: 30, y: 80, moduleWidth: 2, barHeight: 60)
        return (canvas, bars)
    }

    private func makeElement() throws -> UnsafeMutablePointer<GstElement> {
        guard let element = gst_element_factory_make("rlbarcode", nil) else {
            throw NSError(domain: "rlbarcode", code: 1, userInfo: [NSLocalizedDescriptionKey: "rlbarcode not found"])
        }
        return element
    }

    // MARK: Registration and properties

    func testElementRegistersWithMetadata() throws {
        guard let factory = gst_element_factory_find("rlbarcode") else { return XCTFail("no factory") }
        defer { gst_object_unref(UnsafeMutableRawPointer(factory)) }
        XCTAssertEqual(String(cString: gst_element_factory_get_metadata(factory, "klass")), "Filter/Analyzer/Video")
        let description = String(cString: gst_element_factory_get_metadata(factory, "description"))
        XCTAssertTrue(description.contains("gst-launch-1.0"))
    }

    func testPropertyDefaults() throws {
        let e = try makeElement()
        defer { gst_object_unref(e) }
        let expected: [(String, String)] = [
            ("active-region", ""), ("region-only", "false"), ("orientation", "any"), ("effort", "balanced"),
            ("message", "true"), ("report", "new"), ("lost-after", "1000000000"), ("attach-meta", "true"),
            ("attach-frame", "false"), ("draw", "false"), ("draw-labels", "true"),
            ("outline-color", "4278255360"), ("unwanted-color", "4294901760"), ("paused", "false"),
            ("n-threads", "0")
        ]
        for (name, value) in expected { XCTAssertEqual(propertyText(e, name), value, name) }
        let symbologies = propertyText(e, "symbologies")
        for nick in [
            "ean-13", "upc-a", "upc-e", "ean-8", "ean-2", "ean-5", "code-128", "code-39", "code-93", "itf",
            "codabar", "databar", "databar-expanded", "qr-code", "data-matrix", "pdf417", "aztec"
        ] {
            XCTAssertTrue(symbologies.split(separator: "+").contains(Substring(nick)), nick)
        }
    }

    func testEveryPropertyIsMutableInPlaying() throws {
        let e = try makeElement()
        defer { gst_object_unref(e) }
        let gobjectClass = UnsafeMutablePointer<GObjectClass>(
            OpaquePointer(
                UnsafeMutablePointer<GTypeInstance>(OpaquePointer(e)).pointee.g_class))
        var count: guint = 0
        guard let specs = g_object_class_list_properties(gobjectClass, &count) else { return XCTFail() }
        defer { g_free(specs) }
        var seen = 0
        for i in 0..<Int(count) {
            guard let spec = specs[i], spec.pointee.owner_type != gst_base_transform_get_type(),
                spec.pointee.owner_type != gst_object_get_type(),
                spec.pointee.flags.rawValue & G_PARAM_WRITABLE.rawValue != 0
            else { continue }
            seen += 1
            let name = String(cString: spec.pointee.name)
            XCTAssertNotEqual(spec.pointee.flags.rawValue & (1 << 12), 0, "\(name) not mutable in PLAYING")
            XCTAssertNotNil(g_param_spec_get_blurb(spec), name)
            XCTAssertNotNil(g_param_spec_get_nick(spec), name)
        }
        XCTAssertEqual(seen, 19)
    }

    func testSettingValidValues() throws {
        let e = try makeElement()
        defer { gst_object_unref(e) }
        let cases: [(String, String)] = [
            ("symbologies", "ean-13+qr-code"), ("active-region", "0.1,0.2,0.5,0.5"), ("region-only", "true"),
            ("orientation", "left"), ("effort", "thorough"), ("message", "false"), ("report", "every-frame"),
            ("lost-after", "5000"), ("attach-meta", "false"), ("attach-frame", "true"),
            ("frame-clean", "true"), ("frame-max-size", "320"), ("draw", "true"),
            ("draw-labels", "false"), ("outline-color", "4278190335"), ("unwanted-color", "0"), ("paused", "true"),
            ("n-threads", "1")
        ]
        for (name, value) in cases {
            setProperty(e, name, value)
            XCTAssertEqual(propertyText(e, name), value, name)
        }
        setProperty(e, "active-region", "")
        XCTAssertEqual(propertyText(e, "active-region"), "")
    }

    func testInvalidValuesKeepTheOldValue() throws {
        let e = try makeElement()
        defer { gst_object_unref(e) }
        setProperty(e, "active-region", "0.25,0.25,0.5,0.5")
        for garbage in ["garbage", "0.5,0.5,0.8,0.8", "1,2,3", "-0.1,0,0.5,0.5", "0,0,0,0", "nan,0,1,1", ",,,"] {
            setProperty(e, "active-region", garbage)
            XCTAssertEqual(propertyText(e, "active-region"), "0.25,0.25,0.5,0.5", garbage)
        }
        // Unknown nicks are refused before they reach the element.
        setProperty(e, "orientation", "right")
        setProperty(e, "orientation", "sideways")
        XCTAssertEqual(propertyText(e, "orientation"), "right")
        setProperty(e, "symbologies", "ean-8")
        setProperty(e, "symbologies", "ean-8+no-such-code")
        XCTAssertEqual(propertyText(e, "symbologies"), "ean-8")
        setProperty(e, "report", "sometimes")
        XCTAssertEqual(propertyText(e, "report"), "new")
    }

    func testOnlyRealChangesNotify() throws {
        let e = try makeElement()
        defer { gst_object_unref(e) }
        let counter = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        counter.initialize(to: 0)
        defer { counter.deallocate() }
        let callback: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, data in
            data?.assumingMemoryBound(to: Int.self).pointee += 1
        }
        for name in ["draw", "active-region"] {
            g_signal_connect_data(
                e, "notify::\(name)", unsafeBitCast(callback, to: GCallback.self), counter, nil,
                GConnectFlags(rawValue: 0))
        }
        setProperty(e, "draw", "true")
        XCTAssertEqual(counter.pointee, 1)
        setProperty(e, "draw", "true")
        XCTAssertEqual(counter.pointee, 1, "unchanged value")
        setProperty(e, "active-region", "0,0,0.5,0.5")
        XCTAssertEqual(counter.pointee, 2)
        setProperty(e, "active-region", "garbage")
        XCTAssertEqual(counter.pointee, 2, "refused value")
    }

    func testActionSignals() throws {
        let e = try makeElement()
        defer { gst_object_unref(e) }
        emit(e, "clear-results")
        emit(e, "report-unwanted", strings: ["ean-13", Codes.ean13Text])
        emit(e, "report-unwanted", strings: ["no-such", "x"])
        emit(e, "report-unwanted", strings: ["ean-13+qr-code", "x"])
    }

    // MARK: Frames pass unchanged

    func testEveryFormatPassesBitExactWithoutDraw() throws {
        let (canvas, _) = try ean13Canvas(width: 321, height: 243)
        for format in ["NV12", "NV21", "I420", "YV12", "GRAY8", "Y42B", "Y444", "NV16", "NV24"] {
            let out = try runPipeline([canvas.frame(format), canvas.frame(format)])
            XCTAssertEqual(out.outputs.count, 2, format)
            XCTAssertTrue(out.busErrors.isEmpty, "\(format): \(out.busErrors)")
            for (i, o) in out.outputs.enumerated() { XCTAssertTrue(o == out.inputs[i], "\(format) frame \(i) changed") }
        }
    }

    func testPaddedStridesPassBitExact() throws {
        let (canvas, _) = try ean13Canvas(width: 321, height: 243)
        for format in ["NV12", "I420", "GRAY8"] {
            let out = try runPipeline([canvas.frame(format, rowPadding: 40)])
            XCTAssertEqual(out.outputs.count, 1, format)
            XCTAssertTrue(out.outputs.first == out.inputs.first, "\(format) changed")
        }
    }

    func testTinyFramesRenegotiationAndMissingTimestamps() throws {
        var frames: [TestFrame] = []
        for (w, h, f) in [
            (1, 1, "GRAY8"), (1, 1, "NV12"), (2, 1, "I420"), (3, 3, "YV12"), (17, 5, "NV21"),
            (320, 240, "NV12"), (1, 1, "NV24"), (161, 99, "GRAY8")
        ] {
            frames.append(Canvas(width: w, height: h).frame(f))
        }
        for timestamps in [true, false] {
            let out = try runPipeline(frames, properties: "draw=true report=every-frame", timestamps: timestamps)
            XCTAssertEqual(out.outputs.count, frames.count)
            XCTAssertTrue(out.busErrors.isEmpty, "\(out.busErrors)")
        }
    }

    func testNoiseFramesPassWithoutCrash() throws {
        var generator = SystemRandomNumberGenerator()
        var frames: [TestFrame] = []
        for (w, h, f) in [(64, 48, "GRAY8"), (65, 49, "NV12"), (33, 97, "I420"), (97, 17, "YV12"), (16, 4, "NV21")] {
            var canvas = Canvas(width: w, height: h)
            for i in canvas.pixels.indices { canvas.pixels[i] = UInt8.random(in: 0...255, using: &generator) }
            frames.append(canvas.frame(f))
            // Stripes: bar-like everywhere.
            for i in canvas.pixels.indices { canvas.pixels[i] = (i % w) / 2 % 2 == 0 ? 10 : 245 }
            frames.append(canvas.frame(f, rowPadding: 8))
        }
        for effort in ["fast", "thorough"] {
            let out = try runPipeline(frames, properties: "draw=true report=every-frame effort=\(effort)")
            XCTAssertEqual(out.outputs.count, frames.count)
            XCTAssertTrue(out.busErrors.isEmpty, "\(out.busErrors)")
        }
    }

    func testRenegotiationKeepsTheSession() throws {
        let (small, _) = try ean13Canvas(width: 320, height: 240)
        let (odd, _) = try ean13Canvas(width: 321, height: 243)
        let frames = [
            small.frame("NV12"), small.frame("NV12"), small.frame("I420"), odd.frame("GRAY8"),
            Canvas(width: 1, height: 1).frame("NV12"), small.frame("NV12")
        ]
        let out = try runPipeline(frames, properties: "report=every-frame")
        XCTAssertEqual(out.outputs.count, frames.count)
        XCTAssertEqual(out.messages.count, 5, "needs the engine")
        XCTAssertEqual(out.messages.compactMap { $0["new"]?.bool }.filter { $0 }.count, 1, "one session across caps")
    }

    func testPausedPassesFramesThrough() throws {
        let (canvas, _) = try ean13Canvas()
        let out = try runPipeline([canvas.frame("NV12"), canvas.frame("NV12")], properties: "paused=true draw=true")
        XCTAssertEqual(out.outputs.count, 2)
        XCTAssertTrue(out.messages.isEmpty)
        XCTAssertTrue(out.outputs == out.inputs)
        XCTAssertTrue(out.regions.allSatisfy(\.isEmpty))
    }

    func testPropertyChangesWhilePlayingFromAnotherThread() throws {
        let (canvas, _) = try ean13Canvas(width: 161, height: 121)
        let frames = (0..<12).map { canvas.frame($0 % 2 == 0 ? "NV12" : "I420") }
        let out = try runPipeline(
            frames, properties: "draw=true",
            whilePlaying: { element in
                let e = element.pointer
                for i in 0..<200 {
                    setProperty(e, "draw", i % 2 == 0 ? "true" : "false")
                    setProperty(e, "report", i % 3 == 0 ? "every-frame" : "new")
                    setProperty(e, "symbologies", i % 2 == 0 ? "ean-13+upc-a" : "qr-code")
                    setProperty(e, "active-region", i % 4 == 0 ? "" : "0.1,0.1,0.8,0.8")
                    setProperty(e, "effort", ["fast", "balanced", "thorough"][i % 3])
                    setProperty(e, "outline-color", String(UInt32(i) &* 0x01010101))
                    setProperty(e, "lost-after", String(i * 1000))
                    setProperty(e, "paused", i % 5 == 0 ? "true" : "false")
                    if i % 50 == 0 { emit(e, "clear-results") }
                    _ = propertyText(e, "symbologies")
                }
            })
        XCTAssertEqual(out.outputs.count, frames.count)
    }

    // MARK: Reading codes (needs the engine)

    func testBarcodeMessageFieldsAndTypes() throws {
        let (canvas, bars) = try ean13Canvas()
        let out = try runPipeline([canvas.frame("GRAY8")], properties: "attach-frame=true")
        XCTAssertEqual(out.messages.count, 1, "needs the engine")
        guard let m = out.messages.first else { return }
        let types: [String: String] = [
            "timestamp": "guint64", "stream-time": "guint64", "running-time": "guint64", "duration": "guint64",
            "type": "gchararray", "symbol": "gchararray", "quality": "gint", "symbol-bytes": "GBytes",
            "symbology-id": "gchararray", "extended": "gchararray", "addon": "gchararray",
            "corners": "GstValueArray", "orientation": "gint", "id": "guint", "first-seen": "guint64",
            "last-seen": "guint64", "new": "gboolean", "inverted": "gboolean", "mirrored": "gboolean",
            "frame": "GstSample"
        ]
        for (field, type) in types { XCTAssertEqual(m.typeNames[field], type, field) }
        XCTAssertEqual(m["type"]?.string, "EAN-13")
        XCTAssertEqual(m["symbol"]?.string, Codes.ean13Text)
        XCTAssertEqual(m["symbol-bytes"], .bytes(Array(Codes.ean13Text.utf8)))
        XCTAssertEqual(m["symbology-id"]?.string, "]E0")
        XCTAssertEqual(m["new"]?.bool, true)
        XCTAssertEqual(m["timestamp"]?.uint64, 0)
        XCTAssertEqual(m["duration"]?.uint64, 33_333_333)
        XCTAssertEqual(m["first-seen"]?.uint64, 0)
        if case .sample(let hasBuffer, let caps)? = m["frame"] {
            XCTAssertTrue(hasBuffer)
            XCTAssertTrue(caps.contains("GRAY8"))
        } else {
            XCTFail("frame is not a sample")
        }
        let corners = m["corners"]?.intArray ?? []
        XCTAssertEqual(corners.count, 8)
        for i in stride(from: 0, to: corners.count, by: 2) {
            XCTAssertTrue((bars.x - 8...bars.x + bars.width + 8).contains(corners[i]), "corner x \(corners[i])")
            XCTAssertTrue(
                (bars.y - 8...bars.y + bars.height + 8).contains(corners[i + 1]), "corner y \(corners[i + 1])")
        }
        XCTAssertTrue((m["id"]?.uint ?? 0) > 0)
    }

    func testMessageWithoutTimestampsOrFrame() throws {
        let (canvas, _) = try ean13Canvas()
        let out = try runPipeline(
            [canvas.frame("NV12"), canvas.frame("NV12")], properties: "report=every-frame",
            timestamps: false)
        XCTAssertEqual(out.messages.count, 2, "needs the engine")
        guard let m = out.messages.last else { return }
        XCTAssertNil(m["duration"], "duration only when known")
        XCTAssertNil(m["frame"], "frame only with attach-frame")
        XCTAssertEqual(m["timestamp"]?.uint64, UInt64.max, "GST_CLOCK_TIME_NONE")
        XCTAssertEqual(m["running-time"]?.uint64, UInt64.max, "GST_CLOCK_TIME_NONE")
        // Without timestamps, first/last seen advance by a nominal frame time.
        XCTAssertLessThan(m["first-seen"]?.uint64 ?? 0, m["last-seen"]?.uint64 ?? 0)
    }

    func testRegionMetaBoxesContainTheCode() throws {
        let (canvas, bars) = try ean13Canvas()
        let out = try runPipeline([canvas.frame("NV12"), canvas.frame("NV12")])
        XCTAssertEqual(out.regions.count, 2)
        for rois in out.regions {
            XCTAssertEqual(rois.count, 1, "needs the engine")
            guard let roi = rois.first else { continue }
            XCTAssertEqual(roi.type, "barcode")
            // The box covers the middle of the bars and stays near them.
            XCTAssertLessThanOrEqual(roi.x, bars.x + 10)
            XCTAssertGreaterThanOrEqual(roi.x + roi.width, bars.x + bars.width - 10)
            XCTAssertLessThanOrEqual(roi.y, bars.y + bars.height / 2)
            XCTAssertGreaterThanOrEqual(roi.y + roi.height, bars.y + bars.height / 2)
            XCTAssertGreaterThanOrEqual(roi.x, bars.x - 30)
            XCTAssertLessThanOrEqual(roi.x + roi.width, bars.x + bars.width + 30)
            XCTAssertEqual(roi.params?["type"]?.string, "EAN-13")
            XCTAssertEqual(roi.params?["symbol"]?.string, Codes.ean13Text)
            XCTAssertEqual(roi.params?["corners"]?.intArray?.count, 8)
            XCTAssertEqual(roi.params?["symbology-id"]?.string, "]E0")
            XCTAssertNotNil(roi.params?["orientation"]?.int)
            XCTAssertEqual(roi.params?["id"]?.uint.map(Int.init), roi.id)
        }
        let none = try runPipeline([canvas.frame("NV12")], properties: "attach-meta=false")
        XCTAssertTrue(none.regions.allSatisfy(\.isEmpty))
    }

    func testReportNewPostsOnceAndEveryFramePostsEachFrame() throws {
        let (canvas, _) = try ean13Canvas()
        let frames = Array(repeating: canvas.frame("GRAY8"), count: 5)
        let once = try runPipeline(frames)
        XCTAssertEqual(once.messages.count, 1, "needs the engine")
        let every = try runPipeline(frames, properties: "report=every-frame")
        XCTAssertEqual(every.messages.count, 5, "needs the engine")
        XCTAssertEqual(Set(every.messages.compactMap { $0["id"]?.uint }).count, 1, "one stable id")
        XCTAssertEqual(every.messages.compactMap { $0["new"]?.bool }, [true, false, false, false, false])
        XCTAssertEqual(every.messages.last?["first-seen"]?.uint64, 0)
        XCTAssertEqual(every.messages.last?["last-seen"]?.uint64, 4 * 33_333_333)
        let silent = try runPipeline(frames, properties: "message=false")
        XCTAssertTrue(silent.messages.isEmpty)
    }

    /// A QoS event from downstream saying that frames arrive late: the late
    /// frames pass through unanalysed (no message, bit-exact), none is
    /// dropped; a flush forgets it and analysis resumes. (The events follow
    /// the first frame: a new stream starts with no QoS.)
    func testLateFramesPassUnanalysedUnderQoS() throws {
        let (canvas, _) = try ean13Canvas()
        let frames = Array(repeating: canvas.frame("GRAY8"), count: 6)
        let late = try runPipeline(
            frames, properties: "report=every-frame",
            beforeFrame: { e, i in
                guard i == 1, let src = gst_element_get_static_pad(e, "src") else { return }
                // Frames are late until running time 10 s + 1 s.
                _ = gst_pad_send_event(
                    src, gst_event_new_qos(GST_QOS_TYPE_UNDERFLOW, 2.0, 1_000_000_000, 10_000_000_000))
                gst_object_unref(src)
            })
        XCTAssertEqual(late.outputs.count, frames.count, "every frame flows")
        XCTAssertTrue(late.outputs == late.inputs, "bit-exact")
        XCTAssertEqual(late.messages.count, 1, "late frames (1 to 5) are not analysed")
        // Frames no longer late (a QoS event with no lateness): read again.
        let onTime = try runPipeline(
            frames, properties: "report=every-frame",
            beforeFrame: { e, i in
                guard let src = gst_element_get_static_pad(e, "src") else { return }
                if i == 1 {
                    _ = gst_pad_send_event(
                        src, gst_event_new_qos(GST_QOS_TYPE_UNDERFLOW, 2.0, 1_000_000_000, 10_000_000_000))
                } else if i == 3 {
                    _ = gst_pad_send_event(
                        src, gst_event_new_qos(GST_QOS_TYPE_UNDERFLOW, 1.0, -1_000_000, 1_000_000_000))
                }
                gst_object_unref(src)
            })
        XCTAssertEqual(onTime.outputs.count, frames.count)
        XCTAssertEqual(onTime.messages.count, 4, "frame 0, and frames 3 to 5 analysed again")
    }

    func testLostCodeIsNewAgainAndClearResults() throws {
        let (canvas, _) = try ean13Canvas()
        let blank = Canvas(width: 320, height: 240).frame("GRAY8")
        let code = canvas.frame("GRAY8")
        // Seen, unseen for 3 frames (100 ms > lost-after 50 ms), seen again.
        let out = try runPipeline([code, blank, blank, blank, code], properties: "lost-after=50000000")
        XCTAssertEqual(out.messages.count, 2, "needs the engine")
        if out.messages.count == 2 {
            XCTAssertNotEqual(out.messages[0]["id"]?.uint, out.messages[1]["id"]?.uint)
        }
        // Within lost-after: one message.
        let kept = try runPipeline([code, blank, code])
        XCTAssertEqual(kept.messages.count, 1, "needs the engine")
        // clear-results makes it new again.
        let cleared = try runPipeline(
            [code, code, code], beforeFrame: { e, i in if i == 2 { emit(e, "clear-results") } })
        XCTAssertEqual(cleared.messages.count, 2, "needs the engine")
    }

    /// A code whose place another code takes has left the view, even
    /// within `lost-after`: shown again, it is a new appearance. Codes side
    /// by side do not displace each other.
    func testCodeReplacedByAnotherAtItsPlaceIsNewAgain() throws {
        let first = try Zint.modules(symbology: 13, data: Codes.ean13Data)
        let second = try Zint.modules(symbology: 13, data: "978020137962")
        var a = Canvas(width: 320, height: 300), b = Canvas(width: 320, height: 300)
        a.drawLinear(first, x: 30, y: 30, moduleWidth: 2, barHeight: 60)
        b.drawLinear(second, x: 30, y: 30, moduleWidth: 2, barHeight: 60)
        let replaced = try runPipeline([a.frame("GRAY8"), b.frame("GRAY8"), a.frame("GRAY8")])
        XCTAssertEqual(
            replaced.messages.compactMap { $0["symbol"]?.string },
            [Codes.ean13Text, "9780201379624", Codes.ean13Text], "needs the engine")
        XCTAssertEqual(Set(replaced.messages.compactMap { $0["id"]?.uint }).count, 3)
        // The second code below the first: both stay in view, each once.
        var both = a, only = Canvas(width: 320, height: 300)
        both.drawLinear(second, x: 30, y: 190, moduleWidth: 2, barHeight: 60)
        only.drawLinear(second, x: 30, y: 190, moduleWidth: 2, barHeight: 60)
        let apart = try runPipeline([both.frame("GRAY8"), only.frame("GRAY8"), both.frame("GRAY8")])
        XCTAssertEqual(apart.messages.count, 2, "needs the engine")
    }

    func testTwoIdenticalCodesFarApartAreTwoCodes() throws {
        var canvas = Canvas(width: 320, height: 300)
        let modules = try Zint.modules(symbology: 13, data: Codes.ean13Data)
        canvas.drawLinear(modules, x: 30, y: 30, moduleWidth: 2, barHeight: 50)
        canvas.drawLinear(modules, x: 30, y: 200, moduleWidth: 2, barHeight: 50)
        let out = try runPipeline([canvas.frame("GRAY8"), canvas.frame("GRAY8")])
        XCTAssertEqual(out.messages.count, 2, "needs the engine")
        XCTAssertEqual(Set(out.messages.compactMap { $0["id"]?.uint }).count, out.messages.count)
    }

    func testUnwantedCodeIsNotReported() throws {
        let (canvas, _) = try ean13Canvas()
        let out = try runPipeline(
            [canvas.frame("I420"), canvas.frame("I420")], properties: "draw=true",
            beforeFrame: { e, i in
                if i == 0 { emit(e, "report-unwanted", strings: ["ean-13", Codes.ean13Text]) }
            })
        XCTAssertTrue(out.messages.isEmpty)
        XCTAssertEqual(out.regions.first?.count, 1, "needs the engine")
        XCTAssertEqual(out.regions.first?.first?.params?["unwanted"]?.bool, true)
        // Drawn in unwanted-color (red: Cr near 240), not the green outline (Cr near 34).
        if let output = out.outputs.first, let l = out.layouts.first {
            let cr = output[l.offsets[2]..<l.offsets[2] + l.strides[2] * l.planeHeights[2]]
            XCTAssertTrue(cr.contains { $0 >= 230 }, "red drawn")
            XCTAssertFalse(cr.contains { $0 <= 40 }, "no green drawn")
        }
    }

    func testEveryFormatOddSizeAndPaddedStrideReadsTheCode() throws {
        let (canvas, _) = try ean13Canvas(width: 321, height: 243)
        for format in ["NV12", "NV21", "I420", "YV12", "GRAY8", "Y42B", "Y444", "NV16", "NV24"] {
            for padding in [0, 24] {
                let out = try runPipeline([canvas.frame(format, rowPadding: padding)])
                XCTAssertEqual(
                    out.messages.first?["symbol"]?.string, Codes.ean13Text,
                    "\(format) padding \(padding): needs the engine")
            }
        }
    }

    func testDrawChangesPixelsOnlyNearTheCode() throws {
        let (canvas, bars) = try ean13Canvas()
        for format in ["NV12", "I420", "YV12", "NV21", "GRAY8"] {
            let out = try runPipeline([canvas.frame(format)], properties: "draw=true draw-labels=true")
            guard let output = out.outputs.first, let input = out.inputs.first, let l = out.layouts.first else {
                XCTFail(format); continue
            }
            var changedLuma = 0, farChanges = 0
            for y in 0..<canvas.height {
                for x in 0..<canvas.width where l.luma(output, x, y) != l.luma(input, x, y) {
                    changedLuma += 1
                    // Outline within a few pixels of the code; label above it.
                    let near =
                        x >= bars.x - 40 && x <= bars.x + bars.width + 40
                        && y >= bars.y - 40 && y <= bars.y + bars.height + 30
                    if !near { farChanges += 1 }
                }
            }
            XCTAssertGreaterThan(changedLuma, 100, "\(format): needs the engine")
            XCTAssertEqual(farChanges, 0, format)
            if format != "GRAY8" {
                // Chroma changed too (green is far from neutral).
                let lumaSize = l.strides[0] * l.planeHeights[0]
                XCTAssertNotEqual(Array(output[lumaSize...]), Array(input[lumaSize...]), "\(format) chroma")
            }
        }
    }

    func testOtherEANUPCFields() throws {
        // (zint symbology, data, type, symbol, extended, addon)
        let cases: [(Int, String, String, String, String, String)] = [
            (34, "01234567890", "UPC-A", "0012345678905", "012345678905", ""),
            (37, "0123456", "UPC-E", "0012345000065", "01234565", ""),
            (13, "1234567", "EAN-8", "12345670", "", ""),
            (13, "590123412345+12", "EAN-13", Codes.ean13Text, "", "12")
        ]
        for (symbology, data, type, symbol, extended, addon) in cases {
            var canvas = Canvas(width: 320, height: 240)
            let modules = try Zint.modules(symbology: symbology, data: data)
            canvas.drawLinear(modules, x: 10, y: 80, moduleWidth: 2, barHeight: 60)
            let out = try runPipeline([canvas.frame("GRAY8")])
            let m = out.messages.first
            XCTAssertEqual(m?["type"]?.string, type, "\(data): needs the engine")
            XCTAssertEqual(m?["symbol"]?.string, symbol, data)
            if !extended.isEmpty { XCTAssertEqual(m?["extended"]?.string, extended, data) }
            XCTAssertEqual(m?["addon"]?.string, addon, data)
        }
    }
}
