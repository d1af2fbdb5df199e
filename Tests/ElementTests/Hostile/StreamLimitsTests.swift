import CGStreamer
import Foundation
import XCTest

/// The element's limits against a hostile or unlucky upstream: buffers
/// whose planes lie about their memory pass unread and counted, a stop
/// during a long scan returns at once, and frames with codes in messages
/// nobody reads do not pile up.
final class StreamLimitsTests: XCTestCase {
    override func setUpWithError() throws {
        switch gstreamerReady {
        case .success: break
        case .failure(let error): XCTFail("\(error)"); throw error
        }
    }

    // MARK: Counters

    /// `frames-analysed`, `frames-skipped` and `frames-rejected` are
    /// read-only, documented and start at 0; setting one changes nothing.
    func testCountersAreReadOnly() throws {
        let element = try XCTUnwrap(gst_element_factory_make("rlbarcode", nil))
        defer { gst_object_unref(element) }
        let klass = UnsafeMutablePointer<GObjectClass>(
            OpaquePointer(
                UnsafeMutablePointer<GTypeInstance>(OpaquePointer(element)).pointee.g_class))
        for name in ["frames-analysed", "frames-skipped", "frames-rejected"] {
            let spec = try XCTUnwrap(g_object_class_find_property(klass, name), name)
            XCTAssertEqual(spec.pointee.flags.rawValue & G_PARAM_WRITABLE.rawValue, 0, "\(name) is writable")
            XCTAssertGreaterThan(String(cString: g_param_spec_get_blurb(spec)).count, 20, name)
            setProperty(element, name, "5")
            XCTAssertEqual(propertyText(element, name), "0", name)
        }
    }

    // MARK: Plane checks

    /// One buffer to push: its size, and the video meta it carries (nil: none).
    struct LyingBuffer {
        var name: String
        var size: Int
        var meta: ClaimedLayout?
    }

    /// The buffer that crashed the element: NV12 641x479 in 506 176 bytes
    /// (rows of 704), whose meta claims strides of 1408. It passes whole
    /// and unread, is counted, and warned about once; the good frame after
    /// it is analysed and read.
    func testMetaStridesBeyondTheBufferPassUnread() throws {
        let lie = LyingBuffer(
            name: "strides 1408", size: 506_176,
            meta: ClaimedLayout(
                format: "NV12", width: 641, height: 479,
                offsets: [0, 704 * 479], strides: [1408, 1408]))
        let good = try ean13Frame(width: 641, height: 479)
        let run = try push(
            caps: "video/x-raw,format=NV12,width=641,height=479,framerate=30/1",
            buffers: [lie, lie], then: good)
        XCTAssertEqual(run.outputs.count, 3, "a buffer was lost")
        XCTAssertEqual(run.outputs.first, run.inputs.first, "the rejected buffer changed")
        XCTAssertEqual(run.rejected, 2)
        XCTAssertEqual(run.warnings.count, 1, "one warning a stream: \(run.warnings)")
        XCTAssertTrue(run.errors.isEmpty, "\(run.errors)")
        XCTAssertEqual(run.symbols, [Codes.ean13Text], "the good frame after them is read")
    }

