#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The L finder: the two solid arms of a component and how well they fit one.
extension DMDetector {
    /// The luma at a sub-pixel position (bilinear), clamped to the frame.
    @inline(__always)
    static func luma(_ img: LumaView, _ x: Double, _ y: Double) -> Double {
        let fx = min(max(x - 0.5, 0), Double(img.width - 1)), fy = min(max(y - 0.5, 0), Double(img.height - 1))
        let x0 = Int(fx), y0 = Int(fy)
        let x1 = min(x0 + 1, img.width - 1), y1 = min(y0 + 1, img.height - 1)
        let ax = fx - Double(x0), ay = fy - Double(y0)
        let r0 = img.base + y0 * img.stride, r1 = img.base + y1 * img.stride
        let top = Double(r0[x0]) * (1 - ax) + Double(r0[x1]) * ax
        let bottom = Double(r1[x0]) * (1 - ax) + Double(r1[x1]) * ax
        return top * (1 - ay) + bottom * ay
    }

    /// Whether the point (continuous pixel coordinates: pixel (x, y)
    /// covers [x, x+1)) is of the finder's colour.
    @inline(__always)
    func isInk(_ img: LumaView, _ p: Point, dark: Bool) -> Bool {
        DMDetector.isInk(img, p, dark: dark, thresholds: thresholds, symbolThreshold: symbolThreshold)
    }

    /// ``isInk(_:_:dark:)`` with the thresholds it reads passed in: for
    /// loops that hold them, without a reference to the detector.
    @inline(__always)
    static func isInk(
        _ img: LumaView, _ p: Point, dark: Bool, thresholds: borrowing BlockThreshold,
        symbolThreshold: Double?
    ) -> Bool {
        guard p.x >= 0, p.y >= 0, p.x < Double(img.width), p.y < Double(img.height) else { return false }
        var t = Double(thresholds.threshold(x: Int(p.x), y: Int(p.y)))
        if let s = symbolThreshold { t = (t + s) / 2 }
        return (luma(img, p.x, p.y) < t) == dark
    }

    /// The symbol's threshold from the finder's arms `v`→`p`, `v`→`q`
    /// (ink just inside) and the quiet zone (just outside).
    func measureLevels(_ img: LumaView, _ v: Point, _ p: Point, _ q: Point, _ centre: Point, dark: Bool)
        -> Double?
    {
        var ink = 0.0, inkN = 0, light = 0.0, lightN = 0
        for end in [p, q] {
            let n = normal(v, end, towards: centre)
            for s in 0..<24 {
                let t = 0.15 + 0.7 * (Double(s) + 0.5) / 24
                let base = Point(x: v.x + (end.x - v.x) * t, y: v.y + (end.y - v.y) * t)
                for inset in [0.8, 1.5] {
                    let a = Point(x: base.x + n.x * inset, y: base.y + n.y * inset)
                    if isInk(img, a, dark: dark) { ink += DMDetector.luma(img, a.x, a.y); inkN += 1 }
                }
                let b = Point(x: base.x - n.x * 3, y: base.y - n.y * 3)
                if !isInk(img, b, dark: dark) { light += DMDetector.luma(img, b.x, b.y); lightN += 1 }
            }
        }
        guard inkN > 4, lightN > 4 else { return nil }
        return (ink / Double(inkN) + light / Double(lightN)) / 2
    }

    /// The fraction of points along `a`→`b`, moved `inset` pixels along
    /// `normal`, that are ink; points beyond the frame's edge count as
    /// light, or as ink with `offFrameIsInk`.
    func inkFraction(
        _ img: LumaView, _ a: Point, _ b: Point, normal n: Point, inset: Double, dark: Bool,
        margin: Double = 0.05, offFrameIsInk: Bool = false
    ) -> Double {
        let len = a.distance(to: b)
        let samples = max(8, min(64, Int(len / 1.5)))
        var ink = 0
        for s in 0..<samples {
            // A low-discrepancy sequence: even sampling that cannot fall in
            // step with the clock track's period.
            let w = 0.5 + Double(s) * 0.618_033_988_75
            let t = margin + (1 - 2 * margin) * (w - w.rounded(.down))
            let p = Point(x: a.x + (b.x - a.x) * t + n.x * inset, y: a.y + (b.y - a.y) * t + n.y * inset)
            if offFrameIsInk && (p.x < 0 || p.y < 0 || p.x >= Double(img.width) || p.y >= Double(img.height)) {
                ink += 1
            } else if isInk(img, p, dark: dark) {
                ink += 1
            }
        }
        return Double(ink) / Double(samples)
    }

