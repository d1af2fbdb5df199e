/// A rectangle of whole pixels, `x0 ..< x1` by `y0 ..< y1`.
struct PixelRect: Equatable {
    var x0: Int, y0: Int, x1: Int, y1: Int
    var width: Int { x1 - x0 }
    var height: Int { y1 - y0 }
    /// The part inside a frame of `width` by `height` pixels (empty ones
    /// have a width or height of 0 or less).
    func clipped(width w: Int, height h: Int) -> PixelRect {
        PixelRect(x0: max(0, x0), y0: max(0, y0), x1: min(w, x1), y1: min(h, y1))
    }
    func contains(_ x: Double, _ y: Double) -> Bool {
        x >= Double(x0) && x < Double(x1) && y >= Double(y0) && y < Double(y1)
    }
}
