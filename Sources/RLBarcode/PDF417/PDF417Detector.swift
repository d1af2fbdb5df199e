#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds PDF417 start and stop patterns (ISO/IEC 15438:2015, 5.3.3: the
/// start pattern 81111113 and the stop pattern 711311121, the same in every
/// row) on scan lines in four directions, groups the crossings of one
/// pattern column and traces its outer bar up and down to the symbol's
/// corners (ISO/IEC 15438:2015, Annex reference decode algorithm: locate
/// the start and stop patterns, then the rows between them).
struct PDF417Detector {
    private let lineScanner = PaddedLineScanner(pad: PDF417Detector.pad)
    /// The crossings of the current frame.
    private(set) var hits = ScratchBuffer<PDF417PatternHit>(capacity: 256)
    private(set) var hitCount = 0
    /// The order of the line being read, in a search of every line.
    private var lineOrder = 0
    /// Which of a direction's lines were read (coarse to fine search).
    private var lineRead = ScratchBuffer<UInt8>(capacity: 1024)
    /// The frame's time limit and stop, checked every line, crossing
    /// grouped and column traced.
    var stop = ScanStop()
    /// The share of the local contrast under which bumps inside wide
    /// elements are dropped from the search lines (0: none; for noise).
    var prune: Float = 0

    func free() { hits.free(); lineRead.free() }

    /// With the detection pass's cells and lines 3 pixels apart or more
    /// (pictures of 480 pixels or more), every this many lines are read
    /// first, the others only out from one that crossed a start or stop
    /// pattern, until this many in a row cross none: a pattern column
    /// (3 rows of 3 modules of 1.5 pixels at least) is taller than 12
    /// pixels, so a coarse line crosses it. Lines 2 pixels apart (smaller
    /// pictures, whose symbols may be smaller too): every third first.
    static let coarseEvery = 4

    /// The start pattern's element widths in modules.
    private static let start: [Float] = [8, 1, 1, 1, 1, 1, 1, 3]
    /// The stop pattern's element widths in modules.
    private static let stop: [Float] = [7, 1, 1, 3, 1, 1, 1, 2, 1]

    /// Finds the start and stop pattern columns inside `bounds`, on lines
    /// `step` pixels apart across, down and along both diagonals (so that
    /// some lines cross the bars of a pattern at any angle within 22.5
    /// degrees of square).
    ///
    /// With `across`, the lines run only that way (a unit vector across
    /// the bars of a region already measured), not in four directions.
    /// With `cells` (the detection pass's), only the lines that cross a
    /// cell of bars are read, whole (the start and stop columns are
    /// followed to their ends, where cells at the frame's border may not
    /// show them): a cell whose gradients run along the line
    /// at least as much as across it (bars within 45 degrees of square to
    /// it; the rows of a PDF417 symbol add gradients across).
    mutating func find(
        _ image: LumaView, bounds: PixelRect, step: Int, across: (Double, Double)? = nil,
        cells: CellTensors? = nil
    ) -> [PDF417Edge] {
        hitCount = 0
        let cx = Double(bounds.x0 + bounds.x1) / 2, cy = Double(bounds.y0 + bounds.y1) / 2
        let reach = (Double(bounds.width * bounds.width + bounds.height * bounds.height)).squareRoot() / 2
        let r = 0.5.squareRoot()
        let directions = across.map { [$0] } ?? [(1.0, 0.0), (0.0, 1.0), (r, r), (r, -r)]
        // Lines across the direction (-dy, dx), `step` apart: line k at
        // -reach + (k + 1/2) step. With `cells`, every fourth line first
        // (``coarseEvery``), every third when they are 2 pixels apart.
        let lineCount = max(0, Int(((2 * reach) / Double(step)).rounded(.up)))
        let coarse =
            cells == nil || step < 2 ? 1 : step == 2 ? PDF417Detector.coarseEvery - 1 : PDF417Detector.coarseEvery
        for (d, (dx, dy)) in directions.enumerated() {
            func read(_ k: Int) {
                lineOrder = d * lineCount + k
                guard !stop.now,
                    let line = ScanLine.numbered(
                        k, step: Double(step), reach: reach, centre: Point(x: cx, y: cy),
                        dx: dx, dy: dy, bounds: bounds, margin: 0)
                else { return }
                if let cells {
                    if cells.barsCrossed(by: line, minEnergy: 25, dominance: 1).cells >= 1 {
                        cells.openParts(of: line) { scan(image, $0) }
                    }
                } else {
                    scan(image, line)
                }
            }
            lineRead.reserve(lineCount)
            readCoarseToFine(count: lineCount, coarse: coarse, marks: lineRead.pointer, found: { hitCount }, read: read)
        }
        // The order of a search of every line, so that the columns are
        // traced as that search would trace them.
        if coarse > 1 { sortHits(hits.pointer, count: hitCount, order: \.order, parent: \.parent) }
        return group(image, step: Double(step))
    }

