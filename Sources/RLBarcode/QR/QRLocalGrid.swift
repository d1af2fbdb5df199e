#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A QR Code sampling grid in pieces: one projective transform per cell
/// between neighbouring alignment pattern centres (cells at the edges
/// extend outwards), so that a symbol bent by lens distortion is followed.
struct QRLocalGrid {
    /// Module coordinates of the alignment patterns' centres, ascending.
    var positions: [Double]
    /// Row-major, `positions.count - 1` cells a row.
    var cells: [PerspectiveTransform]

    /// The cell along one axis that holds `t` (the first or last beyond).
    @inline(__always)
    func cell(_ t: Double) -> Int {
        var i = 0
        while i + 2 < positions.count && t >= positions[i + 1] { i += 1 }
        return i
    }

    /// Maps module coordinates to frame pixels.
    @inline(__always)
    func map(_ u: Double, _ v: Double) -> Point {
        cells[cell(v) * (positions.count - 1) + cell(u)].map(u, v)
    }
}
