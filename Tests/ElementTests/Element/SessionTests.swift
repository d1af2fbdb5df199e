import CGStreamer
import Foundation
import XCTest

/// Scan sessions of the `rlbarcode` element: the `barcode-session` and
/// `barcode-status` messages and codes of symbologies left out.
final class SessionTests: XCTestCase {
    override func setUpWithError() throws {
        switch gstreamerReady {
        case .success: break
        case .failure(let error): XCTFail("\(error)"); throw error
        }
    }

    /// A 320x240 GRAY8 frame with the EAN-13 test code; `damaged` blackens
    /// its middle, so that its bars are in view but cannot be read.
    private func eanFrame(damaged: Bool = false) throws -> TestFrame {
        var canvas = Canvas(width: 320, height: 240)
        let modules = try Zint.modules(symbology: 13, data: Codes.ean13Data)
        let bars = canvas.drawLinear(modules, x: 30, y: 80, moduleWidth: 2, barHeight: 60)
        if damaged { canvas.fill(x: bars.x + 80, y: bars.y, width: 40, height: bars.height, value: 20) }
        return canvas.frame("GRAY8")
    }

    private func messages(_ out: RunOutput, _ name: String) -> [Fields] {
        out.allElementMessages.filter { $0.name == name }
    }

    /// Ten seconds at 30 fps of one code in view that drifts across the
    /// frame and back, with a few frames where it is blurred past reading:
    /// `report=new` posts it once, with one id for the whole session.
    func testTenSecondsOfOneCodeIsOneMessage() throws {
        let modules = try Zint.modules(symbology: 13, data: Codes.ean13Data)
        var frames: [TestFrame] = []
        for k in 0..<300 {
            var canvas = Canvas(width: 320, height: 240)
            let drift = k % 60 < 30 ? k % 30 : 30 - k % 30
            let bars = canvas.drawLinear(modules, x: 10 + drift, y: 60 + drift / 2, moduleWidth: 2, barHeight: 60)
            // Every 50th frame the code is smeared: in view, not read.
            if k % 50 == 25 { canvas.fill(x: bars.x + 60, y: bars.y, width: 60, height: bars.height, value: 20) }
            frames.append(canvas.frame("GRAY8"))
        }
        let out = try runPipeline(frames)
        XCTAssertEqual(out.messages.count, 1, "needs the engine")
        let every = try runPipeline(Array(frames[0..<60]), properties: "report=every-frame")
        XCTAssertGreaterThanOrEqual(every.messages.count, 55, "the code is read in nearly every frame")
        XCTAssertEqual(Set(every.messages.compactMap { $0["id"]?.uint }).count, 1, "one stable id")
        let sessions = messages(out, "barcode-session")
        XCTAssertEqual(sessions.count, 1)
    }

    func testSessionMessageAtEOSListsEveryCode() throws {
        let code = try eanFrame()
        let blank = Canvas(width: 320, height: 240).frame("GRAY8")
        // Seen twice, lost in between (lost-after 50 ms < 100 ms unseen).
        let out = try runPipeline([code, code, blank, blank, blank, code], properties: "lost-after=50000000")
        let sessions = messages(out, "barcode-session")
        XCTAssertEqual(sessions.count, 1, "exactly one session message")
        guard let session = sessions.first else { return }
        XCTAssertEqual(session["reason"]?.string, "eos")
        XCTAssertEqual(session["count"]?.uint, 1, "needs the engine")
        guard let first = session["codes"]?.structures?.first else { return XCTFail("no codes array") }
        XCTAssertEqual(first.name, "barcode-session-code")
        XCTAssertEqual(first["type"]?.string, "EAN-13")
        XCTAssertEqual(first["symbol"]?.string, Codes.ean13Text)
        XCTAssertEqual(first["symbology-id"]?.string, "]E0")
        XCTAssertEqual(first["appearances"]?.uint, 2)
        XCTAssertEqual(first["frames"]?.uint64, 3)
        XCTAssertEqual(first["first-seen"]?.uint64, 0)
        XCTAssertEqual(first["last-seen"]?.uint64, 5 * 33_333_333)
        XCTAssertEqual(first["id"]?.uint, out.messages.last?["id"]?.uint, "the latest appearance's id")
    }

    func testClearResultsEndsASessionAndEOSTheNext() throws {
        let code = try eanFrame()
        let blank = Canvas(width: 320, height: 240).frame("GRAY8")
        let out = try runPipeline(
            [code, code, blank, blank],
            beforeFrame: { e, i in
                // Let the streaming thread finish the first two frames first.
                if i == 2 { Thread.sleep(forTimeInterval: 0.5); emit(e, "clear-results") }
            })
        let sessions = messages(out, "barcode-session")
        XCTAssertEqual(sessions.map { $0["reason"]?.string }, ["clear-results", "eos"])
        XCTAssertEqual(sessions.first?["count"]?.uint, 1, "needs the engine")
        XCTAssertEqual(sessions.last?["count"]?.uint, 0, "the session after the clear saw nothing")
    }

