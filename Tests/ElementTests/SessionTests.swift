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
        let out = try runPipeline([code, code, blank, blank], beforeFrame: { e, i in
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
            let cr = output[l.offsets[2] ..< l.offsets[2] + l.strides[2] * l.planeHeights[2]]
            XCTAssertTrue(cr.contains { $0 >= 230 }, "drawn in unwanted-color (red), needs the engine")
        }
        // Without drawing it is not even read.
        let plain = try runPipeline(frames, properties: "symbologies=code-128")
        XCTAssertEqual(plain.outputs, plain.inputs, "frames untouched")
        XCTAssertTrue(plain.messages.isEmpty)
    }
}