    /// Examines one component: finder, edges, size, sampling, decoding.
    func examine(_ img: LumaView, root: Int, dark: Bool) -> DMCandidate? {
        let hn = outline(root: root)
        guard hn >= 3 else { return nil }
        let h = UnsafeBufferPointer(start: hull.pointer, count: hn)
        // Diameter.
        var ia = 0, ic = 0, best = -1.0
        for i in 0..<hn {
            for j in (i + 1)..<hn {
                let d = (h[i].x - h[j].x) * (h[i].x - h[j].x) + (h[i].y - h[j].y) * (h[i].y - h[j].y)
                if d > best { best = d; ia = i; ic = j }
            }
        }
        guard best >= Double(options.minArm * options.minArm) else { return nil }
        let A = h[ia], C = h[ic]
        var ib = -1, id = -1, dpos = 0.0, dneg = 0.0
        for i in 0..<hn {
            let c = (C.x - A.x) * (h[i].y - A.y) - (C.y - A.y) * (h[i].x - A.x)
            if c > dpos { dpos = c; ib = i }
            if c < dneg { dneg = c; id = i }
        }
        let diag = best.squareRoot()
        var quad: [Point]
        let minDepth = max(4, 0.025 * diag)
        if ib >= 0 && id >= 0 && min(dpos, -dneg) / diag > minDepth {
            quad = [A, h[ib], C, h[id]]
        } else if ib >= 0 && dpos / diag > minDepth {
            let B = h[ib]
            quad = [A, B, C, Point(x: A.x + C.x - B.x, y: A.y + C.y - B.y)]
        } else if id >= 0 && -dneg / diag > minDepth {
            let D = h[id]
            quad = [A, Point(x: A.x + C.x - D.x, y: A.y + C.y - D.y), C, D]
        } else {
            // A thin shape: a DMRE symbol's L could be long; not a finder otherwise.
            return nil
        }
        // The finder's corner: both sides solid, light outside.
        let centre = Point(
            x: (quad[0].x + quad[1].x + quad[2].x + quad[3].x) / 4,
            y: (quad[0].y + quad[1].y + quad[2].y + quad[3].y) / 4)
        // Side k joins quad[k] and quad[k + 1]; the finder's corner has two
        // solid sides, and the sides opposite (the clock tracks) are less so.
        var side = [0.0, 0.0, 0.0, 0.0]
        for k in 0..<4 { side[k] = armScore(img, quad[k], quad[(k + 1) % 4], centre, dark: dark) }
        var bestScore = -1.0, bestCorner = -1, bestLength = 0.0
        for v in 0..<4 {
            let arms = min(side[(v + 3) % 4], side[v])
            guard arms >= 0.8 else { continue }
            let s = arms - (side[(v + 1) % 4] + side[(v + 2) % 4]) / 2
            // On a tie, the corner with the longer sides (the whole finder).
            let length = quad[v].distance(to: quad[(v + 3) % 4]) + quad[v].distance(to: quad[(v + 1) % 4])
            if s > bestScore + 0.05 || (s > bestScore - 0.05 && length > bestLength) {
                bestScore = max(s, bestScore); bestCorner = v; bestLength = length
            }
        }
        trace?("component \(quad.map { "(\(Int($0.x)),\(Int($0.y)))" }) sides \(side) finder at \(bestCorner)")
        guard bestCorner >= 0, bestScore > 0 else { return nil }
        let V = quad[bestCorner], P = quad[(bestCorner + 3) % 4], Q = quad[(bestCorner + 1) % 4]
        // A finder arm is thin: one module where the module beside it is
        // light. Blobs and bars of text are not.
        for end in [P, Q] {
            let len = V.distance(to: end)
            let n = normal(V, end, towards: centre)
            var thinnest = Double.infinity
            for k in 1...7 {
                let f = Double(k) / 8
                let o = Point(x: V.x + (end.x - V.x) * f - n.x * 3, y: V.y + (end.y - V.y) * f - n.y * 3)
                if let (d0, d1) = scanInk(img, o, n, length: 3 + 0.4 * len, dark: dark) {
                    thinnest = min(thinnest, d1 - d0)
                }
            }
            if thinnest > 0.2 * len + 1 {
                trace?("arm too thick: \(thinnest) of \(len)")
                return nil
            }
        }
        symbolThreshold = nil
        symbolThreshold = measureLevels(img, V, P, Q, centre, dark: dark)
        defer { symbolThreshold = nil }
        let a = Point(x: P.x - V.x, y: P.y - V.y), b = Point(x: Q.x - V.x, y: Q.y - V.y)
        let crossAB = a.x * b.y - a.y * b.x
        // Upright: bottom arm (1, 0) and left arm (0, -1) have a negative cross product.
        let (bottomEnd, leftEnd) = crossAB < 0 ? (P, Q) : (Q, P)
        return locate(
            img, corner: V, bottomEnd: bottomEnd, leftEnd: leftEnd, far: quad[(bestCorner + 2) % 4], dark: dark)
    }

