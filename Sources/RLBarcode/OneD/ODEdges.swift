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

/// Alternating element widths along a scan line, ready for the 1D readers.
///
/// `widths[0]` is always a space (the leading quiet zone, from the start of
/// the line); then bar, space, bar... A trailing space (quiet zone) closes
/// the run when the line ends on background. In inverted polarity "bars"
/// are the light elements.
///
/// A line that starts inside a bar (the code touches the frame's border)
/// has no element for that bar: it is part of `widths[0]` read forwards
/// and left out read backwards (``cutBarAtStart`` keeps its width either
/// way). A line that ends inside a bar ends the run with that bar and no
/// space after it (``cutBarAtEnd``). Readers that accept a symbol reaching
/// the frame's border read the run through ``framed(into:)``, which gives
/// those bars elements of their own and puts a space of unknown width,
/// what lies beyond the frame, on their outer side.
package struct ElementRun {
    /// An empty value; buffers grow on first use.
    package init() {}

    var widths = ScratchBuffer<Float>()
    /// Start position (pixels along the line) of each element.
    var starts = ScratchBuffer<Float>()
    var count = 0
    /// Length of the line in samples.
    var lineLength: Float = 0
    /// The grey levels the run was measured on (`lineLength` samples), so
    /// that readers can look at the light between symbols, and how the run
    /// maps onto them.
    package var profile: UnsafePointer<Float>? = nil
    /// Light elements are the bars.
    private(set) var isInverted = false
    /// Read from the line's end: position `t` is sample `lineLength - t`.
    private(set) var isReversed = false
    /// The width of the bar the line starts inside (0: the line starts on a
    /// space), which the run does not count as an element.
    private(set) var cutBarAtStart: Float = 0
    /// The width of the bar the line ends inside (0: the line ends on a
    /// space). Read forwards it is the run's last element; read backwards
    /// it is the end of the last element, a space.
    private(set) var cutBarAtEnd: Float = 0
    /// Whether the line's start lies on the frame's border, so that
    /// nothing beyond it could be seen (the scanner's lines run to the
    /// frame's border unless it says otherwise when filling the run).
    private(set) var startsAtFrameBorder = true
    /// Whether the line's end lies on the frame's border.
    private(set) var endsAtFrameBorder = true
    /// Whether `widths[0]` stands for what lies beyond the frame's border
    /// before a bar the line starts inside: a space of unknown width (0),
    /// only in a run made by ``framed(into:)``.
    private(set) var opensAtFrameBorder = false
    /// Whether the last element stands for what lies beyond the frame's
    /// border after a bar the line ends inside (see ``opensAtFrameBorder``).
    private(set) var closesAtFrameBorder = false

    mutating func reserve(_ n: Int) { widths.reserve(n + 4); starts.reserve(n + 4) }

    /// The bars (odd element indices) from the last one at or before
    /// `last` down to the first at or after `first`, last first: where
    /// a reader looks for a stop pattern from a line's end backwards.
    func barsBackward(from last: Int, through first: Int) -> StrideThrough<Int> {
        stride(from: last % 2 == 0 ? last - 1 : last, through: first, by: -2)
    }

    /// Whether element `i` is a space of unknown width beyond the frame's
    /// border (``framed(into:)``) at a line's end that lies on the border.
    func isFrameBorder(_ i: Int) -> Bool {
        (i == 0 && opensAtFrameBorder && startsAtFrameBorder)
            || (i == count - 1 && closesAtFrameBorder && endsAtFrameBorder)
    }

    /// Whether element `i` is a space that runs to a line's end lying on the
    /// frame's border, with no bar cut by that end inside it: the space of
    /// unknown width of ``framed(into:)``, or the first or last element of
    /// a line that ends on background at the border. Beyond it nothing
    /// could be seen, so a symbol that ends there may have its quiet zone
    /// outside the picture (a picture cut tight around the symbol).
    func reachesFrameBorder(_ i: Int) -> Bool {
        if i == 0 { return startsAtFrameBorder && (opensAtFrameBorder || cutBarAtStart == 0) }
        if i == count - 1 { return endsAtFrameBorder && (closesAtFrameBorder || cutBarAtEnd == 0) }
        return false
    }

    /// Whether the profile between run positions `from` and `to` stays on the
    /// space side of `level` (lighter, or darker for an inverted run).
    /// Without a profile, nothing is known: false.
    func isClear(from: Float, to: Float, level: Float) -> Bool {
        guard let p = profile, to > from else { return false }
        let n = Int(lineLength)
        // The samples inside the stretch, either way along the line.
        var a = Int((isReversed ? lineLength - to : from).rounded(.up))
        var b = Int((isReversed ? lineLength - from : to).rounded(.down))
        a = max(0, a); b = min(n - 1, b)
        guard a <= b else { return false }
        for i in a...b where isInverted ? p[i] > level : p[i] < level { return false }
        return true
    }

    /// Whether element `i` (a space) is a quiet zone of `need` pixels before
    /// (`leading`) or after a symbol.
    ///
    /// A shorter space still counts when the grey levels over the whole
    /// quiet zone stay lighter than halfway between the bars and spaces of
    /// the symbol's start or stop pattern next to it (`from...to`, run
    /// positions). A space cut by the end of the scan line where it lies on
    /// the frame's border needs a quarter of a pixel (less is the blur of
    /// the bar's own edge), clear: what lies beyond is unknown, not a
    /// violation. For the same reason the space of
    /// unknown width beyond the frame's border that ``framed(into:)`` puts
    /// before a bar the line starts inside (or after one it ends inside)
    /// counts, but only where the line's end lies on the frame's border
    /// (``isFrameBorder(_:)``): the symbol reaches the border.
    func isQuietZone(_ i: Int, need: Float, leading: Bool, from: Float, to: Float) -> Bool {
        if isFrameBorder(i) { return true }
        let w = widths[i]
        if w >= need { return true }
        let last = count - 1
        let s = starts[i]
        guard let levels = levels(from: from, to: to) else { return false }
        let level = (levels.bar + levels.space) / 2
        let atBorder =
            i == 0
            ? startsAtFrameBorder && !opensAtFrameBorder
            : i == last ? endsAtFrameBorder && !closesAtFrameBorder : false
        if atBorder {
            if w < 0.25 { return false }
            return isClear(from: s, to: s + w, level: level)
        }
        let a = leading ? s + w - need : s
        let b = leading ? s + w : s + need
        guard a >= 0, b <= lineLength else { return false }
        return isClear(from: a, to: b, level: level)
    }

    /// The darkest and lightest samples between run positions `from` and `to`,
    /// as (bar level, space level) for this run's polarity.
    func levels(from: Float, to: Float) -> (bar: Float, space: Float)? {
        guard let p = profile, to > from else { return nil }
        let n = Int(lineLength)
        var a = isReversed ? Int((lineLength - to).rounded(.down)) : Int(from.rounded(.down))
        var b = isReversed ? Int((lineLength - from).rounded(.up)) : Int(to.rounded(.up))
        a = max(0, a); b = min(n - 1, b)
        guard a <= b else { return nil }
        var lo = p[a], hi = p[a]
        for i in a...b { lo = min(lo, p[i]); hi = max(hi, p[i]) }
        return isInverted ? (hi, lo) : (lo, hi)
    }
    package func free() { widths.free(); starts.free() }

    /// Fills the run from extracted edges; `inverted` makes light elements bars.
    ///
    /// `startsAtFrameBorder` and `endsAtFrameBorder` tell whether the line's
    /// ends lie on the frame's border (true: nothing beyond them could be
    /// seen) or inside the frame, where the line was merely cut short.
    package mutating func fill(
        from e: EdgeExtractor, lineLength n: Int, inverted: Bool,
        startsAtFrameBorder: Bool = true, endsAtFrameBorder: Bool = true
    ) {
        count = 0
        isInverted = inverted
        isReversed = false
        lineLength = Float(n)
        cutBarAtStart = 0
        cutBarAtEnd = 0
        self.startsAtFrameBorder = startsAtFrameBorder
        self.endsAtFrameBorder = endsAtFrameBorder
        opensAtFrameBorder = false
        closesAtFrameBorder = false
        let barStart: Int8 = inverted ? 1 : -1  // the sign of an edge entering a bar
        var first = 0
        while first < e.edgeCount && e.edgeSign[first] != barStart { first += 1 }
        if first >= e.edgeCount { return }
        // An edge leaving a bar before the first one entering a bar: the
        // line starts inside that bar.
        if first > 0 { cutBarAtStart = e.edgePos[first - 1] }
        if e.edgeSign[e.edgeCount - 1] == barStart { cutBarAtEnd = Float(n) - e.edgePos[e.edgeCount - 1] }
        reserve(e.edgeCount + 2)
        let w = widths.pointer, s = starts.pointer
        w[0] = e.edgePos[first]; s[0] = 0
        var c = 1
        var k = first + 1
        while k < e.edgeCount {
            s[c] = e.edgePos[k - 1]
            w[c] = e.edgePos[k] - e.edgePos[k - 1]
            c += 1; k += 1
        }
        s[c] = e.edgePos[e.edgeCount - 1]
        w[c] = Float(n) - e.edgePos[e.edgeCount - 1]
        c += 1
        count = c
    }

    /// Replaces the run by its mirror image (reading the line backwards),
    /// keeping `widths[0]` a space. Positions then count from the line's end:
    /// a point at `t` in the reversed run is at `lineLength - t` on the line.
    package mutating func reverse() {
        isReversed.toggle()
        swap(&cutBarAtStart, &cutBarAtEnd)
        swap(&startsAtFrameBorder, &endsAtFrameBorder)
        swap(&opensAtFrameBorder, &closesAtFrameBorder)
        guard count > 1 else { return }
        let w = widths.pointer, s = starts.pointer
        // The run covers the whole line. An even count ends on a bar that runs
        // to the line's end; it cannot open the reversed run, so drop it.
        var acc: Float = 0
        if count % 2 == 0 {
            acc = w[count - 1]
            count -= 1
        }
        var i = 0, j = count - 1
        while i < j {
            let t = w[i]; w[i] = w[j]; w[j] = t
            i += 1; j -= 1
        }
        for k in 0..<count { s[k] = acc; acc += w[k] }
    }

    /// Writes into `out` this run with the bars cut by the line's ends as
    /// elements of their own: a bar the line starts inside becomes element
    /// 1, after a space of width 0 that stands for what lies beyond the
    /// frame (``opensAtFrameBorder``); a bar the line ends inside becomes
    /// the element before the last, a space of width 0 at the line's end
    /// (``closesAtFrameBorder``). Positions stay those of this run; the
    /// other elements are copied unchanged (shifted by two places after a
    /// cut bar at the start).
    /// Calls `read` with this run (`borderOnly` false), then, when the
    /// line's ends cut a bar, with the run framed into `scratch`
    /// (``framed(into:)``, `borderOnly` true): what readers of symbols that
    /// may reach the frame's border do with each run.
    func readWithCutBars(scratch: inout ElementRun, _ read: (borrowing ElementRun, _ borderOnly: Bool) -> Void) {
        read(self, false)
        if cutBarAtStart > 0 || cutBarAtEnd > 0 {
            framed(into: &scratch)
            read(scratch, true)
        }
    }

    func framed(into out: inout ElementRun) {
        out.count = 0
        out.lineLength = lineLength
        out.profile = profile
        out.isInverted = isInverted
        out.isReversed = isReversed
        out.startsAtFrameBorder = startsAtFrameBorder
        out.endsAtFrameBorder = endsAtFrameBorder
        out.cutBarAtStart = 0
        out.cutBarAtEnd = 0
        out.opensAtFrameBorder = false
        out.closesAtFrameBorder = false
        guard count >= 3 else { return }
        out.reserve(count + 4)
        let w = widths.pointer, s = starts.pointer
        let ow = out.widths.pointer, os = out.starts.pointer
        var c = 0, from = 0
        // Sample i covers the line from i - 1/2 to i + 1/2, so a bar cut
        // by the line's start is half a sample wider than its edge's
        // position and one cut by its end half a sample narrower than the
        // line's length beyond its edge (the other way round read backwards).
        let half: Float = isReversed ? -0.5 : 0.5
        if cutBarAtStart > 0 {
            // Forwards the bar is the start of `widths[0]`; backwards the
            // run starts after it. Either way the space ends at s[0] + w[0].
            ow[0] = 0; os[0] = 0
            ow[1] = cutBarAtStart + half; os[1] = 0
            ow[2] = s[0] + w[0] - cutBarAtStart; os[2] = cutBarAtStart
            c = 3; from = 1
            out.opensAtFrameBorder = true
        }
        (ow + c).update(from: w + from, count: count - from)
        (os + c).update(from: s + from, count: count - from)
        c += count - from
        if cutBarAtEnd > 0 {
            if count % 2 == 1 {
                // Backwards the bar is the end of the last element, a space.
                ow[c - 1] -= cutBarAtEnd
                ow[c] = cutBarAtEnd; os[c] = lineLength - cutBarAtEnd
                c += 1
            }
            ow[c - 1] -= half
            ow[c] = 0; os[c] = lineLength
            c += 1
            out.closesAtFrameBorder = true
        }
        out.count = c
    }
}
