#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The bull's-eye measured: its rings, orientation marks and corners.
extension AztecDetector {
    /// Bilinear luma at a sub-pixel position (pixel centres at integers).
    @inline(__always)
    static func luma(_ image: LumaView, _ x: Double, _ y: Double) -> Float {
        let fx = max(0, min(Double(image.width) - 1.001, x)), fy = max(0, min(Double(image.height) - 1.001, y))
        let x0 = Int(fx), y0 = Int(fy)
        let ax = Float(fx - Double(x0)), ay = Float(fy - Double(y0))
        let p: UnsafePointer<UInt8> = image.base + (y0 &* image.stride &+ x0)
        let a = Float(p[0]), b = Float(p[1])
        let c = Float(p[image.stride]), d = Float(p[image.stride + 1])
        let top: Float = a + (b - a) * ax
        let bottom: Float = c + (d - c) * ax
        return top + (bottom - top) * ay
    }

    /// Reads one candidate.
    func read(_ image: LumaView, _ c0: Centre) -> AztecSymbol? {
        var c = c0
        // Measure again from the fitted centre when the first one was off.
        if let first = measure(image, c) {
            let p = first.transform.map(0, 0)
            if p.distance(to: Point(x: c.x, y: c.y)) > 0.25 * first.module {
                c.x = p.x; c.y = p.y
            } else {
                return read(image, c, first)
            }
        }
        guard let eye = measure(image, c) else { return nil }
        return read(image, c, eye)
    }

    /// The bull's-eye as measured: a transform from module coordinates
    /// (centre module at (0, 0)) to pixels, and the threshold.
    struct BullsEye {
        var transform: PerspectiveTransform
        /// Fitted to the edges out to 5.5 modules too, when the bull's-eye
        /// has them (full-range).
        var fullTransform: PerspectiveTransform?
        var threshold: Float
        var module: Double
    }

    /// Casts rays from the centre and fits the squares of the ring edges at
    /// 2.5 and 3.5 modules.
    func measure(_ image: LumaView, _ c: Centre) -> BullsEye? {
        let rayCount = 64
        let reach = 9 * c.module + 3
        let step = max(0.2, min(0.5, c.module / 6))
        let samples = Int(reach / step) + 1
        profile.reserve(samples)
        let pp = profile.pointer
        guard let (threshold, hysteresis) = ringLevels(image, c, step: step) else { return nil }

        var edges3: [Point] = [], edges4: [Point] = [], edges5: [Point] = [], edges6: [Point] = []
        edges3.reserveCapacity(rayCount); edges4.reserveCapacity(rayCount)
        /// Casts ray `k`; stores its edges when `store`. Whether it crossed the rings as expected.
        func castRay(_ k: Int, store: Bool) -> Bool {
            let a = Double(k) * 2 * Double.pi / Double(rayCount)
            let dx = cos(a), dy = sin(a)
            for s in 0..<samples {
                var v = AztecDetector.luma(image, c.x + dx * Double(s) * step, c.y + dy * Double(s) * step)
                if c.inverted { v = 255 - v }
                pp[s] = v
            }
            let t = c.inverted ? 255 - threshold : threshold
            // Crossings of the threshold, with hysteresis.
            var dark = pp[0] < t
            var crossings = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
            var found = 0
            // A centre module lost in blur: the first edge is the one at 1.5.
            if !dark { found = 1 }
            var lastCross = 0.0
            for s in 1..<samples {
                let v = pp[s], u = pp[s - 1]
                if (u < t) != (v < t) {
                    // Where the profile crosses t between s-1 and s.
                    let f = Double((t - u) / (v - u))
                    lastCross = (Double(s - 1) + f) * step
                }
                let nowDark = dark ? v < t + hysteresis : v < t - hysteresis
                if nowDark != dark {
                    dark = nowDark
                    switch found {
                    case 0: crossings.0 = lastCross
                    case 1: crossings.1 = lastCross
                    case 2: crossings.2 = lastCross
                    case 3: crossings.3 = lastCross
                    case 4: crossings.4 = lastCross
                    default: crossings.5 = lastCross
                    }
                    found += 1
                    if found == 6 { break }
                }
            }
            guard found >= 4 else { return false }
            // Edges at 0.5, 1.5, 2.5, 3.5 modules: roughly evenly spaced.
            let unit = crossings.3 / 3.5
            guard unit > 0.3,
                abs(crossings.1 - 1.5 * unit) < 0.6 * unit,
                abs(crossings.2 - 2.5 * unit) < 0.6 * unit
            else { return false }
            if !store { return true }
            edges3.append(Point(x: c.x + dx * crossings.2, y: c.y + dy * crossings.2))
            edges4.append(Point(x: c.x + dx * crossings.3, y: c.y + dy * crossings.3))
            // A full-range bull's-eye's next two edges, at 4.5 and 5.5.
            if found == 6 && abs(crossings.4 - 4.5 * unit) < 0.6 * unit && abs(crossings.5 - 5.5 * unit) < 0.6 * unit {
                edges5.append(Point(x: c.x + dx * crossings.4, y: c.y + dy * crossings.4))
                edges6.append(Point(x: c.x + dx * crossings.5, y: c.y + dy * crossings.5))
            }
            return true
        }
        // Eight rays first: most look-alikes end here.
        var good = 0
        for k in stride(from: 4, to: rayCount, by: rayCount / 8) where castRay(k, store: false) { good += 1 }
        guard good >= 3 else { return nil }
        for k in 0..<rayCount { _ = castRay(k, store: true) }
        let centre = Point(x: c.x, y: c.y)
        guard edges4.count >= rayCount / 2,
            let q4 = AztecDetector.fitQuad(edges4, centre),
            let q3 = AztecDetector.fitQuad(edges3, centre)
        else { return nil }
        var from: [Point] = [], to: [Point] = []
        guard AztecDetector.addCorners(q4, 3.5, q4, centre, &from, &to),
            AztecDetector.addCorners(q3, 2.5, q4, centre, &from, &to)
        else { return nil }
        var full: PerspectiveTransform? = nil
        if edges6.count >= rayCount / 2, let q5 = AztecDetector.fitQuad(edges5, centre),
            let q6 = AztecDetector.fitQuad(edges6, centre)
        {
            var f2 = from, t2 = to
            if AztecDetector.addCorners(q5, 4.5, q4, centre, &f2, &t2),
                AztecDetector.addCorners(q6, 5.5, q4, centre, &f2, &t2)
            {
                full = PerspectiveTransform.fitting(from: f2, to: t2)
            }
        }
        guard let transform = PerspectiveTransform.fitting(from: from, to: to) else { return nil }
        let side =
            (q4[0].distance(to: q4[1]) + q4[1].distance(to: q4[2]) + q4[2].distance(to: q4[3])
                + q4[3].distance(to: q4[0])) / 28
        return BullsEye(transform: transform, fullTransform: full, threshold: threshold, module: side)
    }