    func testEmptyStreamStillEndsItsSession() throws {
        let blank = Canvas(width: 64, height: 48).frame("GRAY8")
        let out = try runPipeline([blank])
        XCTAssertEqual(messages(out, "barcode-session").map { $0["count"]?.uint }, [0])
        XCTAssertTrue(messages(out, "barcode-status").isEmpty, "nothing happened: no status")
        XCTAssertEqual(messages(out, "barcode-session").first?["codes"]?.intArray, [], "an empty array")
    }

    func testMessageFalseSilencesSessionAndStatus() throws {
        let code = try eanFrame()
        let out = try runPipeline([code, code], properties: "message=false")
        XCTAssertTrue(out.allElementMessages.isEmpty)
    }

    func testStatusGoesInRangeThenGuidanceThenFound() throws {
        let damaged = try eanFrame(damaged: true)
        let code = try eanFrame()
        // 2 s of an unreadable code (30 fps), then the readable one for 5 frames.
        let frames = Array(repeating: damaged, count: 60) + Array(repeating: code, count: 5)
        let out = try runPipeline(frames)
        let status = messages(out, "barcode-status")
        let summary = status.map { s -> String in
            "\(s["in-range"]?.bool == true ? "in" : "out")/\(s["guidance"]?.int ?? -1)/\(s["found"]?.uint ?? 99)"
        }
        XCTAssertEqual(summary, ["in/0/0", "in/1/0", "out/0/1"], "needs the engine")
        // Guidance after about 1.5 s in range.
        if status.count == 3, let t0 = status[0]["running-time"]?.uint64, let t1 = status[1]["running-time"]?.uint64 {
            XCTAssertGreaterThanOrEqual(t1 - t0, 1_500_000_000)
            XCTAssertLessThan(t1 - t0, 1_600_000_000)
        }
        XCTAssertEqual(status.last?["new-found"]?.uint, 1)
        XCTAssertEqual(status.last?["partial"]?.string, "")
        XCTAssertEqual(out.messages.count, 1, "the code itself once")
    }

    /// A Code 128 wider than the frame, panned across it: the parts show
    /// as guidance 2 with the partial text, the whole code is posted once,
    /// correctly, and never a part of it.
    func testLongCodePannedAcrossTheFrameIsPostedOnceWhole() throws {
        let text = "LONG-CODE-PANNED"
        let modules = try Zint.modules(symbology: 20, data: text)
        let total = modules.count * 2 + 40
        XCTAssertGreaterThan(total, 320 + 100, "the code must be wider than the frame")
        var frames: [TestFrame] = []
        var x = 20
        while x + total > 220 {
            var canvas = Canvas(width: 320, height: 240)
            canvas.drawLinear(modules, x: x, y: 90, moduleWidth: 2, barHeight: 60)
            frames.append(canvas.frame("GRAY8"))
            x -= 8
        }
        let out = try runPipeline(frames)
        XCTAssertEqual(out.messages.compactMap { $0["symbol"]?.string }, [text], "one message, the whole code")
        let status = messages(out, "barcode-status")
        let partials = status.filter { $0["guidance"]?.int == 2 }.compactMap { $0["partial"]?.string }
        XCTAssertFalse(partials.isEmpty, "guidance 2 while only a part is in view")
        for p in partials {
            XCTAssertTrue(text.hasPrefix(p) || (p.hasPrefix("…") && text.hasSuffix(p.dropFirst())), "partial \(p)")
        }
    }

    /// `clear-results` forgets the codes marked with `report-unwanted` too:
    /// after it the marked code is new, reported and no longer unwanted.
    func testClearResultsEmptiesTheUnwantedSet() throws {
        let code = try eanFrame()
        let out = try runPipeline(
            Array(repeating: code, count: 6), live: true,
            beforeFrame: { e, i in
                if i == 0 { emit(e, "report-unwanted", strings: ["ean-13", Codes.ean13Text]) }
                if i == 3 { emit(e, "clear-results") }
            })
        XCTAssertEqual(out.regions.count, 6)
        let unwanted = out.regions.map { frame in frame.contains { $0.params?["unwanted"]?.bool == true } }
        XCTAssertEqual(unwanted, [true, true, true, false, false, false], "needs the engine")
        XCTAssertEqual(out.messages.count, 1, "reported once, after the clear")
        XCTAssertEqual(out.messages.first?["new"]?.bool, true)
        XCTAssertEqual(out.messages.first?["timestamp"]?.uint64, 3 * 33_333_333)
    }

