#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds code-like regions in a frame before any decoding.
///
/// One pass over the luma plane measures, in square cells, the structure
/// tensor of the image gradient (sums of gx², gy² and gx·gy, sampled on every
/// other pixel of every other row). Cells whose gradients are strong and
/// point one way (high coherence) hold bars: their dominant gradient
/// direction is the reading axis. Neighbouring bar cells of similar
/// direction are grouped into candidates. The pass costs a quarter of a
/// read of the frame; frames without codes end here.
struct RegionDetector {
    private(set) var cellSize = 16
    private(set) var cols = 0
    private(set) var rows = 0
    private var sxx = ScratchBuffer<Float>()
    private var syy = ScratchBuffer<Float>()
    private var sxy = ScratchBuffer<Float>()
    private var label = ScratchBuffer<Int32>()
    /// Each bar cell's main direction as the unit vector of twice its
    /// angle (cos 2θ, sin 2θ): directions a half turn apart are the same.
    private var direction2 = ScratchBuffer<SIMD2<Float>>()
    private var stack = ScratchBuffer<Int32>()
    /// The cells of the region being grouped, in the order the flood reached them.
    private var members = ScratchBuffer<Int32>()
    var candidates = ScratchBuffer<LinearCandidate>(capacity: 64)
    var candidateCount = 0
    /// The frame's time limit and stop, checked while candidates are merged
    /// (a frame of look-alikes has thousands).
    var stop = ScanStop()

    /// The cells measured last, for the matrix codes' own region search
    /// (``MatrixRegionDetector``), which then needs no pass of its own over
    /// the frame; `nil` before any measure.
    var tensors: CellTensors? {
        guard cols > 0, rows > 0 else { return nil }
        return CellTensors(
            cellSize: cellSize, cols: cols, rows: rows, sxx: UnsafePointer(sxx.pointer),
            syy: UnsafePointer(syy.pointer), sxy: UnsafePointer(sxy.pointer))
    }

    /// Forgets the last frame's cells and candidates.
    mutating func reset() { cols = 0; rows = 0; candidateCount = 0 }

    func free() {
        direction2.free(); sxx.free(); syy.free(); sxy.free(); label.free(); stack.free(); members.free();
        candidates.free()
    }

    /// Measures the gradient structure of every cell inside the pixel
    /// rectangle `x0..<x1`, `y0..<y1` (cells outside keep zero energy).
    ///
    /// With `flatBelow` > 0, a coarse look first (every fourth pixel of
    /// every fourth row) finds the cells with any gradient energy worth
    /// the name; only those and their eight neighbours (which hold the
    /// edges of whatever the active cells belong to) are measured fully.
    /// Flat cells (background, sky, blank labels) keep zero energy.
    mutating func measure(_ img: LumaView, cellSize: Int, x0: Int, y0: Int, x1: Int, y1: Int, flatBelow: Float = 0) {
        startMeasure(img, cellSize: cellSize)
        measureRows(img, x0: x0, y0: y0, x1: x1, y1: y1, cellRows: 0..<rows, flatBelow: flatBelow)
    }

    /// Readies the cells of `img` for ``measureRows(_:x0:y0:x1:y1:cellRows:flatBelow:)``:
    /// their grid and memory.
    mutating func startMeasure(_ img: LumaView, cellSize: Int) {
        self.cellSize = cellSize
        cols = max(1, img.width / cellSize)
        rows = max(1, img.height / cellSize)
        let n = cols * rows
        sxx.reserve(n); syy.reserve(n); sxy.reserve(n); label.reserve(n); stack.reserve(n); direction2.reserve(n)
        members.reserve(n)
    }

