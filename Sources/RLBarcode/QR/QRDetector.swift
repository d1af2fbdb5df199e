#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds QR Code and Micro QR symbols in luma frames and samples their
/// modules (ISO/IEC 18004:2015).
///
/// The steps follow the reference decode algorithm of the standard
/// (ISO/IEC 18004:2015, Annex on the reference decode algorithm):
///
/// 0. ``scan(_:in:into:)`` first finds the areas with matrix-code texture
///    (``MatrixRegionDetector``); the rest runs in each of them
///    (``detect(_:in:into:)``).
/// 1. Block-adaptive thresholds for the searched rectangle (``BlockThreshold``).
/// 2. Every other row of the rectangle is cut into dark and light runs;
///    five runs in the ratio 1:1:3:1:1, with a light run on either side, are
///    a finder pattern candidate (6.3.3), confirmed by the same ratio
///    vertically and diagonally through its centre, which holds at any
///    rotation. Both polarities are found in the same pass. Still
///    pictures in which no symbol decoded are searched again down the
///    columns too, for patterns squashed by a steep view.
/// 3. Finder patterns are grouped in threes: similar module sizes, a near
///    right angle at the corner pattern, legs of similar length. The sign of
///    the cross product tells the top-right pattern from the bottom-left.
/// 4. Each pattern's outline (its outer corners) is measured; its centre
///    is where the outline's diagonals cross. The module size along the
///    symbol's axes and the distance between the patterns give the symbol
///    size; counting the modules of the timing patterns (6.3.5) confirms it,
///    else the neighbouring sizes are sampled too and the one whose
///    function patterns read best wins.
/// 5. A first grid is fitted to the centres, the outlines and the
///    boundaries between the timing patterns' modules. From version 2 on,
///    the bottom-right alignment pattern (6.3.6) is searched where that grid
///    puts it and the grid is fitted again with it
///    (``PerspectiveTransform``); from version 7 on, every alignment pattern
///    is located and the grid is built in pieces between them
///    (``QRLocalGrid``), which follows lens distortion.
/// 6. Every module centre is sampled and compared with a threshold at the
///    symbol's own scale (``sampleGrid(_:_:width:height:inverted:local:rule:)``).
///    The three finder patterns and the timing patterns must read right in
///    most of their modules, which rejects look-alikes.
///
/// Finder patterns left over are tried as Micro QR symbols, whose single
/// finder pattern has timing patterns along its top and left sides
/// (``fitMicro(_:_:)``).
///
/// The detector owns its scratch buffers and is reused from frame to frame;
/// after the first frames it allocates only for the candidates it reports
/// (and for symbols it samples, which frames without codes rarely reach).
/// It is not thread-safe.
final class QRDetector {
    /// Tunables.
    struct Options {
        /// Rows scanned for finder patterns: every `rowStep`-th. The centre
        /// square of a finder pattern is 3 modules tall, so 2 still crosses
        /// those of 2-pixel modules on two rows or more.
        var rowStep = 2
        /// The most finder patterns kept per call.
        var maxFinders = 256
        /// The most finder patterns (those seen on most rows) grouped into symbols.
        var maxGrouped = 40
        /// The most finder triples sampled as symbols per call.
        var maxAttempts = 24
        /// Whether lone finder patterns are tried as Micro QR symbols.
        var microQR = true
        /// Whether a symbol found whose readings all fail Reed-Solomon is
        /// sampled again in other ways (costly; worth it for still pictures).
        var rescueFailedSymbols = true
        /// Without ``rescueFailedSymbols`` (video frames): how many symbols
        /// found whose readings all fail Reed-Solomon are still sampled
        /// again in those other ways in one ``scan(_:in:cells:regions:prepared:into:)``
        /// (a symbol bent or blurred past the first reading, seen in a
        /// frame or two only; few, so that a symbol in view that cannot be
        /// read costs little in every frame).
        var resamplesPerScan = 1
        /// The least grey-level difference that counts as contrast.
        var minContrast = AreaThresholds.minContrast
        /// Block side for the thresholds; 0 chooses 8, or 16 for areas 720
        /// pixels or more on their short side.
        var blockSize = 0
        /// Whether finder patterns squashed by a steep view are looked for
        /// further: columns are scanned as well as rows, and a pattern's
        /// cross sections may be as short as 7 pixels (1 a module), not 9.
        var squashedFinders = false
    }

