#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The finder's edges: lines fitted along the arms, out to the quiet zone.
extension DMDetector {
    /// Scans from `from` along unit `dir` for `length` pixels in half-pixel
    /// steps; the distance of the first ink sample, then of the first
    /// non-ink sample after it (nil when none).
    func scanInk(
        _ img: LumaView, _ from: Point, _ dir: Point, length: Double, dark: Bool,
        expect: (at: Double, within: Double)? = nil
    ) -> (Double, Double)? {
        var t = 0.0
        var start = -1.0
        // Ink at the start (a border, a neighbour) is passed over first.
        var seenLight = false
        while t <= length {
            let p = Point(x: from.x + dir.x * t, y: from.y + dir.y * t)
            // Outside the frame nothing is known.
            if p.x < 0 || p.y < 0 || p.x >= Double(img.width) || p.y >= Double(img.height) {
                if start >= 0 { return (start, t) }
                // The frame's edge where the symbol's edge is expected: a
                // symbol printed to the edge, with the light outside.
                if let e = expect, abs(t - e.at) <= e.within { seenLight = true }
                t += 0.5
                continue
            }
            let ink = isInk(img, p, dark: dark)
            if !seenLight {
                if !ink { seenLight = true }
            } else if start < 0 {
                if ink { start = t }
            } else if !ink {
                return (start, t)
            }
            t += 0.5
        }
        return start < 0 ? nil : (start, length)
    }

    /// Scans from `from` (inside the symbol) outwards along unit `dir` for
    /// `length` pixels in half-pixel steps: the distance of the last ink
    /// sample before `quiet` pixels of light (the quiet zone), or nil.
    func scanOut(
        _ img: LumaView, _ from: Point, _ dir: Point, length: Double, quiet: Double,
        minQuiet: Double, dark: Bool
    ) -> Double? {
        var t = 0.0, lastInk = -1.0
        while t <= length {
            let p = Point(x: from.x + dir.x * t, y: from.y + dir.y * t)
            if p.x < 0 || p.y < 0 || p.x >= Double(img.width) || p.y >= Double(img.height) { break }
            if isInk(img, p, dark: dark) {
                lastInk = t
            } else if lastInk >= 0 && t - lastInk >= quiet {
                return lastInk
            }
            t += 0.5
        }
        // The window ends in light: enough for a quiet zone of a module.
        return lastInk >= 0 && t - lastInk >= min(quiet, minQuiet) ? lastInk : nil
    }

    /// Samples along a segment inside the frame a coarse step at a time,
    /// for the scans of video frames (``scanInk(_:_:_:length:dark:expect:)``
    /// and ``scanOut(_:_:_:length:quiet:minQuiet:dark:)`` read in half-pixel
    /// steps): each change of colour is placed to the half pixel by
    /// bisection, which gives the same distances as half-pixel steps as
    /// long as ink and light each run at least a step (the step is at most
    /// half a module) and costs a few samples a module instead of two a
    /// pixel.
    struct CoarseScan {
        let img: LumaView
        let from: Point, dir: Point
        let dark: Bool
        /// The segment's length, the step (a multiple of half a pixel, at
        /// most half a module) and the segment's last half-pixel point.
        let length: Double, step: Double, last: Double
        /// The detector's thresholds and symbol threshold (``isInk(_:_:dark:)``),
        /// held here: a reference to the detector would be retained and
        /// released at every sample.
        let thresholds: BlockThreshold
        let symbolThreshold: Double?

        init(
            _ detector: DMDetector, _ img: LumaView, _ from: Point, _ dir: Point, length: Double, module: Double,
            dark: Bool
        ) {
            thresholds = detector.thresholds
            symbolThreshold = detector.symbolThreshold
            self.img = img; self.from = from; self.dir = dir; self.dark = dark
            self.length = length
            step = max(0.5, min(6, module.rounded(.down) * 0.5))
            last = (max(0, length) / 0.5).rounded(.down) * 0.5
        }

        /// Whether the segment lies inside the frame, where these scans apply.
        static func fits(_ img: LumaView, _ from: Point, _ dir: Point, length: Double) -> Bool {
            let to = Point(x: from.x + dir.x * length, y: from.y + dir.y * length)
            return min(from.x, to.x) >= 0 && min(from.y, to.y) >= 0
                && max(from.x, to.x) < Double(img.width) && max(from.y, to.y) < Double(img.height)
        }

        @inline(__always) func ink(_ t: Double) -> Bool {
            DMDetector.isInk(
                img, Point(x: from.x + dir.x * t, y: from.y + dir.y * t), dark: dark,
                thresholds: thresholds, symbolThreshold: symbolThreshold)
        }

