#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The symbol's grid: its corners, size and clock tracks.
extension DMDetector {
    /// From the finder's corner and arm ends to a decoded symbol.
    func locate(
        _ img: LumaView, corner: Point, bottomEnd: Point, leftEnd: Point, far: Point? = nil, dark: Bool
    ) -> DMCandidate? {
        var bl = corner, br = bottomEnd, tl = leftEnd
        let c0 = Point(x: (tl.x + br.x) / 2, y: (tl.y + br.y) / 2)
        // Arm thickness first: a module.
        guard
            let (left0, tLeft) = fitEdge(
                img, bl, tl, normal: normal(bl, tl, towards: c0), outside: 3, depth: 20,
                dark: dark, dashed: false, module: 3),
            let (bottom0, tBottom) = fitEdge(
                img, bl, br, normal: normal(bl, br, towards: c0), outside: 3, depth: 20,
                dark: dark, dashed: false, module: 3)
        else { trace?("no arm edges"); return nil }
        var module = max(1.0, DMDetector.module(tLeft, tBottom))
        trace?("arm thickness \(tLeft) \(tBottom)")
        var leftLine = left0, bottomLine = bottom0
        // Refit the solid arms with the module known. The component holds
        // the whole arm, so its edge lies no further out than the first
        // fit: a refit further out met other ink beyond a narrow quiet
        // zone (a frame, a textured surface) and is not taken.
        func outward(_ l: DMLine, _ first: DMLine, _ a: Point, _ b: Point) -> Bool {
            max(l.distance(project(a, first)), l.distance(project(b, first))) > max(1.5, 0.25 * module)
        }
        var refitLeft: Double?
        if let (l, t) = fitEdge(
            img, bl, tl, normal: normal(bl, tl, towards: c0), outside: 1.5 * module + 2,
            depth: 3 * module + 4, dark: dark, dashed: false, module: module),
            !outward(l, left0, bl, tl)
        {
            leftLine = l; module = t; refitLeft = t
        }
        if let (l, t) = fitEdge(
            img, bl, br, normal: normal(bl, br, towards: c0), outside: 1.5 * module + 2,
            depth: 3 * module + 4, dark: dark, dashed: false, module: module),
            !outward(l, bottom0, bl, br)
        {
            bottomLine = l; module = refitLeft.map { DMDetector.module($0, t) } ?? (module + t) / 2
        }
        module = max(1.0, module)
        guard let p = leftLine.intersection(bottomLine) else { return nil }
        bl = p
        // Arm ends projected onto the lines.
        tl = project(tl, leftLine)
        br = project(br, bottomLine)
        let shorterArm = min(tl.distance(to: bl), br.distance(to: bl))
        // Video frames: arms too short for any symbol's finder. The
        // smallest symbols have sides of 8 modules (ISO/IEC 16022:2006,
        // Table 7, 8x18; ISO/IEC 21471, 8x48), and the arm's measured
        // thickness is a module widened by blur: under 4.5 of them, the
        // clock tracks' search below would find no grid (blobs, corners of
        // frames and text), at a good part of a frame's Data Matrix search.
        if !options.thorough && shorterArm < 4.5 * module {
            trace?("arms of \(tl.distance(to: bl) / module) and \(br.distance(to: bl) / module) modules: too short")
            return nil
        }
        // Perspective can move the far corner by a good part of a side.
        let reach = 0.2 * shorterArm
        // The clock tracks: the likeliest edges, then the runners-up when
        // those gave a grid close to a symbol's (the edge of a label's text
        // above the symbol taken for its clock track, say). Runners-up
        // after a grid far from any symbol's read none in still pictures
        // either, at a good part of the Data Matrix search's cost.
        bestPattern = 0
        for (k, (pt, pr)) in DMDetector.clockPicks.enumerated() {
            if k > 0 && bestPattern < DMDetector.nearlyAGrid { break }
            if let c = finishLocate(
                img, bl: bl, tl: tl, br: br, leftLine: leftLine, bottomLine: bottomLine,
                module: module, reach: reach, dark: dark, pickTop: pt, pickRight: pr)
            {
                return c
            }
        }
        // Still pictures: under a steep perspective the far corner lies
        // far from where the parallelogram of the arms puts it, and the
        // clock tracks run at an angle their search does not turn to; the
        // outline's far corner (``examine(_:root:dark:)``) guides them then.
        if options.thorough, let far, far.distance(to: Point(x: tl.x + br.x - bl.x, y: tl.y + br.y - bl.y)) > reach,
            let c = finishLocate(
                img, bl: bl, tl: tl, br: br, leftLine: leftLine, bottomLine: bottomLine,
                module: module, reach: reach, dark: dark, pickTop: 0, pickRight: 0, far: far)
        {
            return c
        }
        return options.thorough ? fitGrid(img, bl: bl, tl: tl, br: br, dark: dark) : nil
    }

