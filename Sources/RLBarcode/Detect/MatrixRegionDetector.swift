/// Finds areas of a frame where a matrix code (QR Code, Micro QR, and
/// later Data Matrix and Aztec) may be, before any finder pattern search.
///
/// One pass over an eighth of the pixels (every other pixel of every fourth
/// row; of every other row for cells under 16 pixels) measures, in square
/// cells, the structure tensor of the image gradient, as ``RegionDetector``
/// does for bars; when the linear stage has measured the frame's cells of
/// the same size, they are used instead (``CellTensors``) and this pass is
/// skipped. A second, coarser pass
/// (64-pixel cells, every fourth pixel of every eighth row, differences
/// over four pixels) finds codes whose modules are too large for the small
/// cells to see two edge directions. A matrix code has edges
/// in two directions at right angles, so its cells have strong gradients
/// that do not point one way (low coherence), where the cells of a bar
/// code point one way and blank areas are weak. Neighbouring 2D cells are
/// grouped; each group's bounding box, widened by a margin for finder
/// patterns, separators and quiet zones (whose cells can be flat), is a
/// region. Overlapping regions are merged. Frames without codes usually end
/// with few or no small regions, so the costlier finder search runs on a
/// small part of the frame.
///
/// All buffers are owned and reused: after the first frame of a size,
/// ``find(_:bounds:cellSize:minEnergy:maxCoherence:minCells:margin:keep:)``
/// allocates nothing.
struct MatrixRegionDetector {
    /// Cell side in pixels.
    private(set) var cellSize = 16
    /// Cells per row and rows of cells.
    private(set) var cols = 0
    private(set) var rows = 0
    /// 1 for a 2D cell, else 0; then region labels while grouping.
    private var mark = ScratchBuffer<Int32>(capacity: 1024)
    private var stack = ScratchBuffer<Int32>(capacity: 1024)
    /// The regions found by the last ``find``, strongest first.
    private(set) var regions = ScratchBuffer<PixelRect>(capacity: 32)
    /// How many of ``regions`` are valid.
    private(set) var regionCount = 0
    /// How many 2D cells the last ``find`` marked.
    private(set) var markedCells = 0
    /// The frame's time limit and stop, checked once a row of cells of the
    /// pass over the pixels (cells left unmeasured count as flat).
    var stop = ScanStop()

    func free() { mark.free(); stack.free(); regions.free() }

    /// The box around every region; nil when there is none.
    var extent: PixelRect? {
        guard regionCount > 0 else { return nil }
        var box = regions[0]
        for k in 1..<regionCount {
            let r = regions[k]
            box = PixelRect(x0: min(box.x0, r.x0), y0: min(box.y0, r.y0), x1: max(box.x1, r.x1), y1: max(box.y1, r.y1))
        }
        return box
    }