        /// The first half-pixel point in `a...end` whose colour is `want`.
        func first(from a: Double, to end: Double? = nil, _ want: Bool) -> Double? {
            let end = min(end ?? last, last)
            guard a <= end else { return nil }
            if ink(a) == want { return a }
            var lo = a
            while lo < end {
                let hi = min(lo + step, end)
                if ink(hi) == want {
                    // Bisect (lo, hi] on the half-pixel grid.
                    var l = lo, h = hi
                    while h - l > 0.5 {
                        let m = l + ((h - l) / 1.0).rounded(.down) * 0.5
                        if ink(m) == want { h = m } else { l = m }
                    }
                    return h
                }
                lo = hi
            }
            return nil
        }
    }

    /// ``scanInk(_:_:_:length:dark:expect:)`` with coarse steps (see
    /// ``CoarseScan``), for a segment inside the frame.
    func scanInkCoarse(_ scan: CoarseScan) -> (Double, Double)? {
        // Ink at the start (a border, a neighbour) is passed over first.
        guard let light = scan.first(from: 0, false), let start = scan.first(from: light + 0.5, true) else {
            return nil
        }
        guard let end = scan.first(from: start + 0.5, false) else { return (start, scan.length) }
        return (start, end)
    }

    /// ``scanOut(_:_:_:length:quiet:minQuiet:dark:)`` with coarse steps
    /// (see ``CoarseScan``), for a segment inside the frame.
    func scanOutCoarse(_ scan: CoarseScan, quiet: Double, minQuiet: Double) -> Double? {
        var lastInk = -1.0
        var from = 0.0
        while let i = scan.first(from: from, true) {
            guard let e = scan.first(from: i + 0.5, false) else { lastInk = scan.last; break }
            lastInk = e - 0.5
            // The quiet zone: light up to the first half-pixel point
            // `quiet` beyond the last ink.
            let q = ((lastInk + quiet) / 0.5).rounded(.up) * 0.5
            guard let next = scan.first(from: e, to: q, true) else {
                if q <= scan.last { return lastInk }
                break
            }
            from = next
        }
        // The window ends in light: enough for a quiet zone of a module.
        return lastInk >= 0 && scan.last + 0.5 - lastInk >= min(quiet, minQuiet) ? lastInk : nil
    }

    /// Fits a line to the outer edge along `a`→`b`, scanning inwards along
    /// `n` from `outside` pixels out, over `depth` pixels. With `dashed`,
    /// points behind the line (at light clock modules) are dropped in turns.
    /// Also returns the median ink thickness met.
    func fitEdge(
        _ img: LumaView, _ a: Point, _ b: Point, normal n: Point, outside: Double, depth: Double,
        dark: Bool, dashed: Bool, module: Double, outward: Bool = false,
        anchor: Double? = nil
    ) -> (DMLine, Double)? {
        let len = a.distance(to: b)
        // At most 80 points, and 100 line pairs below, which find the
        // clock track's line (more read no more symbols); in video frames
        // a clock track's first, rough fit (no anchor yet: its scans run
        // deep, as far as perspective may move the track) half as many.
        let most = !options.thorough && dashed && anchor == nil ? 40 : 80
        let samples = max(dashed ? 32 : 8, min(most, Int(len / 1.2)))
        // Video frames: coarse steps where modules are two pixels or more.
        let coarse = !options.thorough && module >= 2
        edge.reserveKeeping(samples)
        edgeThickness.reserveKeeping(samples)
        var count = 0
        // The thickness of each point's ink, while they stay aligned with `edge`.
        let thick = edgeThickness.pointer
        var thickCount = 0
        for s in 0..<samples {
            let t = 0.03 + 0.94 * (Double(s) + 0.5) / Double(samples)
            if dashed && outward {
                // From inside outwards: the last ink before the quiet zone.
                let inner = Point(x: a.x + (b.x - a.x) * t + n.x * depth, y: a.y + (b.y - a.y) * t + n.y * depth)
                let out = Point(x: -n.x, y: -n.y)
                let quiet = max(3, 2.5 * module), minQuiet = max(1.5, module)
                let found =
                    coarse && CoarseScan.fits(img, inner, out, length: depth + outside)
                    ? scanOutCoarse(
                        CoarseScan(self, img, inner, out, length: depth + outside, module: module, dark: dark),
                        quiet: quiet, minQuiet: minQuiet)
                    : scanOut(img, inner, out, length: depth + outside, quiet: quiet, minQuiet: minQuiet, dark: dark)
                guard let d = found else { continue }
                let e = d + 0.25
                edge[count] = Point(x: inner.x - n.x * e, y: inner.y - n.y * e)
                count += 1
                continue
            }
            let start = Point(x: a.x + (b.x - a.x) * t - n.x * outside, y: a.y + (b.y - a.y) * t - n.y * outside)
            let found =
                coarse && CoarseScan.fits(img, start, n, length: depth)
                ? scanInkCoarse(CoarseScan(self, img, start, n, length: depth, module: module, dark: dark))
                : scanInk(img, start, n, length: depth, dark: dark, expect: (outside, 1.5 * module + 1))
            guard let (d0, d1) = found else { continue }
            let e = d0 - 0.25
            edge[count] = Point(x: start.x + n.x * e, y: start.y + n.y * e)
            count += 1
            thick[thickCount] = d1 - d0
            thickCount += 1
        }
        trace?("fitEdge \(a) \(b) dashed \(dashed): \(count) of \(samples) points")
        guard count >= 4 else { return nil }
        var line = DMLine.fit(UnsafeBufferPointer(start: edge.pointer, count: count))
        guard var l = line else { return nil }
        // Orient the normal inwards.
        if l.a * n.x + l.b * n.y < 0 { l = DMLine(a: -l.a, b: -l.b, c: -l.c) }
        line = l
        if dashed {
            consensusLine(&l, count: &count, a, b, normal: n, length: len, module: module, anchor: anchor)
        }
        // Drop outliers in turns.
        for round in 0..<3 {
            let limit = dashed ? max(0.75, 0.5 * module) : max(1.0, (round < 2 ? 1.0 : 0.5) * module)
            var kept = 0
            let aligned = thickCount == count
            for i in 0..<count where abs(l.distance(edge[i])) < limit {
                edge[kept] = edge[i]
                // The thickness only of the points on the edge (not of specks outside).
                if aligned { thick[kept] = thick[i] }
                kept += 1
            }
            guard kept >= 4 else { break }
            if aligned { thickCount = kept }
            count = kept
            guard var f = DMLine.fit(UnsafeBufferPointer(start: edge.pointer, count: count)) else { break }
            if f.a * n.x + f.b * n.y < 0 { f = DMLine(a: -f.a, b: -f.b, c: -f.c) }
            l = f
        }
        // The finder is one module thick where the module next to it is
        // light: a low quantile of the thickness met.
        var sorted = UnsafeMutableBufferPointer(start: thick, count: thickCount)
        sorted.sort()
        return (l, thickCount == 0 ? module : thick[thickCount / 5])
    }

