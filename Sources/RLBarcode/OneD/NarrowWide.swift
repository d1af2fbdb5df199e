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

/// The narrow and wide widths of one character of a two-width symbology
/// (Code 39, Codabar) under a uniform ink spread: `count` elements starting
/// with a bar, the ones whose bit is set in `wideMask` (the first element
/// in the highest bit) wide.
struct NarrowWideFit {
    /// The mean narrow width, bars and spaces weighed alike.
    var narrow: Float
    /// The mean wide width, the spread taken off the bars and given to the spaces.
    var wide: Float
    /// Half of how much wider the narrow bars are than the narrow spaces
    /// (negative when thinner).
    var spread: Float
    /// The widest and the narrowest narrow element.
    var maxNarrow: Float
    var minNarrow: Float

    /// The fit of the elements from `w`; `nil` without a narrow bar and a
    /// narrow space or with an element of no width among the narrow ones.
    @inline(__always)
    init?(_ w: UnsafePointer<Float>, count: Int, wideMask mask: Int) {
        // Narrow bars and spaces, wide bars and spaces: sums and counts.
        var nb: Float = 0, ns: Float = 0, wb: Float = 0, ws: Float = 0
        var cnb: Float = 0, cns: Float = 0, cwb: Float = 0, cws: Float = 0
        var maxNarrow: Float = 0, minNarrow: Float = .infinity
        for k in 0..<count {
            let v = w[k]
            let wide = mask & (1 << (count - 1 - k)) != 0
            let bar = k % 2 == 0
            if wide {
                if bar { wb += v; cwb += 1 } else { ws += v; cws += 1 }
            } else {
                maxNarrow = max(maxNarrow, v); minNarrow = min(minNarrow, v)
                if bar { nb += v; cnb += 1 } else { ns += v; cns += 1 }
            }
        }
        guard cnb > 0, cns > 0, minNarrow > 0 else { return nil }
        let meanNB = nb / cnb, meanNS = ns / cns
        spread = (meanNB - meanNS) / 2
        narrow = (meanNB + meanNS) / 2
        guard narrow > 0 else { return nil }
        wide = ((wb - cwb * spread) + (ws + cws * spread)) / (cwb + cws)
        self.maxNarrow = maxNarrow
        self.minNarrow = minNarrow
    }
}
