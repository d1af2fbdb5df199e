#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sampling the modules along the clock tracks into a matrix.
extension DMDetector {
    /// Samples and decodes the symbol of size `v` in `quad` (top-left,
    /// top-right, bottom-right, bottom-left as seen, the finder's corner
    /// last); `mirrored` reads it transposed, as a mirror image.
    func read(
        _ img: LumaView, quad: [Point], _ v: DMVersion, mirrored: Bool, module: Double,
        dark: Bool
    ) -> DMCandidate? {
        let tl = quad[0], tr = quad[1], br = quad[2], bl = quad[3]
        let t =
            mirrored
            ? PerspectiveTransform.squareToQuadrilateral(br, tr, tl, bl)
            : PerspectiveTransform.squareToQuadrilateral(tl, tr, br, bl)
        // Pixel thresholds first, then thresholds from the sampled grid
        // itself; for still pictures, the grid nudged by a fifth of a module.
        let shifts: [(Double, Double)] =
            options.thorough
            ? [(0, 0), (0.2, 0), (-0.2, 0), (0, 0.2), (0, -0.2), (0.2, 0.2), (-0.2, -0.2), (0.2, -0.2), (-0.2, 0.2)]
            : [(0, 0)]
        // Module centres from the clock tracks, when they read cleanly
        // (made when first wanted: most grids read or fail before).
        var gu: [Double]? = nil, gv: [Double]? = nil
        var guidesMade = false, guided = false
        var unguided = 0.0
        for (k, shift) in shifts.enumerated() {
            for method in 0..<4 {
                if method >= 2 {
                    if k == 0 && unguided < DMDetector.guideGate { return nil }
                    if !guidesMade {
                        guidesMade = true
                        gu = clockGuide(img, t, top: true, count: v.columns, other: v.rows, dark: dark)
                        gv = clockGuide(img, t, top: false, count: v.rows, other: v.columns, dark: dark)
                        if options.thorough {
                            // Tracks that do not count cleanly: the template fitted to them.
                            if gu == nil {
                                gu = elasticGuide(img, t, top: true, count: v.columns, other: v.rows, dark: dark)
                            }
                            if gv == nil {
                                gv = elasticGuide(img, t, top: false, count: v.rows, other: v.columns, dark: dark)
                            }
                        }
                        guided = gu != nil || gv != nil
                    }
                    if !guided { break }
                }
                let m = sample(
                    img, t, rows: v.rows, cols: v.columns, dark: dark, gridThreshold: method & 1 == 1,
                    du: shift.0, dv: shift.1, guides: method >= 2 ? (gu, gv) : (nil, nil))
                let score = patternScore(m)
                if method < 2 { unguided = max(unguided, score) }
                if k == 0 && method == 0 {
                    bestPattern = max(bestPattern, score)
                    trace?("try \(v.rows)x\(v.columns) mirrored \(mirrored): pattern \(score)")
                    if trace != nil {
                        for y in 0..<m.height { trace?(String((0..<m.width).map { m[$0, y] ? "#" : "." })) }
                    }
                }
                guard score >= 0.75 else { continue }
                let decoded = DMDecoder.decodeOnce(m, mirrored: mirrored)
                trace?("  shift \(shift) method \(method): \(decoded)")
                if case .success(var d) = decoded {
                    d.mirrored = mirrored
                    let corners = mirrored ? [br, tr, tl, bl] : quad
                    return DMCandidate(
                        decoded: d, corners: corners.map { Point(x: $0.x - 0.5, y: $0.y - 0.5) },
                        isInverted: !dark, moduleSize: module)
                }
            }
            // Nudging only helps a grid that is nearly right.
            if k == 0
                && patternScore(
                    sample(
                        img, t, rows: v.rows, cols: v.columns, dark: dark, gridThreshold: false,
                        du: 0, dv: 0)) < 0.85
            {
                break
            }
        }
        return nil
    }

