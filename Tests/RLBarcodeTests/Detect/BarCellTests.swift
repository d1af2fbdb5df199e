import XCTest
@testable import RLBarcode

/// Which lines the detection pass's cells say cross bars
/// (``CellTensors/barsCrossed(by:minEnergy:dominance:maxAngle:)``): the
/// test the still pictures' sweeps and PDF417 searches use to leave out the
/// lines that cross none.
final class BarCellTests: XCTestCase {
    /// A 320x240 picture: light, with vertical bars 3 pixels wide every 6
    /// pixels in x 96..<224, y 64..<176, and some noise.
    private func withBars(_ body: (LumaView) -> Void) {
        let w = 320, h = 240
        var pixels = [UInt8](repeating: 200, count: w * h)
        var seed: UInt64 = 5
        for y in 0..<h {
            for x in 0..<w {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                let noise = Int((seed >> 33) % 7) - 3
                let bar = x >= 96 && x < 224 && y >= 64 && y < 176 && (x / 3) % 2 == 0
                pixels[y * w + x] = UInt8(clamping: (bar ? 40 : 200) + noise)
            }
        }
        pixels.withUnsafeBufferPointer { body(LumaView(base: $0.baseAddress!, width: w, height: h, stride: w)) }
    }

    /// The cells of ``withBars(_:)``'s picture, 16 pixels square.
    private func withCells(_ body: (CellTensors) -> Void) {
        withBars { image in
            var detector = RegionDetector()
            defer { detector.free() }
            detector.measure(image, cellSize: 16, x0: 0, y0: 0, x1: 320, y1: 240, flatBelow: 6)
            guard let cells = detector.tensors else { return XCTFail("no cells measured") }
            body(cells)
        }
    }

    private func line(_ cx: Double, _ cy: Double, degrees: Double) -> ScanLine {
        let a = degrees * Double.pi / 180
        return ScanLine.clipped(
            center: Point(x: cx, y: cy), dx: cos(a), dy: sin(a), halfLength: 400,
            bounds: PixelRect(x0: 0, y0: 0, x1: 320, y1: 240))!
    }

