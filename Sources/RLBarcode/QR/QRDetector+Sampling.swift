#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sampling: the outline, the grid through the timing patterns and alignment patterns, the modules.
extension QRDetector {
    /// The outer corners of the symbol's three finder patterns (4 each, in
    /// the order of ``Outline/moduleCorners(size:)``) and where the symbol's
    /// fourth corner is: where the right edge of the top-right pattern
    /// meets the bottom edge of the bottom-left one (straight lines stay
    /// straight under perspective).
    struct Outline {
        var corners: [Point]
        var bottomRight: Point

        /// The module positions of ``corners`` in a symbol of `size` modules.
        static func moduleCorners(size: Int) -> [Point] {
            let s = Double(size), f = s - 7
            return [
                Point(x: 0, y: 0), Point(x: 7, y: 0), Point(x: 7, y: 7), Point(x: 0, y: 7),
                Point(x: f, y: 0), Point(x: s, y: 0), Point(x: s, y: 7), Point(x: f, y: 7),
                Point(x: 0, y: f), Point(x: 7, y: f), Point(x: 7, y: s), Point(x: 0, y: s)
            ]
        }
    }

    /// Measures the finder patterns' outlines (see ``finderCorners(_:_:)``)
    /// and extends their edges to the symbol's fourth corner.
    ///
    /// - Parameters: (`ux`, `uy`) and (`vx`, `vy`): unit vectors from the
    ///   top-left pattern towards the top-right and bottom-left ones.
    func symbolOutline(
        _ img: LumaView, _ tl: QRFinder, _ tr: QRFinder, _ bl: QRFinder,
        ux: Double, uy: Double, vx: Double, vy: Double
    ) -> Outline? {
        var corners: [Point] = []
        corners.reserveCapacity(12)
        /// The corners of `f`, from the one towards -u -v on, clockwise as read.
        func add(_ f: QRFinder) -> Bool {
            guard let c = f.quad ?? finderCorners(img, f) else { return false }
            let centre = f.centre
            for (su, sv) in [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)] {
                var best = c.0, bestScore = -Double.infinity
                for k in 0..<4 {
                    let p = k == 0 ? c.0 : k == 1 ? c.1 : k == 2 ? c.2 : c.3
                    let du = (p.x - centre.x) * ux + (p.y - centre.y) * uy
                    let dv = (p.x - centre.x) * vx + (p.y - centre.y) * vy
                    let score = su * du + sv * dv
                    if score > bestScore { bestScore = score; best = p }
                }
                corners.append(best)
            }
            return true
        }
        guard add(tl), add(tr), add(bl) else { return nil }
        // Right edge of the top-right pattern, bottom edge of the bottom-left one.
        let b = corners[5], c = corners[6], d = corners[11], e = corners[10]
        let rx = c.x - b.x, ry = c.y - b.y, bx = e.x - d.x, by = e.y - d.y
        let den = rx * by - ry * bx
        guard abs(den) > 1e-6 else { return nil }
        let t = ((d.x - b.x) * by - (d.y - b.y) * bx) / den
        let br = Point(x: b.x + t * rx, y: b.y + t * ry)
        guard QRDetector.inside(img, br, margin: 4 * max(tl.module, 1)) else { return nil }
        return Outline(corners: corners, bottomRight: br)
    }

    /// Samples a QR Code symbol of `size` modules whose finder pattern
    /// centres are `tl`, `tr`, `bl`, locating the bottom-right alignment
    /// pattern first for versions 2 and up (ISO/IEC 18004:2015, 6.3.6).
    ///
    /// With the finder patterns' outlines (`outline`), a first grid is
    /// fitted (least squares) to the three centres, the twelve outer
    /// corners and the fourth corner where the patterns' edges meet; it
    /// tells where the alignment pattern should be. The final grid is fitted
    /// to the centres, the corners and the alignment pattern's centre,
    /// module (size - 6.5, size - 6.5), which outweighs the rest near it.
    /// Version 1 has no alignment pattern: its grid is the first one.
    /// Without outlines the grid maps the three centres and the alignment
    /// pattern (or where a parallelogram puts it). Without `alignment` (a
    /// QR Code Model 1 symbol, which has none) the first grid is the final
    /// one at every size.
    ///
    /// - Returns: the matrix and the symbol's corners in the frame, or
    ///   `nil` when the symbol reaches out of the frame.
    func sampleQR(
        _ img: LumaView, _ tl: Point, _ tr: Point, _ bl: Point, outline: Outline?, size: Int,
        timing: Bool, inverted: Bool, rule: SampleRule = .moduleScale,
        bend: Bool = false, alignment: Bool = true
    ) -> (BitMatrix, (Point, Point, Point, Point))? {
        let s = Double(size)
        let span = s - 7
        let ax = (tr.x - tl.x) / span, ay = (tr.y - tl.y) / span
        let bx = (bl.x - tl.x) / span, by = (bl.y - tl.y) / span
        let fitted = roughGrid(img, tl, tr, bl, outline: outline, size: size, timing: timing, inverted: inverted)
        let rough = fitted.0
        var from = fitted.1, to = fitted.2
        // Cheap first: the three finder patterns as this grid places them
        // (147 modules), before the alignment patterns, the local grid and
        // the whole symbol are sampled. Near the finder patterns' centres,
        // which anchor the grid, a symbol's read well whatever its
        // distortion; a triple of finder-like shapes in texture does not.
        guard QRDetector.finderShare(img, rough, size: size, inverted: inverted) >= 0.6 else {
            trace?("size \(size): the finder patterns do not show through the rough grid")
            return nil
        }
        var transform = rough
        if alignment && size >= 25 {
            let c = s - 6.5
            let predicted = rough.map(c, c)
            let pu = rough.map(c + 1, c), pv = rough.map(c, c + 1)
            let contrast = finderContrast(img, tl, ax: ax, ay: ay, bx: bx, by: by)
            let found = findAlignment(
                img, near: predicted, ax: pu.x - predicted.x, ay: pu.y - predicted.y,
                bx: pv.x - predicted.x, by: pv.y - predicted.y,
                radius: outline == nil ? 4 + s / 25 : 2.5 + s / 50, inverted: inverted, contrast: contrast)
            let ap = found ?? predicted
            if outline != nil {
                for _ in 0..<4 { from.append(Point(x: c, y: c)); to.append(ap) }
                transform = PerspectiveTransform.fitting(from: from, to: to) ?? rough
            } else {
                transform = .quadrilateralToQuadrilateral(
                    from: Point(x: 3.5, y: 3.5), Point(x: s - 3.5, y: 3.5), Point(x: c, y: c),
                    Point(x: 3.5, y: s - 3.5),
                    to: tl, tr, ap, bl)
            }
        }
        // From version 7 on, every alignment pattern corrects the grid
        // locally (lens distortion bends a large symbol's rows).
        var local: QRLocalGrid? = nil
        if alignment && size >= 45 {
            let contrast = finderContrast(img, tl, ax: ax, ay: ay, bx: bx, by: by)
            local = localGrid(img, transform, size: size, inverted: inverted, contrast: contrast)
        }
        var shifts: QRTimingShifts? = nil
        if bend && local == nil { shifts = timingShifts(img, transform, size: size, inverted: inverted) }
        gridsSampled += 1
        guard
            let matrix = sampleGrid(
                img, transform, width: size, height: size, inverted: inverted, local: local, rule: rule,
                shifts: shifts)
        else { return nil }
        func corner(_ u: Double, _ v: Double) -> Point { local?.map(u, v) ?? transform.map(u, v) }
        return (matrix, (corner(0, 0), corner(s, 0), corner(s, s), corner(0, s)))
    }

    /// The first grid of `sampleQR`, before any alignment pattern: fitted to
    /// the three finder pattern centres `tl`, `tr`, `bl` and, with their
    /// outlines, to their twelve outer corners and the fourth corner where
    /// their edges meet, then (with `timing`) to the boundaries between the
    /// timing patterns' modules (ISO/IEC 18004:2015, 6.3.5); without
    /// outlines, the parallelogram of the three centres. Also returns the
    /// points it was fitted to, module coordinates and frame positions.
    func roughGrid(
        _ img: LumaView, _ tl: Point, _ tr: Point, _ bl: Point, outline: Outline?, size: Int,
        timing: Bool, inverted: Bool
    ) -> (PerspectiveTransform, [Point], [Point]) {
        let s = Double(size)
        var from: [Point] = [Point(x: 3.5, y: 3.5), Point(x: s - 3.5, y: 3.5), Point(x: 3.5, y: s - 3.5)]
        var to: [Point] = [tl, tr, bl]
        var rough: PerspectiveTransform
        if let o = outline {
            from += Outline.moduleCorners(size: size)
            to += o.corners
            rough =
                PerspectiveTransform.fitting(from: from + [Point(x: s, y: s)], to: to + [o.bottomRight])
                ?? .quadrilateralToQuadrilateral(
                    from: Point(x: 0, y: 0), Point(x: s, y: 0), Point(x: s, y: s), Point(x: 0, y: s),
                    to: o.corners[0], o.corners[5], o.bottomRight, o.corners[11])
        } else {
            let br = Point(x: tr.x + bl.x - tl.x, y: tr.y + bl.y - tl.y)
            rough = .quadrilateralToQuadrilateral(
                from: Point(x: 3.5, y: 3.5), Point(x: s - 3.5, y: 3.5), Point(x: s - 3.5, y: s - 3.5),
                Point(x: 3.5, y: s - 3.5),
                to: tl, tr, br, bl)
        }
        // The timing patterns (row and column 6) add points between the
        // finder patterns: every boundary between two of their modules.
        if outline != nil && timing {
            let before = from.count
            timingPoints(img, rough, size: size, column: false, inverted: inverted, from: &from, to: &to)
            timingPoints(img, rough, size: size, column: true, inverted: inverted, from: &from, to: &to)
            if from.count > before + 4, let refined = PerspectiveTransform.fitting(from: from, to: to) {
                rough = refined
            }
        }
        return (rough, from, to)
    }

    /// The module centres of the alignment patterns' rows and columns of a
    /// QR Code symbol of `version` (ISO/IEC 18004:2015, 6.3.6 and its table
    /// of alignment pattern positions): the first at 6, the last 7 modules
    /// in from the far edge, the others spaced evenly (an even spacing, the
    /// odd remainder going to the first gap), 26 apart in version 32.
    static func alignmentCoordinates(version: Int) -> [Int] {
        guard version >= 2 else { return [] }
        let size = 17 + 4 * version
        let count = version / 7 + 2
        let last = size - 7
        let stepSize = version == 32 ? 26 : ((last - 6 + (count - 1) * 2 - 1) / ((count - 1) * 2)) * 2
        var c = [6]
        for k in stride(from: count - 2, through: 0, by: -1) { c.append(last - k * stepSize) }
        return c
    }

    /// Locates every alignment pattern of a symbol of `size` modules near
    /// where `transform` puts it (within 1.5 modules) and returns the grid
    /// of local transforms between them; a pattern not found keeps the
    /// place `transform` gives it, as do the three places under the finder
    /// patterns.
    func localGrid(
        _ img: LumaView, _ transform: PerspectiveTransform, size: Int, inverted: Bool,
        contrast: Double
    ) -> QRLocalGrid? {
        let coords = QRDetector.alignmentCoordinates(version: (size - 17) / 4)
        let k = coords.count
        guard k >= 3 else { return nil }
        var control = [Point](repeating: Point(x: 0, y: 0), count: k * k)
        var found = 0
        for j in 0..<k {
            for i in 0..<k {
                let cx = Double(coords[i]) + 0.5, cy = Double(coords[j]) + 0.5
                let predicted = transform.map(cx, cy)
                control[j * k + i] = predicted
                if (i == 0 && j == 0) || (i == k - 1 && j == 0) || (i == 0 && j == k - 1) { continue }
                let pu = transform.map(cx + 1, cy), pv = transform.map(cx, cy + 1)
                if let p = findAlignment(
                    img, near: predicted, ax: pu.x - predicted.x, ay: pu.y - predicted.y,
                    bx: pv.x - predicted.x, by: pv.y - predicted.y, radius: 1.5,
                    inverted: inverted, contrast: contrast)
                {
                    control[j * k + i] = p
                    found += 1
                }
            }
        }
        guard found > 0 else { return nil }
        var cells: [PerspectiveTransform] = []
        cells.reserveCapacity((k - 1) * (k - 1))
        for j in 0..<(k - 1) {
            for i in 0..<(k - 1) {
                let u0 = Double(coords[i]) + 0.5, u1 = Double(coords[i + 1]) + 0.5
                let v0 = Double(coords[j]) + 0.5, v1 = Double(coords[j + 1]) + 0.5
                cells.append(
                    .quadrilateralToQuadrilateral(
                        from: Point(x: u0, y: v0), Point(x: u1, y: v0), Point(x: u1, y: v1), Point(x: u0, y: v1),
                        to: control[j * k + i], control[j * k + i + 1], control[(j + 1) * k + i + 1],
                        control[(j + 1) * k + i]))
            }
        }
        return QRLocalGrid(positions: coords.map { Double($0) + 0.5 }, cells: cells)
    }

    /// Finds the boundaries between the modules of a QR Code timing pattern
    /// (row 6, or column 6 when `column`; ISO/IEC 18004:2015, 6.3.5), from
    /// the top-left finder pattern's dark ring to the next pattern's, where
    /// `grid` (module to frame coordinates) puts them, and appends each
    /// boundary within 0.35 modules of a whole module position, as module
    /// and frame position, to `from` and `to`.
    func timingPoints(
        _ img: LumaView, _ grid: PerspectiveTransform, size: Int, column: Bool, inverted: Bool,
        from: inout [Point], to: inout [Point]
    ) {
        let step = 0.1
        let sign: Double = inverted ? -1 : 1
        func level(_ t: Double) -> Double? {
            lightness(img, column ? grid.map(6.5, t) : grid.map(t, 6.5), sign: sign)
        }
        var t = 6.5
        let end = Double(size) - 6.5
        guard var previous = level(t) else { return }
        while t < end {
            guard let next = level(t + step) else { return }
            if (previous > 0) != (next > 0) {
                let at = t + step * previous / (previous - next)
                let k = at.rounded()
                if abs(at - k) < 0.35 {
                    from.append(column ? Point(x: 6.5, y: k) : Point(x: k, y: 6.5))
                    to.append(column ? grid.map(6.5, at) : grid.map(at, 6.5))
                }
            }
            previous = next
            t += step
        }
    }

    /// How far the timing patterns' module boundaries (row 6 and column
    /// 6, ISO/IEC 18004:2015, 6.3.5) lie from where `grid` puts them, as
    /// one shift per column (from row 6) and one per row (from column 6),
    /// interpolated between the boundaries found and zero at the finder
    /// pattern centres. Added to every module of its column and row, they
    /// follow paper bent about one axis, which no single projective grid
    /// fits. `nil` when either timing pattern shows too few boundaries.
    func timingShifts(_ img: LumaView, _ grid: PerspectiveTransform, size: Int, inverted: Bool) -> QRTimingShifts? {
        func table(column: Bool) -> [Point]? {
            var from: [Point] = [], to: [Point] = []
            timingPoints(img, grid, size: size, column: column, inverted: inverted, from: &from, to: &to)
            guard from.count >= (size - 14) / 2 else { return nil }
            // Known shifts by module position, the finder centres fixed.
            var at: [(Double, Point)] = [(3.5, Point(x: 0, y: 0))]
            for k in 0..<from.count {
                let t = column ? from[k].y : from[k].x
                let q = column ? grid.map(6.5, t) : grid.map(t, 6.5)
                at.append((t, Point(x: to[k].x - q.x, y: to[k].y - q.y)))
            }
            at.append((Double(size) - 3.5, Point(x: 0, y: 0)))
            at.sort { $0.0 < $1.0 }
            var out = [Point](repeating: Point(x: 0, y: 0), count: size)
            var j = 0
            for i in 0..<size {
                let t = Double(i) + 0.5
                while j + 2 < at.count && at[j + 1].0 <= t { j += 1 }
                let (t0, a) = at[j], (t1, b) = at[j + 1]
                let f = t1 > t0 ? min(max((t - t0) / (t1 - t0), 0), 1) : 0
                out[i] = Point(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f)
            }
            return out
        }
        guard let column = table(column: false), let row = table(column: true) else { return nil }
        return QRTimingShifts(column: column, row: row)
    }

    /// Samples every module centre of a `width` x `height` grid through
    /// `transform` (module to frame coordinates), or through `local`'s
    /// piecewise transforms when given.
    ///
    /// Each module's luma is compared with a threshold at the symbol's own
    /// scale, the middle of the darkest and lightest module centres within
    /// 3 modules (the pixel blocks' threshold where those are too alike),
    /// after a
    /// mild sharpening on the module grid (the luma plus half its difference
    /// from the mean of its four neighbours), which restores the contrast
    /// that blur takes from a lone light module among dark ones, and the
    /// reverse.
    func sampleGrid(
        _ img: LumaView, _ transform: PerspectiveTransform, width: Int, height: Int,
        inverted: Bool, local: QRLocalGrid? = nil, rule: SampleRule = .moduleScale,
        shifts: QRTimingShifts? = nil
    ) -> BitMatrix? {
        // The symbol must lie in the frame (a module's width of slack). On
        // still pictures the corner without a finder pattern may lie beyond
        // the frame (a symbol cut by the picture's edge, or a corner that
        // strong perspective puts further than three finder patterns tell):
        // its modules read as the edge's pixels, errors that Reed-Solomon
        // decoding corrects or refuses.
        let m = max(transform.map(0, 0).distance(to: transform.map(1, 0)), 0.5)
        let w = Double(width), h = Double(height)
        guard QRDetector.inside(img, transform.map(0, 0), margin: m),
            QRDetector.inside(img, transform.map(w, 0), margin: m),
            options.rescueFailedSymbols || QRDetector.inside(img, transform.map(w, h), margin: m),
            QRDetector.inside(img, transform.map(0, h), margin: m)
        else { return nil }
        let n = width * height
        moduleLuma.reserve(n); moduleThreshold.reserve(n)
        let lp = moduleLuma.pointer, tp = moduleThreshold.pointer
        // The local grid's cell of each module column (first) and row.
        var columnCell: UnsafeMutablePointer<Int>? = nil, rowCell: UnsafeMutablePointer<Int>? = nil
        if let local {
            gridCells.reserve(width + height)
            columnCell = gridCells.pointer
            rowCell = gridCells.pointer + width
            for x in 0..<width { columnCell![x] = local.cell(Double(x) + 0.5) }
            for y in 0..<height { rowCell![y] = local.cell(Double(y) + 0.5) }
        }
        func sample(
            _ cells: UnsafeBufferPointer<PerspectiveTransform>, _ cellsPerRow: Int,
            _ column: UnsafeBufferPointer<Point>, _ row: UnsafeBufferPointer<Point>
        ) {
            for y in 0..<height {
                let v = Double(y) + 0.5
                let rowBase = rowCell.map { $0[y] * cellsPerRow } ?? 0
                for x in 0..<width {
                    let u = Double(x) + 0.5
                    var p = columnCell.map { cells[rowBase + $0[x]].map(u, v) } ?? transform.map(u, v)
                    if !column.isEmpty {
                        p.x += column[x].x + row[y].x
                        p.y += column[x].y + row[y].y
                    }
                    lp[y * width + x] = QRDetector.luma(img, p)
                    tp[y * width + x] = Double(thresholds.threshold(x: Int(p.x + 0.5), y: Int(p.y + 0.5)))
                }
            }
        }
        let cells = local?.cells ?? []
        let cellsPerRow = max(1, (local?.positions.count ?? 2) - 1)
        let columnShifts = shifts?.column ?? [], rowShifts = shifts?.row ?? []
        cells.withUnsafeBufferPointer { c in
            columnShifts.withUnsafeBufferPointer { cs in
                rowShifts.withUnsafeBufferPointer { rs in sample(c, cellsPerRow, cs, rs) }
            }
        }
        // Per module, the middle of the darkest and lightest module within
        // 3 modules (separable: along rows, then columns), where there is
        // contrast; else the pixel blocks' threshold.
        moduleLow.reserve(n); moduleHigh.reserve(n)
        let lo = moduleLow.pointer, hi = moduleHigh.pointer
        windowLow.reserve(max(width, height)); windowHigh.reserve(max(width, height))
        for y in 0..<height {
            QRDetector.windowExtremes(
                count: width, step: 1, low: lp + y * width, high: lp + y * width,
                into: (lo + y * width, hi + y * width), (windowLow.pointer, windowHigh.pointer))
        }
        for x in 0..<width {
            QRDetector.windowExtremes(
                count: height, step: width, low: lo + x, high: hi + x,
                into: (lo + x, hi + x), (windowLow.pointer, windowHigh.pointer))
        }
        let minContrast = Double(options.minContrast)
        if rule != .pixelBlocks {
            for i in 0..<n where hi[i] - lo[i] >= minContrast { tp[i] = (lo[i] + hi[i]) / 2 }
        }
        var matrix = BitMatrix(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                var sum = 0.0, count = 0.0
                if x > 0 { sum += lp[i - 1]; count += 1 }
                if x + 1 < width { sum += lp[i + 1]; count += 1 }
                if y > 0 { sum += lp[i - width]; count += 1 }
                if y + 1 < height { sum += lp[i + width]; count += 1 }
                let v = count > 0 && rule == .moduleScale ? lp[i] + 0.5 * (lp[i] - sum / count) : lp[i]
                if (v < tp[i]) != inverted { matrix[x, y] = true }
            }
        }
        return matrix
    }

    /// The least of `low` and the greatest of `high` within 3 places
    /// either way (clipped to `0 ..< count`) of each of `count` places
    /// `step` apart, written to `into` (which may be `low` and `high`
    /// themselves): over the 4 places from each place first
    /// (`scratch`), then the two such spans that cover each window, 3
    /// comparisons a place instead of 7.
    @inline(__always)
    static func windowExtremes(
        count: Int, step: Int,
        low: UnsafeMutablePointer<Double>, high: UnsafeMutablePointer<Double>,
        into out: (UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>),
        _ scratch: (UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>)
    ) {
        guard count > 0 else { return }
        let last = count - 1
        let a = scratch.0, b = scratch.1
        // Pairs, then spans of 4: place k covers k ... min(k + 3, last).
        for k in 0..<count {
            let k1 = min(k + 1, last)
            a[k] = min(low[k * step], low[k1 * step])
            b[k] = max(high[k * step], high[k1 * step])
        }
        for k in 0..<count {
            let k2 = min(k + 2, last)
            a[k] = min(a[k], a[k2])
            b[k] = max(b[k], b[k2])
        }
        // The window k - 3 ... k + 3 is the span from k - 3 (from 0 near
        // the start, which reaches no further than k + 3) and the span from k.
        for k in 0..<count {
            let k0 = max(k - 3, 0)
            out.0[k * step] = min(a[k0], a[k])
            out.1[k * step] = max(b[k0], b[k])
        }
    }

    /// How ``sampleGrid(_:_:width:height:inverted:local:rule:)`` tells dark
    /// modules from light ones.
    enum SampleRule {
        /// The threshold at the symbol's own scale, after the mild
        /// sharpening on the module grid: the first reading.
        case moduleScale
        /// The same threshold without the sharpening, which can invent
        /// modules where the print bleeds or the paper bends.
        case plain
        /// The pixel blocks' threshold (``BlockThreshold``), unsharpened:
        /// follows light that changes faster than 7 modules.
        case pixelBlocks
    }
}
