/// A read-only, zero-copy view of an 8-bit luma plane.
///
/// The view does not own its memory: the caller keeps the pixels alive and
/// unchanged for as long as the view is used (for the GStreamer element, the
/// duration of one `transform_frame_ip` call).
public struct LumaView {
    /// The first pixel of the first row.
    public let base: UnsafePointer<UInt8>
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bytes from the start of one row to the start of the next (>= `width`).
    public let stride: Int

    /// Creates a view of `height` rows of `width` pixels, `stride` bytes apart.
    ///
    /// - Precondition: `width >= 0`, `height >= 0`, `stride >= width`.
    public init(base: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) {
        precondition(width >= 0 && height >= 0 && stride >= width, "invalid luma geometry")
        self.base = base
        self.width = width
        self.height = height
        self.stride = stride
    }

    /// The luma value at (`x`, `y`); both must be inside the view.
    @inlinable @inline(__always)
    public subscript(x: Int, y: Int) -> UInt8 {
        assert(x >= 0 && x < width && y >= 0 && y < height)
        return base[y &* stride &+ x]
    }
}
