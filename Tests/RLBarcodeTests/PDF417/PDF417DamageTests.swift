import XCTest
@testable import RLBarcode

/// PDF417 symbols made by zint with whole rows painted over, up to and
/// just beyond what error correction can restore (ISO/IEC 15438:2015, 5.7:
/// 2^(level+1) check codewords; a row lost is one erasure a column), and
/// turned in 15-degree steps.
final class PDF417DamageTests: XCTestCase {
    private static let text = "PDF417 damaged rows 0123456789"

    /// A 4-column symbol at level 3 (16 check codewords, two of them held
    /// back to catch miscorrections: 14 erasures, three rows of four).
    private func symbol() throws -> ZintPDF417? {
        try ZintPDF417.make(PDF417DamageTests.text, arguments: ["--cols=4", "--secure=3"])
    }

    /// The symbol with `rows` painted light from the start pattern to the
    /// stop pattern (row indicators and data; `whole`: the patterns too).
    private func painted(_ z: ZintPDF417, rows: [Int], whole: Bool = false) -> ZintPDF417 {
        var d = z
        let range = whole ? 0..<d.width : 17..<(d.width - d.stopWidth)
        for r in rows { for x in range { d.rows[r][x] = false } }
        return d
    }

    func testRowsPaintedUpToTheLimitRead() throws {
        guard let z = try symbol() else { return }
        XCTAssertGreaterThanOrEqual(z.rows.count, 9)
        let middle = z.rows.count / 2
        for rows in [[middle], [middle - 1, middle], [middle - 1, middle, middle + 1], [1, middle, z.rows.count - 2]] {
            // Whole rows too, but not three side by side: the start and
            // stop patterns then fall apart in two (left out).
            for whole in rows.count == 3 && rows[2] - rows[0] == 2 ? [false] : [false, true] {
                let r = painted(z, rows: rows, whole: whole).picture().scanPDF417()
                XCTAssertEqual(r.map(\.text), [PDF417DamageTests.text], "rows \(rows) painted, whole \(whole)")
                XCTAssertLessThan(r.first?.quality ?? 100, 100, "rows \(rows): corrections show in the quality")
            }
        }
    }

    func testRowsPaintedBeyondTheLimitGiveNothing() throws {
        guard let z = try symbol() else { return }
        let middle = z.rows.count / 2
        for rows in [
            [middle - 2, middle - 1, middle, middle + 1], [1, 3, middle, z.rows.count - 2],
            Array((middle - 2)...(middle + 2))
        ] {
            for whole in [false, true] {
                let r = painted(z, rows: rows, whole: whole).picture().scanPDF417()
                XCTAssertEqual(r.map(\.text), [], "rows \(rows) painted, whole \(whole)")
            }
        }
    }

    /// Every 15 degrees of a turn.
    func testFifteenDegreeSteps() throws {
        guard let z = try ZintPDF417.make("Turned PDF417", arguments: ["--cols=2"]) else { return }
        for angle in stride(from: 0.0, to: 360, by: 15) {
            let r = z.picture(angle: angle).scanPDF417()
            XCTAssertEqual(r.map(\.text), ["Turned PDF417"], "angle \(angle)")
            if let o = r.first?.orientation {
                let d = abs(Double(o) - angle)
                XCTAssertLessThan(min(d, 360 - d), 3, "angle \(angle)")
            }
        }
    }
}
