/// A straight scan line through a frame: `origin + t * direction`, `t` in
/// `0 ..< length`, one sample per pixel of length.
struct ScanLine {
    var origin: Point
    /// The step from one sample to the next, along the line (the code's
    /// reading direction when read forward); a unit vector for one sample a pixel.
    var dx: Double
    var dy: Double
    /// The number of samples.
    var length: Int

    func point(at t: Double) -> Point { Point(x: origin.x + t * dx, y: origin.y + t * dy) }

    /// The distance between two samples, in pixels.
    var stepLength: Double { (dx * dx + dy * dy).squareRoot() }

    /// The part of the line over its cells of bars `crossing`, with
    /// `margin` samples or `share` of the part's length, whichever is
    /// more, on either side (for quiet zones); nil when under 16 samples.
    func part(over crossing: BarCrossing, margin: Double, share: Double) -> ScanLine? {
        let extra = max(margin, share * (crossing.last - crossing.first))
        let t0 = max(0, (crossing.first - extra).rounded(.down))
        let t1 = min(Double(length), (crossing.last + extra).rounded(.up))
        let n = Int(t1 - t0)
        guard n >= 16 else { return nil }
        return ScanLine(origin: point(at: t0), dx: dx, dy: dy, length: n)
    }

    /// Clips the infinite line through `center` with direction (dx, dy) to the
    /// pixel rectangle `bounds`, keeping at most `halfLength` pixels on each
    /// side of `center`, and `margin` pixels from the rectangle's edges (none
    /// by default: a code cut tight or touching the frame's border has its
    /// outer bars at the frame's edge).
    ///
    /// `step` is the distance between samples in pixels: below 1 the line
    /// samples between pixels too, which places the edges of modules under
    /// two pixels wide more exactly.
    static func clipped(
        center: Point, dx: Double, dy: Double, halfLength: Double,
        bounds: PixelRect, margin: Double = 0, step: Double = 1
    ) -> ScanLine? {
        var t0 = -halfLength, t1 = halfLength
        let lo = Double(bounds.x0) + margin, hiX = Double(bounds.x1) - 1 - margin, hiY = Double(bounds.y1) - 1 - margin
        let loY = Double(bounds.y0) + margin
        if hiX < lo || hiY < loY { return nil }
        func clip(_ p: Double, _ d: Double, _ lo: Double, _ hi: Double) -> Bool {
            if abs(d) < 1e-9 { return p >= lo && p <= hi }
            var a = (lo - p) / d, b = (hi - p) / d
            if a > b { swap(&a, &b) }
            t0 = max(t0, a); t1 = min(t1, b)
            return t0 < t1
        }
        guard clip(center.x, dx, lo, hiX), clip(center.y, dy, loY, hiY) else { return nil }
        // Within 0.8 degrees of an axis, the samples on pixel centres along
        // it (the origin moved forward by under a pixel): a tap between two
        // pixels halves the contrast of a bar one pixel wide.
        if step == 1, max(abs(dx), abs(dy)) > 0.9999 {
            let p = abs(dx) > abs(dy) ? center.x + t0 * dx : center.y + t0 * dy
            let d = abs(dx) > abs(dy) ? dx : dy
            t0 += (d > 0 ? p.rounded(.up) - p : p - p.rounded(.down)) / abs(d)
        }
        let n = Int(((t1 - t0) / step).rounded(.down))
        if n < 16 { return nil }
        return ScanLine(
            origin: Point(x: center.x + t0 * dx, y: center.y + t0 * dy), dx: dx * step, dy: dy * step, length: n)
    }
}