    /// The options used by the next call.
    var options = Options()
    /// The frame's time limit and stop, checked every area, row, 256 runs
    /// and triple.
    var stop = ScanStop()
    /// Diagnostics: told why a group of finder patterns was not taken for
    /// a symbol (`nil`, the default, costs nothing).
    var trace: ((String) -> Void)? = nil

    var thresholds = BlockThreshold()
    private var runs = ScratchBuffer<Int32>(capacity: 4096)
    /// Finder look-alikes rejected on the last scanned rows.
    private var rejected = RejectedCentres()
    /// The same for look-alikes with an open outer ring, apart, so that
    /// they never hide a pattern with both rings on the next rows.
    private var rejectedOpen = RejectedCentres()
    /// The area of the current finder search.
    private var searchRect = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)
    /// What is left of ``Options/resamplesPerScan`` in the current scan.
    var resamplesLeft = 0
    /// Module grids sampled since the detector was made (each a whole
    /// symbol's): what the search for a symbol's size and grid fit cost.
    var gridsSampled = 0
    /// The finder patterns of the last call.
    private(set) var finders = ScratchBuffer<QRFinder>(capacity: 64)
    private(set) var finderCount = 0
    /// Finder triples under consideration.
    var triples = ScratchBuffer<QRFinderTriple>(capacity: 256)
    /// Point pairs (module, frame) gathered for a grid fit.
    var pairFrom = ScratchBuffer<Point>(capacity: 64)
    var pairTo = ScratchBuffer<Point>(capacity: 64)
    var pairCount = 0
    /// Module lumas and thresholds of the grid being sampled.
    var moduleLuma = ScratchBuffer<Double>(capacity: 1024)
    var moduleThreshold = ScratchBuffer<Double>(capacity: 1024)
    var moduleLow = ScratchBuffer<Double>(capacity: 1024)
    var moduleHigh = ScratchBuffer<Double>(capacity: 1024)
    /// Per row or column of the grid being sampled: the running extremes of
    /// ``QRDetector/windowExtremes(count:step:low:high:into:_:)``, and
    /// the local grid's cell of each module column and row.
    var windowLow = ScratchBuffer<Double>(capacity: 256)
    var windowHigh = ScratchBuffer<Double>(capacity: 256)
    var gridCells = ScratchBuffer<Int>(capacity: 512)
    /// The 2D pre-pass of ``scan(_:in:into:)``.
    private(set) var regionFinder = MatrixRegionDetector()

    init(options: Options = Options()) { self.options = options }

    deinit {
        thresholds.free(); runs.free(); rejected.free(); rejectedOpen.free(); finders.free(); triples.free();
        regionFinder.free()
        moduleLuma.free(); moduleThreshold.free(); moduleLow.free(); moduleHigh.free(); pairFrom.free(); pairTo.free()
        windowLow.free(); windowHigh.free(); gridCells.free()
    }

    /// Finds symbols in a frame: first the areas with matrix-code texture
    /// (``MatrixRegionDetector``), then the finder pattern search in each
    /// (``detect(_:in:into:)``). This is what a scanner calls each frame.
    ///
    /// - Parameters:
    ///   - bounds: where to look (the whole frame when `nil`).
    ///   - out: receives the candidates (appended; the caller empties and
    ///     reuses it from frame to frame).
    /// - Complexity: a read of an eighth of the pixels in `bounds` (and a
    ///   sixteenth for large modules); the finder search then costs in
    ///   proportion to the textured area.
    ///   - shared: the frame's regions when the caller found them already
    ///     (``MatrixRegionDetector/findAll(_:bounds:cells:)``, shared by the
    ///     matrix readers); only read.
    func scan(
        _ image: LumaView, in bounds: PixelRect? = nil, cells: CellTensors? = nil,
        regions shared: MatrixRegionDetector? = nil, prepared: AreaThresholds? = nil,
        into out: inout [QRCandidate]
    ) {
        resamplesLeft = options.resamplesPerScan
        let regions: MatrixRegionDetector
        if let shared {
            regions = shared
        } else {
            regionFinder.findAll(image, bounds: bounds, cells: cells)
            regions = regionFinder
        }
        let first = out.count
        var promising: [Int] = []
        for k in 0..<regions.regionCount {
            if stop.now { return }
            detect(
                image, in: regions.regions[k],
                prepared: shared != nil ? prepared?.blocks(k, area: regions.regions[k]) : nil, into: &out)
            if options.rescueFailedSymbols && finderCount >= 2 { promising.append(k) }
        }
        // Still pictures: where finder patterns were seen but no symbol
        // decoded, once more with blocks of 4 pixels, whose thresholds
        // follow faded or unevenly lit patterns more closely, and for
        // patterns squashed by a steep view.
        // (Micro QR candidates are decoded by the caller: they count as found.)
        if !promising.isEmpty && !out[first...].contains(where: { $0.decoded != nil || $0.isMicro }) {
            let saved = options
            options.blockSize = 4
            options.squashedFinders = true
            for k in promising where !stop.now { detect(image, in: regions.regions[k], into: &out) }
            options = saved
        }
    }

    /// Finds symbols in `region` (the whole frame when `nil`) and appends
    /// them to `out`; `prepared`: the region's block thresholds, when
    /// already measured.
    ///
    /// - Complexity: one read of the region's pixels for the thresholds,
    ///   one threshold pass over every scanned row; the rest scales with the
    ///   finder patterns found.
    func detect(
        _ image: LumaView, in region: PixelRect? = nil, prepared: BlockThreshold? = nil,
        into out: inout [QRCandidate]
    ) {
        finderCount = 0
        let r = (region ?? PixelRect(x0: 0, y0: 0, x1: image.width, y1: image.height))
            .clipped(width: image.width, height: image.height)
        guard r.width >= 14, r.height >= 14 else { return }
        let block = options.blockSize > 0 ? options.blockSize : AreaThresholds.blockSize(r)
        thresholds.prepare(image, rect: r, blockSize: block, minContrast: options.minContrast, reusing: prepared)
        findFinders(image, rect: r)
        pruneFinders(rowStep: rowStep(for: r))
        groupFinders(image, into: &out)
        if options.microQR { findMicro(image, into: &out) }
    }

    // MARK: - Finder patterns

    /// The module size if the five runs are in the ratio 1:1:3:1:1: each
    /// outer run within 0.6 modules + 0.5 pixels of one module, the centre
    /// within 2.5 times that of three (ISO/IEC 18004:2015, 6.3.3). Integer
    /// arithmetic only, as it runs on every run of every scanned row.
    @inline(__always)
    static func finderModule(
        _ a: Int32, _ b: Int32, _ c: Int32, _ d: Int32, _ e: Int32, least: Int = 9
    ) -> Double? {
        let t = Int(a) &+ Int(b) &+ Int(c) &+ Int(d) &+ Int(e)
        if t < least { return nil }
        // |7r - t| < 0.6 t + 3.5, times 10; |7c - 3t| < 2.5 (0.6 t + 3.5), times 4.
        let limit = 6 &* t &+ 35
        if 10 &* abs(7 &* Int(a) &- t) >= limit || 10 &* abs(7 &* Int(b) &- t) >= limit
            || 10 &* abs(7 &* Int(d) &- t) >= limit || 10 &* abs(7 &* Int(e) &- t) >= limit
            || 4 &* abs(7 &* Int(c) &- 3 &* t) >= limit
        {
            return nil
        }
        return Double(t) / 7
    }

    /// The module of a finder pattern with an open outer ring whose centre
    /// is run `i` of the `n` runs `rp` of a row, the first or the last
    /// pattern of the row (the open run its first or last), and which side
    /// is open: -1 (before) or 1 (after) when that side's outer run is far
    /// longer than a ring and the other four runs fit the pattern
    /// (``finderModule(_:_:_:_:_:)``) with a ring as wide as the other
    /// side's: a symbol printed without its quiet zone on a surface of its
    /// dark colour, or flush with a dark border of the frame (a letterboxed
    /// picture), whose outer ring merges with what surrounds it.
    static func openFinderModule(_ rp: UnsafeMutablePointer<Int32>, _ i: Int, _ n: Int) -> (Double, Int)? {
        let a = rp[i - 2], b = rp[i - 1], c = rp[i], d = rp[i + 1], e = rp[i + 2]
        let ring = 2 &* max(b, d) &+ 1
        let merged = 3 &* max(b, d)
        if i == 2, a > merged, e <= ring, let m = finderModule(e, b, c, d, e) { return (m, -1) }
        if i + 3 == n, e > merged, a <= ring, let m = finderModule(a, b, c, d, a) { return (m, 1) }
        return nil
    }

    /// The distance between scanned rows in `rect`.
    func rowStep(for rect: PixelRect) -> Int {
        max(1, options.rowStep)
    }

    /// Drops finder patterns seen on too few rows for their size, and keeps
    /// the `maxGrouped` seen on most rows.
    func pruneFinders(rowStep: Int) {
        var kept = 0
        for k in 0..<finderCount {
            let f = finders[k]
            let need = f.module >= 2.5 * Double(rowStep) ? 2 : 1
            if f.count >= need { finders[kept] = f; kept += 1 }
        }
        finderCount = kept
        guard finderCount > options.maxGrouped else { return }
        let p = finders.pointer
        for i in 1..<finderCount {
            let f = p[i]
            var j = i - 1
            while j >= 0 && p[j].count < f.count { p[j + 1] = p[j]; j -= 1 }
            p[j + 1] = f
        }
        finderCount = options.maxGrouped
    }

    /// Scans rows of `rect` for finder patterns of both polarities, and
    /// columns too with ``Options/squashedFinders``.
    func findFinders(_ img: LumaView, rect: PixelRect) {
        searchRect = rect
        let step = rowStep(for: rect)
        runs.reserve(max(rect.width, rect.height) + 4)
        let rp = runs.pointer
        // A look-alike rejected on one row is not checked on the next two,
        // only on the one after (a finder pattern whose centre spans that
        // many rows is checked on it again; one that spans fewer meets no
        // more rows). Columns (with `squashedFinders`) the same way:
        // patterns squashed along the rows (a view tilted about the vertical
        // axis) show runs too short to be told from texture there, and
        // full-size runs down the columns.
        for pass in 0..<(options.squashedFinders ? 2 : 1) {
            let column = pass == 1
            let across = column ? rect.width : rect.height, along = column ? rect.height : rect.width
            let from = column ? rect.y0 : rect.x0, first = column ? rect.x0 : rect.y0
            rejected.start(width: along + 4, rows: 2)
            rejectedOpen.start(width: along + 4, rows: 2)
            var line = first + 1
            while line < first + across - 1 && !stop.now {
                var firstDark = false
                let n =
                    column
                    ? thresholds.columnRuns(img, x: line, y0: rect.y0, y1: rect.y1, runs: rp, firstDark: &firstDark)
                    : thresholds.rowRuns(img, y: line, x0: rect.x0, x1: rect.x1, runs: rp, firstDark: &firstDark)
                lineHits(img, runs: rp, count: n, firstDark: firstDark, from: from, at: line, column: column)
                line += step
            }
        }
    }

    /// Checks the `count` runs of one scanned row (or column) for finder
    /// patterns and confirms each hit; the line starts at `from` and lies
    /// at `at` across.
    private func lineHits(
        _ img: LumaView, runs rp: UnsafeMutablePointer<Int32>, count n: Int, firstDark: Bool,
        from: Int, at line: Int, column: Bool
    ) {
        defer {
            rejected.nextRow()
            rejectedOpen.nextRow()
        }
        guard n >= 5 else { return }
        var start = from + Int(rp[0]) + Int(rp[1])  // start of run i = 2
        var i = 2
        // A row of noise at 8K holds thousands of look-alikes: the
        // time looked at every 256 runs too.
        while i + 2 < n && (i & 255 != 0 || !stop.now) {
            var found = QRDetector.finderModule(rp[i - 2], rp[i - 1], rp[i], rp[i + 1], rp[i + 2]).map {
                ($0, 0)
            }
            if found == nil && (i == 2 || i + 3 == n) { found = QRDetector.openFinderModule(rp, i, n) }
            if let (m, open) = found,
                // A separator or quiet zone of a module or more on
                // either side (not beyond an outer ring merged with
                // its surroundings).
                open < 0 || i < 3 || Double(rp[i - 3]) >= 0.5 * m,
                open > 0 || i + 3 >= n || Double(rp[i + 3]) >= 0.5 * m
            {
                // Run i's colour: runs alternate from the first.
                let dark = (i & 1 == 0) == firstDark
                let c = Double(start) + Double(rp[i] - 1) / 2
                let x = column ? Double(line) : c, y = column ? Int(c.rounded()) : line
                if open == 0 {
                    if !rejected.wasRejected(at: c) && !confirm(img, x: x, y: y, module: m, centreDark: dark) {
                        rejected.reject(at: c)
                    }
                } else if !rejectedOpen.wasRejected(at: c) && !confirm(img, x: x, y: y, module: m, centreDark: dark) {
                    rejectedOpen.reject(at: c)
                }
            }
            start += Int(rp[i])
            i += 1
        }
    }

    /// Counts the five runs of a finder pattern through (`x`, `y`) along
    /// the step (`dx`, `dy`), from the centre outwards both ways.
    ///
    /// Specks of the other colour up to `gap` steps long inside the centre
    /// run (a crease, scratch or fleck across the centre square of a
    /// pattern of large modules) count as part of it.
    ///
    /// On one side, the outer ring may run on, in its colour, to the edge
    /// of the area searched (``findFinders(_:rect:)``): a symbol without
    /// its quiet zone on a surface of that colour, or flush with a dark
    /// border of the frame. It then counts as wide as the light ring inside
    /// it.
    ///
    /// - Returns: the offset of the centre run's middle from (`x`, `y`) in
    ///   steps, the module size in steps, and whether one side's outer ring
    ///   ran on; `nil` when the runs are not in the ratio 1:1:3:1:1.
    private func crossCheck(
        _ img: LumaView, x: Int, y: Int, dx: Int, dy: Int, centreDark: Bool,
        maxRun: Int, gap: Int, least: Int = 9
    ) -> (offset: Double, module: Double, open: Bool)? {
        let w = img.width, h = img.height
        // The blocks held here, not read through the detector at every
        // pixel, and each block's threshold looked up once along the walk.
        var walk = BlockThreshold.Walker(self.thresholds, img)
        guard x >= 0, y >= 0, x < w, y < h, walk.isDark(x: x, y: y) == centreDark else { return nil }
        var counts: (Int32, Int32, Int32, Int32, Int32) = (0, 0, 1, 0, 0)
        var before = 0, after = 0
        // Whether one side's outer ring ran on far past a ring's width,
        // to the area's edge. One side at most.
        var opened = false
        for dir in stride(from: -1, through: 1, by: 2) {
            var px = x + dir * dx, py = y + dir * dy
            var state = 0  // 0 centre run, 1 opposite, 2 outer ring
            var len: Int32 = 0
            var centreLen = 0
            while px >= 0, py >= 0, px < w, py < h {
                let d = walk.isDark(x: px, y: py)
                let want = state == 1 ? !centreDark : centreDark
                if d != want && gap > 0 && state == 0 {
                    // A speck in the centre square: its colour again within `gap` steps.
                    var j = 1
                    var speck = false
                    while j <= gap {
                        let qx = px + j * dir * dx, qy = py + j * dir * dy
                        guard qx >= 0, qy >= 0, qx < w, qy < h else { break }
                        if walk.isDark(x: qx, y: qy) == want { speck = true; break }
                        j += 1
                    }
                    if speck {
                        len += Int32(j)
                        centreLen += j
                        if len > maxRun { return nil }
                        px += j * dir * dx; py += j * dir * dy
                        continue
                    }
                }
                if d == want {
                    len += 1
                    if state == 0 { centreLen += 1 }
                    if state == 2 {
                        let inner = dir < 0 ? counts.1 : counts.3
                        if len > 2 &* inner &+ 1 {
                            // Merged: dark on to the edge of the area searched.
                            guard !opened else { return nil }
                            let r = searchRect
                            var qx = px + dir * dx, qy = py + dir * dy
                            while qx >= r.x0, qy >= r.y0, qx < r.x1, qy < r.y1 {
                                if walk.isDark(x: qx, y: qy) != want { return nil }
                                qx += dir * dx; qy += dir * dy
                            }
                            opened = true
                            len = inner
                            break
                        }
                    }
                    if len > maxRun { return nil }
                } else {
                    if state == 0 {
                        state = 1; len = 1
                    } else if state == 1 {
                        if dir < 0 { counts.1 = len } else { counts.3 = len }
                        state = 2; len = 1
                    } else {
                        break
                    }
                }
                px += dir * dx; py += dir * dy
            }
            // The outer ring may end at the frame's edge: a symbol printed
            // or cropped without its quiet zone.
            guard state == 2 else { return nil }
            if dir < 0 { counts.0 = len; before = centreLen } else { counts.4 = len; after = centreLen }
        }
        counts.2 = Int32(before + after + 1)
        guard let m = QRDetector.finderModule(counts.0, counts.1, counts.2, counts.3, counts.4, least: least)
        else { return nil }
        return (Double(after - before) / 2, m, opened)
    }

    /// Confirms a row hit vertically and diagonally, refines its centre, and
    /// adds it to the finder list (or to a finder already there).
    /// - Returns: whether the hit belongs to a finder pattern (new or known).
    @discardableResult
    private func confirm(_ img: LumaView, x: Double, y: Int, module m: Double, centreDark: Bool) -> Bool {
        let inverted = !centreDark
        // Another row through a finder already confirmed.
        for k in 0..<finderCount where finders[k].inverted == inverted {
            let f = finders[k]
            if abs(f.x - x) < max(f.module, m) && abs(f.y - Double(y)) < 2 * max(f.module, m) {
                finders[k].count += 1
                return true
            }
        }
        let maxRun = Int(5 * m) + 3
        // Specks under a quarter of a module (none in modules under 4 pixels).
        let gap = Int(m / 4)
        let ix = Int(x.rounded())
        let least = options.squashedFinders ? 7 : 9
        guard
            let v = crossCheck(
                img, x: ix, y: y, dx: 0, dy: 1, centreDark: centreDark, maxRun: maxRun, gap: gap, least: least)
        else { return false }
        let cy = Double(y) + v.offset
        let iy = Int(cy.rounded())
        guard
            let hz = crossCheck(
                img, x: ix, y: iy, dx: 1, dy: 0, centreDark: centreDark, maxRun: maxRun, gap: gap, least: least)
        else { return false }
        let cx = Double(ix) + hz.offset
        // Up to threefold: a view tilted by 70 degrees (fourfold when
        // looked for further: the shorter section's modules are whole pixels).
        let ratio = v.module / hz.module, most = options.squashedFinders ? 4.0 : 3.0
        guard ratio > 1 / most, ratio < most else { return false }
        let jx = Int(cx.rounded())
        let d1 = crossCheck(
            img, x: jx, y: iy, dx: 1, dy: 1, centreDark: centreDark, maxRun: maxRun, gap: gap, least: least)
        let d2 = crossCheck(
            img, x: jx, y: iy, dx: 1, dy: -1, centreDark: centreDark, maxRun: maxRun, gap: gap, least: least)
        guard d1 != nil || d2 != nil else { return false }
        let merged = v.open || hz.open || d1?.open == true || d2?.open == true
        let module = (v.module + hz.module) / 2
        for k in 0..<finderCount where finders[k].inverted == inverted {
            let f = finders[k]
            if abs(f.x - cx) < max(f.module, module) && abs(f.y - cy) < max(f.module, module) {
                let n = Double(f.count)
                finders[k].x = (f.x * n + cx) / (n + 1)
                finders[k].y = (f.y * n + cy) / (n + 1)
                finders[k].module = (f.module * n + module) / (n + 1)
                finders[k].count += 1
                finders[k].merged = f.merged || merged
                return true
            }
        }
        guard finderCount < options.maxFinders else { return false }
        finders.reserveKeeping(finderCount + 1)
        finders[finderCount] = QRFinder(
            x: cx, y: cy, module: module, inverted: inverted, count: 1, used: false,
            merged: merged)
        finderCount += 1
        return true
    }

    // MARK: - Sampling

    /// The bilinear luma at (`x`, `y`) inside `0 ... width - 1.0001` and
    /// `0 ... height - 1.0001`: ``luma(_:_:)`` without the clamps, which
    /// change nothing there.
    @inline(__always)
    static func lumaInside(_ img: LumaView, x: Double, y: Double) -> Double {
        let ix = Int(x), iy = Int(y)
        let fx = x - Double(ix), fy = y - Double(iy)
        let q = img.base + (iy &* img.stride &+ ix)
        let a = Double(q[0]), b = Double(q[1]), c = Double(q[img.stride]), d = Double(q[img.stride + 1])
        let top = a + (b - a) * fx, bottom = c + (d - c) * fx
        return top + (bottom - top) * fy
    }

    /// The luma at a sub-pixel position (pixel centres at integers),
    /// bilinear, clamped to the frame.
    @inline(__always)
    static func luma(_ img: LumaView, _ p: Point) -> Double {
        let maxX = Double(img.width) - 1.0001, maxY = Double(img.height) - 1.0001
        return lumaInside(img, x: min(max(p.x, 0), maxX), y: min(max(p.y, 0), maxY))
    }

    /// How much lighter than its local threshold the position is, times
    /// `sign` (-1 for a light-on-dark symbol): above 0 light in the symbol's
    /// polarity, below 0 dark; nil outside the frame.
    @inline(__always)
    func lightness(_ img: LumaView, _ p: Point, sign: Double) -> Double? {
        guard QRDetector.inside(img, p) else { return nil }
        let th = Double(thresholds.threshold(x: Int(p.x + 0.5), y: Int(p.y + 0.5)))
        return sign * (QRDetector.luma(img, p) - th)
    }

    /// Whether the position is dark in the symbol's polarity: darker than
    /// the local threshold, or lighter for an inverted symbol.
    @inline(__always)
    func isDark(_ img: LumaView, _ p: Point, inverted: Bool) -> Bool {
        QRDetector.isDark(img, p, inverted: inverted, thresholds)
    }

    /// ``isDark(_:_:inverted:)`` with the blocks `thresholds`.
    @inline(__always)
    static func isDark(_ img: LumaView, _ p: Point, inverted: Bool, _ thresholds: BlockThreshold) -> Bool {
        let v = QRDetector.luma(img, p)
        // Rounding half up (positions below -0.5 are clamped anyway).
        let t = Double(thresholds.threshold(x: Int(p.x + 0.5), y: Int(p.y + 0.5)))
        return (v < t) != inverted
    }

    /// Whether the point lies inside the frame.
    @inline(__always)
    static func inside(_ img: LumaView, _ p: Point, margin: Double = 0) -> Bool {
        p.x >= -0.5 - margin && p.y >= -0.5 - margin
            && p.x <= Double(img.width) - 0.5 + margin && p.y <= Double(img.height) - 0.5 + margin
    }

    /// The distance from `p` along the unit direction (`ux`, `uy`) to the
    /// outer edge of the finder pattern centred there: through the centre
    /// square, the light ring and the dark ring, to the first light
    /// sample beyond (3.5 modules for a ray along a symbol axis).
    ///
    /// The centre square and the light ring of a large pattern are walked
    /// a quarter of a module at a time (a whole number of half pixels: a
    /// ring a module wide, even blurred, holds samples), the dark ring half
    /// a pixel at a time: the edge as before, for a fraction of the
    /// samples.
    func finderEdge(_ img: LumaView, from p: Point, ux: Double, uy: Double, inverted: Bool, maxDistance: Double)
        -> Double?
    {
        let fine = 0.5
        // `maxDistance` is six modules: a quarter of a module, in half pixels.
        var step = fine * max(1, (maxDistance / 24 / fine).rounded(.down))
        var t = 0.0
        var state = 0  // 0 centre, 1 light ring, 2 dark ring
        var lastDark = 0.0
        // Specks under a quarter of a module (`maxDistance` is six modules)
        // do not change the state: a crease or fleck across the pattern.
        let speck = maxDistance / 24 >= 1 ? maxDistance / 24 : 0
        // The blocks held here, not read through the detector at every sample.
        let thresholds = self.thresholds
        while t < maxDistance {
            t += step
            let q = Point(x: p.x + t * ux, y: p.y + t * uy)
            // The frame's edge ends a dark ring as a light module would.
            guard QRDetector.inside(img, q) else { return state == 2 ? lastDark + fine / 2 : nil }
            var d = QRDetector.isDark(img, q, inverted: inverted, thresholds)
            if speck > 0 && d != (state != 1) {
                // The state's colour again within `speck` pixels: a speck.
                var e = fine
                while e <= speck {
                    let r = Point(x: q.x + e * ux, y: q.y + e * uy)
                    guard QRDetector.inside(img, r) else { break }
                    if QRDetector.isDark(img, r, inverted: inverted, thresholds) == (state != 1) {
                        d = state != 1; break
                    }
                    e += fine
                }
            }
            switch state {
            case 0: if !d { state = 1 }
            case 1: if d { state = 2; lastDark = t; step = fine }
            default:
                if d { lastDark = t } else { return lastDark + fine / 2 }
            }
        }
        return nil
    }
}