    /// Measures the cells inside `bounds` (the whole frame when `nil`) and
    /// groups the 2D cells into ``regions``.
    ///
    /// - Parameters:
    ///   - cellSize: cell side in pixels (16 suits modules from 2 to about 12 pixels, 64 larger ones).
    ///   - minEnergy: the least mean squared gradient (both axes together) of a 2D cell.
    ///   - maxCoherence: the most one-directional its gradients may be (0...1).
    ///   - minCells: the fewest cells a region may have.
    ///   - margin: cells added around each group.
    /// - Complexity: one read of an eighth of the pixels in `bounds`, plus
    ///   work linear in the number of cells.
    ///   - keep: keep the regions of the previous call (a second pass with
    ///     larger cells, for codes with large modules, adds to the first).
    ///   - cells: the frame's cells as the linear stage measured them
    ///     (``RegionDetector``, over `bounds` or more); when they are of
    ///     `cellSize`, they are used instead of a pass over the pixels.
    mutating func find(
        _ img: LumaView, bounds: PixelRect? = nil, cellSize: Int = 16, minEnergy: Int = 200,
        maxCoherence: Float = 0.75, minCells: Int = 2, margin: Int = 2, keep: Bool = false,
        cells: CellTensors? = nil
    ) {
        if !keep { regionCount = 0 }
        markedCells = 0
        self.cellSize = cellSize
        let b = bounds ?? PixelRect(x0: 0, y0: 0, x1: img.width, y1: img.height)
        if let t = cells, t.cellSize == cellSize {
            cols = t.cols
            rows = t.rows
            let n = cols * rows
            mark.reserve(n); stack.reserve(n)
            let mp = mark.pointer
            let e0 = Float(minEnergy), c2 = maxCoherence * maxCoherence
            for i in 0..<n {
                let xx = t.sxx[i], yy = t.syy[i], xy = t.sxy[i]
                let e = xx + yy, d = xx - yy
                var is2D: Int32 = 0
                if e >= e0 && d * d + 4 * xy * xy <= c2 * e * e { is2D = 1; markedCells += 1 }
                mp[i] = is2D
            }
            group(origin: (0, 0), bounds: b, minCells: minCells, margin: margin)
            return
        }
        let reach = cellSize >= 32 ? 2 : 1
        let x0 = max(reach, b.x0), y0 = max(reach, b.y0)
        let x1 = min(img.width - reach, b.x1), y1 = min(img.height - reach, b.y1)
        guard x1 - x0 >= 4, y1 - y0 >= 4 else { cols = 0; rows = 0; return }
        cols = (x1 - x0 + cellSize - 1) / cellSize
        rows = (y1 - y0 + cellSize - 1) / cellSize
        let n = cols * rows
        mark.reserve(n); stack.reserve(n)
        let base = img.base, stride = img.stride
        let mp = mark.pointer
        let maxCoherence2 = maxCoherence * maxCoherence
        // Every other pixel of every fourth row in 16-pixel cells, every
        // other row in smaller ones; every fourth pixel of every fourth row
        // in larger ones (every eighth row in cells of 64, whose modules are
        // large), with differences over 4 pixels so that no edge falls
        // between samples.
        let rowSkip = cellSize >= 64 ? 8 : cellSize >= 16 ? 4 : 2
        // The pass for each sampling, with its steps as constants.
        if reach == 2 {
            measure(
                base: base, stride: stride, x0: x0, y0: y0, x1: x1, y1: y1, reach: 2, colSkip: 4,
                rowSkip: rowSkip, minEnergy: minEnergy, maxCoherence2: maxCoherence2, into: mp)
        } else {
            measure(
                base: base, stride: stride, x0: x0, y0: y0, x1: x1, y1: y1, reach: 1, colSkip: 2,
                rowSkip: rowSkip, minEnergy: minEnergy, maxCoherence2: maxCoherence2, into: mp)
        }
        group(origin: (x0, y0), bounds: b, minCells: minCells, margin: margin)
    }

    /// Marks the 2D cells of the ``cols`` by ``rows`` cells from (`x0`,
    /// `y0`) in `mark` (1 for a 2D cell): the structure tensor of the
    /// gradient (differences over `2 reach` pixels) at every `colSkip`-th
    /// pixel of every `rowSkip`-th row. Inlined with constant steps, so that
    /// the loop over a row's samples is a few instructions a sample.
    @inline(__always)
    private mutating func measure(
        base: UnsafePointer<UInt8>, stride: Int, x0: Int, y0: Int, x1: Int, y1: Int,
        reach: Int, colSkip: Int, rowSkip: Int, minEnergy: Int, maxCoherence2: Float,
        into mp: UnsafeMutablePointer<Int32>
    ) {
        let vreach = reach &* stride
        for cy in 0..<rows {
            if stop.now {
                for i in (cy * cols)..<(rows * cols) { mp[i] = 0 }
                return
            }
            let ys = y0 + cy * cellSize, ye = min(y1, ys + cellSize)
            for cx in 0..<cols {
                let xs = x0 + cx * cellSize, xe = min(x1, xs + cellSize)
                let perRow = (xe - xs + colSkip - 1) / colSkip
                var axx = 0, ayy = 0, axy = 0, samples = 0
                if ByteOrder.isLittleEndian && reach == 2 && colSkip == 4 && xe - xs == 64 && ye - ys <= 16 * rowSkip {
                    // A whole coarse cell: its 16 samples of a row at once.
                    let sampledRows = (ye - ys + rowSkip - 1) / rowSkip
                    (axx, ayy, axy) = MatrixRegionDetector.coarseTensor(
                        base + (ys &* stride &+ xs), stride: stride,
                        rows: sampledRows, rowSkip: rowSkip)
                    samples = 16 * sampledRows
                } else {
                    var y = ys
                    while y < ye {
                        var p = base + (y &* stride &+ xs)
                        for _ in 0..<perRow {
                            let gx = Int(p[reach]) &- Int(p[-reach])
                            let gy = Int(p[vreach]) &- Int(p[-vreach])
                            axx &+= gx &* gx; ayy &+= gy &* gy; axy &+= gx &* gy
                            p += colSkip
                        }
                        samples &+= perRow
                        y &+= rowSkip
                    }
                }
                var is2D: Int32 = 0
                let e = axx + ayy
                if samples > 0 && e >= minEnergy * samples {
                    // coherence² = ((sxx - syy)² + 4 sxy²) / (sxx + syy)²
                    let d = Float(axx - ayy), c = Float(axy), ef = Float(e)
                    if d * d + 4 * c * c <= maxCoherence2 * ef * ef { is2D = 1; markedCells += 1 }
                }
                mp[cy * cols + cx] = is2D
            }
        }
    }

