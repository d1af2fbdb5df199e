/// From a grey-level profile to the widths of bars and spaces.
///
/// Edges are the extrema of the profile's first derivative, placed with
/// sub-pixel precision by a parabola through the peak and its neighbours;
/// ``refine(_:count:)`` can then move them to local halfway levels.
/// Grey levels are never binarized with one threshold, so blurred narrow
/// elements whose contrast is low still produce their pair of edges. A peak
/// counts when it reaches a fraction of the strongest derivative nearby
/// (a local, not a global, contrast reference) and an absolute floor.
package struct EdgeExtractor {
    /// An empty value; buffers grow on first use.
    package init() {}

    /// Capacity for one line.
    private(set) var capacity = 0
    private var deriv = ScratchBuffer<Float>()
    private var blockMax = ScratchBuffer<Float>()
    /// Edge positions along the line (pixels) and signs (+1 rising, -1 falling).
    var edgePos = ScratchBuffer<Float>()
    var edgeSign = ScratchBuffer<Int8>()
    /// Edge strengths (absolute derivative at the peak).
    var edgeMag = ScratchBuffer<Float>()
    private var extreme = ScratchBuffer<Float>()
    private var peakAt = ScratchBuffer<Int>()
    var edgeCount = 0

    static let blockSize = 16

    mutating func reserve(_ n: Int) {
        if n <= capacity { return }
        capacity = n
        deriv.reserve(n + 2)
        blockMax.reserve(n / EdgeExtractor.blockSize + 3)
        edgePos.reserve(n + 2)
        edgeSign.reserve(n + 2)
        edgeMag.reserve(n + 2)
    }

    package func free() {
        deriv.free(); blockMax.free(); edgePos.free(); edgeSign.free(); edgeMag.free(); extreme.free(); peakAt.free()
    }

    /// Finds the edges of `profile[0 ..< n]`.
    ///
    /// - Parameters:
    ///   - relative: the fraction of the local strongest derivative a peak must reach.
    ///   - floor: the absolute minimum derivative (grey levels per pixel).
    package mutating func extract(_ profile: UnsafePointer<Float>, count n: Int, relative: Float, floor: Float) {
        edgeCount = 0
        guard n >= 4 else { return }
        reserve(n)
        let d = deriv.pointer
        let m = n - 1
        // Local contrast reference: maxima of |d| over blocks, read over three blocks.
        let bs = EdgeExtractor.blockSize
        let nb = (m + bs - 1) / bs
        let bm = blockMax.pointer
        // The derivative and each whole block's maximum, 8 samples at a
        // time (the same differences and maxima as one at a time).
        let whole = bs == 16 ? m / 16 : 0
        let src = UnsafeRawPointer(profile), dst = UnsafeMutableRawPointer(d)
        let zero = SIMD8<Float>()
        for b in 0..<whole {
            let o = b &* 64
            let a0 = src.loadUnaligned(fromByteOffset: o, as: SIMD8<Float>.self)
            let b0 = src.loadUnaligned(fromByteOffset: o &+ 4, as: SIMD8<Float>.self)
            let a1 = src.loadUnaligned(fromByteOffset: o &+ 32, as: SIMD8<Float>.self)
            let b1 = src.loadUnaligned(fromByteOffset: o &+ 36, as: SIMD8<Float>.self)
            let d0 = b0 - a0, d1 = b1 - a1
            dst.storeBytes(of: d0, toByteOffset: o, as: SIMD8<Float>.self)
            dst.storeBytes(of: d1, toByteOffset: o &+ 32, as: SIMD8<Float>.self)
            var m8 = d0.replacing(with: -d0, where: d0 .< zero)
            let n1 = d1.replacing(with: -d1, where: d1 .< zero)
            m8.replace(with: n1, where: n1 .> m8)
            var m4 = m8.lowHalf
            m4.replace(with: m8.highHalf, where: m8.highHalf .> m4)
            bm[b] = max(max(max(m4[0], m4[1]), max(m4[2], m4[3])), 0)
        }
        for i in (whole &* 16)..<m { d[i] = profile[i + 1] - profile[i] }
        for b in whole..<nb {
            var mx: Float = 0
            let end = min(m, (b + 1) * bs)
            var i = b * bs
            while i < end { mx = max(mx, abs(d[i])); i += 1 }
            bm[b] = mx
        }
        let pos = edgePos.pointer, sgn = edgeSign.pointer, mag = edgeMag.pointer
        var count = 0
        // Block by block: the least derivative that can be an edge there,
        // the floor or the share of the strongest nearby, whichever is
        // more, so that the many samples below it cost one comparison.
        for b in 0..<nb {
            let ref = max(bm[b], max(b > 0 ? bm[b - 1] : 0, b + 1 < nb ? bm[b + 1] : 0))
            let least = max(floor, relative * ref)
            // No derivative of the block reaches it: nothing to look at.
            if bm[b] < least { continue }
            let end = min(m, (b + 1) * bs)
            var i = b * bs
            while i < end {
                let v = d[i], a = abs(v)
                if a < least { i += 1; continue }
                let prev: Float = i > 0 ? d[i - 1] : 0
                let next: Float = i + 1 < m ? d[i + 1] : 0
                // A peak of |d| with the same sign; on a plateau take its first sample.
                let isPeak = (v > 0) ? (v >= prev && v > next) : (v <= prev && v < next)
                if !isPeak { i += 1; continue }
                let s: Int8 = v > 0 ? 1 : -1
                // Sub-pixel: parabola through the three derivative samples.
                let denom = prev - 2 * v + next
                var off: Float = 0
                if denom != 0 { off = 0.5 * (prev - next) / denom }
                off = min(max(off, -0.5), 0.5)
                let p = Float(i) + 0.5 + off
                if count > 0 && sgn[count - 1] == s {
                    // Two edges of one sign in a row: keep the stronger.
                    if a > mag[count - 1] { pos[count - 1] = p; mag[count - 1] = a }
                } else {
                    pos[count] = p; sgn[count] = s; mag[count] = a; count += 1
                }
                i += 1
            }
        }
        edgeCount = count
    }

    /// Smooths `p[0 ..< n]` in place with the weights 1 2 1 (its two end
    /// samples kept), for sensor noise.
    package static func smooth(_ p: UnsafeMutablePointer<Float>, count n: Int) {
        guard n >= 3 else { return }
        var previous = p[0]
        for i in 1..<(n - 1) {
            let current = p[i]
            p[i] = (previous + 2 * current + p[i + 1]) * 0.25
            previous = current
        }
    }

    /// Removes weak bumps: an element whose grey level differs from both its
    /// neighbours' by less than `fraction` of the local contrast (the range
    /// of the element extremes four elements either side) is merged into
    /// them, with its two edges. Ripples inside wide bars and spaces
    /// (texture, compression artefacts) go; narrow elements that reach a
    /// real share of the contrast stay.
    package mutating func prune(_ p: UnsafePointer<Float>, count n: Int, fraction: Float) {
        let c = edgeCount
        guard c >= 3 else { return }
        extreme.reserve(c + 1)
        let pos = edgePos.pointer, sgn = edgeSign.pointer, mag = edgeMag.pointer, ext = extreme.pointer
        // ext[j]: extreme of element j, which ends at edge j (element c ends at the line's end).
        for j in 0...c {
            let from = j == 0 ? 0 : Int(pos[j - 1]) + 1
            let to = j == c ? n - 1 : min(n - 1, Int(pos[j]))
            // Element j is dark when the edge that ends it rises (or the one opening it falls).
            let dark = j < c ? sgn[j] > 0 : sgn[c - 1] < 0
            var e = p[min(max(from, 0), n - 1)]
            var i = from
            if dark {
                while i <= to { e = min(e, p[i]); i += 1 }
            } else {
                while i <= to { e = max(e, p[i]); i += 1 }
            }
            ext[j] = e
        }
        // Greedy left-to-right merge into a compacted edge list.
        var out = 0
        var j = 0
        var prevExt = ext[0]
        while j < c {
            // Candidate: element j + 1 lies between edges j and j + 1.
            if j + 1 < c {
                let e = ext[j + 1], after = ext[j + 2]
                var lo = min(prevExt, min(e, after)), hi = max(prevExt, max(e, after))
                // Local contrast over the four elements either side.
                for k in max(0, j - 3)...min(c, j + 5) { lo = min(lo, ext[k]); hi = max(hi, ext[k]) }
                let amplitude = max(abs(e - prevExt), abs(e - after))
                if amplitude < fraction * (hi - lo) {
                    // Drop edges j and j + 1; the merged element keeps the stronger extreme.
                    let darkMerged = sgn[j] > 0
                    prevExt = darkMerged ? min(prevExt, after) : max(prevExt, after)
                    j += 2
                    continue
                }
            }
            pos[out] = pos[j]; sgn[out] = sgn[j]; mag[out] = mag[j]
            out += 1
            prevExt = ext[j + 1]
            j += 1
        }
        edgeCount = out
    }

    /// Re-measures every dark element by its area: the darkness summed
    /// between the peaks of the light elements around it, divided by the
    /// local contrast, is its width, and its centre of darkness is its
    /// centre. Blur spreads a bar but keeps its area, so narrow bars that
    /// never reach full black (blur, blooming) get their true width back.
    /// The edges become the bars' ends; light elements are what lies between.
    mutating func areaEdges(_ p: UnsafePointer<Float>, count n: Int) {
        let c = edgeCount
        guard c >= 4 else { return }
        extreme.reserve(c + 1)
        peakAt.reserve(c + 1)
        let pos = edgePos.pointer, sgn = edgeSign.pointer, ext = extreme.pointer, at = peakAt.pointer
        // Extreme value and its position for each element j (0...c).
        for j in 0...c {
            let from = j == 0 ? 0 : min(n - 1, Int(pos[j - 1]) + 1)
            let to = j == c ? n - 1 : min(n - 1, Int(pos[j]))
            let dark = j < c ? sgn[j] > 0 : sgn[c - 1] < 0
            var e = p[from], ei = from
            var i = from
            while i <= to {
                if dark ? p[i] < e : p[i] > e { e = p[i]; ei = i }
                i += 1
            }
            ext[j] = e; at[j] = ei
        }
        // Dark elements lie between a falling edge j-1 and a rising edge j.
        for j in 1..<c where sgn[j - 1] < 0 && sgn[j] > 0 {
            var white: Float = -.infinity, black: Float = .infinity
            for k in max(0, j - 4)...min(c, j + 4) {
                let dark = k < c ? sgn[k] > 0 : sgn[c - 1] < 0
                if dark { black = min(black, ext[k]) } else { white = max(white, ext[k]) }
            }
            let range = white - black
            guard range > 1 else { continue }
            let from = at[j - 1], to = at[j + 1]
            guard to > from else { continue }
            var area: Float = 0, moment: Float = 0
            for i in from...to {
                let d = min(max((white - p[i]) / range, 0), 1)
                area += d
                moment += d * Float(i)
            }
            guard area > 0.2 else { continue }
            let centre = moment / area
            let lo = Float(from), hi = Float(to)
            pos[j - 1] = min(max(centre - area / 2, lo), hi)
            pos[j] = min(max(centre + area / 2, lo), hi)
        }
        // Keep the edges in order.
        for k in 1..<c where pos[k] < pos[k - 1] { pos[k] = pos[k - 1] }
    }

    /// Moves each edge to where the profile crosses the level halfway between
    /// the extremes of the two elements it separates. Under blur a narrow
    /// element does not reach full contrast and the derivative peak of its
    /// edges drifts towards the wider neighbour; the local halfway level
    /// follows the element's own contrast instead.
    mutating func refine(_ p: UnsafePointer<Float>, count n: Int) {
        let pos = edgePos.pointer, sgn = edgeSign.pointer
        let c = edgeCount
        guard c >= 2 else { return }
        // Extreme of each element: between consecutive edges (and the line ends).
        var prevExtreme: Float = 0
        do {
            let end = Int(pos[0])
            var e = p[0]
            var i = max(0, end - 12)
            while i <= end { e = sgn[0] < 0 ? max(e, p[i]) : min(e, p[i]); i += 1 }
            prevExtreme = e
        }
        var original = pos[0]
        for k in 0..<c {
            let from = Int(original) + 1
            let to = k + 1 < c ? Int(pos[k + 1]) : min(n - 1, from + 12)
            var e = p[min(from, n - 1)]
            var i = from
            while i <= to && i < n { e = sgn[k] < 0 ? min(e, p[i]) : max(e, p[i]); i += 1 }
            let level = (prevExtreme + e) / 2
            // Search the crossing of `level` near the derivative peak.
            let centre = Int(original)
            let lo = k > 0 ? max(Int(pos[k - 1]) + 1, centre - 3) : max(0, centre - 3)
            let hi = min(n - 2, min(to, centre + 3))
            var j = lo
            var found = false
            while j <= hi {
                let a = p[j], b = p[j + 1]
                if (a - level) * (b - level) <= 0 && a != b {
                    let q = Float(j) + (level - a) / (b - a)
                    if !found || abs(q - original) < abs(pos[k] - original) { pos[k] = q }
                    found = true
                }
                j += 1
            }
            prevExtreme = e
            if k + 1 < c { original = pos[k + 1] }
        }
    }
}
