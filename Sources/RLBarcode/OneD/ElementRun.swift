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

    /// Whether the symbol from bar `first` to bar `last` opens or closes at
    /// the frame's border (``isFrameBorder(_:)``), as only a reading of the
    /// run with its cut bars as elements finds.
    @inline(__always)
    func meetsFrameBorder(first: Int, last: Int) -> Bool {
        isFrameBorder(first - 1) || isFrameBorder(last + 1)
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