    /// Measures the cells of the rows `cellRows` (after
    /// ``startMeasure(_:cellSize:)``), as ``measure(_:cellSize:x0:y0:x1:y1:flatBelow:)``
    /// does all of them. It writes only those rows' cells (the flatness of
    /// the rows on either side is measured again, not read), so that two
    /// threads may measure bands of rows at the same time.
    func measureRows(_ img: LumaView, x0: Int, y0: Int, x1: Int, y1: Int, cellRows: Range<Int>, flatBelow: Float = 0) {
        let own = cellRows.clamped(to: 0..<rows)
        for cy in own {
            for i in (cy * cols)..<((cy + 1) * cols) {
                sxx[i] = 0; syy[i] = 0; sxy[i] = 0
                if flatBelow > 0 { label[i] = 0 }
            }
        }
        let base = img.base, stride = img.stride
        let cx0 = max(0, x0 / cellSize), cx1 = min(cols, (x1 + cellSize - 1) / cellSize)
        let cy0 = max(own.lowerBound, y0 / cellSize), cy1 = min(own.upperBound, (y1 + cellSize - 1) / cellSize)
        guard img.width >= 3, img.height >= 3, cx0 < cx1, cy0 < cy1 else { return }
        // label[i]: 1 = measure fully, 0 = flat.
        if flatBelow > 0 {
            markUnflat(img, y0: y0, y1: y1, cells: (cx0, cx1, cy0, cy1), flatBelow: flatBelow)
        }
        for cy in cy0..<cy1 {
            let ys = max(1, cy * cellSize), ye = min(img.height - 1, (cy + 1) * cellSize)
            for cx in cx0..<cx1 {
                let i = cy * cols + cx
                if flatBelow > 0 && label[i] == 0 { continue }
                let xs = max(1, cx * cellSize), xe = min(img.width - 1, (cx + 1) * cellSize)
                var axx = 0, ayy = 0, axy = 0
                var y = ys
                if ByteOrder.isLittleEndian && xe - xs == 16 && xs + 17 <= img.width {
                    // A whole 16-pixel cell row at a time (its even columns).
                    (axx, ayy, axy) = RegionDetector.tensor16(base + xs, stride: stride, rows: ys..<ye)
                    y = ye
                }
                while y < ye {
                    let row = base + y * stride
                    var x = xs
                    while x < xe {
                        let gx = Int(row[x + 1]) - Int(row[x - 1])
                        let gy = Int(row[x + stride]) - Int(row[x - stride])
                        axx &+= gx &* gx; ayy &+= gy &* gy; axy &+= gx &* gy
                        x &+= 2
                    }
                    y &+= 2
                }
                let samples = Float(max(1, ((ye - ys + 1) / 2) * ((xe - xs + 1) / 2)))
                sxx[i] = Float(axx) / samples; syy[i] = Float(ayy) / samples; sxy[i] = Float(axy) / samples
            }
        }
    }