    /// How much the point looks like ink: -1 (light) ... 1 (ink), against
    /// the threshold ``isInk(_:_:dark:)`` uses; 24 grey levels from it
    /// count fully.
    @inline(__always)
    func inkScore(_ img: LumaView, _ p: Point, dark: Bool) -> Double {
        guard p.x >= 0, p.y >= 0, p.x < Double(img.width), p.y < Double(img.height) else { return 0 }
        var th = Double(thresholds.threshold(x: Int(p.x), y: Int(p.y)))
        if let s = symbolThreshold { th = (th + s) / 2 }
        let d = (th - DMDetector.luma(img, p.x, p.y)) / 24
        return max(-1, min(1, dark ? d : -d))
    }

    /// How well the clock tracks of a `rows` by `cols` grid through `t`
    /// read (ISO/IEC 16022:2006, 5.1.1: the top row and right column
    /// alternate, ink at the finder's ends): the mean ink score of their
    /// module centres, negated where they should be light; 1 at best, about
    /// 0 for data or plain paper. The solid finder is left out: it reads
    /// alike for every size.
    func clockScore(_ img: LumaView, _ t: PerspectiveTransform, rows: Int, cols: Int, dark: Bool) -> Double {
        let fr = Double(rows), fc = Double(cols)
        // ``inkScore(_:_:dark:)`` with what it reads from the detector held
        // here: the grid fit of still pictures scores many grids.
        let thresholds = self.thresholds, symbol = symbolThreshold
        let width = Double(img.width), height = Double(img.height)
        @inline(__always) func ink(_ p: Point) -> Double {
            guard p.x >= 0, p.y >= 0, p.x < width, p.y < height else { return 0 }
            var th = Double(thresholds.threshold(x: Int(p.x), y: Int(p.y)))
            if let s = symbol { th = (th + s) / 2 }
            let d = (th - DMDetector.luma(img, p.x, p.y)) / 24
            return max(-1, min(1, dark ? d : -d))
        }
        var sum = 0.0
        for c in 0..<cols {
            let top = ink(t.map((Double(c) + 0.5) / fc, 0.5 / fr))
            sum += c % 2 == 0 ? top : -top
        }
        for r in 0..<rows {
            let right = ink(t.map(1 - 0.5 / fc, (Double(r) + 0.5) / fr))
            sum += (rows - 1 - r) % 2 == 0 ? right : -right
        }
        return sum / Double(rows + cols)
    }

