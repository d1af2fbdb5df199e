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

    /// On random profiles of every length from 4 to 130 (whole blocks of
    /// 16 derivative samples and a remainder), the edges are those the
    /// definition gives, computed here one sample at a time: peaks of the
    /// derivative's magnitude, of its sign, that reach the floor and the
    /// given share of the strongest derivative in their block and the
    /// blocks on either side; on a parabola's vertex; the stronger of two
    /// in a row of one sign.
    func testEdgesAreTheDefinitionsOnRandomProfiles() {
        var generator = DecoderTestRandom(seed: 5)
        var e = EdgeExtractor()
        defer { e.free() }
        var total = 0
        for n in 4...130 {
            // Runs of random lengths and levels, a little noise on top.
            var p: [Float] = []
            while p.count < n {
                let level = Float(Int.random(in: 20...230, using: &generator))
                for _ in 0..<Int.random(in: 1...9, using: &generator) where p.count < n {
                    p.append(level + Float(Int.random(in: -6...6, using: &generator)))
                }
            }
            let relative: Float = 0.2, floor: Float = 4
            p.withUnsafeBufferPointer { e.extract($0.baseAddress!, count: n, relative: relative, floor: floor) }
            let m = n - 1
            let d = (0..<m).map { p[$0 + 1] - p[$0] }
            let nb = (m + 15) / 16
            let blockMax = (0..<nb).map { b in d[(b * 16)..<min(m, b * 16 + 16)].map(abs).max() ?? 0 }
            var pos: [Float] = [], sign: [Int8] = [], mag: [Float] = []
            for i in 0..<m {
                let b = i / 16
                let ref = max(blockMax[b], b > 0 ? blockMax[b - 1] : 0, b + 1 < nb ? blockMax[b + 1] : 0)
                let v = d[i]
                guard abs(v) >= max(floor, relative * ref) else { continue }
                let prev: Float = i > 0 ? d[i - 1] : 0, next: Float = i + 1 < m ? d[i + 1] : 0
                guard v > 0 ? (v >= prev && v > next) : (v <= prev && v < next) else { continue }
                let denom = prev - 2 * v + next
                let off = denom != 0 ? min(max(0.5 * (prev - next) / denom, -0.5), 0.5) : 0
                let s: Int8 = v > 0 ? 1 : -1
                if let last = sign.last, last == s {
                    if abs(v) > mag[mag.count - 1] {
                        pos[pos.count - 1] = Float(i) + 0.5 + off; mag[mag.count - 1] = abs(v)
                    }
                } else {
                    pos.append(Float(i) + 0.5 + off); sign.append(s); mag.append(abs(v))
                }
            }
            XCTAssertEqual((0..<e.edgeCount).map { e.edgePos[$0] }, pos, "length \(n)")
            XCTAssertEqual((0..<e.edgeCount).map { e.edgeSign[$0] }, sign, "length \(n)")
            total += pos.count
        }
        // Not trivial profiles: about an edge every nine samples.
        XCTAssertGreaterThan(total, 800)
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
        for (got, want) in zip(widths, [0, 3, 4, 2, 5, 3, 0] as [Float]) { XCTAssertEqual(got, want, accuracy: 0.01) }
        for (got, want) in zip(starts, [0, 0, 2.5, 6.5, 8.5, 13.5, 17] as [Float]) {
            XCTAssertEqual(got, want, accuracy: 0.01)
        }
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
        for (got, want) in zip(back, [0, 3, 5, 2, 4, 3, 0] as [Float]) { XCTAssertEqual(got, want, accuracy: 0.01) }
        for (got, want) in zip(backStarts, [0, 0, 3.5, 8.5, 10.5, 14.5, 17] as [Float]) {
            XCTAssertEqual(got, want, accuracy: 0.01)
        }
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
                run.fill(
                    from: e, lineLength: p.count, inverted: false,
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
