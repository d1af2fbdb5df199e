/// A plane projective transform (homography), in homogeneous coordinates:
///
///     | x' |   | a11 a21 a31 |   | u |
///     | y' | = | a12 a22 a32 | * | v |
///     | w' |   | a13 a23 a33 |   | 1 |
///
/// mapping (u, v) to (x'/w', y'/w'). The matrix codes use it to map module
/// coordinates of a symbol onto frame pixels: a square symbol seen at an
/// angle is a general quadrilateral in the picture, and four point pairs fix
/// the transform (ISO/IEC 18004:2015, Annex reference decode algorithm, step
/// "determine the sampling grid"). It is built from four point pairs as a
/// unit square to quadrilateral map composed with the inverse of another.
struct PerspectiveTransform: Sendable, Equatable {
    var a11, a12, a13, a21, a22, a23, a31, a32, a33: Double

    /// The identity.
    static let identity = PerspectiveTransform(a11: 1, a12: 0, a13: 0, a21: 0, a22: 1, a23: 0, a31: 0, a32: 0, a33: 1)

    /// The transform that maps the unit square's corners (0,0), (1,0), (1,1),
    /// (0,1) onto `p0`, `p1`, `p2`, `p3` in that order.
    static func squareToQuadrilateral(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) -> PerspectiveTransform {
        let dx3 = p0.x - p1.x + p2.x - p3.x
        let dy3 = p0.y - p1.y + p2.y - p3.y
        if abs(dx3) < 1e-12 && abs(dy3) < 1e-12 {
            // A parallelogram: affine.
            return PerspectiveTransform(
                a11: p1.x - p0.x, a12: p1.y - p0.y, a13: 0,
                a21: p2.x - p1.x, a22: p2.y - p1.y, a23: 0,
                a31: p0.x, a32: p0.y, a33: 1)
        }
        let dx1 = p1.x - p2.x, dx2 = p3.x - p2.x
        let dy1 = p1.y - p2.y, dy2 = p3.y - p2.y
        let den = dx1 * dy2 - dx2 * dy1
        let g = (dx3 * dy2 - dx2 * dy3) / den
        let h = (dx1 * dy3 - dx3 * dy1) / den
        return PerspectiveTransform(
            a11: p1.x - p0.x + g * p1.x, a12: p1.y - p0.y + g * p1.y, a13: g,
            a21: p3.x - p0.x + h * p3.x, a22: p3.y - p0.y + h * p3.y, a23: h,
            a31: p0.x, a32: p0.y, a33: 1)
    }

    /// The transform that maps the quadrilateral `p0`...`p3` onto the unit
    /// square's corners (0,0), (1,0), (1,1), (0,1).
    static func quadrilateralToSquare(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) -> PerspectiveTransform {
        squareToQuadrilateral(p0, p1, p2, p3).adjoint
    }

    /// The transform that maps `from[i]` onto `to[i]` for the four pairs.
    static func quadrilateralToQuadrilateral(
        from f0: Point, _ f1: Point, _ f2: Point, _ f3: Point,
        to t0: Point, _ t1: Point, _ t2: Point, _ t3: Point
    ) -> PerspectiveTransform {
        let q2s = quadrilateralToSquare(f0, f1, f2, f3)
        let s2q = squareToQuadrilateral(t0, t1, t2, t3)
        return q2s.then(s2q)
    }

    /// The adjoint matrix: the inverse up to a scale factor, which a
    /// homogeneous transform ignores.
    var adjoint: PerspectiveTransform {
        PerspectiveTransform(
            a11: a22 * a33 - a23 * a32, a12: a13 * a32 - a12 * a33, a13: a12 * a23 - a13 * a22,
            a21: a23 * a31 - a21 * a33, a22: a11 * a33 - a13 * a31, a23: a13 * a21 - a11 * a23,
            a31: a21 * a32 - a22 * a31, a32: a12 * a31 - a11 * a32, a33: a11 * a22 - a12 * a21)
    }

    /// The inverse transform (the adjoint; projectively equal).
    var inverse: PerspectiveTransform { adjoint }