    /// The sums of gx², gy² and gx·gy (differences over 4 pixels) at the
    /// 16 samples 4 pixels apart from `p` on `rows` rows `rowSkip` apart: a
    /// whole 64-pixel cell of the coarse pass. The pixels 2 to the left of
    /// the first sample and right of the last, and 2 rows above and below,
    /// must lie in the frame.
    ///
    /// Each 32-bit lane loaded holds four pixels, the sample's in its low
    /// byte (little-endian); the products are summed in those lanes (at
    /// most 16 rows of 65025 a lane, 16 lanes: under 2³¹).
    @inline(__always)
    static func coarseTensor(_ p: UnsafePointer<UInt8>, stride: Int, rows: Int, rowSkip: Int) -> (Int, Int, Int) {
        precondition(rows <= 16, "sums within 32 bits")
        let low = SIMD16<Int32>(repeating: 0xFF)
        var sxx = SIMD16<Int32>(), syy = SIMD16<Int32>(), sxy = SIMD16<Int32>()
        var row = UnsafeRawPointer(p)
        let vertical = 2 &* stride, next = rowSkip &* stride
        for _ in 0..<rows {
            let left = row.loadUnaligned(fromByteOffset: -2, as: SIMD16<Int32>.self) & low
            let right = row.loadUnaligned(fromByteOffset: 2, as: SIMD16<Int32>.self) & low
            let up = row.loadUnaligned(fromByteOffset: -vertical, as: SIMD16<Int32>.self) & low
            let down = row.loadUnaligned(fromByteOffset: vertical, as: SIMD16<Int32>.self) & low
            let gx = right &- left, gy = down &- up
            sxx &+= gx &* gx; syy &+= gy &* gy; sxy &+= gx &* gy
            row += next
        }
        return (Int(sxx.wrappedSum()), Int(syy.wrappedSum()), Int(sxy.wrappedSum()))
    }

    /// Groups the 8-connected 2D cells of ``mark`` (cell (0, 0) at pixel
    /// `origin`) into regions inside `b`.
    private mutating func group(origin: (Int, Int), bounds b: PixelRect, minCells: Int, margin: Int) {
        guard markedCells >= minCells else { return }
        let (x0, y0) = origin
        let n = cols * rows
        let mp = mark.pointer
        // Group 8-connected 2D cells; labels from 2 on.
        let sp = stack.pointer
        var label: Int32 = 2
        for seed in 0..<n where mp[seed] == 1 {
            mp[seed] = label
            var top = 0
            sp[top] = Int32(seed); top += 1
            var minX = cols, minY = rows, maxX = -1, maxY = -1, count = 0
            while top > 0 {
                top -= 1
                let i = Int(sp[top])
                let cx = i % cols, cy = i / cols
                minX = min(minX, cx); maxX = max(maxX, cx); minY = min(minY, cy); maxY = max(maxY, cy)
                count += 1
                for dy in -1...1 {
                    let ny = cy + dy
                    if ny < 0 || ny >= rows { continue }
                    for dx in -1...1 {
                        let nx = cx + dx
                        if nx < 0 || nx >= cols { continue }
                        let j = ny * cols + nx
                        if mp[j] == 1 { mp[j] = label; sp[top] = Int32(j); top += 1 }
                    }
                }
            }
            label += 1
            guard count >= minCells else { continue }
            let r = PixelRect(
                x0: max(b.x0, x0 + (minX - margin) * cellSize), y0: max(b.y0, y0 + (minY - margin) * cellSize),
                x1: min(b.x1, x0 + (maxX + 1 + margin) * cellSize), y1: min(b.y1, y0 + (maxY + 1 + margin) * cellSize))
            add(r)
        }
    }

    /// The regions of every module size: cells of 16 pixels (8 in frames
    /// under 400 pixels), from the linear stage's `cells` when they fit,
    /// then for frames of 128 pixels or more a coarse pass of 64-pixel cells
    /// for large modules. What the matrix readers search, found once per frame.
    mutating func findAll(_ img: LumaView, bounds: PixelRect?, cells: CellTensors? = nil) {
        let cell = min(img.width, img.height) < 400 ? 8 : 16
        find(img, bounds: bounds, cellSize: cell, margin: cell == 8 ? 4 : 2, cells: cells)
        // Large modules leave small cells with one edge or none: a coarse pass.
        if min(img.width, img.height) >= 128 {
            find(img, bounds: bounds, cellSize: 64, margin: 1, keep: true)
        }
    }

