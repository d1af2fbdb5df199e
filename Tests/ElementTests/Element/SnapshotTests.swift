import CGStreamer
import Foundation
import XCTest

/// The frame attached to `barcode` messages (`attach-frame`): drawn on or
/// clean (`frame-clean`), full size or scaled down (`frame-max-size`).
final class SnapshotTests: XCTestCase {
    override func setUpWithError() throws {
        switch gstreamerReady {
        case .success: break
        case .failure(let error): XCTFail("\(error)"); throw error
        }
    }

    /// Two frames of `format` with the EAN-13 test code.
    private func frames(_ format: String, width: Int = 320, height: Int = 240) throws -> [TestFrame] {
        var canvas = Canvas(width: width, height: height)
        let modules = try Zint.modules(symbology: 13, data: Codes.ean13Data)
        canvas.drawLinear(modules, x: 30, y: 80, moduleWidth: 2, barHeight: 60)
        return [canvas.frame(format), canvas.frame(format)]
    }

    /// The attached frame of the run's one message: its caps and bytes.
    private func attached(_ out: RunOutput) -> (caps: String, bytes: [UInt8])? {
        guard out.messages.count == 1, let m = out.messages.first,
            case .sample(true, let caps)? = m["frame"], let bytes = m.sampleBytes["frame"]
        else { return nil }
        return (caps, bytes)
    }

    func testDrawnFrameByDefaultCleanFrameOnRequest() throws {
        let input = try frames("I420")
        let drawn = try runPipeline(input, properties: "attach-frame=true draw=true")
        guard let d = attached(drawn) else { return XCTFail("no frame, needs the engine") }
        XCTAssertNotEqual(drawn.outputs.first, drawn.inputs.first, "outlines drawn")
        XCTAssertEqual(d.bytes, drawn.outputs.first, "the frame as it left, outlines and all")
        let clean = try runPipeline(input, properties: "attach-frame=true draw=true frame-clean=true")
        guard let c = attached(clean) else { return XCTFail("no frame") }
        XCTAssertNotEqual(clean.outputs.first, clean.inputs.first, "outlines still drawn into the stream")
        XCTAssertEqual(c.bytes, clean.inputs.first, "the frame as it came in")
        XCTAssertTrue(c.caps.contains("width=(int)320") && c.caps.contains("height=(int)240"), c.caps)
    }

    /// Scaled to 160x120 (every other pixel of each plane), outlines
    /// included: luma and chroma both follow.
    func testScaledFrameSamplesLumaAndChroma() throws {
        let out = try runPipeline(try frames("I420"), properties: "attach-frame=true draw=true frame-max-size=160")
        guard let a = attached(out), let drawn = out.outputs.first, let l = out.layouts.first else {
            return XCTFail("no frame, needs the engine")
        }
        XCTAssertTrue(
            a.caps.contains("I420") && a.caps.contains("width=(int)160") && a.caps.contains("height=(int)120"),
            a.caps)
        let small = TestFrame(format: "I420", width: 160, height: 120, luma: [])
        guard let sl = layout(of: small) else { return XCTFail("layout") }
        XCTAssertEqual(a.bytes.count, sl.size)
        guard a.bytes.count == sl.size else { return }
        for p in 0..<3 {
            let (w, h) = p == 0 ? (160, 120) : (80, 60)
            var mismatches = 0
            for y in 0..<h {
                for x in 0..<w
                where a.bytes[sl.offsets[p] + y * sl.strides[p] + x]
                    != drawn[l.offsets[p] + 2 * y * l.strides[p] + 2 * x]
                {
                    mismatches += 1
                }
            }
            XCTAssertEqual(mismatches, 0, "plane \(p)")
        }
        let chroma = a.bytes[sl.offsets[1]..<sl.offsets[1] + sl.strides[1] * 60]
        XCTAssertTrue(chroma.contains { $0 != 128 }, "the outline's colour in the scaled chroma")
        XCTAssertEqual(out.outputs.first?.count, out.inputs.first?.count, "the stream keeps its size")
    }

    /// An odd-sized NV12 frame scaled to a longest side of 100: 100x76,
    /// its luma the nearest input pixel; a limit above the frame's size
    /// attaches the frame itself.
    func testOddSizedFrameScalesToItsLongestSide() throws {
        let input = try frames("NV12", width: 321, height: 243)
        let out = try runPipeline(input, properties: "attach-frame=true frame-max-size=100")
        guard let a = attached(out), let l = out.layouts.first,
            let sl = layout(
                of: TestFrame(
                    format: "NV12", width: 100, height: 76, luma: []))
        else { return XCTFail("no frame, needs the engine") }
        XCTAssertTrue(a.caps.contains("width=(int)100") && a.caps.contains("height=(int)76"), a.caps)
        XCTAssertEqual(a.bytes.count, sl.size)
        guard a.bytes.count == sl.size, let source = out.inputs.first else { return }
        var mismatches = 0
        for y in 0..<76 {
            for x in 0..<100 where sl.luma(a.bytes, x, y) != l.luma(source, x * 321 / 100, y * 243 / 76) {
                mismatches += 1
            }
        }
        XCTAssertEqual(mismatches, 0)
        let full = try runPipeline(input, properties: "attach-frame=true frame-max-size=400")
        XCTAssertEqual(attached(full)?.bytes, full.inputs.first, "smaller than the limit: the frame itself")
    }
}
