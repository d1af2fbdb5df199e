/// Block-adaptive thresholds for deciding dark from light under uneven
/// light, computed only for a rectangle of the frame.
///
/// The rectangle is cut into square blocks (aligned to the frame's block
/// grid, so two rectangles agree where they overlap). Each block's darkest
/// and lightest pixel are measured; the threshold of a block is the middle
/// of the darkest and lightest values in the 5x5 blocks around it. Where that
/// neighbourhood is flat (less than `minContrast` between darkest and
/// lightest: blank background, or the inside of a large module), the block
/// takes the threshold of the nearest block that has contrast, so that a
/// large dark module keeps the threshold of the edges around it.
///
/// All buffers are owned by the value and reused: once sized for the largest
/// rectangle seen, ``prepare(_:rect:blockSize:minContrast:)`` allocates
/// nothing.
struct BlockThreshold {
    /// Block side in pixels.
    private(set) var blockSize = 8
    /// log2 of `blockSize`.
    private var shift = 3
    /// First block column and row of the prepared grid (in frame blocks).
    private(set) var bx0 = 0
    private(set) var by0 = 0
    /// Blocks per row and rows of blocks prepared.
    private(set) var cols = 0
    private(set) var rows = 0
    /// The pixel rectangle covered by the prepared blocks.
    private(set) var rect = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)
    private var lo = ScratchBuffer<UInt8>(capacity: 1024)
    private var hi = ScratchBuffer<UInt8>(capacity: 1024)
    private var rowLo = ScratchBuffer<UInt8>(capacity: 1024)
    private var rowHi = ScratchBuffer<UInt8>(capacity: 1024)
    /// The threshold of each block; 0 before `prepare`.
    private(set) var thresholds = ScratchBuffer<UInt8>(capacity: 1024)
    /// The contrast the blocks were prepared with (-1 before `prepare`).
    private(set) var minContrast = -1
    /// Whether the block's neighbourhood had contrast.
    private var known = ScratchBuffer<Bool>(capacity: 1024)

    func free() { lo.free(); hi.free(); rowLo.free(); rowHi.free(); thresholds.free(); known.free() }

    /// Measures the blocks covering `rect` (clipped to the frame), on every
    /// other row.
    ///
    /// - Parameters:
    ///   - blockSize: block side, a power of two (8 or 16 suit 1 to 20 pixel modules).
    ///   - minContrast: the grey-level difference below which a neighbourhood counts as flat.
    /// - Complexity: one read of half the pixels inside `rect`.
    mutating func prepare(_ img: LumaView, rect r: PixelRect, blockSize: Int, minContrast: Int) {
        precondition(blockSize >= 2 && blockSize & (blockSize - 1) == 0, "block size must be a power of two")
        self.blockSize = blockSize
        self.minContrast = minContrast
        shift = blockSize.trailingZeroBitCount
        let x0 = max(0, r.x0), y0 = max(0, r.y0), x1 = min(img.width, r.x1), y1 = min(img.height, r.y1)
        guard x0 < x1, y0 < y1 else { cols = 0; rows = 0; rect = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0); return }
        bx0 = x0 >> shift; by0 = y0 >> shift
        let bx1 = (x1 + blockSize - 1) >> shift, by1 = (y1 + blockSize - 1) >> shift
        cols = bx1 - bx0; rows = by1 - by0
        rect = PixelRect(x0: x0, y0: y0, x1: x1, y1: y1)
        let n = cols * rows
        lo.reserve(n); hi.reserve(n); thresholds.reserve(n); known.reserve(n)
        rowLo.reserve(n); rowHi.reserve(n)
        measureBlocks(img, x0: x0, y0: y0, x1: x1, y1: y1)
        thresholdBlocks()
        fillFlatBlocks()
    }

    /// The darkest and lightest pixel of each block inside (`x0`, `y0`) ..<
    /// (`x1`, `y1`), on every other row, into `lo` and `hi`.
    @inline(__always)
    private func measureBlocks(_ img: LumaView, x0: Int, y0: Int, x1: Int, y1: Int) {
        let base = img.base, stride = img.stride
        let lop = lo.pointer, hip = hi.pointer
        // Block extremes.
        for by in 0..<rows {
            let ys = max(y0, (by0 + by) << shift), ye = min(y1, (by0 + by + 1) << shift)
            var bx = 0
            while bx < cols {
                let xs = max(x0, (bx0 + bx) << shift), xe = min(x1, (bx0 + bx + 1) << shift)
                if blockSize == 8 && xe - xs == 8 && bx + 1 < cols && xs + 16 <= x1 {
                    // Two whole 8-pixel blocks side by side: a row of both at a time.
                    let (mnA, mxA, mnB, mxB) = BlockThreshold.extremesOfTwo(base + xs, stride: stride, rows: ys..<ye)
                    lop[by * cols + bx] = mnA; hip[by * cols + bx] = mxA
                    lop[by * cols + bx + 1] = mnB; hip[by * cols + bx + 1] = mxB
                    bx += 2
                    continue
                }
                var mn: UInt8 = 255, mx: UInt8 = 0
                var y = ys
                if xe - xs == 16 || xe - xs == 8 {
                    // Whole blocks: a row of the block at a time.
                    (mn, mx) = BlockThreshold.extremes(base + xs, wide: xe - xs == 16, stride: stride, rows: ys..<ye)
                } else {
                    while y < ye {
                        let row = base + y &* stride
                        var x = xs
                        while x < xe {
                            let v = row[x]
                            mn = min(mn, v); mx = max(mx, v)
                            x &+= 1
                        }
                        y &+= 2
                    }
                }
                lop[by * cols + bx] = mn
                hip[by * cols + bx] = mx
                bx += 1
            }
        }
    }

    /// Each block's threshold from the extremes of its 5x5 neighbourhood
    /// of blocks: their middle where they differ by `minContrast` or more
    /// (`known`), else just under the darkest.
    @inline(__always)
    private func thresholdBlocks() {
        let lop = lo.pointer, hip = hi.pointer
        // 5x5 extremes, separable: along rows, then along columns. Indices
        // past the grid's edges are clamped to it (a block counted twice
        // changes neither extreme), so the loops have no inner loop.
        // Inside the grid 16 blocks at a time, with vector loads of the
        // five neighbours (the same extremes).
        let rl = rowLo.pointer, rh = rowHi.pointer
        let lastCol = cols - 1, lastRow = rows - 1
        for by in 0..<rows {
            let r = by &* cols
            let lo = lop + r, hi = hip + r
            var bx = 0
            while bx < cols {
                if bx >= 2 && bx &+ 18 <= cols {
                    let (mn, mx) = BlockThreshold.extremesOfFive(lo + (bx &- 2), hi + (bx &- 2), step: 1)
                    UnsafeMutableRawPointer(rl + (r &+ bx)).storeBytes(of: mn, as: SIMD16<UInt8>.self)
                    UnsafeMutableRawPointer(rh + (r &+ bx)).storeBytes(of: mx, as: SIMD16<UInt8>.self)
                    bx &+= 16
                    continue
                }
                let a = max(bx &- 2, 0), b = max(bx &- 1, 0), d = min(bx &+ 1, lastCol), e = min(bx &+ 2, lastCol)
                rl[r &+ bx] = min(min(min(lo[a], lo[b]), min(lo[bx], lo[d])), lo[e])
                rh[r &+ bx] = max(max(max(hi[a], hi[b]), max(hi[bx], hi[d])), hi[e])
                bx &+= 1
            }
        }
        let t = thresholds.pointer, kn = known.pointer
        let rawKnown = UnsafeMutableRawPointer(kn)
        let contrast = SIMD16<UInt8>(repeating: UInt8(clamping: minContrast))
        let one = SIMD16<UInt8>(repeating: 1), zero = SIMD16<UInt8>()
        for by in 0..<rows {
            let a = max(by &- 2, 0) &* cols, b = max(by &- 1, 0) &* cols, c = by &* cols
            let d = min(by &+ 1, lastRow) &* cols, e = min(by &+ 2, lastRow) &* cols
            var bx = 0
            if minContrast <= 255 && by >= 2 && by &+ 2 <= lastRow {
                // Rows two apart: the five rows of the neighbourhood.
                while bx &+ 16 <= cols {
                    let (mn, mx) = BlockThreshold.extremesOfFive(rl + (a &+ bx), rh + (a &+ bx), step: cols)
                    // Contrast: the rounded-up middle, (mn + mx + 1) / 2 without overflow.
                    let has = mx &- mn .>= contrast
                    let middle = (mn | mx) &- ((mn ^ mx) &>> 1)
                    // Flat: everything counts as light until a neighbour says otherwise.
                    let flat = mn &- one.replacing(with: 0, where: mn .== zero)
                    UnsafeMutableRawPointer(t + (c &+ bx)).storeBytes(
                        of: flat.replacing(with: middle, where: has),
                        as: SIMD16<UInt8>.self)
                    rawKnown.storeBytes(
                        of: zero.replacing(with: one, where: has), toByteOffset: c &+ bx,
                        as: SIMD16<UInt8>.self)
                    bx &+= 16
                }
            }
            while bx < cols {
                let mn = min(min(min(rl[a &+ bx], rl[b &+ bx]), min(rl[c &+ bx], rl[d &+ bx])), rl[e &+ bx])
                let mx = max(max(max(rh[a &+ bx], rh[b &+ bx]), max(rh[c &+ bx], rh[d &+ bx])), rh[e &+ bx])
                let i = c &+ bx
                if Int(mx) - Int(mn) >= minContrast {
                    t[i] = UInt8((Int(mn) + Int(mx) + 1) >> 1)
                    kn[i] = true
                } else {
                    // Flat: everything counts as light until a neighbour says otherwise.
                    t[i] = mn > 0 ? mn - 1 : 0
                    kn[i] = false
                }
                bx &+= 1
            }
        }
    }

    /// Flat blocks take the threshold of the nearest block with contrast.
    @inline(__always)
    private func fillFlatBlocks() {
        let t = thresholds.pointer, kn = known.pointer
        // Flat blocks take the threshold of the nearest block with contrast:
        // forward along rows and down, then backward and up.
        for by in 0..<rows {
            for bx in 0..<cols where !kn[by * cols + bx] {
                let i = by * cols + bx
                if bx > 0 && kn[i - 1] {
                    t[i] = t[i - 1]; kn[i] = true
                } else if by > 0 && kn[i - cols] {
                    t[i] = t[i - cols]; kn[i] = true
                }
            }
        }
        var by = rows - 1
        while by >= 0 {
            var bx = cols - 1
            while bx >= 0 {
                let i = by * cols + bx
                if !kn[i] {
                    if bx + 1 < cols && kn[i + 1] {
                        t[i] = t[i + 1]; kn[i] = true
                    } else if by + 1 < rows && kn[i + cols] {
                        t[i] = t[i + cols]; kn[i] = true
                    }
                }
                bx -= 1
            }
            by -= 1
        }
    }

    /// The colour changes of `row[x0 ..< x1]` a pixel at a time, as in
    /// ``rowRuns(_:y:x0:x1:runs:firstDark:)``. No data-dependent branch:
    /// every pixel writes its position as the start of the next run, and the
    /// count advances only where the colour changes.
    @inline(__always)
    private func pixelRuns(
        _ row: UnsafePointer<UInt8>, _ x0: Int, _ x1: Int, _ trow: UnsafePointer<UInt8>,
        dark: inout Bool, runs: UnsafeMutablePointer<Int32>, count: inout Int
    ) {
        var x = x0
        while x < x1 {
            var bx = (x >> shift) &- bx0
            if bx < 0 { bx = 0 } else if bx >= cols { bx = cols &- 1 }
            let t = trow[bx]
            let end = min(x1, ((x >> shift) &+ 1) << shift)
            while x < end {
                let d = row[x] < t
                runs[count &+ 1] = Int32(truncatingIfNeeded: x)
                count &+= d != dark ? 1 : 0
                dark = d
                x &+= 1
            }
        }
    }

    /// Writes the runs of column `x` between `y0` and `y1` (inside the
    /// prepared rectangle) as ``rowRuns(_:y:x0:x1:runs:firstDark:)`` does
    /// for a row, a pixel at a time.
    ///
    /// - Precondition: `runs` holds at least `y1 - y0 + 2` entries.
    func columnRuns(
        _ img: LumaView, x: Int, y0: Int, y1: Int, runs: UnsafeMutablePointer<Int32>,
        firstDark: inout Bool
    ) -> Int {
        guard y0 < y1, cols > 0, rows > 0 else { return 0 }
        var bx = (x >> shift) &- bx0
        if bx < 0 { bx = 0 } else if bx >= cols { bx = cols &- 1 }
        let column = thresholds.pointer + bx
        let stride = img.stride
        var p = img.base + (y0 &* stride &+ x)
        var dark = p.pointee < threshold(x: x, y: y0)
        firstDark = dark
        runs[0] = Int32(y0)
        var count = 0
        var y = y0
        while y < y1 {
            var by = (y >> shift) &- by0
            if by < 0 { by = 0 } else if by >= rows { by = rows &- 1 }
            let t = column[by &* cols]
            let end = min(y1, ((y >> shift) &+ 1) << shift)
            while y < end {
                let d = p.pointee < t
                runs[count &+ 1] = Int32(truncatingIfNeeded: y)
                count &+= d != dark ? 1 : 0
                dark = d
                y &+= 1
                p += stride
            }
        }
        runs[count &+ 1] = Int32(truncatingIfNeeded: y1)
        for i in 0...count { runs[i] = runs[i &+ 1] &- runs[i] }
        return count &+ 1
    }

    /// Records the colour changes among 8 pixels from `x` whose comparison
    /// mask is `word` (byte `k` all ones where pixel `x + k` is dark), after
    /// a run of colour `dark`: each change starts run `count + 1` there.
    /// Costs one step per change, not per pixel.
    @inline(__always)
    private static func changes(
        _ word: UInt64, at x: Int, dark: inout Bool, runs: UnsafeMutablePointer<Int32>,
        count: inout Int
    ) {
        // Byte k of `previous` is the mask of pixel k - 1.
        let previous = word << 8 | (dark ? 0xFF : 0)
        var changed = (word ^ previous) & 0x8080_8080_8080_8080
        while changed != 0 {
            count &+= 1
            runs[count] = Int32(truncatingIfNeeded: x &+ changed.trailingZeroBitCount >> 3)
            changed &= changed &- 1
        }
        dark = word >> 63 != 0
    }

    /// The darkest and lightest of the pixels `base[y * stride ..< y *
    /// stride + (wide ? 16 : 8)]` on every other row `y` of `rows`.
    ///
    /// (Concrete vector types and `replace(with:where:)`: the loop then
    /// compiles to one vector min and max a row. A generic version, or
    /// `pointwiseMin` and `pointwiseMax`, compile to calls.)
    @inline(__always)
    private static func extremes(
        _ base: UnsafePointer<UInt8>, wide: Bool, stride: Int,
        rows: Range<Int>
    ) -> (UInt8, UInt8) {
        var vmn = SIMD16<UInt8>(repeating: 255), vmx = SIMD16<UInt8>(repeating: 0)
        var y = rows.lowerBound
        while y < rows.upperBound {
            let p = UnsafeRawPointer(base + y &* stride)
            let v: SIMD16<UInt8>
            if wide {
                v = p.loadUnaligned(as: SIMD16<UInt8>.self)
            } else {
                // Eight pixels, twice: the extremes are the same.
                let half = p.loadUnaligned(as: SIMD8<UInt8>.self)
                v = SIMD16(lowHalf: half, highHalf: half)
            }
            vmn.replace(with: v, where: v .< vmn); vmx.replace(with: v, where: v .> vmx)
            y &+= 2
        }
        return (vmn.min(), vmx.max())
    }

    /// The darkest and lightest of the pixels `base[y * stride ..< y *
    /// stride + 8]` and of `base[y * stride + 8 ..< y * stride + 16]` on
    /// every other row `y` of `rows`: two 8-pixel blocks side by side, as
    /// two calls of ``extremes(_:wide:stride:rows:)`` would measure them.
    @inline(__always)
    private static func extremesOfTwo(
        _ base: UnsafePointer<UInt8>, stride: Int,
        rows: Range<Int>
    ) -> (UInt8, UInt8, UInt8, UInt8) {
        var vmn = SIMD16<UInt8>(repeating: 255), vmx = SIMD16<UInt8>(repeating: 0)
        var y = rows.lowerBound
        while y < rows.upperBound {
            let v = UnsafeRawPointer(base + y &* stride).loadUnaligned(as: SIMD16<UInt8>.self)
            vmn.replace(with: v, where: v .< vmn); vmx.replace(with: v, where: v .> vmx)
            y &+= 2
        }
        return (vmn.lowHalf.min(), vmx.lowHalf.max(), vmn.highHalf.min(), vmx.highHalf.max())
    }

    /// The lanewise darkest of the five 16-byte vectors at `lows`, `lows +
    /// step`, ... `lows + 4 * step` and the lightest of those at `highs`
    /// and on: the extremes of five neighbouring blocks, 16 blocks at once.
    @inline(__always)
    private static func extremesOfFive(
        _ lows: UnsafePointer<UInt8>, _ highs: UnsafePointer<UInt8>,
        step: Int
    ) -> (SIMD16<UInt8>, SIMD16<UInt8>) {
        let l = UnsafeRawPointer(lows), h = UnsafeRawPointer(highs)
        var mn = l.loadUnaligned(as: SIMD16<UInt8>.self), mx = h.loadUnaligned(as: SIMD16<UInt8>.self)
        var k = step
        for _ in 0..<4 {
            let a = l.loadUnaligned(fromByteOffset: k, as: SIMD16<UInt8>.self)
            let b = h.loadUnaligned(fromByteOffset: k, as: SIMD16<UInt8>.self)
            mn.replace(with: a, where: a .< mn); mx.replace(with: b, where: b .> mx)
            k &+= step
        }
        return (mn, mx)
    }

    /// Whether ``prepare(_:rect:blockSize:minContrast:)`` with these
    /// arguments would prepare the blocks already here.
    func matches(rect r: PixelRect, blockSize: Int, minContrast: Int) -> Bool {
        minContrast == self.minContrast && blockSize == self.blockSize && rect.x0 == r.x0 && rect.y0 == r.y0
            && rect.x1 == r.x1 && rect.y1 == r.y1
    }

    /// As ``prepare(_:rect:blockSize:minContrast:)``, but takes the blocks
    /// of `prepared` (measured in the same frame) when they were prepared
    /// with these arguments (``AreaThresholds``).
    mutating func prepare(
        _ img: LumaView, rect r: PixelRect, blockSize: Int, minContrast: Int,
        reusing prepared: BlockThreshold?
    ) {
        if let prepared, prepared.matches(rect: r, blockSize: blockSize, minContrast: minContrast) {
            copy(from: prepared)
        } else {
            prepare(img, rect: r, blockSize: blockSize, minContrast: minContrast)
        }
    }

    /// Takes the blocks `other` prepared: the same as preparing them again
    /// (with the same frame), at the cost of a copy of one byte a block.
    mutating func copy(from other: BlockThreshold) {
        blockSize = other.blockSize; shift = other.shift; minContrast = other.minContrast
        bx0 = other.bx0; by0 = other.by0; cols = other.cols; rows = other.rows; rect = other.rect
        let n = cols * rows
        thresholds.reserve(n)
        if n > 0 { thresholds.pointer.update(from: other.thresholds.pointer, count: n) }
    }

    /// The threshold at pixel (`x`, `y`); outside the prepared blocks, that
    /// of the nearest block.
    @inline(__always)
    func threshold(x: Int, y: Int) -> UInt8 {
        var bx = (x >> shift) &- bx0, by = (y >> shift) &- by0
        if bx < 0 { bx = 0 } else if bx >= cols { bx = cols &- 1 }
        if by < 0 { by = 0 } else if by >= rows { by = rows &- 1 }
        return thresholds.pointer[by &* cols &+ bx]
    }

    /// The threshold at a sub-pixel position.
    @inline(__always)
    func threshold(at p: Point) -> UInt8 {
        threshold(x: Int(p.x.rounded(.down)), y: Int(p.y.rounded(.down)))
    }

    /// Pixels along a path, each told dark or light as ``isDark(_:x:y:)``
    /// tells it, with the threshold looked up again only when the path
    /// enters another block (a walk crosses a block every 8 or 16 pixels).
    struct Walker {
        private let thresholds: BlockThreshold
        private let base: UnsafePointer<UInt8>
        private let stride: Int
        private var blockX = Int.min, blockY = Int.min
        private var threshold: UInt8 = 0

        init(_ thresholds: BlockThreshold, _ img: LumaView) {
            self.thresholds = thresholds
            base = img.base
            stride = img.stride
        }

        /// Whether the pixel (`x`, `y`), inside the frame, is darker than its threshold.
        @inline(__always)
        mutating func isDark(x: Int, y: Int) -> Bool {
            let bx = x >> thresholds.shift, by = y >> thresholds.shift
            if bx != blockX || by != blockY {
                blockX = bx; blockY = by
                threshold = thresholds.threshold(x: x, y: y)
            }
            return base[y &* stride &+ x] < threshold
        }
    }

    /// Whether the pixel (`x`, `y`), inside the frame, is darker than its threshold.
    @inline(__always)
    func isDark(_ img: LumaView, x: Int, y: Int) -> Bool {
        img.base[y &* img.stride &+ x] < threshold(x: x, y: y)
    }

    /// Writes the runs of row `y` between `x0` and `x1` (inside the
    /// prepared rectangle) as alternating run lengths into `runs`, and
    /// returns how many runs there are; `firstDark` tells the colour of
    /// the first run.
    ///
    /// Whole blocks are compared with their threshold 8 or 16 pixels at a
    /// time and cost a step per colour change; the pixels before the first
    /// and after the last whole block are taken one at a time.
    ///
    /// - Precondition: `runs` holds at least `x1 - x0 + 2` entries.
    func rowRuns(
        _ img: LumaView, y: Int, x0: Int, x1: Int, runs: UnsafeMutablePointer<Int32>,
        firstDark: inout Bool
    ) -> Int {
        guard x0 < x1, cols > 0 else { return 0 }
        let row = img.base + y &* img.stride
        var by = (y >> shift) &- by0
        if by < 0 { by = 0 } else if by >= rows { by = rows &- 1 }
        let trow = thresholds.pointer + by &* cols
        var dark = row[x0] < threshold(x: x0, y: y)
        firstDark = dark
        // Run starts first, lengths after.
        runs[0] = Int32(x0)
        var count = 0
        // Whole blocks, inside the prepared grid: compared 8 or 16 pixels
        // at a time, then only their colour changes visited.
        let wholeFrom = min(x1, ((x0 &+ blockSize &- 1) >> shift) << shift), wholeTo = (x1 >> shift) << shift
        let firstBlock = (wholeFrom >> shift) &- bx0, endBlock = (wholeTo >> shift) &- bx0
        if ByteOrder.isLittleEndian && (blockSize == 8 || blockSize == 16)
            && wholeFrom < wholeTo && firstBlock >= 0 && endBlock <= cols
        {
            pixelRuns(row, x0, wholeFrom, trow, dark: &dark, runs: runs, count: &count)
            var x = wholeFrom
            var bx = firstBlock
            if blockSize == 8 {
                // Two blocks at a time: 16 pixels against their two thresholds.
                while bx &+ 2 <= endBlock {
                    let t = SIMD16<UInt8>(
                        lowHalf: SIMD8(repeating: trow[bx]), highHalf: SIMD8(repeating: trow[bx &+ 1]))
                    let m = unsafeBitCast(
                        UnsafeRawPointer(row + x).loadUnaligned(as: SIMD16<UInt8>.self) .< t,
                        to: SIMD2<UInt64>.self)
                    BlockThreshold.changes(m[0], at: x, dark: &dark, runs: runs, count: &count)
                    BlockThreshold.changes(m[1], at: x &+ 8, dark: &dark, runs: runs, count: &count)
                    x &+= 16
                    bx &+= 2
                }
            }
            while bx < endBlock {
                let t = trow[bx]
                let p = UnsafeRawPointer(row + x)
                // (Unrolled by block size: a loop over 8-pixel words costs
                // half as much again.)
                if blockSize == 16 {
                    let m = unsafeBitCast(
                        p.loadUnaligned(as: SIMD16<UInt8>.self) .< SIMD16<UInt8>(repeating: t),
                        to: SIMD2<UInt64>.self)
                    BlockThreshold.changes(m[0], at: x, dark: &dark, runs: runs, count: &count)
                    BlockThreshold.changes(m[1], at: x &+ 8, dark: &dark, runs: runs, count: &count)
                } else {
                    let m = unsafeBitCast(
                        p.loadUnaligned(as: SIMD8<UInt8>.self) .< SIMD8<UInt8>(repeating: t),
                        to: UInt64.self)
                    BlockThreshold.changes(m, at: x, dark: &dark, runs: runs, count: &count)
                }
                x &+= blockSize
                bx &+= 1
            }
            pixelRuns(row, wholeTo, x1, trow, dark: &dark, runs: runs, count: &count)
        } else {
            pixelRuns(row, x0, x1, trow, dark: &dark, runs: runs, count: &count)
        }
        runs[count &+ 1] = Int32(truncatingIfNeeded: x1)
        for i in 0...count { runs[i] = runs[i &+ 1] &- runs[i] }
        return count &+ 1
    }
}