    /// The coarse look of ``measureRows(_:x0:y0:x1:y1:cellRows:flatBelow:)``:
    /// marks in `label` (1) the cells of `cells` (columns `cx0 ..< cx1`,
    /// rows `cy0 ..< cy1`) that are not flat, and their neighbours, from
    /// every fourth pixel of every fourth row (and, where those see next
    /// to nothing, the pixels two on).
    @inline(__always)
    private func markUnflat(
        _ img: LumaView, y0: Int, y1: Int, cells: (Int, Int, Int, Int), flatBelow: Float
    ) {
        let (cx0, cx1, cy0, cy1) = cells
        let base = img.base, stride = img.stride
        // A cell that is not flat marks itself and its neighbours: the
        // rows just outside the band count for its edge rows.
        let all = min(rows, (y1 + cellSize - 1) / cellSize)
        for cy in max(max(0, y0 / cellSize), cy0 - 1)..<min(all, cy1 + 1) {
            let ys = max(1, cy * cellSize), ye = min(img.height - 1, (cy + 1) * cellSize)
            /// Marks cell `cx` and its neighbours to be measured.
            func mark(_ cx: Int) {
                for ny in max(cy0, cy - 1)...min(cy1 - 1, cy + 1) {
                    for nx in max(cx0, cx - 1)...min(cx1 - 1, cx + 1) { label[ny * cols + nx] = 1 }
                }
            }
            /// Whether the differences two pixels on from the coarse
            /// samples in the columns `xs ..< xe` (``BetweenSums``) make
            /// the cell worth measuring.
            func betweenActive(_ xs: Int, _ xe: Int) -> Bool {
                CoarseLook.betweenActive(
                    RegionDetector.between(img, rows: (ys + 1)..<ye, columns: xs..<xe),
                    flatBelow: flatBelow)
            }
            // The last coarse row (the second look reads three rows
            // below it where the frame goes on).
            let lastRow = ys + 1 + max(0, (ye - ys - 2) / 4) * 4
            var cx = cx0
            while cx < cx1 {
                let xs = max(1, cx * cellSize), xe = min(img.width - 1, (cx + 1) * cellSize)
                if ByteOrder.isLittleEndian && cellSize == 16 && xs == cx * 16 && cx + 1 < cx1
                    && xs + 35 <= img.width - 1
                {
                    // Two whole 16-pixel cells side by side: 8 samples a row at once (a
                    // cell alone, at the end of a row, one at a time).
                    let (a, darkest, lightest, coarse) = RegionDetector.activity32(
                        base + xs, stride: stride,
                        rows: (ys + 1)..<ye)
                    var first = CoarseLook(Int(a.lowHalf.wrappedSum()), count: coarse, flatBelow: flatBelow)
                    var second = CoarseLook(Int(a.highHalf.wrappedSum()), count: coarse, flatBelow: flatBelow)
                    if first == .active { mark(cx) }
                    if second == .active { mark(cx + 1) }
                    // A blind cell whose samples' pixels are all of one
                    // grey (a blank area, a black border) holds no bars.
                    if first == .blind && lightest.lowHalf.max() - darkest.lowHalf.min() < CoarseLook.minSpread {
                        first = .flat
                    }
                    if second == .blind && lightest.highHalf.max() - darkest.highHalf.min() < CoarseLook.minSpread {
                        second = .flat
                    }
                    if first == .blind || second == .blind {
                        // Two pixels on, where the samples see next to nothing.
                        let (b, n) = RegionDetector.betweenEnergy32(
                            base + xs, stride: stride, rows: (ys + 1)..<ye,
                            lastDown: lastRow + 3 < img.height)
                        let floor = CoarseLook.betweenFloor(flatBelow) * Float(n)
                        if first == .blind && Float(b.lowHalf.wrappedSum()) >= floor && betweenActive(xs, xe) {
                            mark(cx)
                        }
                        if second == .blind && Float(b.highHalf.wrappedSum()) >= floor
                            && betweenActive(xs + 16, min(img.width - 1, xs + 32))
                        {
                            mark(cx + 1)
                        }
                    }
                    cx += 2
                    continue
                }
                var activity = 0, coarse = 0
                var y = ys + 1
                while y < ye {
                    let row = base + y * stride
                    var x = xs + 1
                    while x < xe {
                        let gx = Int(row[x + 1]) - Int(row[x - 1])
                        let gy = Int(row[x + stride]) - Int(row[x - stride])
                        activity &+= gx &* gx &+ gy &* gy
                        coarse &+= 1
                        x &+= 4
                    }
                    y &+= 4
                }
                // (Without the second look: these are the cells alone at
                // a row's ends, whose neighbours take it.)
                if Float(activity) >= flatBelow * Float(max(coarse, 1)) { mark(cx) }
                cx += 1
            }
        }
    }

    /// The sums of gx² + gy² (central differences) at columns 1, 5, 9 and
    /// 13 of the 16-pixel rows from `base` and from `base + 16` (two cells
    /// side by side) on every fourth row of `rows`, lane by lane (lanes 0-3
    /// the first cell's), and the number of each one's samples: the coarse
    /// samples of the flatness test of
    /// ``measure(_:cellSize:x0:y0:x1:y1:flatBelow:)``, a row at a time.
    /// The rows above the first and below the last, and the columns on
    /// either side, must lie inside the frame.
    ///
    /// Each 32-bit lane loaded holds four pixels, the first in its low
    /// byte (little-endian): masking keeps that pixel, widened, without a
    /// lane-by-lane conversion.
    @inline(__always)
    private static func activity32(_ base: UnsafePointer<UInt8>, stride: Int, rows: Range<Int>)
        -> (activity: SIMD8<Int32>, darkest: SIMD8<Int32>, lightest: SIMD8<Int32>, count: Int)
    {
        let low = SIMD8<Int32>(repeating: 0xFF)
        var sum = SIMD8<Int32>()
        var darkest = SIMD8<Int32>(repeating: 255), lightest = SIMD8<Int32>()
        var count = 0
        var y = rows.lowerBound
        while y < rows.upperBound {
            let p = UnsafeRawPointer(base + y &* stride)
            let left = p.loadUnaligned(as: SIMD8<Int32>.self) & low
            let right = p.loadUnaligned(fromByteOffset: 2, as: SIMD8<Int32>.self) & low
            let up = p.loadUnaligned(fromByteOffset: 1 &- stride, as: SIMD8<Int32>.self) & low
            let down = p.loadUnaligned(fromByteOffset: 1 &+ stride, as: SIMD8<Int32>.self) & low
            let gx = right &- left, gy = down &- up
            sum &+= gx &* gx &+ gy &* gy
            // (Masked replacement: pointwiseMin and pointwiseMax compile to calls.)
            darkest.replace(with: left, where: left .< darkest)
            lightest.replace(with: left, where: left .> lightest)
            count &+= 4
            y &+= 4
        }
        return (sum, darkest, lightest, count)
    }

