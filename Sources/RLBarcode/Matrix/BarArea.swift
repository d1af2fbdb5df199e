/// A region of bars found by the linear stage: its box and the direction
/// across its bars.
struct BarArea {
    var box: PixelRect
    var ux: Double
    var uy: Double
    /// Whether a scan line through the region crossed a PDF417 start or
    /// stop pattern.
    var crossesPattern = false
}