    /// Reads one line in both polarities and directions (three pixels
    /// thick: along the pattern's bars, which run the symbol's whole
    /// height, whatever its angle).
    private mutating func scan(_ image: LumaView, _ line: ScanLine) {
        lineScanner.scan(image, line, thickness: 3, minEdges: 8, prune: prune) { run, padded, inverted, reversed in
            findPatterns(run, padded, inverted: inverted, reversed: reversed)
        }
    }

    /// Samples of light (or dark, for light-on-dark symbols) added at
    /// each end of a search line.
    private static let pad = 24

    /// Whether `count` widths from element `i` match `pattern`: the
    /// module size if they do.
    private static func matches(_ w: UnsafeMutablePointer<Float>, _ i: Int, _ pattern: [Float]) -> Float? {
        var total: Float = 0
        for k in 0..<pattern.count { total += w[i + k] }
        let module = total / pattern.reduce(0, +)
        guard module >= 0.6 else { return nil }
        for k in 0..<pattern.count {
            let e = pattern[k]
            let tolerance: Float = e >= 7 ? 1.5 : e >= 3 ? 0.8 : 0.6
            if abs(w[i + k] / module - e) > tolerance { return nil }
        }
        return module
    }

    /// Whether `run` crosses a start or stop pattern (ISO/IEC 15438:2015,
    /// 5.3.3) read forwards, with some light before a start pattern or
    /// after a stop pattern, as ``find(_:bounds:step:across:)`` looks for
    /// them: the linear stage's scan lines tell with this which regions of
    /// bars are worth a PDF417 search. A run read backwards holds the
    /// patterns reversed; the scanner asks in both directions.
    static func crossesPattern(_ run: ElementRun) -> Bool {
        let count = run.count
        guard count >= 11 else { return false }
        let w = run.widths.pointer
        var i = 1
        while i + 9 < count {
            // The outer bar is the widest of either pattern: 8 or 7 modules
            // against the next bar's 1, which rules most places out at once.
            if w[i] >= 3 * w[i + 2] {
                if let m = matches(w, i, start), w[i - 1] >= 0.8 * m { return true }
                if let m = matches(w, i, stop), w[i + 9] >= 0.8 * m { return true }
            }
            i += 2
        }
        return false
    }

    /// Records the start and stop patterns of the current run.
    private mutating func findPatterns(_ run: ElementRun, _ line: ScanLine, inverted: Bool, reversed: Bool) {
        let count = run.count
        let w = run.widths.pointer, s = run.starts.pointer
        var i = 1
        let sign: Double = reversed ? -1 : 1
        let length = Double(run.lineLength)
        func point(_ t: Float) -> Point { line.point(at: reversed ? length - Double(t) : Double(t)) }
        while i + 9 < count {
            // Bars are the odd elements; some light before a start pattern and after a stop pattern.
            if let m = PDF417Detector.matches(w, i, PDF417Detector.start), w[i - 1] >= 0.8 * m {
                add(isStart: true, inverted: inverted, outer: point(s[i]), line, sign, Double(m))
            }
            if let m = PDF417Detector.matches(w, i, PDF417Detector.stop), w[i + 9] >= 0.8 * m {
                add(isStart: false, inverted: inverted, outer: point(s[i + 9]), line, sign, Double(m))
            }
            i += 2
        }
    }