    /// The outer edge of a clock track along `a`→`b`: fitted both from
    /// outside inwards (first ink) and from inside outwards (last ink before
    /// the quiet zone); the one along which the track alternates best.
    func clockLine(
        _ img: LumaView, _ a: Point, _ b: Point, towards c: Point, outside: Double, inside: Double,
        dark: Bool, module: Double, anchor: Double? = nil, pick: Int = 0
    ) -> DMLine? {
        let n = normal(a, b, towards: c)
        let first = fitEdge(
            img, a, b, normal: n, outside: outside, depth: outside + inside + 2 * module,
            dark: dark, dashed: true, module: module, anchor: anchor)?.0
        let second = fitEdge(
            img, a, b, normal: n, outside: outside, depth: inside, dark: dark, dashed: true,
            module: module, outward: true, anchor: anchor)?.0
        guard let l1 = first else { return pick == 0 ? second : nil }
        guard let l2 = second else { return pick == 0 ? l1 : nil }
        if pick == 1 {
            // The runner-up, unless it is the same line.
            let mid = Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
            if abs(l1.distance(mid) - l2.distance(mid)) < 0.5 * module { return nil }
            return alternation(img, l1, a, b, module: module, dark: dark)
                >= alternation(img, l2, a, b, module: module, dark: dark) ? l2 : l1
        }
        trace?(
            "clock lines: inward \(alternation(img, l1, a, b, module: module, dark: dark)) \(l1), outward \(alternation(img, l2, a, b, module: module, dark: dark)) \(l2)"
        )
        return alternation(img, l1, a, b, module: module, dark: dark)
            >= alternation(img, l2, a, b, module: module, dark: dark) ? l1 : l2
    }

    /// How regularly the track half a module inside line `l` (between the
    /// projections of `a` and `b`) alternates: runs met per module, ideally 1.
    func alternation(_ img: LumaView, _ l: DMLine, _ a: Point, _ b: Point, module: Double, dark: Bool) -> Double {
        let pa = project(a, l), pb = project(b, l)
        let len = pa.distance(to: pb)
        guard len > 2 * module else { return 0 }
        let n = max(16, min(1600, Int(len / module * 6)))
        let off = 0.5 * module
        // Runs about a module long (a clock module each); random data and
        // blank paper have few.
        let perModule = Double(n) / (len / module)
        var good = 0, current = -1, length = 0
        for k in 0...n {
            var v = -2
            if k < n {
                let f = (Double(k) + 0.5) / Double(n)
                let p = Point(x: pa.x + (pb.x - pa.x) * f + l.a * off, y: pa.y + (pb.y - pa.y) * f + l.b * off)
                v = isInk(img, p, dark: dark) ? 1 : 0
            }
            if v == current { length += 1; continue }
            let r = Double(length) / perModule
            if current >= 0 && r >= 0.5 && r <= 1.6 { good += 1 }
            current = v; length = 1
        }
        return Double(good) / (len / module)
    }

    func project(_ p: Point, _ l: DMLine) -> Point {
        let d = l.distance(p)
        return Point(x: p.x - l.a * d, y: p.y - l.b * d)
    }

    /// Counts the modules of a clock track: twice its ink runs. The top
    /// track runs left to right half a module below the top edge; the
    /// right one bottom to top half a module inside the right edge.
    func countClock(
        _ img: LumaView, _ t: PerspectiveTransform, top: Bool, across: Double, other: Double,
        dark: Bool
    ) -> Int {
        let n = max(16, min(2000, Int(across * 8)))
        profile.reserve(n)
        let inset = 0.5 / max(other, 1)
        for s in 0..<n {
            let f = (Double(s) + 0.5) / Double(n)
            let p = top ? t.map(f, inset) : t.map(1 - inset, 1 - f)
            profile[s] = isInk(img, p, dark: dark) ? 1 : 0
        }
        // Runs shorter than a quarter module are noise: merged into their neighbours.
        let minRun = max(1, Int(8.0 / 4))
        var runs = 0, s = 0
        var current: UInt8 = 2
        while s < n {
            var e = s
            while e < n && profile[e] == profile[s] { e += 1 }
            if e - s >= minRun && profile[s] != current {
                current = profile[s]
                if current == 1 { runs += 1 }
            }
            s = e
        }
        return 2 * runs
    }

    /// The module centres along a clock track, as fractions of the side
    /// (0 ... 1, top to bottom or left to right), from where its modules
    /// change colour: they follow curved surfaces and lens distortion that a
    /// perspective transform does not. Nil unless the track shows exactly
    /// `count` modules.
    func clockGuide(
        _ img: LumaView, _ t: PerspectiveTransform, top: Bool, count: Int, other: Int,
        dark: Bool
    ) -> [Double]? {
        let n = max(16, min(4000, count * 8))
        profile.reserve(n)
        let inset = 0.5 / Double(max(other, 1))
        for s in 0..<n {
            let f = (Double(s) + 0.5) / Double(n)
            let p = top ? t.map(f, inset) : t.map(1 - inset, f)
            profile[s] = isInk(img, p, dark: dark) ? 1 : 0
        }
        // Runs of at least two samples; shorter ones join the run before.
        var starts: [Int] = [0]
        starts.reserveCapacity(count + 1)
        var current = profile[0]
        var s = 0
        while s < n {
            var e = s
            while e < n && profile[e] == profile[s] { e += 1 }
            if profile[s] != current && e - s >= 2 {
                starts.append(s)
                current = profile[s]
                if starts.count > count { return nil }
            }
            s = e
        }
        guard starts.count == count else { return nil }
        starts.append(n)
        return (0..<count).map { (Double(starts[$0]) + Double(starts[$0 + 1])) / 2 / Double(n) }
    }