    /// The cells as their definition gives them, computed here pixel by
    /// pixel on a picture of flat stretches and patches of texture (its
    /// width not a multiple of the cells'): a cell is measured where it or
    /// a neighbour is not flat (the mean of gx² + gy² over every fourth
    /// pixel of every fourth row reaching the threshold), its tensor the
    /// means of gx², gy² and gx·gy over the even pixels of every other
    /// row; every other cell has none.
    func testCellsAreTheirDefinitionsSums() {
        let w = 333, h = 200
        var pixels = [UInt8](repeating: 128, count: w * h)
        var generator = DecoderTestRandom(seed: 9)
        for y in 0..<h {
            for x in 0..<w {
                // Texture in patches; elsewhere a faint noise, under the
                // flatness threshold but not without gradients.
                pixels[y * w + x] =
                    (x / 48) % 3 == 1 && (y / 48) % 2 == 1
                    ? UInt8.random(in: 0...255, using: &generator)
                    : UInt8(126 + Int.random(in: 0...4, using: &generator))
            }
        }
        pixels.withUnsafeBufferPointer { p in
            let image = LumaView(base: p.baseAddress!, width: w, height: h, stride: w)
            let flat: Float = 30
            var detector = RegionDetector()
            defer { detector.free() }
            detector.measure(image, cellSize: 16, x0: 0, y0: 0, x1: w, y1: h, flatBelow: flat)
            guard let cells = detector.tensors else { return XCTFail("no cells measured") }
            func px(_ x: Int, _ y: Int) -> Int { Int(pixels[y * w + x]) }
            let cols = w / 16, rows = h / 16
            var active = [Bool](repeating: false, count: cols * rows)
            for cy in 0..<rows {
                for cx in 0..<cols {
                    let xs = max(1, cx * 16), xe = min(w - 1, cx * 16 + 16), ys = max(1, cy * 16),
                        ye = min(h - 1, cy * 16 + 16)
                    var sum = 0, n = 0
                    for y in stride(from: ys + 1, to: ye, by: 4) {
                        for x in stride(from: xs + 1, to: xe, by: 4) {
                            let gx = px(x + 1, y) - px(x - 1, y), gy = px(x, y + 1) - px(x, y - 1)
                            sum += gx * gx + gy * gy; n += 1
                        }
                    }
                    active[cy * cols + cx] = Float(sum) >= flat * Float(max(n, 1))
                }
            }
            var measured = 0, wrong = 0
            for cy in 0..<rows {
                for cx in 0..<cols {
                    let i = cy * cols + cx
                    var near = false
                    for ny in max(0, cy - 1)...min(rows - 1, cy + 1) {
                        for nx in max(0, cx - 1)...min(cols - 1, cx + 1) where active[ny * cols + nx] { near = true }
                    }
                    var xx = 0, yy = 0, xy = 0, n = 0
                    if near {
                        let xs = max(1, cx * 16), xe = min(w - 1, cx * 16 + 16), ys = max(1, cy * 16),
                            ye = min(h - 1, cy * 16 + 16)
                        for y in stride(from: ys, to: ye, by: 2) {
                            for x in stride(from: xs, to: xe, by: 2) {
                                let gx = px(x + 1, y) - px(x - 1, y), gy = px(x, y + 1) - px(x, y - 1)
                                xx += gx * gx; yy += gy * gy; xy += gx * gy; n += 1
                            }
                        }
                        measured += 1
                    }
                    let samples = Float(max(n, 1))
                    if cells.sxx[i] != Float(xx) / samples || cells.syy[i] != Float(yy) / samples
                        || cells.sxy[i] != Float(xy) / samples
                    {
                        wrong += 1
                    }
                }
            }
            XCTAssertEqual(wrong, 0)
            XCTAssertGreaterThan(measured, cols * rows / 3)
            XCTAssertLessThan(measured, cols * rows)
        }
    }

    /// Cells measured in bands of rows (as two threads do, in any order)
    /// are the cells measured whole, flat ones and an inner rectangle
    /// included: each band writes its own rows only, and the flatness of
    /// the rows beside it counts for its edge rows as it does whole.
    func testBandsOfRowsMeasureAsTheWhole() throws {
        withBars { image in
            for (flat, rect) in [
                (Float(60), PixelRect(x0: 0, y0: 0, x1: 320, y1: 240)),
                (Float(60), PixelRect(x0: 40, y0: 30, x1: 250, y1: 200)),
                (Float(0), PixelRect(x0: 40, y0: 30, x1: 250, y1: 200))
            ] {
                var whole = RegionDetector(), banded = RegionDetector()
                defer { whole.free(); banded.free() }
                whole.measure(image, cellSize: 16, x0: rect.x0, y0: rect.y0, x1: rect.x1, y1: rect.y1, flatBelow: flat)
                banded.startMeasure(image, cellSize: 16)
                // Bands of four rows, the last first (three rows): the bars
                // begin at row 4, a band's first row.
                for start in stride(from: 12, through: 0, by: -4) {
                    banded.measureRows(
                        image, x0: rect.x0, y0: rect.y0, x1: rect.x1, y1: rect.y1,
                        cellRows: start..<min(start + 4, 15), flatBelow: flat)
                }
                guard let a = whole.tensors, let b = banded.tensors else { return XCTFail("no cells") }
                XCTAssertEqual(a.cols, b.cols)
                XCTAssertEqual(a.rows, b.rows)
                let n = a.cols * a.rows
                var measured = 0
                for i in 0..<n {
                    XCTAssertEqual(a.sxx[i], b.sxx[i], "cell \(i)")
                    XCTAssertEqual(a.syy[i], b.syy[i], "cell \(i)")
                    XCTAssertEqual(a.sxy[i], b.sxy[i], "cell \(i)")
                    if a.sxx[i] > 0 { measured += 1 }
                }
                // Not all cells measured (flat ones and those outside skipped), but many.
                XCTAssertGreaterThan(measured, 40)
                XCTAssertLessThan(measured, n)
                // Group alike.
                whole.group(minEnergy: 40, minCoherence: 0.55, minCells: 2)
                banded.group(minEnergy: 40, minCoherence: 0.55, minCells: 2)
                XCTAssertEqual(whole.candidateCount, banded.candidateCount)
                XCTAssertGreaterThan(whole.candidateCount, 0)
            }
        }
    }

