#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A QR Code or Micro QR symbol found in a frame and sampled into modules,
/// ready for the decoder.
struct QRCandidate {
    /// The modules as read, `true` dark (after undoing any inversion),
    /// (0, 0) the top-left module: the finder pattern's corner of a Micro
    /// QR symbol, the corner of the finder pattern diagonally opposite the
    /// missing one of a QR Code. A mirror image reads as the transposed
    /// matrix (its top-right and bottom-left finder patterns swap roles),
    /// which the decoder can try when the matrix does not decode.
    var matrix: BitMatrix
    /// The symbol's outer corners in frame pixels (pixel centres at integer
    /// coordinates): its own top-left as read, then top-right, bottom-right
    /// and bottom-left.
    var topLeft: Point
    var topRight: Point
    var bottomRight: Point
    var bottomLeft: Point
    /// Estimated module size in pixels.
    var moduleSize: Double
    /// Light modules on a dark background.
    var isInverted: Bool
    /// A Micro QR symbol (one finder pattern).
    var isMicro: Bool
    /// Whether the symbol size was confirmed by counting the timing
    /// pattern's modules; when not, ``alternatives`` may hold the matrices
    /// sampled at neighbouring sizes.
    var sizeConfirmed: Bool
    /// QR Code matrices of neighbouring sizes (4 modules apart) or of the
    /// size the timing patterns gave, most likely first, for the decoder to
    /// try when ``matrix`` fails; empty when the size was confirmed.
    var alternatives: [BitMatrix]
    /// The symbol, when the detector already decoded it (a QR Code whose
    /// first readings failed and that it sampled again; see
    /// ``QRDetector/rescue(_:_:_:_:outline:sizes:inverted:into:)``).
    var decoded: QRDecodeResult? = nil
    /// Whether the detector tried to decode ``matrix`` and ``alternatives``
    /// already: the caller need not try them again.
    var decodeTried = false

    /// The four corners, top-left of the symbol first, clockwise as read.
    var corners: [Point] { [topLeft, topRight, bottomRight, bottomLeft] }

    /// Takes a matrix sampled again, the corners of its grid (top-left,
    /// top-right, bottom-right, bottom-left) and what it decoded to.
    mutating func adopt(_ m: BitMatrix, _ c: (Point, Point, Point, Point), _ d: QRDecodeResult) {
        matrix = m
        topLeft = c.0; topRight = c.1; bottomRight = c.2; bottomLeft = c.3
        decoded = d
    }
}
