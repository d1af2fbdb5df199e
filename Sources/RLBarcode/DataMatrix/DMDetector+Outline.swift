#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The outline of a component, traced along its border.
extension DMDetector {
    /// The convex hull of the component's row ends, into `hull`; its size.
    /// The hull runs counter-clockwise (x right, y up) from its least point
    /// by x, then y.
    func outline(root: Int) -> Int {
        // The rows' ends, from the component's run list (last row first).
        var rowCount = 0
        var i = Int(head[root])
        var row = Int32.min, lo = Int32.max, hi = Int32.min
        func flush() {
            guard row != Int32.min else { return }
            rowEnds.reserveKeeping(3 * rowCount + 3)
            rowEnds[3 * rowCount] = row; rowEnds[3 * rowCount + 1] = lo; rowEnds[3 * rowCount + 2] = hi
            rowCount += 1
        }
        while i >= 0 {
            if ry[i] != row { flush(); row = ry[i]; lo = Int32.max; hi = Int32.min }
            lo = min(lo, rx0[i]); hi = max(hi, rx1[i])
            i = Int(nextRun[i])
        }
        flush()
        guard rowCount > 0 else { return 0 }
        // Each row's four corners, in order of y, then x, with no sort: the
        // rows' tops (lo, y), (hi, y) and their bottoms (lo, y + step),
        // (hi, y + step) are each in that order from the first row down;
        // the two streams are merged.
        let count = 4 * rowCount
        points.reserveKeeping(count)
        let e = rowEnds.pointer, step = Int32(labelStep)
        @inline(__always) func corner(_ k: Int, bottom: Bool) -> (Int32, Int32) {
            let r = rowCount - 1 - k / 2
            return (e[3 * r] &+ (bottom ? step : 0), e[3 * r + 1 + k % 2])
        }
        var a = 0, b = 0, n = 0
        let streamLength = 2 * rowCount
        while a < streamLength || b < streamLength {
            let takeTop: Bool
            if a == streamLength {
                takeTop = false
            } else if b == streamLength {
                takeTop = true
            } else {
                let (ya, xa) = corner(a, bottom: false), (yb, xb) = corner(b, bottom: true)
                takeTop = ya < yb || (ya == yb && xa <= xb)
            }
            let (y, x) = corner(takeTop ? a : b, bottom: !takeTop)
            if takeTop { a += 1 } else { b += 1 }
            points[n] = Point(x: Double(x), y: Double(y))
            n += 1
        }
        // Monotone chain along y (the points' order), which gives the hull
        // in the same turning sense as along x.
        let pts = UnsafeBufferPointer(start: points.pointer, count: count)
        hull.reserveKeeping(2 * count + 2)
        let h = hull.pointer
        var k = 0
        @inline(__always) func cross(_ o: Point, _ a: Point, _ b: Point) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        for p in pts {
            while k >= 2 && cross(h[k - 2], h[k - 1], p) <= 0 { k -= 1 }
            h[k] = p; k += 1
        }
        let lower = k + 1
        for p in pts.reversed().dropFirst() {
            while k >= lower && cross(h[k - 2], h[k - 1], p) <= 0 { k -= 1 }
            h[k] = p; k += 1
        }
        let hn = max(0, k - 1)
        // Started from the least point by x, then y.
        var least = 0
        for j in 1..<max(1, hn) where h[j].x < h[least].x || (h[j].x == h[least].x && h[j].y < h[least].y) { least = j }
        if least > 0 {
            for j in 0..<hn { h[hn + 1 + j] = h[(least + j) % hn] }
            for j in 0..<hn { h[j] = h[hn + 1 + j] }
        }
        return hn
    }
}