    /// The energy of the differences two pixels on (``BetweenSums``) from
    /// the coarse samples of ``activity32(_:stride:rows:)``, lane by lane,
    /// and their number for each cell; the last row's difference down only
    /// with `lastDown`. The rows up to the one below the last (three with
    /// `lastDown`) and the 36 columns from `base` must lie inside the frame.
    @inline(__always)
    private static func betweenEnergy32(
        _ base: UnsafePointer<UInt8>, stride: Int, rows: Range<Int>,
        lastDown: Bool
    ) -> (SIMD8<Int32>, Int) {
        let low = SIMD8<Int32>(repeating: 0xFF)
        @inline(__always) func load(_ p: UnsafeRawPointer, _ offset: Int) -> SIMD8<Int32> {
            p.loadUnaligned(fromByteOffset: offset, as: SIMD8<Int32>.self) & low
        }
        guard rows.lowerBound < rows.upperBound else { return (SIMD8(), 0) }
        var p = UnsafeRawPointer(base + rows.lowerBound &* stride)
        let hx = load(p, 4) &- load(p, 2)
        var energy = hx &* hx
        var count = 4
        var y = rows.lowerBound
        while y &+ 4 < rows.upperBound || (lastDown && y < rows.upperBound) {
            p = UnsafeRawPointer(base + y &* stride)
            let hy = load(p, 1 &+ 3 &* stride) &- load(p, 1 &+ stride)
            energy &+= hy &* hy
            count &+= 4
            y &+= 4
        }
        return (energy, count)
    }

    /// What the coarse samples of the flatness test tell of a cell.
    ///
    /// The samples (central differences at every fourth pixel of every
    /// fourth row) see every blurred edge, but a crisp one only where it
    /// lies between two of a sample's three pixels: crisp bars whose
    /// modules are a multiple of 4 pixels (drawn, not filmed: screen
    /// captures, overlays, generated pictures) can all fall between the
    /// samples. A cell whose samples see next to nothing is looked at again
    /// two pixels on (``BetweenSums``).
    enum CoarseLook {
        /// The samples' mean energy reaches `flatBelow`: measure the cell.
        case active
        /// It reaches a quarter of that: the samples see the cell's edges, too weak.
        case flat
        /// Under a quarter: look two pixels on.
        case blind

        /// The look of a cell whose `count` samples' energy sums to `activity`.
        @inline(__always)
        init(_ activity: Int, count: Int, flatBelow: Float) {
            let floor = flatBelow * Float(max(count, 1))
            self = Float(activity) >= floor ? .active : 4 * Float(activity) >= floor ? .flat : .blind
        }

        /// Whether a blind cell's differences two pixels on (`s`) make it
        /// worth measuring: their mean energy reaches 8 times `flatBelow`
        /// (crisp bars are strong edges; the steps between compression
        /// blocks, which also fall on multiples of 4 pixels, are faint) and
        /// they are not one straight edge: their sum with signs (|Σ gx| +
        /// |Σ gy|) under 0.6 of their sum without (Σ |gx| + Σ |gy|). A
        /// single edge, one sign throughout, is no row of bars: the border
        /// of a dark frame around a picture, or an object's outline, which
        /// counts only where the samples proper see it.
        @inline(__always)
        static func betweenActive(_ s: BetweenSums, flatBelow: Float) -> Bool {
            Float(s.energy) >= betweenFloor(flatBelow) * Float(max(s.count, 1))
                && 10 &* (abs(s.sumX) &+ abs(s.sumY)) < 6 &* (s.absX &+ s.absY)
        }