    private mutating func add(
        isStart: Bool, inverted: Bool, outer: Point, _ line: ScanLine, _ sign: Double, _ m: Double
    ) {
        hits.reserveKeeping(hitCount + 1)
        let len = line.stepLength
        hits[hitCount] = PDF417PatternHit(
            isStart: isStart, inverted: inverted, outer: outer,
            dx: sign * line.dx / len, dy: sign * line.dy / len, module: m * len,
            parent: hitCount, order: lineOrder << 24 | hitCount)
        hitCount += 1
    }

    private func root(_ i: Int) -> Int {
        var r = i
        while hits[r].parent != r { r = hits[r].parent }
        return r
    }

    /// Groups the crossings of one pattern column and traces it.
    private mutating func group(_ image: LumaView, step: Double) -> [PDF417Edge] {
        let n = hitCount
        guard n >= 2 else { return [] }
        for i in 0..<n {
            if stop.now { return [] }
            let a = hits[i]
            for j in (i + 1)..<n {
                let b = hits[j]
                guard a.isStart == b.isStart, a.inverted == b.inverted, a.dx * b.dx + a.dy * b.dy > 0.5 else {
                    continue
                }
                let ratio = a.module / b.module
                guard ratio > 0.6, ratio < 1.6 else { continue }
                let ox = b.outer.x - a.outer.x, oy = b.outer.y - a.outer.y
                let d = (ox * ox + oy * oy).squareRoot()
                guard d <= 2.5 * step + 4 * a.module else { continue }
                // Side by side along the column, not one behind the other.
                let along = abs(ox * a.dx + oy * a.dy)
                guard along <= 2 * a.module + 1 else { continue }
                let ra = root(i), rb = root(j)
                if ra != rb { hits[max(ra, rb)].parent = min(ra, rb) }
            }
        }
        var members: [Int: [Int]] = [:]
        for i in 0..<n { members[root(i), default: []].append(i) }
        var out: [PDF417Edge] = []
        for (_, list) in members where list.count >= 3 {
            if stop.now { break }
            if let e = trace(image, list) { out.append(e) }
        }
        return out
    }