    func testLinesAcrossTheBarsCountTheirCellsAndOthersNone() throws {
        withCells { cells in
            // Across the bars: the 8 cells the bars fill (128 pixels).
            let across = cells.barsCrossed(by: line(160, 120, degrees: 0), minEnergy: 6, dominance: 8).cells
            XCTAssertGreaterThanOrEqual(across, 7)
            XCTAssertLessThanOrEqual(across, 9)
            // Along the bars: only the cells of their ends (an edge across
            // the line) at most.
            XCTAssertLessThanOrEqual(
                cells.barsCrossed(by: line(160, 120, degrees: 90), minEnergy: 25, dominance: 1).cells, 2)
            // Across the noisy light above them: none, unless the energy
            // asked for is as low as the noise's.
            XCTAssertEqual(cells.barsCrossed(by: line(160, 24, degrees: 0), minEnergy: 25, dominance: 1).cells, 0)
            XCTAssertGreaterThan(cells.barsCrossed(by: line(160, 24, degrees: 0), minEnergy: 1, dominance: 1).cells, 0)
            // 30 degrees from square: counted with a dominance of 2
            // (up to 35 degrees), not with 8 (up to 19 degrees).
            XCTAssertGreaterThan(
                cells.barsCrossed(by: line(160, 120, degrees: 30), minEnergy: 6, dominance: 2).cells, 2)
            XCTAssertEqual(cells.barsCrossed(by: line(160, 120, degrees: 30), minEnergy: 6, dominance: 8).cells, 0)
            // The angle limit: 4 degrees off passes 0.1 radians, 10 degrees does not.
            XCTAssertGreaterThan(
                cells.barsCrossed(by: line(160, 120, degrees: 4), minEnergy: 6, dominance: 2, maxAngle: 0.1).cells, 2)
            XCTAssertEqual(
                cells.barsCrossed(by: line(160, 120, degrees: 10), minEnergy: 6, dominance: 2, maxAngle: 0.1).cells, 0)
            // Too little energy asked for nothing to count.
            XCTAssertEqual(cells.barsCrossed(by: line(160, 120, degrees: 0), minEnergy: 1e9, dominance: 1).cells, 0)
        }
    }

    func testThePartOverTheBarsKeepsTheirQuietZones() throws {
        withCells { cells in
            let whole = line(160, 120, degrees: 0)
            guard let part = cells.partOverBars(whole, minCells: 2, minEnergy: 25, dominance: 8) else {
                return XCTFail("the line across the bars was left out")
            }
            // The bars (x 96 to 224) and two cells (32 pixels) of light
            // either side at least, inside the line.
            let x0 = part.line.point(at: 0).x, x1 = part.line.point(at: Double(part.line.length - 1)).x
            XCTAssertLessThanOrEqual(x0, 96 - 32)
            XCTAssertGreaterThanOrEqual(x1, 224 + 31)
            XCTAssertGreaterThanOrEqual(x0, whole.point(at: 0).x)
            XCTAssertLessThan(part.line.length, whole.length)
            // A line over light alone has no part to read.
            XCTAssertNil(cells.partOverBars(line(160, 24, degrees: 0), minCells: 1, minEnergy: 25, dominance: 1))
        }
    }