        /// The least difference between the darkest and the lightest of a
        /// blind cell's samples' pixels for it to get the second look:
        /// crisp bars put samples on both their colours.
        static let minSpread: Int32 = 24

        /// The mean energy the differences two pixels on must reach.
        @inline(__always)
        static func betweenFloor(_ flatBelow: Float) -> Float { 8 * flatBelow }
    }

    /// The differences two pixels on from a cell's coarse samples
    /// (``CoarseLook``): across, at the sample's column + 2
    /// (row[x + 3] - row[x + 1]), on the cell's first coarse row (the edges
    /// of bars run on for rows); down, at the sample's row + 2, on every
    /// coarse row.
    struct BetweenSums {
        /// The sum of their squares, and their number.
        var energy = 0
        var count = 0
        /// Their sums with signs, and without.
        var sumX = 0, sumY = 0, absX = 0, absY = 0
    }

    /// ``BetweenSums`` of the coarse samples in `rows` (every fourth from
    /// the first) and `columns` (every fourth from the second), as
    /// ``activity32(_:stride:rows:)`` takes them; the differences that
    /// would reach beyond the frame are left out.
    static func between(_ img: LumaView, rows: Range<Int>, columns: Range<Int>) -> BetweenSums {
        var s = BetweenSums()
        let stride = img.stride
        var y = rows.lowerBound
        while y < rows.upperBound {
            let row = img.base + y * stride
            let down = y + 3 < img.height
            var x = columns.lowerBound + 1
            while x < columns.upperBound {
                if y == rows.lowerBound && x + 3 < img.width {
                    let g = Int(row[x + 3]) - Int(row[x + 1])
                    s.energy &+= g &* g; s.count &+= 1; s.sumX &+= g; s.absX &+= abs(g)
                }
                if down {
                    let g = Int(row[x + 3 * stride]) - Int(row[x + stride])
                    s.energy &+= g &* g; s.count &+= 1; s.sumY &+= g; s.absY &+= abs(g)
                }
                x &+= 4
            }
            y &+= 4
        }
        return s
    }

    /// The sums of gx², gy² and gx·gy (central differences) over the even
    /// columns of 16-pixel rows `x ..< x + 16` on every other row of
    /// `rows`, from row `rows.lowerBound`: the same samples as the scalar
    /// loop of ``measure(_:cellSize:x0:y0:x1:y1:flatBelow:)``, 8 at a time.
    /// The rows above the first and below the last, and the columns on
    /// either side, must lie inside the frame.
    ///
    /// Each 16-bit lane loaded holds two pixels, the first in its low byte
    /// (little-endian): masking keeps that pixel, widened.
    @inline(__always)
    private static func tensor16(_ base: UnsafePointer<UInt8>, stride: Int, rows: Range<Int>) -> (Int, Int, Int) {
        let low = SIMD8<Int16>(repeating: 0xFF)
        var sxx = SIMD8<Int32>(), syy = SIMD8<Int32>(), sxy = SIMD8<Int32>()
        var y = rows.lowerBound
        while y < rows.upperBound {
            let p = UnsafeRawPointer(base + y &* stride)
            let left = p.loadUnaligned(fromByteOffset: -1, as: SIMD8<Int16>.self) & low
            let right = p.loadUnaligned(fromByteOffset: 1, as: SIMD8<Int16>.self) & low
            let up = p.loadUnaligned(fromByteOffset: -stride, as: SIMD8<Int16>.self) & low
            let down = p.loadUnaligned(fromByteOffset: stride, as: SIMD8<Int16>.self) & low
            let gx = SIMD8<Int32>(truncatingIfNeeded: right &- left), gy = SIMD8<Int32>(truncatingIfNeeded: down &- up)
            sxx &+= gx &* gx; syy &+= gy &* gy; sxy &+= gx &* gy
            y &+= 2
        }
        return (Int(sxx.wrappedSum()), Int(syy.wrappedSum()), Int(sxy.wrappedSum()))
    }