    /// Fits the outer edge through the crossings and follows the outer bar
    /// of the pattern (8 modules wide for a start pattern, 7 for a stop
    /// pattern, whose middle lies 4 and 14.5 modules inside the outer
    /// edge) to both ends.
    private func trace(_ image: LumaView, _ all: [Int]) -> PDF417Edge? {
        // The line through most outer points (lines that cross a corner or
        // leave the frame inside the pattern meet the symbol's top, bottom
        // or the frame's border, not its side): the pair of points, among
        // up to 24 spread over the group, with most points within a pixel
        // of their line; then a least squares fit of those points.
        let sample = Swift.stride(from: 0, to: all.count, by: max(1, all.count / 24)).map { all[$0] }
        var bestCount = 0
        var list = all
        for a in 0..<sample.count {
            for b in (a + 1)..<sample.count {
                let p = hits[sample[a]].outer, q = hits[sample[b]].outer
                let dx = q.x - p.x, dy = q.y - p.y, d = (dx * dx + dy * dy).squareRoot()
                guard d >= 2 else { continue }
                var count = 0
                for i in all where abs((hits[i].outer.x - p.x) * dy - (hits[i].outer.y - p.y) * dx) <= d { count += 1 }
                if count > bestCount {
                    bestCount = count
                    list = all.filter { abs((hits[$0].outer.x - p.x) * dy - (hits[$0].outer.y - p.y) * dx) <= d }
                }
            }
        }
        guard list.count >= 3 else { return nil }
        var cx = 0.0, cy = 0.0
        for i in list { cx += hits[i].outer.x; cy += hits[i].outer.y }
        cx /= Double(list.count); cy /= Double(list.count)
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for i in list {
            let x = hits[i].outer.x - cx, y = hits[i].outer.y - cy
            sxx += x * x; syy += y * y; sxy += x * y
        }
        let angle = 0.5 * atan2(2 * sxy, sxx - syy)
        var ex = cos(angle), ey = sin(angle)
        var rx = 0.0, ry = 0.0
        for i in list { rx += hits[i].dx; ry += hits[i].dy }
        let k = Double(list.count)
        // The reading direction is the edge's normal on the side the lines read towards.
        var ux = -ey, uy = ex
        if ux * rx + uy * ry < 0 { ux = -ux; uy = -uy }
        // "Down" is the reading direction turned clockwise (y down): (-uy, ux).
        ex = -uy; ey = ux
        var module = 0.0
        for i in list { module += hits[i].module * abs(hits[i].dx * ux + hits[i].dy * uy) }
        module /= k
        guard module >= 0.6 else { return nil }
        let first = list.first.map { hits[$0] }!
        let inward = first.isStart ? 1.0 : -1.0
        let barCentre = first.isStart ? 4.0 : 14.5
        // The crossings' reach along the edge, and the one nearest the
        // middle, where the levels of bar and space are measured (the
        // middle itself may lie in a damaged row).
        var first0 = Double.infinity, last0 = -Double.infinity, middle = 0.0
        for i in list {
            let t = (hits[i].outer.x - cx) * ex + (hits[i].outer.y - cy) * ey
            first0 = min(first0, t); last0 = max(last0, t)
            if abs(t) < abs(middle) || middle == 0 { middle = t }
        }
        // The bar's middle line and the levels of bar and space.
        let mx = cx + inward * ux * barCentre * module, my = cy + inward * uy * barCentre * module
        // The light level: the widest space inside the pattern (3 modules).
        let lightCentre = first.isStart ? 15.5 : 7.5
        let qx = cx + inward * ux * lightCentre * module, qy = cy + inward * uy * lightCentre * module
        guard let bar = image.bilinear(mx + ex * middle, my + ey * middle),
            let light = image.bilinear(qx + ex * middle, qy + ey * middle)
        else { return nil }
        guard abs(bar - light) >= 10 else { return nil }
        let level = (bar + light) / 2
        let dark = bar < light
        // Followed from the middle; when that stops short of the outermost
        // crossings (a row painted over between them), from those on.
        let centre = Point(x: mx, y: my)
        var up = PDF417Detector.barEnd(image, from: centre, dx: -ex, dy: -ey, module: module, level: level, dark: dark)
        var down = PDF417Detector.barEnd(image, from: centre, dx: ex, dy: ey, module: module, level: level, dark: dark)
        if -first0 > up + module {
            up =
                PDF417Detector.barEnd(
                    image, from: Point(x: mx + ex * first0, y: my + ey * first0), dx: -ex, dy: -ey,
                    module: module, level: level, dark: dark) - first0
        }
        if last0 > down + module {
            down =
                PDF417Detector.barEnd(
                    image, from: Point(x: mx + ex * last0, y: my + ey * last0), dx: ex, dy: ey,
                    module: module, level: level, dark: dark) + last0
        }
        guard up + down >= 3 * module else { return nil }
        let top = Point(x: cx - ex * up, y: cy - ey * up)
        let bottom = Point(x: cx + ex * down, y: cy + ey * down)
        return PDF417Edge(
            isStart: first.isStart, inverted: first.inverted, top: top, bottom: bottom,
            ux: ux, uy: uy, module: module, hits: list.count, level: level)
    }

    /// How far a bar reaches from `p` in the direction (`dx`, `dy`) (a unit
    /// vector): it ends where the picture has been on the light side of
    /// `level` for two modules (printers leave gaps between rows).
    static func barEnd(
        _ image: LumaView, from p: Point, dx: Double, dy: Double, module: Double,
        level: Double, dark: Bool
    ) -> Double {
        var t = 0.0, lastDark = 0.0
        while t - lastDark < max(1.5, 2.2 * module) {
            t += 0.5
            guard let v = image.bilinear(p.x + dx * t, p.y + dy * t) else { break }
            if (v < level) == dark { lastDark = t }
        }
        return lastDark
    }
}
