#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An Aztec Code symbol found in a frame and decoded.
struct AztecSymbol {
    /// What it holds.
    var decoded: AztecDecodeResult
    /// The symbol's outer corners in frame pixels: its own top-left, then
    /// top-right, bottom-right and bottom-left.
    var corners: [Point]
    /// Light modules on a dark background.
    var isInverted: Bool
    /// Estimated module size in pixels.
    var moduleSize: Double
    /// The bull's-eye centre in frame pixels.
    var centre: Point
}