    /// Still pictures whose clock tracks' edges lead nowhere (a narrow
    /// quiet zone in clutter, faint dotted clock modules): the grid is
    /// fitted to the clock tracks themselves. For every size the finder's
    /// arms allow, the arm ends slide along the arms and the far corner
    /// moves freely, from the parallelogram the arms span, to where the
    /// clock modules read best (``clockScore(_:_:rows:cols:dark:)``); the
    /// best fitting sizes are sampled and decoded.
    func fitGrid(_ img: LumaView, bl: Point, tl: Point, br: Point, dark: Bool) -> DMCandidate? {
        let hLen = bl.distance(to: tl), wLen = bl.distance(to: br)
        guard hLen >= Double(options.minArm), wLen >= Double(options.minArm) else { return nil }
        let ul = Point(x: (tl.x - bl.x) / hLen, y: (tl.y - bl.y) / hLen)
        let ub = Point(x: (br.x - bl.x) / wLen, y: (br.y - bl.y) / wLen)
        // Parameters: the arm ends' shifts along the arms, the far corner's
        // shift from the parallelogram.
        func corners(_ p: [Double]) -> [Point] {
            let a = Point(x: tl.x + ul.x * p[0], y: tl.y + ul.y * p[0])
            let b = Point(x: br.x + ub.x * p[1], y: br.y + ub.y * p[1])
            let c = Point(x: a.x + b.x - bl.x + p[2], y: a.y + b.y - bl.y + p[3])
            return [a, c, b, bl]
        }
        var fits: [(rows: Int, cols: Int, quad: [Point], score: Double)] = []
        var lattice = [Double](repeating: 0, count: 81)
        var climbed: [(Double, Double, Double, Double, Double)] = []
        climbed.reserveCapacity(160)
        for v in DMVersion.all {
            let shapes = v.rows == v.columns ? [(v.rows, v.columns)] : [(v.rows, v.columns), (v.columns, v.rows)]
            for (rows, cols) in shapes {
                let mr = hLen / Double(rows), mc = wLen / Double(cols)
                let m = min(mr, mc)
                guard m >= 1.2, max(mr, mc) <= 1.4 * m else { continue }
                func score(_ p: [Double]) -> Double {
                    let q = corners(p)
                    let t = PerspectiveTransform.squareToQuadrilateral(q[0], q[1], q[2], q[3])
                    return clockScore(img, t, rows: rows, cols: cols, dark: dark)
                }
                // The far corner first, on a coarse lattice of half modules.
                var p = [0.0, 0.0, 0.0, 0.0]
                var best = -Double.infinity
                for i in -4...4 {
                    for j in -4...4 {
                        let q = [0.0, 0.0, Double(i) * 0.5 * m, Double(j) * 0.5 * m]
                        let s = score(q)
                        lattice[(i + 4) * 9 + j + 4] = s
                        if s > best { best = s; p = q }
                    }
                }
                // Then all four parameters, in ever finer steps. The climb
                // comes back to grids scored already (a step undone, the
                // lattice's points): their scores are looked up, not
                // measured again (the same parameters, bit for bit).
                climbed.removeAll(keepingCapacity: true)
                func known(_ q: [Double]) -> Double? {
                    if q[0] == 0 && q[1] == 0 {
                        let i = (q[2] / (0.5 * m)).rounded(), j = (q[3] / (0.5 * m)).rounded()
                        if abs(i) <= 4 && abs(j) <= 4 && i * 0.5 * m == q[2] && j * 0.5 * m == q[3] {
                            return lattice[(Int(i) + 4) * 9 + Int(j) + 4]
                        }
                    }
                    for e in climbed where e.0 == q[0] && e.1 == q[1] && e.2 == q[2] && e.3 == q[3] { return e.4 }
                    return nil
                }
                var step = 0.5 * m
                while step >= 0.1 * m {
                    var improved = true, rounds = 0
                    while improved && rounds < 6 {
                        improved = false; rounds += 1
                        for i in 0..<4 {
                            for sign in [-1.0, 1.0] {
                                var q = p
                                q[i] += sign * step
                                let s: Double
                                if let k = known(q) {
                                    s = k
                                } else {
                                    s = score(q)
                                    climbed.append((q[0], q[1], q[2], q[3], s))
                                }
                                if s > best + 1e-9 { best = s; p = q; improved = true }
                            }
                        }
                    }
                    step /= 2
                }
                trace?("fit \(rows)x\(cols): \(best)")
                fits.append((rows, cols, corners(p), best))
            }
        }
        fits.sort { $0.score > $1.score }
        for f in fits.prefix(3) where f.score >= 0.3 {
            trace?(
                "fitted \(f.rows)x\(f.cols) \(f.quad.map { "(\(($0.x * 10).rounded() / 10),\(($0.y * 10).rounded() / 10))" })"
            )
            let module =
                (f.quad[3].distance(to: f.quad[0]) / Double(f.rows)
                    + f.quad[3].distance(to: f.quad[2]) / Double(f.cols)) / 2
            if let v = DMVersion.version(rows: f.rows, columns: f.cols),
                let c = read(img, quad: f.quad, v, mirrored: false, module: module, dark: dark)
            {
                return c
            }
            if let v = DMVersion.version(rows: f.cols, columns: f.rows),
                let c = read(img, quad: f.quad, v, mirrored: true, module: module, dark: dark)
            {
                return c
            }
        }
        return nil
    }

    /// The module size from the two arms' ink thickness: their mean, or the
    /// thinner one's where the other is nearly half again as thick (along
    /// most of a short arm, dark data modules beside it merge with it and
    /// add a module; foreshortening on a curved surface narrows an arm by
    /// less).
    static func module(_ a: Double, _ b: Double) -> Double {
        max(a, b) >= 1.45 * min(a, b) ? min(a, b) : (a + b) / 2
    }