    /// The grey level between the bull's-eye's dark and light rings (the
    /// two-class mean of samples along eight rays out to 3.5 modules) and
    /// the hysteresis of its crossings; nil without contrast.
    @inline(__always)
    private func ringLevels(_ image: LumaView, _ c: Centre, step: Double) -> (threshold: Float, hysteresis: Float)? {
        // The threshold: the two-class mean of samples along a few rays.
        var sum: Float = 0, n: Float = 0
        for k in 0..<8 {
            let a = Double(k) * Double.pi / 4 + 0.3
            let dx = cos(a), dy = sin(a)
            var t = 0.0
            while t < 3.5 * c.module {
                sum += AztecDetector.luma(image, c.x + dx * t, c.y + dy * t)
                n += 1
                t += step
            }
        }
        guard n > 0 else { return nil }
        let mean = sum / n
        var lo: Float = 0, ln: Float = 0, hi: Float = 0, hn: Float = 0
        for k in 0..<8 {
            let a = Double(k) * Double.pi / 4 + 0.3
            let dx = cos(a), dy = sin(a)
            var t = 0.0
            while t < 3.5 * c.module {
                let v = AztecDetector.luma(image, c.x + dx * t, c.y + dy * t)
                if v < mean { lo += v; ln += 1 } else { hi += v; hn += 1 }
                t += step
            }
        }
        guard ln > 0, hn > 0 else { return nil }
        let darkLevel = lo / ln, lightLevel = hi / hn
        guard lightLevel - darkLevel >= 15 else { return nil }
        let threshold = (darkLevel + lightLevel) / 2
        let hysteresis = (lightLevel - darkLevel) * 0.12
        return (threshold, hysteresis)
    }

