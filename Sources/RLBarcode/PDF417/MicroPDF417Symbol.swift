#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A MicroPDF417 symbol located in a frame, sampled and decoded.
struct MicroPDF417Symbol {
    /// The symbol's own corners: top-left, top-right, bottom-right, bottom-left.
    var corners: [Point]
    var decoded: PDF417DecodeResult
    var size: MicroPDF417.Size
    var inverted: Bool
    var mirrored: Bool
}
