/// The mismatch of one character of a two-width symbology (Code 39,
/// Codabar): `count` elements starting with a bar, the ones whose bit is
/// set in `wideMask` (the first element in the highest bit) wide.
///
/// Elements are compared with the fitted narrow and wide widths after a
/// uniform ink spread (bars `spread` wider, spaces `spread` narrower); the
/// error then grows with the spread itself, with a wide:narrow ratio
/// outside 1.8...3.3 and with a small `margin` between the widest narrow
/// and the narrowest wide element (as a ratio). Clean characters score
/// near 0.
@inline(__always)
func narrowWideError(
    _ w: UnsafeMutablePointer<Float>, count: Int, wideMask: Int, narrow: Float, wide: Float,
    spread: Float, margin: Float
) -> Float {
    var dev: Float = 0
    for k in 0..<count {
        let isWide = wideMask & (1 << (count - 1 - k)) != 0
        let expected = (isWide ? wide : narrow) + (k % 2 == 0 ? spread : -spread)
        dev += abs(w[k] - expected)
    }
    let ratio = wide / narrow
    var e = 3 * dev / (Float(count) * narrow) + 0.6 * abs(spread) / narrow
    if ratio < 1.8 { e += 1.5 * (1.8 - ratio) }
    if ratio > 3.3 { e += ratio - 3.3 }
    if margin < 1.5 { e += 2.5 * (1.5 - margin) }
    return e
}