    /// Whether a reading along (`dx`, `dy`) through (`x`, `y`) crosses the
    /// bars there at a plausible angle. Where the cell's gradients point one
    /// way, the reading must run within `maxAngle` radians of that way; an
    /// oblique line through a code can leave it through the bars' ends and
    /// read a shorter symbol that is not there.
    func crossesBars(x: Double, y: Double, dx: Double, dy: Double, maxAngle: Double) -> Bool {
        let cx = Int(x) / cellSize, cy = Int(y) / cellSize
        guard cx >= 0, cy >= 0, cx < cols, cy < rows else { return true }
        let i = cy * cols + cx
        let a = Double(sxx[i]), b = Double(syy[i]), c = Double(sxy[i])
        let e = a + b
        guard e > 0 else { return true }
        let coherence = ((a - b) * (a - b) + 4 * c * c).squareRoot() / e
        guard coherence >= 0.5 else { return true }
        let theta = 0.5 * atan2(2 * c, a - b)
        // |cos| of the angle between the reading and the gradient direction.
        let len = (dx * dx + dy * dy).squareRoot()
        let cosine = abs(dx * cos(theta) + dy * sin(theta)) / max(len, 1e-9)
        return cosine >= cos(maxAngle)
    }

    /// Groups bar cells into candidates.
    ///
    /// - Parameters:
    ///   - minEnergy: mean squared gradient a bar cell needs.
    ///   - minCoherence: how one-directional its gradients must be (0...1).
    ///   - minCells: the fewest cells a candidate may have.
    mutating func group(minEnergy: Float, minCoherence: Float, minCells: Int) {
        candidateCount = 0
        let n = cols * rows
        guard n > 0, !stop.now else { return }
        // Label: -1 not a bar cell, 0 unvisited bar cell, > 0 region.
        for i in 0..<n {
            let e = sxx[i] + syy[i]
            var isBar = false
            if e >= minEnergy {
                let d = sxx[i] - syy[i]
                let r = (d * d + 4 * sxy[i] * sxy[i]).squareRoot()
                isBar = r / e >= minCoherence
                if isBar { direction2[i] = RegionDetector.doubledDirection(d: d, twiceXY: 2 * sxy[i], norm: r) }
            }
            label[i] = isBar ? 0 : -1
        }
        var next: Int32 = 1
        for seed in 0..<n where label[seed] == 0 {
            label[seed] = next
            var top = 0
            stack[top] = Int32(seed); top += 1
            var txx: Float = 0, tyy: Float = 0, txy: Float = 0
            var count = 0
            // Cell centres for extents are gathered after the direction is known.
            while top > 0 {
                top -= 1
                let i = Int(stack[top])
                txx += sxx[i]; tyy += syy[i]; txy += sxy[i]
                members[count] = Int32(i)
                count += 1
                let ai = direction2[i]
                let cx = i % cols, cy = i / cols
                for dy in -1...1 {
                    let ny = cy + dy
                    if ny < 0 || ny >= rows { continue }
                    for dx in -1...1 {
                        let nx = cx + dx
                        if nx < 0 || nx >= cols || (dx == 0 && dy == 0) { continue }
                        let j = ny * cols + nx
                        if label[j] != 0 { continue }
                        if !RegionDetector.sameDirection(ai, direction2[j]) { continue }
                        label[j] = next
                        stack[top] = Int32(j); top += 1
                    }
                }
            }
            if count >= minCells {
                addCandidate(txx: txx, tyy: tyy, txy: txy, count: count)
            }
            next += 1
        }
        mergeCollinear()
        // Strongest first.
        sortCandidates()
    }

    /// A cell's main direction θ (of its gradients, from its structure
    /// tensor: `d` = sxx - syy, `twiceXY` = 2 sxy, `norm` = the length of
    /// (`d`, `twiceXY`)) as the unit vector of 2θ = atan2(2 sxy, sxx - syy):
    /// directions a half turn apart are the same.
    @inline(__always)
    static func doubledDirection(d: Float, twiceXY: Float, norm: Float) -> SIMD2<Float> {
        norm > 0 ? SIMD2(d / norm, twiceXY / norm) : SIMD2(1, 0)
    }

    /// Whether two neighbouring cells' directions (``doubledDirection(d:twiceXY:norm:)``)
    /// lie within 0.40 radians of each other, a half turn apart counting as
    /// none, so that their cells join one candidate: their doubled angles
    /// lie within 0.80, the cosine between the unit vectors at least cos 0.80.
    @inline(__always)
    static func sameDirection(_ a: SIMD2<Float>, _ b: SIMD2<Float>) -> Bool {
        a.x * b.x + a.y * b.y >= 0.6967067  // cos 0.80
    }

