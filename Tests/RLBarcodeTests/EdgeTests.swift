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
    }
}
