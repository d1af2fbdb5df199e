import XCTest
@testable import RLBarcode

/// The grey-level edge stage on profiles written by hand.
final class EdgeTests: XCTestCase {
    /// A profile of light (200) and dark (40) runs of the given widths, starting light.
    private func profile(_ widths: [Int]) -> [Float] {
        var p: [Float] = []
        for (i, w) in widths.enumerated() { p += Array(repeating: i % 2 == 0 ? 200 : 40, count: w) }
        return p
    }

    func testWidthsOfSharpProfile() {
        let p = profile([10, 2, 4, 6, 10])
        var e = EdgeExtractor()
        defer { e.free() }
        p.withUnsafeBufferPointer { e.extract($0.baseAddress!, count: p.count, relative: 0.1, floor: 2) }
        XCTAssertEqual(e.edgeCount, 4)
        var run = ElementRun()
        defer { run.free() }
        run.fill(from: e, lineLength: p.count, inverted: false)
        XCTAssertEqual(run.count, 5)
        let widths = (0..<run.count).map { run.widths[$0] }
        for (got, want) in zip(widths[1...3], [2, 4, 6] as [Float]) { XCTAssertEqual(got, want, accuracy: 0.01) }
        // Backwards, the same run mirrored; an odd count keeps the trailing space.
        run.reverse()
        XCTAssertEqual(run.widths[1], 6, accuracy: 0.01)
        XCTAssertEqual(run.widths[3], 2, accuracy: 0.01)
        XCTAssertEqual(run.starts[0], 0)
    }

    func testPruneRemovesRippleInsideWideBarOnly() {
        // A wide bar with a shallow ripple in it, and a real narrow space.
        var p = profile([10, 12, 2, 3, 10])
        for i in 14..<17 { p[i] = 60 }  // ripple of 20 over a contrast of 160
        var e = EdgeExtractor()
        defer { e.free() }
        p.withUnsafeBufferPointer {
            e.extract($0.baseAddress!, count: p.count, relative: 0.1, floor: 2)
            XCTAssertEqual(e.edgeCount, 6)
            e.prune($0.baseAddress!, count: p.count, fraction: 0.15)
        }
        XCTAssertEqual(e.edgeCount, 4)
    }

    func testInvertedPolarityStartsWithDarkSpace() {
        let p = profile([10, 3, 3, 3, 10])
        var e = EdgeExtractor()
        defer { e.free() }
        p.withUnsafeBufferPointer { e.extract($0.baseAddress!, count: p.count, relative: 0.1, floor: 2) }
        var run = ElementRun()
        defer { run.free() }
        run.fill(from: e, lineLength: p.count, inverted: true)
        // Light-on-dark reading: the first "bar" is the light run after the
        // dark one; the leading "space" holds everything before it.
        XCTAssertEqual(run.widths[0], 12.5, accuracy: 0.01)
        XCTAssertEqual(run.widths[1], 3, accuracy: 0.01)
        // The light run the line starts in is a bar cut by the line's start.
        XCTAssertEqual(run.cutBarAtStart, 9.5, accuracy: 0.01)
    }

    /// A profile that starts and ends inside a dark bar: 3 dark, 4 light, 2
    /// dark, 5 light, 3 dark samples (edges fall halfway between samples,
    /// at 2.5, 6.5, 8.5 and 13.5).
    private func cutProfile() -> [Float] {
        profile([0, 3, 4, 2, 5, 3])
    }

    func testBarsCutByTheLineEnds() {
        let p = cutProfile()
        var e = EdgeExtractor()
        defer { e.free() }
        p.withUnsafeBufferPointer { e.extract($0.baseAddress!, count: p.count, relative: 0.1, floor: 2) }
        XCTAssertEqual(e.edgeCount, 4)
        var run = ElementRun(), framed = ElementRun()
        defer { run.free(); framed.free() }
        run.fill(from: e, lineLength: p.count, inverted: false)
        // The plain run: the first bar lies in the leading space, the last
        // bar ends the run with no space after it.
        XCTAssertEqual(run.count, 4)
        XCTAssertEqual(run.widths[0], 6.5, accuracy: 0.01)
        XCTAssertEqual(run.cutBarAtStart, 2.5, accuracy: 0.01)
        XCTAssertEqual(run.cutBarAtEnd, 3.5, accuracy: 0.01)
        XCTAssertFalse(run.isFrameBorder(0))
        // Framed: both cut bars are elements, beyond them the frame's border.
        run.framed(into: &framed)
        XCTAssertEqual(framed.count, 7)
        let widths = (0..<framed.count).map { framed.widths[$0] }
        let starts = (0..<framed.count).map { framed.starts[$0] }
        for (got, want) in zip(widths, [0, 2.5, 4, 2, 5, 3.5, 0] as [Float]) { XCTAssertEqual(got, want, accuracy: 0.01) }
        for (got, want) in zip(starts, [0, 0, 2.5, 6.5, 8.5, 13.5, 17] as [Float]) { XCTAssertEqual(got, want, accuracy: 0.01) }
        XCTAssertTrue(framed.isFrameBorder(0))
        XCTAssertTrue(framed.isFrameBorder(6))
        XCTAssertFalse(framed.isFrameBorder(2))
        // Backwards: the plain run drops the last bar; framed, it is back.
        run.reverse()
        XCTAssertEqual(run.count, 3)
        XCTAssertEqual(run.starts[0], 3.5, accuracy: 0.01)
        run.framed(into: &framed)
        XCTAssertEqual(framed.count, 7)
        let back = (0..<framed.count).map { framed.widths[$0] }
        let backStarts = (0..<framed.count).map { framed.starts[$0] }
        for (got, want) in zip(back, [0, 3.5, 5, 2, 4, 2.5, 0] as [Float]) { XCTAssertEqual(got, want, accuracy: 0.01) }
        for (got, want) in zip(backStarts, [0, 0, 3.5, 8.5, 10.5, 14.5, 17] as [Float]) { XCTAssertEqual(got, want, accuracy: 0.01) }
        XCTAssertTrue(framed.isFrameBorder(0) && framed.isFrameBorder(6))
    }

    func testFrameBorderQuietZoneOnlyWhereTheLineEndsOnTheBorder() {
        let p = cutProfile()
        var e = EdgeExtractor()
        defer { e.free() }
        p.withUnsafeBufferPointer { e.extract($0.baseAddress!, count: p.count, relative: 0.1, floor: 2) }
        var run = ElementRun(), framed = ElementRun()
        defer { run.free(); framed.free() }
        p.withUnsafeBufferPointer { profile in
            for (startBorder, endBorder) in [(true, true), (true, false), (false, true), (false, false)] {
                run.fill(from: e, lineLength: p.count, inverted: false,
                         startsAtFrameBorder: startBorder, endsAtFrameBorder: endBorder)
                run.profile = profile.baseAddress
                run.framed(into: &framed)
                XCTAssertEqual(framed.isFrameBorder(0), startBorder)
                XCTAssertEqual(framed.isFrameBorder(6), endBorder)
                XCTAssertEqual(framed.isQuietZone(0, need: 20, leading: true, from: 0, to: 9), startBorder)
                XCTAssertEqual(framed.isQuietZone(6, need: 20, leading: false, from: 9, to: 17), endBorder)
                // A space between bars is no frame border.
                XCTAssertFalse(framed.isQuietZone(2, need: 20, leading: true, from: 7, to: 17))
            }
        }
    }
}