    /// `self` applied first, then `other`.
    func then(_ other: PerspectiveTransform) -> PerspectiveTransform {
        let o = other
        return PerspectiveTransform(
            a11: a11 * o.a11 + a12 * o.a21 + a13 * o.a31,
            a12: a11 * o.a12 + a12 * o.a22 + a13 * o.a32,
            a13: a11 * o.a13 + a12 * o.a23 + a13 * o.a33,
            a21: a21 * o.a11 + a22 * o.a21 + a23 * o.a31,
            a22: a21 * o.a12 + a22 * o.a22 + a23 * o.a32,
            a23: a21 * o.a13 + a22 * o.a23 + a23 * o.a33,
            a31: a31 * o.a11 + a32 * o.a21 + a33 * o.a31,
            a32: a31 * o.a12 + a32 * o.a22 + a33 * o.a32,
            a33: a31 * o.a13 + a32 * o.a23 + a33 * o.a33)
    }

    /// Maps (`u`, `v`); points on the transform's horizon map to infinity.
    @inline(__always)
    func map(_ u: Double, _ v: Double) -> Point {
        let w = a13 * u + a23 * v + a33
        return Point(x: (a11 * u + a21 * v + a31) / w, y: (a12 * u + a22 * v + a32) / w)
    }

    /// Maps a point.
    @inline(__always)
    func map(_ p: Point) -> Point { map(p.x, p.y) }
}

extension Point {
    /// Euclidean distance to `other`.
    @inline(__always)
    func distance(to other: Point) -> Double {
        let dx = x - other.x, dy = y - other.y
        return (dx * dx + dy * dy).squareRoot()
    }
}

extension PerspectiveTransform {
    /// The transform that maps `from[i]` nearest to `to[i]` in the least
    /// squares sense (at least four pairs, not three on a line), or `nil`
    /// when the pairs do not fix one.
    ///
    /// Both point sets are first moved to their centroid and scaled to a
    /// mean distance of sqrt(2) from it, which keeps the normal equations
    /// well conditioned; the eight unknowns (the ninth coefficient is 1)
    /// are then solved by Gaussian elimination.
    static func fitting(from: [Point], to: [Point]) -> PerspectiveTransform? {
        let n = min(from.count, to.count)
        guard n >= 4 else { return nil }
        func normalizer(_ p: [Point]) -> PerspectiveTransform {
            var cx = 0.0, cy = 0.0
            for q in p.prefix(n) { cx += q.x; cy += q.y }
            cx /= Double(n); cy /= Double(n)
            var d = 0.0
            for q in p.prefix(n) { d += ((q.x - cx) * (q.x - cx) + (q.y - cy) * (q.y - cy)).squareRoot() }
            let s = d > 0 ? 2.0.squareRoot() * Double(n) / d : 1
            return PerspectiveTransform(
                a11: s, a12: 0, a13: 0, a21: 0, a22: s, a23: 0, a31: -s * cx, a32: -s * cy, a33: 1)
        }
        let ns = normalizer(from), nd = normalizer(to)
        // Normal equations A^T A h = A^T b, 8 unknowns:
        // h = [a11, a21, a31, a12, a22, a32, a13, a23].
        var m = [Double](repeating: 0, count: 8 * 9)
        for i in 0..<n {
            let s = ns.map(from[i]), d = nd.map(to[i])
            let rows: [([Double], Double)] = [
                ([s.x, s.y, 1, 0, 0, 0, -d.x * s.x, -d.x * s.y], d.x),
                ([0, 0, 0, s.x, s.y, 1, -d.y * s.x, -d.y * s.y], d.y)
            ]
            for (r, b) in rows {
                for a in 0..<8 {
                    for c in 0..<8 { m[a * 9 + c] += r[a] * r[c] }
                    m[a * 9 + 8] += r[a] * b
                }
            }
        }
        // Gaussian elimination with partial pivoting.
        for col in 0..<8 {
            var pivot = col
            for r in (col + 1)..<8 where abs(m[r * 9 + col]) > abs(m[pivot * 9 + col]) { pivot = r }
            guard abs(m[pivot * 9 + col]) > 1e-12 else { return nil }
            if pivot != col { for c in 0..<9 { m.swapAt(col * 9 + c, pivot * 9 + c) } }
            for r in 0..<8 where r != col {
                let f = m[r * 9 + col] / m[col * 9 + col]
                if f == 0 { continue }
                for c in col..<9 { m[r * 9 + c] -= f * m[col * 9 + c] }
            }
        }
        var h = [Double](repeating: 0, count: 8)
        for r in 0..<8 { h[r] = m[r * 9 + 8] / m[r * 9 + r] }
        let fitted = PerspectiveTransform(
            a11: h[0], a12: h[3], a13: h[6], a21: h[1], a22: h[4], a23: h[7],
            a31: h[2], a32: h[5], a33: 1)
        return ns.then(fitted).then(nd.inverse)
    }
}
