#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A PDF417 symbol located in a frame, sampled and decoded.
struct PDF417Symbol {
    /// The code's own corners: top-left, top-right, bottom-right, bottom-left.
    var corners: [Point]
    var decoded: PDF417DecodeResult
    var rows: Int
    var columns: Int
    var inverted: Bool
    var mirrored: Bool
}