    /// Every format the caps allow, with metas that lie in every way a meta
    /// can (strides over the buffer, under the width, negative, huge;
    /// offsets past the end or too near it; another plane count, format or
    /// height; a buffer smaller than the caps' frame without a meta): each
    /// passes whole, none crashes, each is counted, and an honest padded
    /// meta after them is analysed.
    func testLyingMetasInEveryFormatAreCounted() throws {
        for format in ["NV12", "NV21", "I420", "YV12", "GRAY8", "Y42B", "Y444", "NV16", "NV24"] {
            let (w, h) = (37, 23)
            let honest = try XCTUnwrap(
                layout(
                    of: TestFrame(
                        format: format, width: w, height: h,
                        luma: [], rowPadding: 3)))
            let plain = try XCTUnwrap(layout(of: TestFrame(format: format, width: w, height: h, luma: [])))
            let n = honest.offsets.count
            let size = honest.size
            func meta(_ offsets: [Int], _ strides: [Int], format f: String = format, height: Int = h)
                -> ClaimedLayout
            { ClaimedLayout(format: f, width: w, height: height, offsets: offsets, strides: strides) }
            var lies: [LyingBuffer] = [
                LyingBuffer(
                    name: "stride twice", size: size, meta: meta(honest.offsets, honest.strides.map { $0 * 2 })),
                LyingBuffer(
                    name: "stride under the width", size: size,
                    meta: meta(honest.offsets, [w - 1] + honest.strides.dropFirst())),
                LyingBuffer(
                    name: "negative stride", size: size,
                    meta: meta(honest.offsets, [-honest.strides[0]] + honest.strides.dropFirst())),
                LyingBuffer(
                    name: "huge stride", size: size,
                    meta: meta(honest.offsets, [Int(Int32.max)] + honest.strides.dropFirst())),
                LyingBuffer(
                    name: "offset past the end", size: size,
                    meta: meta(honest.offsets.dropLast() + [size + 10], honest.strides)),
                LyingBuffer(
                    name: "last plane one row short", size: size,
                    meta: meta(
                        honest.offsets.dropLast() + [size - honest.strides[n - 1] * (honest.planeHeights[n - 1] - 1)],
                        honest.strides)),
                LyingBuffer(
                    name: "twice the height", size: size, meta: meta(honest.offsets, honest.strides, height: 2 * h)),
                LyingBuffer(name: "buffer one byte short, no meta", size: plain.size - 1, meta: nil),
                LyingBuffer(name: "empty buffer", size: 0, meta: nil),
                LyingBuffer(name: "meta on an empty buffer", size: 0, meta: meta(honest.offsets, honest.strides))
            ]
            lies.append(
                n > 1
                    ? LyingBuffer(name: "one plane", size: size, meta: meta([0], [honest.strides[0]]))
                    : LyingBuffer(
                        name: "other format", size: size,
                        meta: meta(
                            honest.offsets + [size / 2], honest.strides + [honest.strides[0]],
                            format: "NV12")))
            let honestCanvas = TestFrame(
                format: format, width: w, height: h,
                luma: [UInt8](repeating: 90, count: w * h), rowPadding: 3)
            let run = try push(
                caps: "video/x-raw,format=\(format),width=\(w),height=\(h),framerate=30/1",
                buffers: lies, then: honestCanvas)
            XCTAssertEqual(run.outputs.count, lies.count + 1, "\(format): a buffer was lost")
            for (i, lie) in lies.enumerated() where i < run.outputs.count {
                XCTAssertEqual(run.outputs[i], run.inputs[i], "\(format), \(lie.name): the buffer changed")
            }
            XCTAssertEqual(run.rejected, lies.count, "\(format): rejected")
            XCTAssertEqual(run.analysed, 1, "\(format): the honest padded frame is analysed")
            XCTAssertEqual(run.warnings.count, 1, "\(format): one warning a stream: \(run.warnings)")
            XCTAssertTrue(run.errors.isEmpty, "\(format): \(run.errors)")
        }
    }

    /// What ``push(caps:buffers:then:)`` saw.
    struct PushRun {
        var inputs: [[UInt8]] = []
        var outputs: [[UInt8]] = []
        var rejected = 0
        var analysed = 0
        var warnings: [String] = []
        var errors: [String] = []
        var symbols: [String] = []
    }

