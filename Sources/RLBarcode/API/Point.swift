/// A point in frame pixels (x to the right, y down).
public struct Point: Sendable, Hashable {
    /// Horizontal coordinate in pixels.
    public var x: Double
    /// Vertical coordinate in pixels.
    public var y: Double
    /// Creates a point.
    @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }
}
