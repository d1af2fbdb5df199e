/// The module boundaries of a clock track that is not evenly spaced: a
/// symbol on a curved surface, or seen through a lens that bends it, has
/// modules that narrow and widen along the track, and blur can merge the
/// small ones so that the track's runs cannot simply be counted.
///
/// The clock track (ISO/IEC 16022:2006, 5.1.1: the dashed top row and
/// right column) alternates ink and light, one module each, a known
/// number of times once the symbol size is chosen. Given a profile of
/// ink scores along the track (positive for ink, negative for light, an
/// even number of samples per nominal module), dynamic programming puts
/// the `count - 1` boundaries where the alternating template fits the
/// profile best, with every module between half and 1.6 times the nominal
/// width and a penalty on neighbouring modules of different widths, which
/// keeps the spacing smooth where the profile says little.
enum DMClockWarp {
    /// The module centres (fractions 0 ... 1 of the track) of a track of
    /// `count` modules read as `scores` (at least `4 * count` samples,
    /// evenly spaced, each in -1 ... 1), whose first module is ink when
    /// `firstInk`; nil when the best fit still disagrees with the profile
    /// on too much of it.
    static func centres(_ scores: UnsafeBufferPointer<Double>, count: Int, firstInk: Bool) -> [Double]? {
        fit(scores, count: count, firstInk: firstInk)?.centres
    }

    /// As ``centres(_:count:firstInk:)``, with how well the template fits:
    /// the mean score of the profile read against it (1 at best).
    static func fit(
        _ scores: UnsafeBufferPointer<Double>, count: Int,
        firstInk: Bool
    ) -> (centres: [Double], agreement: Double)? {
        let n = scores.count
        guard count >= 2, n >= 4 * count else { return nil }
        let nominal = Double(n) / Double(count)
        let wMin = max(2, Int((0.5 * nominal).rounded(.down)))
        let wMax = max(wMin + 1, Int((1.6 * nominal).rounded(.up)))
        let widths = wMax - wMin + 1
        // Prefix sums: the score of samples a..<b is prefix[b] - prefix[a].
        var prefix = [Double](repeating: 0, count: n + 1)
        for s in 0..<n { prefix[s + 1] = prefix[s] + scores[s] }
        // A change of a whole nominal width between neighbours costs about
        // as much as two samples read against the template.
        let smooth = 2.0 / (nominal * nominal)
        // best[k][b][w]: modules 0...k placed, module k ends at b and is w
        // wide; the score so far (-inf when impossible).
        let states = (n + 1) * widths
        var best = [Double](repeating: -.infinity, count: count * states)
        var from = [Int32](repeating: -1, count: count * states)
        for w in wMin...wMax where w <= n {
            let s = firstInk ? prefix[w] : -prefix[w]
            best[w * widths + (w - wMin)] = s
        }
        for k in 1..<count {
            let ink = (k % 2 == 0) == firstInk
            let sign = ink ? 1.0 : -1.0
            let base = k * states, prev = (k - 1) * states
            // Module k must leave room for the modules after it.
            let lastEnd = n - (count - 1 - k) * wMin
            let firstEnd = (k + 1) * wMin
            guard firstEnd <= lastEnd else { return nil }
            for b in firstEnd...lastEnd {
                for wi in 0..<widths {
                    let w = wi + wMin
                    let a = b - w
                    guard a >= k * wMin else { continue }
                    let own = sign * (prefix[b] - prefix[a])
                    var top = -Double.infinity, arg = -1
                    let row = prev + a * widths
                    for pi in 0..<widths {
                        let v = best[row + pi]
                        guard v > -.infinity else { continue }
                        let d = Double(pi - wi)
                        let total = v - smooth * d * d
                        if total > top { top = total; arg = pi }
                    }
                    guard arg >= 0 else { continue }
                    best[base + b * widths + wi] = top + own
                    from[base + b * widths + wi] = Int32(arg)
                }
            }
        }
        // The last module ends at the end of the track.
        var endW = -1, total = -Double.infinity
        let last = (count - 1) * states + n * widths
        for wi in 0..<widths where best[last + wi] > total { total = best[last + wi]; endW = wi }
        guard endW >= 0 else { return nil }
        // Agreement: the mean score read against the template, less the
        // smoothness penalty.
        let agreement = total / Double(n)
        guard agreement >= 0.25 else { return nil }
        var ends = [Int](repeating: 0, count: count + 1)
        var b = n, wi = endW
        for k in stride(from: count - 1, through: 0, by: -1) {
            ends[k + 1] = b
            let w = wi + wMin
            let p = Int(from[k * states + b * widths + wi])
            b -= w
            wi = p
        }
        ends[0] = b
        guard b == 0 else { return nil }
        return ((0..<count).map { (Double(ends[$0]) + Double(ends[$0 + 1])) / 2 / Double(n) }, agreement)
    }
}