    /// Pushes `buffers` (bytes 0, 1, 2... with their metas), then `then`
    /// in its own layout, through `appsrc ! rlbarcode ! appsink`.
    private func push(caps: String, buffers: [LyingBuffer], then good: TestFrame) throws -> PushRun {
        let pipeline = try launchPipeline(
            "appsrc name=src format=time caps=\"\(caps)\" ! rlbarcode name=bc "
                + "report=every-frame ! appsink name=sink sync=false")
        defer { gst_object_unref(pipeline) }
        let bin = UnsafeMutablePointer<GstBin>(OpaquePointer(pipeline))
        let src = try XCTUnwrap(gst_bin_get_by_name(bin, "src"))
        let element = try XCTUnwrap(gst_bin_get_by_name(bin, "bc"))
        let sinkElement = try XCTUnwrap(gst_bin_get_by_name(bin, "sink"))
        defer { gst_object_unref(src); gst_object_unref(element); gst_object_unref(sinkElement) }
        _ = gst_element_set_state(pipeline, GST_STATE_PLAYING)
        var run = PushRun()
        var pushed: [UnsafeMutablePointer<GstBuffer>] = []
        for b in buffers {
            let bytes = (0..<b.size).map { UInt8(truncatingIfNeeded: $0 * 7) }
            run.inputs.append(bytes)
            pushed.append(try buffer(bytes, meta: b.meta))
        }
        let l = try XCTUnwrap(layout(of: good))
        let goodBytes = frameBytes(good, l)
        run.inputs.append(goodBytes)
        let claimed = ClaimedLayout(
            format: good.format, width: good.width, height: good.height,
            offsets: l.offsets, strides: l.strides)
        pushed.append(try buffer(goodBytes, meta: l.hasMeta ? claimed : nil))
        for (i, buffer) in pushed.enumerated() {
            buffer.pointee.pts = UInt(i * 33_333_333)
            buffer.pointee.duration = 33_333_333
            _ = emit(src, "push-buffer", buffer: buffer, returnsFlow: true)
            gst_buffer_unref(buffer)
        }
        _ = emit(src, "end-of-stream", returnsFlow: true)
        let sink = UnsafeMutablePointer<GstAppSink>(OpaquePointer(sinkElement))
        while let sample = gst_app_sink_try_pull_sample(sink, 30 * 1_000_000_000) {
            defer { gst_sample_unref(sample) }
            guard let out = gst_sample_get_buffer(sample) else { continue }
            var bytes = [UInt8](repeating: 0, count: Int(gst_buffer_get_size(out)))
            _ = bytes.withUnsafeMutableBytes { gst_buffer_extract(out, 0, $0.baseAddress, gsize($0.count)) }
            run.outputs.append(bytes)
        }
        run.rejected = Int(propertyText(element, "frames-rejected")) ?? -1
        run.analysed = Int(propertyText(element, "frames-analysed")) ?? -1
        let bus = gst_element_get_bus(pipeline)
        defer { gst_object_unref(bus) }
        while let message = gst_bus_pop(bus) {
            defer { gst_message_unref(message) }
            switch message.pointee.type {
            case GST_MESSAGE_WARNING: run.warnings.append(problemText(message))
            case GST_MESSAGE_ERROR: run.errors.append(problemText(message))
            case GST_MESSAGE_ELEMENT:
                if let st = gst_message_get_structure(message),
                    String(cString: gst_structure_get_name(st)) == "barcode",
                    let symbol = readStructure(st)["symbol"]?.string
                {
                    run.symbols.append(symbol)
                }
            default: break
            }
        }
        _ = gst_element_set_state(pipeline, GST_STATE_NULL)
        return run
    }

    /// A buffer holding `bytes`, with a video meta when one is given.
    private func buffer(_ bytes: [UInt8], meta: ClaimedLayout?) throws -> UnsafeMutablePointer<GstBuffer> {
        try XCTUnwrap(makeBuffer(bytes, meta: meta))
    }

    /// A frame with the EAN-13 test code.
    private func ean13Frame(width: Int, height: Int, format: String = "NV12", rowPadding: Int = 0) throws -> TestFrame {
        var canvas = Canvas(width: width, height: height)
        let modules = try Zint.modules(symbology: 13, data: Codes.ean13Data)
        canvas.drawLinear(modules, x: 10, y: height / 4, moduleWidth: 2, barHeight: height / 2)
        return canvas.frame(format, rowPadding: rowPadding)
    }
}
