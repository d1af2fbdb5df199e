#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Samples the search lines of the PDF417 and MicroPDF417 pattern
/// searches: each line padded at both ends, read in both polarities and
/// both ways. Its buffers are reused from line to line.
final class PaddedLineScanner {
    private var edges = EdgeExtractor()
    private var run = ElementRun()
    private var profile = ScratchBuffer<Float>(capacity: 2048)
    /// Samples added at each end of a line.
    let pad: Int

    init(pad: Int) { self.pad = pad }

    deinit { edges.free(); run.free(); profile.free() }

    /// Reads `line`, `thickness` pixels thick, when its levels span at
    /// least `contrast`. The profile is padded on both ends with the
    /// line's lightest and darkest levels in turn, so that a pattern
    /// reaching the frame's border still has an outer edge and a quiet
    /// zone. `body` gets every run of `minEdges` edges or more, with the
    /// padded line, the polarity and whether the run reads it backwards.
    /// With `prune` (a share of the local contrast), bumps weaker than
    /// that inside wide elements are dropped first (noise).
    func scan(
        _ image: LumaView, _ line: ScanLine, thickness: Int, minEdges: Int, contrast: Float = 0, prune: Float = 0,
        _ body: (ElementRun, ScanLine, Bool, Bool) -> Void
    ) {
        let n = line.length
        guard n >= 20 else { return }
        profile.reserve(n + 2 * pad)
        let p = profile.pointer
        image.sample(line, thickness: thickness, into: p + pad)
        var lo = p[pad], hi = p[pad]
        for i in pad..<(pad + n) { lo = min(lo, p[i]); hi = max(hi, p[i]) }
        guard hi - lo >= contrast else { return }
        let padded = ScanLine(origin: line.point(at: -Double(pad)), dx: line.dx, dy: line.dy, length: n + 2 * pad)
        for polarity in 0..<2 {
            let inverted = polarity == 1
            for i in 0..<pad { p[i] = inverted ? lo : hi; p[pad + n + i] = inverted ? lo : hi }
            edges.extract(p, count: n + 2 * pad, relative: 0.15, floor: 4)
            if prune > 0 { edges.prune(p, count: n + 2 * pad, fraction: prune) }
            guard edges.edgeCount >= minEdges else { continue }
            run.fill(from: edges, lineLength: n + 2 * pad, inverted: inverted)
            for direction in 0..<2 {
                if direction == 1 { run.reverse() }
                body(run, padded, inverted, direction == 1)
            }
        }
    }
}