    /// The regions of `other`, a search of a frame, as they lie in the
    /// half-size copy of its part `rect` (``LumaView/halved(_:into:)``),
    /// `width` by `height` pixels: the areas of 2D texture of a
    /// half-size copy without a pass over its pixels. Every module size
    /// the frame's cells see is there (the fine cells' and the coarse
    /// pass's), and the copy holds nothing that the frame does not.
    /// Only ``regions`` and ``regionCount`` are set: no cells are measured.
    mutating func halve(_ other: MatrixRegionDetector, rect: PixelRect, width: Int, height: Int) {
        regionCount = 0
        // The margin the copy's own search would leave: two of its cells,
        // twice the frame's, for quiet zones and finder patterns whose
        // cells are flat; regions that come as near as that are one (the
        // parts of a symbol of large modules, whose insides are flat).
        let extra = 16
        for k in 0..<other.regionCount {
            let r = other.regions[k]
            let h = PixelRect(
                x0: max(0, ((r.x0 - rect.x0) >> 1) - extra), y0: max(0, ((r.y0 - rect.y0) >> 1) - extra),
                x1: min(width, ((r.x1 - rect.x0 + 1) >> 1) + extra),
                y1: min(height, ((r.y1 - rect.y0 + 1) >> 1) + extra))
            if h.width > 0 && h.height > 0 { add(h, gap: extra) }
        }
    }

    /// Takes `box` (the inside of a code already read in this frame, where
    /// no other code can lie) out of every region: a region that overlaps
    /// it gives way, in its place in the list (the searches take the
    /// regions in order), to its parts above, below, left and right of the
    /// box, each as wide or tall as the region (those under 12 pixels
    /// either way left out). The parts overlap in the region's corners: a
    /// code beside the box, which lies wholly on one side of it, lies
    /// wholly in one part, however far it reaches along that side.
    ///
    /// The parts overlap, so a frame full of codes read would multiply the
    /// regions: past ``maxCarvedRegions`` a region stays whole (searched
    /// again inside the codes, which costs time but loses nothing).
    mutating func carve(_ box: PixelRect) {
        guard box.width > 0, box.height > 0 else { return }
        var k = 0
        while k < regionCount {
            let r = regions[k]
            guard r.x0 < box.x1, box.x0 < r.x1, r.y0 < box.y1, box.y0 < r.y1,
                regionCount + 3 <= MatrixRegionDetector.maxCarvedRegions
            else { k += 1; continue }
            remove(at: k)
            /// Puts a part in region k's place, after the parts before it.
            func put(_ part: PixelRect) {
                guard part.width >= 12, part.height >= 12 else { return }
                insert(part, at: k)
                k += 1
            }
            put(PixelRect(x0: r.x0, y0: r.y0, x1: r.x1, y1: box.y0))
            put(PixelRect(x0: r.x0, y0: box.y1, x1: r.x1, y1: r.y1))
            put(PixelRect(x0: r.x0, y0: r.y0, x1: box.x0, y1: r.y1))
            put(PixelRect(x0: box.x1, y0: r.y0, x1: r.x1, y1: r.y1))
        }
    }

    /// The most regions carving leaves (a frame's areas are a few dozen).
    static let maxCarvedRegions = 256

    /// Removes region `i`, the regions after it moving up.
    private mutating func remove(at i: Int) {
        let q = regions.pointer
        for j in i..<(regionCount - 1) { q[j] = q[j + 1] }
        regionCount -= 1
    }

    /// Inserts `region` before region `i`, the regions from it moving down.
    private mutating func insert(_ region: PixelRect, at i: Int) {
        regions.reserveKeeping(regionCount + 1)
        let q = regions.pointer
        for j in Swift.stride(from: regionCount, to: i, by: -1) { q[j] = q[j - 1] }
        q[i] = region
        regionCount += 1
    }

    /// Adds a region, merged with any it overlaps or comes within `gap`
    /// pixels of (repeatedly, since a merged region can reach others).
    mutating func add(_ region: PixelRect, gap: Int = 0) {
        var r = region
        var i = 0
        while i < regionCount {
            let o = regions[i]
            if o.x0 < r.x1 &+ gap && r.x0 < o.x1 &+ gap && o.y0 < r.y1 &+ gap && r.y0 < o.y1 &+ gap {
                r = PixelRect(x0: min(o.x0, r.x0), y0: min(o.y0, r.y0), x1: max(o.x1, r.x1), y1: max(o.y1, r.y1))
                regions[i] = regions[regionCount - 1]
                regionCount -= 1
                i = 0
            } else {
                i += 1
            }
        }
        regions.reserveKeeping(regionCount + 1)
        regions[regionCount] = r
        regionCount += 1
    }
}
