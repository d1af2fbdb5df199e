#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a scan line crossed a PDF417 start or stop pattern.
struct PDF417PatternHit {
    /// Whether this is a start pattern (else a stop pattern).
    var isStart: Bool
    /// Light bars on a dark background.
    var inverted: Bool
    /// The pattern's outer edge (the symbol's left edge for a start
    /// pattern, its right edge for a stop pattern), in frame pixels.
    var outer: Point
    /// The reading direction of the line that crossed it (unit vector).
    var dx: Double, dy: Double
    /// The module width measured along the line, in pixels.
    var module: Double
    /// The group the hit belongs to (union-find parent).
    var parent: Int
    /// The order of the line that crossed it in a search of every line,
    /// and the hit's order on that line.
    var order: Int = 0
}
