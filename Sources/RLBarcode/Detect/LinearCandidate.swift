#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A place in the frame where a linear code probably is.
struct LinearCandidate {
    /// Centre in frame pixels.
    var cx: Double
    var cy: Double
    /// Unit vector across the bars (the reading axis, either way).
    var ux: Double
    var uy: Double
    /// Extent across the bars (along u) and along them (along v), in pixels.
    var lengthU: Double
    var lengthV: Double
    /// Mean gradient energy, for ordering.
    var strength: Double
    /// Number of cells.
    var cells: Int
}