    /// Adds the region whose `count` cells are in `members` as a candidate.
    private mutating func addCandidate(txx: Float, tyy: Float, txy: Float, count: Int) {
        let theta = 0.5 * atan2(Double(2 * txy), Double(txx - tyy))
        let ux = cos(theta), uy = sin(theta)
        var minU = Double.infinity, maxU = -Double.infinity, minV = Double.infinity, maxV = -Double.infinity
        var sumX = 0.0, sumY = 0.0
        let cs = Double(cellSize)
        for k in 0..<count {
            let i = Int(members[k])
            let x = (Double(i % cols) + 0.5) * cs, y = (Double(i / cols) + 0.5) * cs
            sumX += x; sumY += y
            let pu = x * ux + y * uy, pv = -x * uy + y * ux
            minU = min(minU, pu); maxU = max(maxU, pu); minV = min(minV, pv); maxV = max(maxV, pv)
        }
        let c = LinearCandidate(
            cx: sumX / Double(count), cy: sumY / Double(count), ux: ux, uy: uy,
            lengthU: maxU - minU + cs, lengthV: maxV - minV + cs,
            strength: Double(txx + tyy) / Double(count), cells: count)
        candidates.reserveKeeping(candidateCount + 1)
        candidates[candidateCount] = c
        candidateCount += 1
    }

    /// Joins candidates that lie end to end along their common reading axis
    /// (one code split by a gap wider than the grouping reaches).
    private mutating func mergeCollinear() {
        var i = 0
        while i < candidateCount && !stop.now {
            var merged = false
            var j = i + 1
            while j < candidateCount {
                let a = candidates[i], b = candidates[j]
                let dot = abs(a.ux * b.ux + a.uy * b.uy)
                let dx = b.cx - a.cx, dy = b.cy - a.cy
                let along = abs(dx * a.ux + dy * a.uy)
                let across = abs(-dx * a.uy + dy * a.ux)
                // The gap a wide element leaves (cells without edges) grows
                // with the code, as its bars' height does: up to 3 cells, or
                // 0.3 of the bars' height (a code's widest element, 8 or 9
                // modules, against bars 30 or more modules tall).
                let gap = max(3 * Double(cellSize), 0.3 * min(a.lengthV, b.lengthV))
                if dot > 0.95, across < 0.35 * max(a.lengthV, b.lengthV),
                    along < (a.lengthU + b.lengthU) / 2 + gap
                {
                    // Extents along the reading axis of a, from both.
                    let ua0 = -a.lengthU / 2, ua1 = a.lengthU / 2
                    let pb = dx * a.ux + dy * a.uy
                    let ub0 = pb - b.lengthU / 2, ub1 = pb + b.lengthU / 2
                    let lo = min(ua0, ub0), hi = max(ua1, ub1)
                    let mid = (lo + hi) / 2
                    let total = a.cells + b.cells
                    let wa = Double(a.cells) / Double(total)
                    let cv = (-(a.cx) * a.uy + a.cy * a.ux) * wa + (-(b.cx) * a.uy + b.cy * a.ux) * (1 - wa)
                    let cu = (a.cx * a.ux + a.cy * a.uy) + mid
                    var m = a
                    m.cx = cu * a.ux - cv * a.uy
                    m.cy = cu * a.uy + cv * a.ux
                    m.lengthU = hi - lo
                    m.lengthV = max(a.lengthV, b.lengthV)
                    m.strength = a.strength * wa + b.strength * (1 - wa)
                    m.cells = total
                    candidates[i] = m
                    candidates[j] = candidates[candidateCount - 1]
                    candidateCount -= 1
                    merged = true
                } else {
                    j += 1
                }
            }
            if !merged { i += 1 }
        }
    }

    private mutating func sortCandidates() {
        // By strength x size, ties in order (the standard sort is stable):
        // a frame of look-alikes has tens of thousands.
        if candidateCount < 2 { return }
        var all = UnsafeMutableBufferPointer(start: candidates.pointer, count: candidateCount)
        all.sort {
            $0.strength * Double($0.cells) > $1.strength * Double($1.cells)
        }
    }
}