    /// Cells of a code already read are passed over: by the count of cells
    /// of bars, and by the parts of a line that are read.
    func testExcludedCellsArePassedOver() throws {
        withCells { measured in
            var cells = measured
            // The bars' cells and their edges', x 80 to 240 (columns 5 to 14), excluded.
            var mask = [UInt8](repeating: 0, count: cells.cols * cells.rows)
            for cy in 0..<cells.rows { for cx in 5..<15 { mask[cy * cells.cols + cx] = 1 } }
            mask.withUnsafeBufferPointer { m in
                cells.excluded = m.baseAddress
                let across = line(160, 120, degrees: 0)
                XCTAssertEqual(cells.barsCrossed(by: across, minEnergy: 6, dominance: 8).cells, 0)
                var parts: [(Double, Double)] = []
                cells.openParts(of: across) { parts.append(($0.point(at: 0).x, $0.point(at: Double($0.length - 1)).x)) }
                XCTAssertEqual(parts.count, 2)
                if parts.count == 2 {
                    XCTAssertLessThanOrEqual(parts[0].0, 2)
                    XCTAssertLessThanOrEqual(parts[0].1, 80)
                    XCTAssertGreaterThanOrEqual(parts[1].0, 240)
                    XCTAssertGreaterThanOrEqual(parts[1].1, 317)
                }
                // A line clear of the excluded cells is one part, whole.
                let clear = line(48, 120, degrees: 90)
                var lengths: [Int] = []
                cells.openParts(of: clear) { lengths.append($0.length) }
                XCTAssertEqual(lengths, [clear.length])
            }
        }
    }

    /// ``CellTensors/barsReach(from:ux:uy:start:minEnergy:dominance:maxAngle:maxGap:limit:)``:
    /// the walk out along a code's reading axis goes over gaps of flat
    /// cells up to `maxGap` long (the insides of wide bars), no further.
    func testBarsReachCrossesShortGapsOnly() {
        // Vertical bars 3 pixels wide in x 16..<96 and 160..<240 (a flat
        // gap of four cells between), y 64..<176.
        let w = 320, h = 240
        var pixels = [UInt8](repeating: 200, count: w * h)
        for y in 64..<176 {
            for x in 0..<w where ((x >= 16 && x < 96) || (x >= 160 && x < 240)) && (x / 3) % 2 == 0 {
                pixels[y * w + x] = 40
            }
        }
        pixels.withUnsafeBufferPointer { buffer in
            let image = LumaView(base: buffer.baseAddress!, width: w, height: h, stride: w)
            var detector = RegionDetector()
            defer { detector.free() }
            detector.measure(image, cellSize: 16, x0: 0, y0: 0, x1: w, y1: h, flatBelow: 6)
            guard let cells = detector.tensors else { return XCTFail("no cells measured") }
            let middle = Point(x: 56, y: 120)
            func reach(_ ux: Double, _ uy: Double, gap: Int, dominance: Float = 8) -> Double {
                cells.barsReach(
                    from: middle, ux: ux, uy: uy, start: 24, minEnergy: 6, dominance: dominance,
                    maxAngle: 0.2, maxGap: gap, limit: 400)
            }
            // Ahead, over the gap to the far group's end (x 240: 184 from the middle).
            XCTAssertEqual(reach(1, 0, gap: 6), 184, accuracy: 24)
            // A gap longer than allowed: to the near group's end (x 96: 40).
            XCTAssertEqual(reach(1, 0, gap: 2), 40, accuracy: 24)
            XCTAssertLessThan(reach(1, 0, gap: 2), 100)
            // Behind: to the near group's start (x 16: 40 from the middle).
            XCTAssertEqual(reach(-1, 0, gap: 6), 40, accuracy: 24)
            // Along the bars (the wrong axis): no further than the bars'
            // ends (y 176: 56 below the middle), whose edge is across it.
            XCTAssertLessThanOrEqual(reach(0, 1, gap: 6), 56 + 24)
            // The limit holds.
            XCTAssertLessThanOrEqual(
                cells.barsReach(
                    from: middle, ux: 1, uy: 0, start: 24, minEnergy: 6, dominance: 8,
                    maxAngle: 0.2, maxGap: 6, limit: 100), 100)
        }
    }
}
