import XCTest
@testable import RLBarcode

/// Video frames full of bars that hold no code (text, fabric, shelves):
/// the frame's four strongest candidates get five lines before they are
/// given up, the others two, so that the work follows the codes in view
/// more than the texture around them.
final class TextureBudgetTests: XCTestCase {
    /// Bars of pseudo-random widths (1 to 3 modules), no code.
    func texture(_ seed: UInt64, modules: Int = 64) -> ZintRow {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var row: [Bool] = []
        var dark = true
        while row.count < modules {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            row += [Bool](repeating: dark, count: 1 + Int(state % 3))
            dark.toggle()
        }
        return ZintRow(modules: row)
    }

    /// Twelve patches of texture, each at its own angle so that no two
    /// join, in a 1280x720 frame; and, with `code`, an EAN-13 symbol of
    /// lower contrast than the patches among them.
    func frame(code: ZintRow?) -> TestPicture {
        var picture = TestPicture(width: 1280, height: 720, background: 200)
        for k in 0..<12 {
            let cx = 110 + Double(k % 4) * 300, cy = 110 + Double(k / 4) * 240
            picture.draw(
                texture(UInt64(k + 1)),
                TestPicture.Placement(
                    cx: cx, cy: cy, module: 2.5, barHeight: 30, angle: Double(k) * 15, dark: 10, light: 250,
                    quietZone: 4))
        }
        if let code {
            picture.draw(
                code,
                TestPicture.Placement(
                    cx: 640, cy: 360, module: 2.5, barHeight: 40, angle: 5,
                    dark: 90, light: 210, quietZone: 10))
        }
        return picture
    }

    /// Lines sampled by a video scanner's second frame, its candidates, and what it read.
    func secondFrame(_ picture: TestPicture) -> (lines: Int, candidates: Int, texts: [String]) {
        let scanner = Scanner(options: ScanOptions(symbologies: .all, effort: .balanced))
        return picture.pixels.withUnsafeBufferPointer { buffer in
            let view = LumaView(
                base: buffer.baseAddress!, width: picture.width, height: picture.height, stride: picture.stride)
            _ = scanner.scan(view)
            let before = scanner.linesSampled
            let found = scanner.scan(view)
            return (scanner.linesSampled - before, scanner.lastCandidatesRead, found.map(\.text))
        }
    }

    /// Texture alone: five lines for each of the four strongest candidates,
    /// two for the others (at five lines each, 60 or more).
    func testCandidatesAfterTheStrongestGetTwoLines() {
        let (lines, candidates, texts) = secondFrame(frame(code: nil))
        XCTAssertEqual(texts, [])
        XCTAssertGreaterThanOrEqual(candidates, 10, "the patches make too few candidates to test anything")
        XCTAssertLessThanOrEqual(lines, 4 * 5 + (candidates - 4) * 2, "\(lines) lines for \(candidates) candidates")
    }

    /// A code of lower contrast than the texture around it, and so read
    /// after the strongest candidates, is read by its middle lines.
    func testACodeAmongTextureIsRead() throws {
        let code = try ZintRow.make(.eanx, "590123412345")
        let (_, candidates, texts) = secondFrame(frame(code: code))
        XCTAssertGreaterThan(candidates, 4)
        XCTAssertEqual(texts, ["5901234123457"])
    }
}
