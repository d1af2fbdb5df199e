/// A reader of a symbology whose symbols run from a start pattern to a stop
/// pattern between quiet zones (Code 128, Code 93, Code 39, Codabar, ITF),
/// tried at every bar of a line where a start pattern may begin.
///
/// A symbol may reach the frame's border, its first or last bar cut by the
/// line's end: ``decode(_:enabled:into:)`` reads the run, then, when a bar is
/// cut, the run with the cut bars as elements (``ElementRun/readWithCutBars(scratch:_:)``),
/// keeping from that second reading only what reaches the border and no
/// parts. A reader that reads parts of codes the frame cuts
/// (``LinearPart``) finds the trailing ones, those that begin at the line's
/// start, in ``readTrailingPart(_:into:)``.
protocol StartStopReader: LinearReader {
    /// The run with the bars cut by its ends as elements, reused for every line.
    var framed: ElementRun { get set }
    /// How many elements after a start pattern's first bar a line must
    /// still hold for a symbol to begin there (the shortest symbol and its
    /// trailing quiet zone).
    var shortestSymbol: Int { get }
    /// Reads a symbol whose start pattern begins at bar `b`; with
    /// `borderOnly`, only one that reaches the frame's border, and no part.
    /// - Returns: the element to try next, 0 when nothing was read there.
    func read(_ run: borrowing ElementRun, at b: Int, borderOnly: Bool, into sink: inout LinearHitSink) -> Int
    /// Reads the end of a code that the frame cuts, its characters reaching
    /// back to the line's start, which lies on the frame's border.
    func readTrailingPart(_ run: borrowing ElementRun, into sink: inout LinearHitSink)
}

extension StartStopReader {
    func decode(_ run: borrowing ElementRun, enabled: Symbology, into sink: inout LinearHitSink) {
        guard enabled.contains(symbologies) else { return }
        run.readWithCutBars(scratch: &framed) { r, borderOnly in decodeRun(r, borderOnly: borderOnly, into: &sink) }
    }

    /// Reads every symbol of `run`; with `borderOnly`, only those that
    /// reach the frame's border, and no parts.
    @inline(__always)
    func decodeRun(_ run: borrowing ElementRun, borderOnly: Bool, into sink: inout LinearHitSink) {
        let n = run.count
        let shortest = shortestSymbol
        var b = 1
        while b + shortest < n {
            let next = read(run, at: b, borderOnly: borderOnly, into: &sink)
            b = next > 0 ? next : b + 2
        }
        if !borderOnly, run.startsAtFrameBorder { readTrailingPart(run, into: &sink) }
    }

    /// No trailing parts.
    func readTrailingPart(_ run: borrowing ElementRun, into sink: inout LinearHitSink) {}
}
