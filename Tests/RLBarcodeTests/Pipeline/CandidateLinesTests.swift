import XCTest
@testable import RLBarcode

/// How many lines a video frame spends on a candidate of bars that holds
/// no code it can read.
final class CandidateLinesTests: XCTestCase {
    /// A PDF417 symbol read for GS1 DataBar Expanded alone: its codewords
    /// (17 modules, four bars and four spaces) read as DataBar Expanded
    /// characters here and there, rows of a stacked symbol by chance,
    /// none of them read alike by two lines. Video effort gives such a
    /// candidate twice the lines of one that reads nothing at all (5), not
    /// all of its lines (up to 21): at most 10 lines a candidate.
    func testChanceRowsOfAStackedSymbolEndACandidateEarly() throws {
        let text = "RLBARCODE 0123456789 ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz 0123456789 ABCDEFGHIJ"
        guard let symbol = try ZintPDF417.make(text, arguments: ["--cols=3"]) else { return }
        let m = symbol.matrix(rowHeight: 4)
        let module = 3.0
        let side = Int(Double(m.width + m.height) * module) + 120
        let width = side, height = side
        var p = QRPicture(width: width, height: height)
        _ = p.draw(
            matrix: m,
            QRPicture.Placement(
                cx: Double(width) / 2, cy: Double(height) / 2, module: module,
                angle: 0, quietZone: 2))
        let scanner = Scanner(options: ScanOptions(symbologies: .dataBarExpanded, effort: .balanced))
        let before = scanner.linesSampled
        let pic = p.picture
        let found = pic.scan(with: scanner)
        XCTAssertEqual(found.map(\.text), [])
        let candidates = scanner.lastCandidatesRead
        let lines = scanner.linesSampled - before
        XCTAssertGreaterThan(candidates, 0, "no candidate across the symbol's bars")
        XCTAssertLessThanOrEqual(lines, 10 * candidates, "\(lines) lines for \(candidates) candidates")
        // More than a candidate that reads nothing at all: rows were read by chance.
        XCTAssertGreaterThan(lines, 5 * candidates, "no rows read by chance: the picture tests nothing here")
    }
}