    /// The module centres along a clock track as ``clockGuide(_:_:top:count:other:dark:)``
    /// gives them, for tracks whose runs do not count cleanly (narrowed
    /// modules merged by blur on a curved surface): the alternating
    /// template fitted to the track's grey levels (``DMClockWarp``).
    func elasticGuide(
        _ img: LumaView, _ t: PerspectiveTransform, top: Bool, count: Int, other: Int,
        dark: Bool
    ) -> [Double]? {
        let n = count * 6
        gridLuma.reserve(n)
        let g = gridLuma.pointer
        let inset = 0.5 / Double(max(other, 1))
        for s in 0..<n {
            let f = (Double(s) + 0.5) / Double(n)
            g[s] = inkScore(img, top ? t.map(f, inset) : t.map(1 - inset, f), dark: dark)
        }
        // The top track starts with ink at the left; the right track, read
        // from the top, ends with ink at the bottom.
        let firstInk = top ? true : (count % 2 == 1)
        return DMClockWarp.centres(UnsafeBufferPointer(start: g, count: n), count: count, firstInk: firstInk)
    }

    /// Samples the module centres of a `rows` by `cols` grid.
    func sample(
        _ img: LumaView, _ t: PerspectiveTransform, rows: Int, cols: Int, dark: Bool,
        gridThreshold: Bool, du: Double, dv: Double,
        guides: (u: [Double]?, v: [Double]?) = (nil, nil)
    ) -> BitMatrix {
        var m = BitMatrix(width: cols, height: rows)
        var us = [Double](repeating: 0, count: cols), vs = [Double](repeating: 0, count: rows)
        let fc = Double(cols), fr = Double(rows)
        for c in 0..<cols {
            let base: Double = guides.u?[c] ?? (Double(c) + 0.5) / fc
            us[c] = base + du / fc
        }
        for r in 0..<rows {
            let base: Double = guides.v?[r] ?? (Double(r) + 0.5) / fr
            vs[r] = base + dv / fr
        }
        if !gridThreshold {
            for r in 0..<rows {
                let v = vs[r]
                for c in 0..<cols {
                    let p = t.map(us[c], v)
                    if isInk(img, p, dark: dark) { m[c, r] = true }
                }
            }
            return m
        }
        // The luma of every module centre, then each compared with the
        // middle of the modules around it (7 by 7), which follows blur and
        // uneven light at the symbol's own scale.
        let n = rows * cols
        gridLuma.reserve(n)
        let g = gridLuma.pointer
        for r in 0..<rows {
            let v = vs[r]
            for c in 0..<cols {
                let p = t.map(us[c], v)
                g[r * cols + c] = DMDetector.luma(img, p.x, p.y)
            }
        }
        for r in 0..<rows {
            let r0 = max(0, r - 3), r1 = min(rows - 1, r + 3)
            for c in 0..<cols {
                let c0 = max(0, c - 3), c1 = min(cols - 1, c + 3)
                var lo = 255.0, hi = 0.0, sum = 0.0
                for rr in r0...r1 {
                    for cc in c0...c1 {
                        let x = g[rr * cols + cc]
                        lo = min(lo, x); hi = max(hi, x); sum += x
                    }
                }
                let mean = sum / Double((r1 - r0 + 1) * (c1 - c0 + 1))
                let threshold = hi - lo < 16 ? (symbolLevel ?? 128) : (mean + (lo + hi) / 2) / 2
                if (g[r * cols + c] < threshold) == dark { m[c, r] = true }
            }
        }
        return m
    }

    /// The fraction of the outer finder and clock modules that read right.
    func patternScore(_ m: BitMatrix) -> Double {
        let w = m.width, h = m.height
        var good = 0, total = 0
        for x in 0..<w {
            if m[x, h - 1] { good += 1 }
            if m[x, 0] == (x % 2 == 0) { good += 1 }
            total += 2
        }
        for y in 0..<h {
            if m[0, y] { good += 1 }
            if m[w - 1, y] == ((h - 1 - y) % 2 == 0) { good += 1 }
            total += 2
        }
        return Double(good) / Double(max(1, total))
    }
}