    /// How solid the side `v`→`p` is: ink just inside, and light just outside.
    func armScore(_ img: LumaView, _ v: Point, _ p: Point, _ centre: Point, dark: Bool) -> Double {
        let len = v.distance(to: p)
        guard len >= Double(options.minArm) else { return 0 }
        var n = Point(x: -(p.y - v.y) / len, y: (p.x - v.x) / len)
        let mid = Point(x: (v.x + p.x) / 2, y: (v.y + p.y) / 2)
        if n.x * (centre.x - mid.x) + n.y * (centre.y - mid.y) < 0 { n = Point(x: -n.x, y: -n.y) }
        var inside = inkFraction(img, v, p, normal: n, inset: 1.5, dark: dark)
        // A long arm on bent paper bows away from the line between its
        // ends (the outline's corners), by a pixel or two per hundred.
        if inside < 0.4 && len >= 100 {
            inside = inkFraction(img, v, p, normal: n, inset: 0.015 * len, dark: dark)
        }
        // Far from solid: not an arm (the common case, decided with one line).
        if inside < 0.4 { return inside }
        if inside <= 0.95 {
            for inset in [0.8, 2.5, 3.5] {
                inside = max(inside, inkFraction(img, v, p, normal: n, inset: inset, dark: dark))
                if inside > 0.95 { break }
            }
        }
        if inside < 0.8 { return inside }
        // The quiet zone outside. Beyond the frame's edge it is light in
        // still pictures (a symbol cropped to its edge); in video frames it
        // is not in view, and a dark area cut by the frame's edge (a dark
        // object, a letterbox bar) would otherwise pass for a finder whose
        // whole search reads nothing: the camera moves, and the symbol is
        // read once its quiet zone is in view.
        var outside =
            1
            - inkFraction(
                img, v, p, normal: n, inset: -3, dark: dark, margin: 0.15,
                offFrameIsInk: !options.thorough)
        // Still pictures: the quiet zone the standard asks for is one module
        // (ISO/IEC 16022:2006, 5.1.1), under three pixels wide at small
        // sizes; its middle, half an arm's thickness out, is light too.
        if outside < 0.7 && options.thorough {
            let o = Point(x: mid.x - 3 * n.x, y: mid.y - 3 * n.y)
            if let (d0, d1) = scanInk(img, o, n, length: 3 + 0.4 * len, dark: dark), d1 - d0 < 6 {
                let half = max(1, (d1 - d0) / 2)
                outside = max(
                    outside,
                    1 - inkFraction(img, v, p, normal: n, inset: -half, dark: dark, margin: 0.15, offFrameIsInk: false))
            }
        }
        trace?("    arm \(v) \(p): inside \(inside) outside \(outside)")
        return min(inside, outside + 0.1)
    }
}
