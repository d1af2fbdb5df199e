#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A straight line a x + b y = c with (a, b) a unit normal.
struct DMLine {
    var a: Double, b: Double, c: Double

    /// The least-squares (total least squares) line through `points`, or nil.
    static func fit(_ p: UnsafeBufferPointer<Point>) -> DMLine? {
        let n = p.count
        guard n >= 2 else { return nil }
        var mx = 0.0, my = 0.0
        for q in p { mx += q.x; my += q.y }
        mx /= Double(n); my /= Double(n)
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for q in p {
            let dx = q.x - mx, dy = q.y - my
            sxx += dx * dx; syy += dy * dy; sxy += dx * dy
        }
        // The direction is the principal axis; the normal is perpendicular.
        let theta = 0.5 * atan2(2 * sxy, sxx - syy)
        let dx = cos(theta), dy = sin(theta)
        let a = -dy, b = dx
        return DMLine(a: a, b: b, c: a * mx + b * my)
    }

    /// Signed distance of `p` (positive on the side the normal points to).
    @inline(__always)
    func distance(_ p: Point) -> Double { a * p.x + b * p.y - c }

    /// Where two lines cross, or nil for near-parallel lines.
    func intersection(_ o: DMLine) -> Point? {
        let det = a * o.b - b * o.a
        guard abs(det) > 1e-6 else { return nil }
        return Point(x: (c * o.b - b * o.c) / det, y: (a * o.c - c * o.a) / det)
    }
}
