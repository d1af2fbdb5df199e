#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A finder pattern: three concentric squares of 7x7, 5x5 and 3x3
/// modules, dark-light-dark, so that any line through its centre crosses
/// runs in the ratio 1:1:3:1:1 (ISO/IEC 18004:2015, 6.3.3).
struct QRFinder {
    /// Centre in frame pixels.
    var x: Double
    var y: Double
    /// Mean length of the horizontal and vertical cross sections, divided by
    /// 7 (the module size for an upright pattern, up to sqrt(2) times it at 45 degrees).
    var module: Double
    /// The centre is light: a light-on-dark symbol.
    var inverted: Bool
    /// How many scan rows confirmed it.
    var count: Int
    /// Part of a symbol already.
    var used: Bool
    /// The outer corners of its dark ring, clockwise, once measured
    /// (``QRDetector/finderCorners(_:_:)``).
    var quad: (Point, Point, Point, Point)? = nil
    /// Whether `quad` was measured (it may still be `nil`).
    var quadMeasured = false
    /// Whether a cross section found its outer ring merged with what
    /// surrounds it on one side (``QRDetector/crossCheck``): a symbol
    /// without a quiet zone on a surface of its dark colour.
    var merged = false

    /// The centre: where the diagonals of `quad` cross (exact under
    /// perspective), else the centre found by the cross sections.
    var centre: Point {
        guard let q = quad else { return Point(x: x, y: y) }
        let ax = q.2.x - q.0.x, ay = q.2.y - q.0.y, bx = q.3.x - q.1.x, by = q.3.y - q.1.y
        let den = ax * by - ay * bx
        guard abs(den) > 1e-9 else { return Point(x: x, y: y) }
        let t = ((q.1.x - q.0.x) * by - (q.1.y - q.0.y) * bx) / den
        let c = Point(x: q.0.x + t * ax, y: q.0.y + t * ay)
        // An outline far from the cross sections' centre was mismeasured.
        return c.distance(to: Point(x: x, y: y)) < 1.5 * module ? c : Point(x: x, y: y)
    }
}
