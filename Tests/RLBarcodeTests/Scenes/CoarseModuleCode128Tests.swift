import XCTest

@testable import RLBarcode

/// Code 128 drawn at 1.5 pixels per module with hard pixel edges (each
/// module edge rounded to a pixel, as nearest-neighbour scaling makes): one
/// module is one or two pixels, so an edge-to-similar-edge distance may be a
/// pixel (two thirds of a module) off.
final class CoarseModuleCode128Tests: XCTestCase {
    /// A seeded payload of the scenario suite's kind: a tag and eight capitals or digits.
    private static func payload(_ k: Int, _ state: inout UInt64) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var s = String(k % 10)
        for _ in 0..<8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            s.append(alphabet[Int((state >> 33) % UInt64(alphabet.count))])
        }
        return s
    }

    /// A picture of `row` at `module` pixels per module, module `i` covering
    /// the pixels whose centres fall in it, `phase` pixels from the left margin.
    private static func picture(_ row: ZintRow, module: Double, phase: Double) -> TestPicture {
        let margin = 40
        let width = 2 * margin + Int((Double(row.modules.count) * module).rounded(.up)) + 1
        var picture = TestPicture(width: width, height: 60, background: 240)
        for x in 0..<width {
            let m = Int(((Double(x - margin) + 0.5 - phase) / module).rounded(.down))
            guard m >= 0, m < row.modules.count, row.modules[m] else { continue }
            for y in 10..<50 { picture.pixels[y * width + x] = 30 }
        }
        picture.addNoise(amplitude: 4)
        return picture
    }

    /// The second character of the scene `alone/code-128`, frame 3 (value
    /// 17, modules 1 2 3 2 2 1), as its pixels measure it: 1 3 5 2 3 2.
    func testPixelRoundedCharacterIsClassified() throws {
        let patterns = EdgePatterns(Code128Reader.table, elements: 6, modules: 11)
        let value = try XCTUnwrap(Code128Reader.table.firstIndex(of: 123_221))
        var widths: [Float] = [1, 3, 5, 2, 3, 2]
        let module = widths.reduce(0, +) / 11
        let tolerance = EdgePatterns.tolerance(2.0, module: module)
        XCTAssertGreaterThan(patterns.mismatch(&widths, value: value), 2.0, "beyond the tolerance of larger modules")
        XCTAssertEqual(patterns.classify(&widths, maxError: tolerance, margin: 0.25)?.value, value)
        XCTAssertEqual(EdgePatterns.tolerance(2.0, module: 2), 2.0, "2 px a module and more: as before")
    }

    /// Every payload reads at one pixel phase at least, and nothing reads wrong.
    func testReadsCodesAtOneAndAHalfPixelsPerModule() throws {
        var state: UInt64 = 1128
        for k in 0..<12 {
            let text = Self.payload(k, &state)
            let row = try ZintRow.make(symbology: LinearSymbolTestKit.code128, text)
            var phases: [Double] = []
            for phase in [0.0, 0.5, 1.0] {
                let results = Self.picture(row, module: 1.5, phase: phase).scan(
                    ScanOptions(symbologies: .code128, effort: .balanced))
                XCTAssertTrue(results.allSatisfy { $0.text == text }, "\(text) phase \(phase): \(results.map(\.text))")
                if results.contains(where: { $0.text == text }) { phases.append(phase) }
            }
            XCTAssertFalse(phases.isEmpty, "\(text) at no phase")
        }
    }
}
