/// The parts of a frame one scan looked at (``Scanner/lastScannedArea``):
/// up to two rectangles, in pixels; none when the scan looked nowhere.
public struct ScannedArea: Sendable, Equatable {
    var first: PixelRect?
    var second: PixelRect?

    /// Nowhere.
    public init() {}

    init(_ first: PixelRect?, _ second: PixelRect? = nil) {
        self.first = first
        self.second = second
    }

    /// Whether the scan looked at the point (`x`, `y`), in pixels.
    public func contains(x: Double, y: Double) -> Bool {
        (first?.contains(x, y) ?? false) || (second?.contains(x, y) ?? false)
    }
}
