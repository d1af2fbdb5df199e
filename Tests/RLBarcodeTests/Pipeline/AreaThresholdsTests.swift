import XCTest
@testable import RLBarcode

/// Block thresholds measured once and shared by the matrix readers
/// (``AreaThresholds``): a copy thresholds every pixel as a fresh
/// preparation does, is taken only where it was prepared alike, and the
/// readers read the same symbols with it as without.
final class AreaThresholdsTests: XCTestCase {
    /// A picture of uneven light and texture: a gradient, noise and a few
    /// dark blocks.
    private func texture(width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height)
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let noise = Int(state >> 59)
                let block = (x / 23 + y / 17) % 5 == 0 ? 90 : 0
                pixels[y * width + x] = UInt8(clamping: 60 + x * 150 / width + noise * 4 - block)
            }
        }
        return pixels
    }

    /// A walk along a row, a column or a diagonal, in or out of the
    /// prepared blocks (the edge blocks' thresholds hold beyond them), tells
    /// each pixel dark or light as the blocks do pixel by pixel, though it
    /// looks a threshold up only when it enters another block.
    func testWalkerTellsEveryPixelAsTheBlocks() {
        let width = 301, height = 203
        let pixels = texture(width: width, height: height)
        pixels.withUnsafeBufferPointer {
            let view = LumaView(base: $0.baseAddress!, width: width, height: height, stride: width)
            var differ = 0, checked = 0, dark = 0
            for block in [8, 16] {
                var blocks = BlockThreshold()
                defer { blocks.free() }
                blocks.prepare(
                    view, rect: PixelRect(x0: 40, y0: 30, x1: 250, y1: 170), blockSize: block, minContrast: 20)
                for (x, y, dx, dy) in [
                    (0, 100, 1, 0), (300, 57, -1, 0), (120, 0, 0, 1), (77, 202, 0, -1),
                    (0, 0, 1, 1), (300, 0, -1, 1), (150, 202, 1, -1)
                ] {
                    var walker = BlockThreshold.Walker(blocks, view)
                    var px = x, py = y
                    while px >= 0, py >= 0, px < width, py < height {
                        let d = walker.isDark(x: px, y: py)
                        if d != blocks.isDark(view, x: px, y: py) { differ += 1 }
                        if d { dark += 1 }
                        checked += 1
                        px += dx; py += dy
                    }
                }
            }
            XCTAssertEqual(differ, 0)
            XCTAssertGreaterThan(checked, 2000)
            XCTAssertTrue(
                dark > checked / 10 && dark < checked * 9 / 10, "\(dark) dark of \(checked): the walks test nothing")
        }
    }

    func testCopyThresholdsEveryPixelAsAPreparation() {
        let width = 301, height = 203
        let pixels = texture(width: width, height: height)
        pixels.withUnsafeBufferPointer {
            let view = LumaView(base: $0.baseAddress!, width: width, height: height, stride: width)
            for (rect, block) in [
                (PixelRect(x0: 13, y0: 7, x1: 290, y1: 190), 8),
                (PixelRect(x0: 0, y0: 0, x1: width, y1: height), 16)
            ] {
                var fresh = BlockThreshold(), copy = BlockThreshold()
                defer { fresh.free(); copy.free() }
                fresh.prepare(view, rect: rect, blockSize: block, minContrast: 20)
                copy.copy(from: fresh)
                XCTAssertTrue(copy.matches(rect: rect, blockSize: block, minContrast: 20))
                XCTAssertFalse(copy.matches(rect: rect, blockSize: block == 8 ? 16 : 8, minContrast: 20))
                XCTAssertFalse(copy.matches(rect: rect, blockSize: block, minContrast: 30))
                XCTAssertFalse(
                    copy.matches(
                        rect: PixelRect(x0: rect.x0 + 1, y0: rect.y0, x1: rect.x1, y1: rect.y1),
                        blockSize: block, minContrast: 20))
                var differing = 0
                for y in 0..<height {
                    for x in 0..<width
                    where copy.threshold(x: x, y: y) != fresh.threshold(x: x, y: y)
                        || copy.isDark(view, x: x, y: y) != fresh.isDark(view, x: x, y: y)
                    {
                        differing += 1
                    }
                }
                XCTAssertEqual(differing, 0, "rect \(rect), blocks of \(block)")
                // Not a trivial picture: some pixels dark, some light.
                let dark = (0..<width).filter { fresh.isDark(view, x: $0, y: 100) }.count
                XCTAssertGreaterThan(dark, 0)
                XCTAssertLessThan(dark, width)
            }
        }
    }

    /// Where a block's 5x5 neighbourhood has contrast, its threshold is
    /// the middle of the darkest and lightest pixel there (every other row
    /// of each block from the rectangle's first row in it), measured here
    /// pixel by pixel: for blocks of 8 pixels (measured two at a time
    /// inside the rectangle) and 16, rectangles with partial blocks at
    /// every side.
    func testThresholdsAreTheMiddleOfTheNeighbourhoodsExtremes() {
        let width = 333, height = 190
        let pixels = texture(width: width, height: height)
        pixels.withUnsafeBufferPointer { p in
            let view = LumaView(base: p.baseAddress!, width: width, height: height, stride: width)
            for (rect, block) in [
                (PixelRect(x0: 13, y0: 7, x1: 290, y1: 181), 8), (PixelRect(x0: 5, y0: 3, x1: 333, y1: 190), 8),
                (PixelRect(x0: 21, y0: 0, x1: 317, y1: 177), 16)
            ] {
                var blocks = BlockThreshold()
                defer { blocks.free() }
                blocks.prepare(view, rect: rect, blockSize: block, minContrast: 20)
                let bx0 = rect.x0 / block, by0 = rect.y0 / block
                let cols = (rect.x1 + block - 1) / block - bx0, rows = (rect.y1 + block - 1) / block - by0
                /// The extremes of block (i, j) of the grid, pixel by pixel.
                func extremes(_ i: Int, _ j: Int) -> (Int, Int) {
                    let xs = max(rect.x0, (bx0 + i) * block), xe = min(rect.x1, (bx0 + i + 1) * block)
                    let ys = max(rect.y0, (by0 + j) * block), ye = min(rect.y1, (by0 + j + 1) * block)
                    var lo = 255, hi = 0
                    for y in stride(from: ys, to: ye, by: 2) {
                        for x in xs..<xe { lo = min(lo, Int(view[x, y])); hi = max(hi, Int(view[x, y])) }
                    }
                    return (lo, hi)
                }
                var checked = 0, wrong = 0
                for j in 0..<rows {
                    for i in 0..<cols {
                        var lo = 255, hi = 0
                        for n in max(0, j - 2)...min(rows - 1, j + 2) {
                            for m in max(0, i - 2)...min(cols - 1, i + 2) {
                                let (a, b) = extremes(m, n)
                                lo = min(lo, a); hi = max(hi, b)
                            }
                        }
                        guard hi - lo >= 20 else { continue }
                        checked += 1
                        let x = max(rect.x0, (bx0 + i) * block), y = max(rect.y0, (by0 + j) * block)
                        if Int(blocks.threshold(x: x, y: y)) != (lo + hi + 1) / 2 { wrong += 1 }
                    }
                }
                XCTAssertGreaterThan(checked, cols * rows / 2, "rect \(rect), blocks of \(block)")
                XCTAssertEqual(wrong, 0, "rect \(rect), blocks of \(block)")
            }
        }
    }

    /// A row's runs are those of its pixels compared one at a time with
    /// their blocks' thresholds, for blocks of 8 pixels (taken two at a
    /// time) and 16, with partial blocks at either end and even and odd
    /// numbers of whole blocks between.
    func testRowRunsAreThoseOfEachPixel() {
        let width = 333, height = 190
        let pixels = texture(width: width, height: height)
        pixels.withUnsafeBufferPointer { p in
            let view = LumaView(base: p.baseAddress!, width: width, height: height, stride: width)
            var runs = [Int32](repeating: 0, count: width + 2)
            var checked = 0
            for block in [8, 16] {
                var blocks = BlockThreshold()
                defer { blocks.free() }
                let rect = PixelRect(x0: 3, y0: 2, x1: 330, y1: 188)
                blocks.prepare(view, rect: rect, blockSize: block, minContrast: 20)
                for (x0, x1) in [(3, 330), (16, 320), (16, 328), (21, 43), (5, 11), (8, 9)] {
                    for y in stride(from: 2, to: 188, by: 7) {
                        var firstDark = false
                        let n = runs.withUnsafeMutableBufferPointer {
                            blocks.rowRuns(view, y: y, x0: x0, x1: x1, runs: $0.baseAddress!, firstDark: &firstDark)
                        }
                        // Pixel by pixel.
                        var want: [Int32] = []
                        var dark = blocks.isDark(view, x: x0, y: y), length: Int32 = 0
                        for x in x0..<x1 {
                            if blocks.isDark(view, x: x, y: y) == dark {
                                length += 1
                            } else {
                                want.append(length); dark.toggle(); length = 1
                            }
                        }
                        want.append(length)
                        XCTAssertEqual(firstDark, blocks.isDark(view, x: x0, y: y))
                        XCTAssertEqual(Array(runs[0..<n]), want, "blocks of \(block), row \(y), x \(x0)..<\(x1)")
                        checked += want.count
                    }
                }
            }
            XCTAssertGreaterThan(checked, 2000)
        }
    }

    func testReadersReadTheSameWithSharedThresholds() throws {
        guard let dm = try ZintMatrix.make(.dataMatrix, "Shared blocks 42"),
            let qr = try ZintMatrix.make(.qrCode, "Shared blocks QR")
        else {
            throw XCTSkip("zint is not installed")
        }
        var pic = QRPicture(width: 640, height: 360)
        pic.draw(matrix: dm, QRPicture.Placement(cx: 170, cy: 180, module: 5, angle: 12))
        pic.draw(matrix: qr, QRPicture.Placement(cx: 460, cy: 180, module: 5, angle: -8))
        pic.picture.addNoise(amplitude: 10)
        pic.picture.pixels.withUnsafeBufferPointer {
            let view = LumaView(
                base: $0.baseAddress!, width: pic.picture.width, height: pic.picture.height,
                stride: pic.picture.stride)
            var regions = MatrixRegionDetector()
            defer { regions.free() }
            regions.findAll(view, bounds: nil)
            XCTAssertGreaterThan(regions.regionCount, 0)
            let shared = AreaThresholds()
            shared.prepare(view, regions: regions, minContrast: AreaThresholds.minContrast)
            XCTAssertEqual(shared.count, regions.regionCount)
            XCTAssertNotNil(shared.blocks(0, area: regions.regions[0]))
            XCTAssertNil(shared.blocks(regions.regionCount, area: PixelRect(x0: 1, y0: 2, x1: 3, y1: 4)))
            // An area's blocks are found whatever its place in the list;
            // a part of an area (left by carving) has none.
            let last = regions.regionCount - 1
            XCTAssertTrue(
                shared.blocks(0, area: regions.regions[last])?
                    .matches(
                        rect: regions.regions[last].clipped(width: view.width, height: view.height),
                        blockSize: AreaThresholds.blockSize(
                            regions.regions[last].clipped(width: view.width, height: view.height)),
                        minContrast: AreaThresholds.minContrast) ?? false)
            let first = regions.regions[0]
            XCTAssertNil(shared.blocks(0, area: PixelRect(x0: first.x0, y0: first.y0, x1: first.x1 - 12, y1: first.y1)))
            // Prepared as each reader would prepare them itself (so each takes them).
            for k in 0..<regions.regionCount {
                let r = regions.regions[k].clipped(width: view.width, height: view.height)
                for contrast in [
                    DMDetector.Options().minContrast, QRDetector.Options().minContrast,
                    AztecDetector.Options().minContrast
                ] {
                    XCTAssertEqual(
                        shared.blocks(k, area: regions.regions[k])?.matches(
                            rect: r, blockSize: AreaThresholds.blockSize(r),
                            minContrast: contrast), true, "area \(k)")
                }
            }

            var alone: [BarcodeResult] = [], together: [BarcodeResult] = []
            DataMatrixReader().read(view, bounds: nil, thorough: true, regions: regions, into: &alone)
            DataMatrixReader().read(
                view, bounds: nil, thorough: true, regions: regions, prepared: shared,
                into: &together)
            XCTAssertEqual(alone.map(\.text), ["Shared blocks 42"])
            XCTAssertEqual(together.map(\.text), alone.map(\.text))
            XCTAssertEqual(together.map(\.corners), alone.map(\.corners))

            var qrAlone: [QRCandidate] = [], qrTogether: [QRCandidate] = []
            QRDetector().scan(view, regions: regions, into: &qrAlone)
            QRDetector().scan(view, regions: regions, prepared: shared, into: &qrTogether)
            XCTAssertEqual(qrAlone.compactMap { QRDetector.decodeFirst($0)?.text }, ["Shared blocks QR"])
            XCTAssertEqual(
                qrTogether.compactMap { QRDetector.decodeFirst($0)?.text },
                qrAlone.compactMap { QRDetector.decodeFirst($0)?.text })

            shared.clear()
            XCTAssertEqual(shared.count, 0)
            XCTAssertNil(shared.blocks(0, area: regions.regions[0]))
        }
    }
}