    /// The clock tracks, the size and the sampling, from the fitted arms.
    func finishLocate(
        _ img: LumaView, bl: Point, tl tl0: Point, br br0: Point, leftLine: DMLine,
        bottomLine: DMLine, module: Double, reach: Double, dark: Bool,
        pickTop: Int, pickRight: Int, far: Point? = nil
    ) -> DMCandidate? {
        var tl = tl0, br = br0
        var tr = far ?? Point(x: tl.x + br.x - bl.x, y: tl.y + br.y - bl.y)
        func better(_ new: DMLine, than old: DMLine, _ a: Point, _ b: Point) -> Bool {
            alternation(img, new, a, b, module: module, dark: dark)
                >= alternation(img, old, a, b, module: module, dark: dark)
        }
        // The clock tracks: fitted twice, the second time from the corners of the first.
        var topLine = DMLine(a: 0, b: 0, c: 0), rightLine = topLine
        for round in 0..<2 {
            let c = Point(x: (tl.x + br.x) / 2, y: (tl.y + br.y) / 2)
            let outside = round == 0 ? 2 * module + 2 + reach : 2 * module + 2
            let depth = 2 * module + 2 + (round == 0 ? reach : 0)
            let anchor: Double? = round == 0 ? nil : 2 * module + 1
            guard
                let t = clockLine(
                    img, tl, tr, towards: c, outside: outside, inside: depth, dark: dark, module: module,
                    anchor: anchor, pick: round == 0 ? pickTop : 0),
                let r = clockLine(
                    img, br, tr, towards: c, outside: outside, inside: depth, dark: dark, module: module,
                    anchor: anchor, pick: round == 0 ? pickRight : 0)
            else {
                trace?("no clock edges"); return nil
            }
            // The second fit, anchored near the first, can settle on the
            // data row inside a track whose light modules lie over dark
            // data (those points outnumber the dark modules' edges): it is
            // kept only where the track alternates at least as well along it.
            if round == 0 || better(t, than: topLine, tl, tr) { topLine = t }
            if round == 0 || better(r, than: rightLine, br, tr) { rightLine = r }
            guard let ntl = leftLine.intersection(topLine), let ntr = topLine.intersection(rightLine),
                let nbr = rightLine.intersection(bottomLine)
            else { return nil }
            tl = ntl; tr = ntr; br = nbr
        }
        // Sanity: a convex quadrilateral of reasonable size.
        let wTop = tl.distance(to: tr), wBottom = bl.distance(to: br)
        let hLeft = tl.distance(to: bl), hRight = tr.distance(to: br)
        guard wTop > 4 * module, hLeft > 4 * module, wTop < 3 * wBottom, wBottom < 3 * wTop,
            hLeft < 3 * hRight, hRight < 3 * hLeft
        else {
            trace?("bad shape \([tl, tr, br, bl]) module \(module)"); return nil
        }
        let quad = [tl, tr, br, bl]
        trace?(
            "corners \(quad.map { "(\(($0.x * 10).rounded() / 10),\(($0.y * 10).rounded() / 10))" }) module \(module)")
        // Module counts along the clock tracks.
        let transform = PerspectiveTransform.squareToQuadrilateral(tl, tr, br, bl)
        let cols0 = (wTop + wBottom) / 2 / module, rows0 = (hLeft + hRight) / 2 / module
        let cols = countClock(img, transform, top: true, across: cols0, other: rows0, dark: dark)
        let rows = countClock(img, transform, top: false, across: rows0, other: cols0, dark: dark)
        // Sizes to try: the count, then those near it and near the estimate.
        var tries: [(DMVersion, Bool)] = []
        func add(_ r: Int, _ c: Int) {
            if let v = DMVersion.version(rows: r, columns: c), !tries.contains(where: { $0.0 == v && !$0.1 }) {
                tries.append((v, false))
            }
            if let v = DMVersion.version(rows: c, columns: r), !tries.contains(where: { $0.0 == v && $0.1 }) {
                tries.append((v, true))
            }
        }
        add(rows, cols)
        // One track misread (a curved surface squeezes one axis): the square
        // sizes of either count.
        if rows != cols { add(rows, rows); add(cols, cols) }
        trace?("clock count \(rows)x\(cols), estimate \(rows0)x\(cols0)")
        if options.thorough || tries.isEmpty {
            let near = DMVersion.all.map { v -> (DMVersion, Double) in
                let d1 = abs(Double(v.rows - rows)) + abs(Double(v.columns - cols))
                let d2 = abs(Double(v.rows) - rows0) + abs(Double(v.columns) - cols0)
                return (v, min(d1, d2 * 1.5))
            }.sorted { $0.1 < $1.1 }
            for (v, d) in near.prefix(4) where d <= 6 { add(v.rows, v.columns) }
        }
        for (v, mirrored) in tries.prefix(options.thorough ? 12 : 3) {
            if let c = read(img, quad: quad, v, mirrored: mirrored, module: module, dark: dark) { return c }
        }
        return nil
    }
}
