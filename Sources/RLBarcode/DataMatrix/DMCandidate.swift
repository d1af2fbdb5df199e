#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A Data Matrix symbol found in a frame and decoded.
struct DMCandidate {
    /// The decoded content.
    var decoded: DMDecodeResult
    /// The symbol's outer corners in frame pixels: its own top-left as
    /// read (the end of the solid finder's vertical arm), top-right,
    /// bottom-right (the end of the horizontal arm), bottom-left (the
    /// finder's corner).
    var corners: [Point]
    /// Light modules on a dark background.
    var isInverted: Bool
    /// Mean module size in pixels.
    var moduleSize: Double
}
