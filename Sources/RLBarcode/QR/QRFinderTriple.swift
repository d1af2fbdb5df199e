#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Three finder patterns that may form one symbol, with how well they fit.
struct QRFinderTriple {
    var topLeft: Int32
    var topRight: Int32
    var bottomLeft: Int32
    /// Lower is better.
    var score: Double
}