    /// Adds the corners of `quad`, a square of half-side `half` modules, to
    /// the point pairs, each paired with the corner of `reference` (the
    /// 3.5 square, whose corners fix the module axes) nearest in direction.
    static func addCorners(
        _ quad: [Point], _ half: Double, _ reference: [Point], _ c: Point,
        _ from: inout [Point], _ to: inout [Point]
    ) -> Bool {
        let unit = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        for i in 0..<4 {
            let a = atan2(reference[i].y - c.y, reference[i].x - c.x)
            var best = 0, bestD = 10.0
            for j in 0..<4 {
                var d = abs(atan2(quad[j].y - c.y, quad[j].x - c.x) - a)
                if d > Double.pi { d = 2 * Double.pi - d }
                if d < bestD { bestD = d; best = j }
            }
            guard bestD < 0.5 else { return false }
            from.append(Point(x: half * unit[i].0, y: half * unit[i].1)); to.append(quad[best])
        }
        return true
    }

    /// The corners, clockwise on screen, of the quadrilateral whose edge
    /// points (ordered by angle around `centre`) are given: first the
    /// extreme points, then lines fitted to the points of each side.
    static func fitQuad(_ pts: [Point], _ centre: Point) -> [Point]? {
        let n = pts.count
        guard n >= 12 else { return nil }
        var ia = 0, best = -1.0
        for i in 0..<n { let d = pts[i].distance(to: centre); if d > best { best = d; ia = i } }
        var ic = 0
        best = -1
        for i in 0..<n { let d = pts[i].distance(to: pts[ia]); if d > best { best = d; ic = i } }
        let ax = pts[ic].x - pts[ia].x, ay = pts[ic].y - pts[ia].y
        var ib = -1, id = -1, bestB = 0.0, bestD = 0.0
        for i in 0..<n {
            let cross = ax * (pts[i].y - pts[ia].y) - ay * (pts[i].x - pts[ia].x)
            if cross > bestB { bestB = cross; ib = i }
            if cross < bestD { bestD = cross; id = i }
        }
        guard ib >= 0, id >= 0 else { return nil }
        // Sides lie between consecutive corners in ray order.
        let corners = [ia, ib, ic, id].sorted()
        guard Set(corners).count == 4 else { return nil }
        var lines: [(Point, Point)] = []  // point and direction
        for s in 0..<4 {
            let i0 = corners[s], i1 = corners[(s + 1) % 4]
            let p0 = pts[i0], p1 = pts[i1]
            let length = p0.distance(to: p1)
            guard length > 1 else { return nil }
            var sx = 0.0, sy = 0.0, cnt = 0.0
            var chosen: [Point] = []
            var i = (i0 + 1) % n
            while i != i1 {
                let p = pts[i]
                if p.distance(to: p0) > 0.2 * length && p.distance(to: p1) > 0.2 * length {
                    chosen.append(p); sx += p.x; sy += p.y; cnt += 1
                }
                i = (i + 1) % n
            }
            if cnt < 3 {
                lines.append((p0, Point(x: p1.x - p0.x, y: p1.y - p0.y)))
                continue
            }
            let mx = sx / cnt, my = sy / cnt
            var sxx = 0.0, syy = 0.0, sxy = 0.0
            for p in chosen {
                sxx += (p.x - mx) * (p.x - mx); syy += (p.y - my) * (p.y - my); sxy += (p.x - mx) * (p.y - my)
            }
            let angle = 0.5 * atan2(2 * sxy, sxx - syy)
            var d = Point(x: cos(angle), y: sin(angle))
            // Keep the direction close to the corner-to-corner chord.
            let chord = Point(x: (p1.x - p0.x) / length, y: (p1.y - p0.y) / length)
            if d.x * chord.x + d.y * chord.y < 0 { d = Point(x: -d.x, y: -d.y) }
            guard d.x * chord.x + d.y * chord.y > 0.9 else {
                lines.append((p0, Point(x: p1.x - p0.x, y: p1.y - p0.y)))
                continue
            }
            lines.append((Point(x: mx, y: my), d))
        }
        var out: [Point] = []
        for s in 0..<4 {
            // Corner s+1 is where side s meets side s+1.
            let (p, d) = lines[s], (q, e) = lines[(s + 1) % 4]
            let den = d.x * e.y - d.y * e.x
            guard abs(den) > 1e-9 else { return nil }
            let t = ((q.x - p.x) * e.y - (q.y - p.y) * e.x) / den
            out.append(Point(x: p.x + t * d.x, y: p.y + t * d.y))
        }
        // out[s] is the corner after side s: rotate so that out[0] is the corner at corners[0].
        return [out[3], out[0], out[1], out[2]]
    }
}
