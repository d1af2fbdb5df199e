/// A region of bars found by the linear stage: its box and the direction
/// across its bars.
struct BarArea {
    var box: PixelRect
    var ux: Double
    var uy: Double
    /// Whether a scan line through the region crossed a PDF417 start or
    /// stop pattern.
    var crossesPattern = false

    /// The box in which to look for the PDF417 the region may be part of
    /// (a few of its columns): the region's size again on every side, and
    /// `reach` pixels more along its rows (the direction across its bars),
    /// within `bounds`; nil when nothing of it is inside.
    func symbolBox(reach: Double, within bounds: PixelRect) -> PixelRect? {
        widened(dx: box.width + Int(reach * abs(ux)), dy: box.height + Int(reach * abs(uy)), within: bounds)
    }

    /// The box widened by `reach` pixels on either side along its rows
    /// (the direction across its bars) only, within `bounds`; nil when
    /// nothing of it is inside.
    func alongRows(by reach: Double, within bounds: PixelRect) -> PixelRect? {
        widened(dx: Int(reach * abs(ux)), dy: Int(reach * abs(uy)), within: bounds)
    }

    /// The box widened by `dx` and `dy` pixels on either side, within
    /// `bounds`; nil when nothing of it is inside.
    private func widened(dx: Int, dy: Int, within bounds: PixelRect) -> PixelRect? {
        let r = PixelRect(
            x0: max(bounds.x0, box.x0 - dx), y0: max(bounds.y0, box.y0 - dy),
            x1: min(bounds.x1, box.x1 + dx), y1: min(bounds.y1, box.y1 + dy))
        return r.width > 0 && r.height > 0 ? r : nil
    }
}
