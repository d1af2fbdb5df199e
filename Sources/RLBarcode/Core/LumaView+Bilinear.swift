#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension LumaView {
    /// The bilinear grey level at (`x`, `y`), or nil outside the frame.
    @inline(__always)
    func bilinear(_ x: Double, _ y: Double) -> Double? {
        guard x >= 0, y >= 0, x < Double(width - 1), y < Double(height - 1) else { return nil }
        let ix = Int(x), iy = Int(y)
        let fx = x - Double(ix), fy = y - Double(iy)
        let p = base + iy * stride + ix
        let a = Double(p[0]), b = Double(p[1]), c = Double(p[stride]), d = Double(p[stride + 1])
        let top = a + (b - a) * fx, bottom = c + (d - c) * fx
        return top + (bottom - top) * fy
    }
}
