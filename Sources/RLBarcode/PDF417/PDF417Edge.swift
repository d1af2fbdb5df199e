#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One edge of a symbol: a start or stop pattern column traced over the
/// symbol's height.
struct PDF417Edge {
    var isStart: Bool
    var inverted: Bool
    /// The outer edge's ends, top first (top: the end that the reading
    /// direction turned clockwise points away from).
    var top: Point
    var bottom: Point
    /// The reading direction (unit vector, across the pattern's bars).
    var ux: Double, uy: Double
    /// The module width across the bars, in pixels.
    var module: Double
    /// How many scan lines crossed it.
    var hits: Int
    /// The grey level halfway between the pattern's bars and spaces.
    var level: Double
}
