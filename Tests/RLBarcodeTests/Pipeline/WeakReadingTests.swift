import XCTest
@testable import RLBarcode

/// A code that each line reads only weakly (its elements far from whole
/// modules: blur, ink spread) is reported once enough lines add up, not
/// dropped after the usual number of readings.
final class WeakReadingTests: XCTestCase {
    private var sink = LinearHitSink()

    override func tearDown() { sink.free() }

    /// One reading of `text` as UPC-E with module-fit error `error`, on line `line`.
    private func read(_ text: String, error: Float, into votes: inout VoteTable, line: Int) {
        sink.reset()
        let bytes = Array(text.utf8)
        let offset = bytes.withUnsafeBufferPointer { sink.store($0) }
        let hit = LinearHit(
            symbology: .upcE, textOffset: offset, textCount: bytes.count, addOnOffset: 0,
            addOnCount: 0, firstElement: 0, lastElement: 33, start: 0, end: 120, error: error,
            aimModifier: 48)
        votes.add(
            hit, from: sink, p0: Point(x: 100, y: 50 + 4 * Double(line)),
            p1: Point(x: 220, y: 50 + 4 * Double(line)), inverted: false, line: line)
    }

    func testWeakReadingsAskForMoreLinesUntilTheyAddUp() {
        var votes = VoteTable()
        defer { votes.free() }
        // Each reading weighs 0.27: four fall short of a reported code.
        for line in 0..<4 {
            read("0050968000093", error: 1.23, into: &votes, line: line)
            XCTAssertEqual(votes.latestIsWeak, line >= 2, "after \(line + 1) readings")
        }
        XCTAssertTrue(votes.results(minVotes: 2).isEmpty)
        for line in 4..<6 { read("0050968000093", error: 1.23, into: &votes, line: line) }
        XCTAssertFalse(votes.latestIsWeak)
        XCTAssertEqual(votes.results(minVotes: 2).count, 1)
    }

    func testCleanOrHopelessReadingsAskForNoMoreLines() {
        var clean = VoteTable(), hopeless = VoteTable()
        defer { clean.free(); hopeless.free() }
        for line in 0..<4 {
            read("0050968000093", error: 0.2, into: &clean, line: line)
            // Under a fifth of a clean reading's weight each: more lines
            // would not add up soon.
            read("0050968000093", error: 1.45, into: &hopeless, line: line)
        }
        XCTAssertFalse(clean.latestIsWeak)
        XCTAssertFalse(hopeless.latestIsWeak)
        XCTAssertEqual(clean.results(minVotes: 2).count, 1)
        XCTAssertTrue(hopeless.results(minVotes: 2).isEmpty)
    }
}