    /// A Code 128 panned into view from the right (its start first), read
    /// once whole, then panned out to the left: `partial` holds from the
    /// first part to the read, with guidance 2 all along; after the read no
    /// guidance and no partial text, though the code's end is still in view.
    func testPartialHoldsDuringAPanAndEndsAtTheRead() throws {
        let text = "PANNED-CODE-128"
        let modules = try Zint.modules(symbology: 20, data: text)
        let total = modules.count * 2 + 40
        XCTAssertLessThan(total, 480, "the code fits the frame once panned in")
        var frames: [TestFrame] = []
        func add(_ x: Int) {
            var canvas = Canvas(width: 480, height: 160)
            canvas.drawLinear(modules, x: x, y: 50, moduleWidth: 2, barHeight: 60)
            frames.append(canvas.frame("GRAY8"))
        }
        for x in stride(from: 480 - 110, through: 20, by: -6) { add(x) }
        for _ in 0..<6 { add(20) }
        for x in stride(from: 20, through: -total, by: -20) { add(x) }
        let out = try runPipeline(frames)
        XCTAssertEqual(out.messages.compactMap { $0["symbol"]?.string }, [text], "needs the engine")
        let status = messages(out, "barcode-status")
        guard let first = status.firstIndex(where: { $0["guidance"]?.int == 2 }),
            let read = status.firstIndex(where: { $0["found"]?.uint == 1 })
        else {
            return XCTFail("no guidance 2 before the read: \(status)")
        }
        XCTAssertLessThan(first, read)
        for s in status[first..<read] {
            XCTAssertEqual(s["guidance"]?.int, 2, "guidance holds during the pan")
            // The code's start; with only the stop pattern out of view, the
            // check character follows the text.
            let p = s["partial"]?.string ?? ""
            XCTAssertTrue(
                !p.isEmpty && (text.hasPrefix(p) || p.dropLast() == text), "partial \(p) holds, the code's start")
        }
        XCTAssertFalse(status.contains { $0["guidance"]?.int == 1 }, "no guidance 1 mid-pan")
        for s in status[read...] {
            XCTAssertEqual(s["guidance"]?.int, 0, "no guidance after the read")
            XCTAssertEqual(s["partial"]?.string, "")
        }
    }

    /// A part of a long code, then the code gone: the partial text holds
    /// for `lost-after`, then clears.
    func testPartialClearsAfterLostAfter() throws {
        let modules = try Zint.modules(symbology: 20, data: "PANNED-CODE-128")
        var frames: [TestFrame] = []
        for k in 0..<12 {
            var canvas = Canvas(width: 480, height: 160)
            canvas.drawLinear(modules, x: 480 - 150 - 6 * k, y: 50, moduleWidth: 2, barHeight: 60)
            frames.append(canvas.frame("GRAY8"))
        }
        frames += Array(repeating: Canvas(width: 480, height: 160).frame("GRAY8"), count: 24)
        let out = try runPipeline(frames, properties: "lost-after=500000000")
        let status = messages(out, "barcode-status")
        guard let last = status.lastIndex(where: { $0["guidance"]?.int == 2 }), last + 1 < status.count else {
            return XCTFail("no partial, or it never cleared: \(status), needs the engine")
        }
        let cleared = status[last + 1]
        XCTAssertEqual(cleared["partial"]?.string, "")
        XCTAssertEqual(cleared["guidance"]?.int, 0)
        // Held for lost-after after the latest part (read by frame 11 at the latest).
        let t = cleared["running-time"]?.uint64 ?? 0
        let firstPart = status.first { $0["guidance"]?.int == 2 }?["running-time"]?.uint64 ?? 0
        XCTAssertGreaterThan(t, firstPart + 500_000_000)
        XCTAssertLessThanOrEqual(t, 12 * 33_333_333 + 500_000_000)
    }

    /// A pipeline stopped without EOS (a camera closed) still ends its
    /// session, once; after EOS, the stop adds nothing.
    func testStopWithoutEOSPostsTheSession() throws {
        let code = try eanFrame()
        let stopped = try runPipeline([code, code, code], live: true, endOfStream: false)
        XCTAssertEqual(stopped.outputs.count, 3)
        let sessions = messages(stopped, "barcode-session")
        XCTAssertEqual(sessions.map { $0["reason"]?.string }, ["stop"])
        XCTAssertEqual(sessions.first?["count"]?.uint, 1, "needs the engine")
        let ended = try runPipeline([code, code], live: true)
        XCTAssertEqual(messages(ended, "barcode-session").map { $0["reason"]?.string }, ["eos"], "once, at EOS")
    }

    func testDisabledSymbologyIsDrawnAsUnwantedOnly() throws {
        var canvas = Canvas(width: 320, height: 240)
        let modules = try Zint.modules(symbology: 13, data: Codes.ean13Data)
        canvas.drawLinear(modules, x: 30, y: 80, moduleWidth: 2, barHeight: 60)
        let frames = [canvas.frame("I420"), canvas.frame("I420")]
        let out = try runPipeline(frames, properties: "symbologies=code-128 draw=true")
        XCTAssertTrue(out.messages.isEmpty, "not reported")
        XCTAssertEqual(out.regions.first?.count, 0, "no metadata")
        XCTAssertEqual(messages(out, "barcode-session").first?["count"]?.uint, 0, "not part of the session")
        if let output = out.outputs.first, let l = out.layouts.first {
            let cr = output[l.offsets[2]..<l.offsets[2] + l.strides[2] * l.planeHeights[2]]
            XCTAssertTrue(cr.contains { $0 >= 230 }, "drawn in unwanted-color (red), needs the engine")
        }
        // Without drawing it is not even read.
        let plain = try runPipeline(frames, properties: "symbologies=code-128")
        XCTAssertEqual(plain.outputs, plain.inputs, "frames untouched")
        XCTAssertTrue(plain.messages.isEmpty)
    }
}