    /// The line of a clock track's outer edge (``fitEdge(_:_:_:normal:outside:depth:dark:dashed:module:outward:anchor:)``
    /// with `dashed`) from its `count` points in `edge`: the line through
    /// two points that most points lie near, then fitted to those (which
    /// alone are kept).
    @inline(__always)
    private func consensusLine(
        _ l: inout DMLine, count: inout Int, _ a: Point, _ b: Point, normal n: Point, length len: Double,
        module: Double, anchor: Double?
    ) {
        // The dark clock modules' outer edges lie on one line and make
        // about half the points; light clock modules give points further
        // in, scattered. The line through two points that most points
        // lie near (a fixed sequence of pairs), outermost on ties.
        let tol = max(0.5, 0.3 * module)
        // Perspective turns a short side little from its guess.
        let minCos = anchor != nil || len < 20 * module ? 0.996 : 0.978
        var bestInliers = 0, bestDepth = Double.infinity
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let pairs = min(100, count * (count - 1) / 2)
        for _ in 0..<pairs {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let i = Int((state >> 33) % UInt64(count))
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let j = Int((state >> 33) % UInt64(count))
            let p = edge[i], q = edge[j]
            let d = p.distance(to: q)
            guard d > 0.25 * len else { continue }
            var cand = DMLine(a: -(q.y - p.y) / d, b: (q.x - p.x) / d, c: 0)
            cand.c = cand.a * p.x + cand.b * p.y
            if cand.a * n.x + cand.b * n.y < 0 { cand = DMLine(a: -cand.a, b: -cand.b, c: -cand.c) }
            // The line must run along the side, not across it, and near
            // the side's ends when they are known well.
            guard abs(cand.a * n.x + cand.b * n.y) > minCos else { continue }
            if let anchor, abs(cand.distance(a)) > anchor || abs(cand.distance(b)) > anchor { continue }
            var inliers = 0
            for k in 0..<count where abs(cand.distance(edge[k])) < tol { inliers += 1 }
            // Depth of the line along the inward normal at the side's middle.
            let mid = Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
            let depth = -cand.distance(mid)
            if inliers > bestInliers || (inliers == bestInliers && depth < bestDepth) {
                bestInliers = inliers; bestDepth = depth; l = cand
            }
        }
        if bestInliers >= 4 {
            var kept = 0
            for k in 0..<count where abs(l.distance(edge[k])) < tol { edge[kept] = edge[k]; kept += 1 }
            count = kept
            if var f = DMLine.fit(UnsafeBufferPointer(start: edge.pointer, count: count)) {
                if f.a * n.x + f.b * n.y < 0 { f = DMLine(a: -f.a, b: -f.b, c: -f.c) }
                l = f
            }
        }
    }

    /// The inward unit normal of side `a`→`b` towards `c`.
    func normal(_ a: Point, _ b: Point, towards c: Point) -> Point {
        let len = max(1e-9, a.distance(to: b))
        var n = Point(x: -(b.y - a.y) / len, y: (b.x - a.x) / len)
        let mid = Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
        if n.x * (c.x - mid.x) + n.y * (c.y - mid.y) < 0 { n = Point(x: -n.x, y: -n.y) }
        return n
    }
}
