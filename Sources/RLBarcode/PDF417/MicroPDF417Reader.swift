#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds and reads MicroPDF417 symbols (ISO/IEC 24728:2006; 5.15 and
/// Annex J, reference decode algorithm).
///
/// - Finding: scan lines at many angles look for the left edge of a row:
///   a quiet zone (5.8.3), a side row address pattern (5.2.5), a codeword
///   (5.3.1), then a second codeword of its cluster, a centre RAP, or the
///   right RAP and the stop bar. The crossings of one symbol's left edge
///   line up; the line through them gives the rows' direction (square to
///   it) and the symbol's height.
/// - Sampling: lines along the rows, close together down the symbol,
///   each parsed as left RAP, codewords, centre RAP (3 and 4 columns),
///   right RAP and stop bar (5.2.3 row parameters); the codewords by the
///   PDF417 symbol character tables (5.3.1, Annex A).
/// - Placing: the symbol size (5.2.2) is the one whose RAP numbers and
///   clusters (5.11.1, 5.11.3) explain most lines, which then gives every
///   line's row; the readings of a cell vote.
/// - Decoding: Reed-Solomon over GF(929) with the size's error correction
///   codeword count (5.7, 5.16; Annex E and F), then the PDF417
///   compaction modes (5.4; 5.2.4: no symbol length descriptor, the data
///   fill every codeword before the check codewords, padded with 900).
///   The symbology identifier is `]L2`, or `]L1` with ECIs (5.17). The
///   codewords PDF417 reserves (903 to 912, 914 to 920), some of which
///   5.4.1 gives MicroPDF417 meanings (Code 128 emulation, linkage to a
///   linear component), are not interpreted: the PDF417 decoder rejects
///   them, so such symbols give no result.
package final class MicroPDF417Reader {
    /// The frame's time limit and stop, checked every line, crossing
    /// grouped and edge read.
    var stop = ScanStop()
    private var edges = EdgeExtractor()
    private var run = ElementRun()
    private var profile = ScratchBuffer<Float>(capacity: 4096)
    private let lineScanner = PaddedLineScanner(pad: 16)

    /// Where a scan line crossed the left edge of a row.
    private struct Hit {
        var x: Double, y: Double
        /// The reading direction (unit vector).
        var dx: Double, dy: Double
        /// The module width along the line, in pixels.
        var module: Double
        var inverted: Bool
        var parent: Int
        /// The order of the line that crossed it in a search of every
        /// line, and the hit's order on that line.
        var order: Int = 0
    }
    private var hits = ScratchBuffer<Hit>(capacity: 512)
    private var hitCount = 0
    /// The order of the line being read, in a search of every line.
    private var lineOrder = 0
    /// Which of a direction's lines were read (coarse to fine search).
    private var lineRead = ScratchBuffer<UInt8>(capacity: 1024)
    /// With the detection pass's cells, every this many lines are read
    /// first, the others only beside one that crossed a row's left edge:
    /// a symbol (4 rows of 2 modules at least) is taller than three
    /// lines' spacing in the pictures it is read in, so a coarse line
    /// crosses it.
    private static let coarseEvery = 3
    private static let maxHits = 1500

    /// One sampled line parsed as a row.
    private struct LineRead {
        /// The line's place down the symbol's left edge, in pixels.
        var t: Double
        var columns: Int
        var left: Int, centre: Int, right: Int
        var cluster: Int
        /// The codewords (cluster << 12 | value, soft readings flagged by
        /// ``PDF417Reader/softRead``; -1 where unread).
        var words: (Int32, Int32, Int32, Int32)
        /// The row's width from the left RAP to the stop bar's end, in pixels.
        var width: Double
    }
    private var lines = ScratchBuffer<LineRead>(capacity: 1024)
    private var votes = ScratchBuffer<Int32>(capacity: 2048)
    /// The codewords of the row being parsed, and where each starts in the run.
    private var rowWords = ScratchBuffer<Int32>(capacity: 4)
    private var rowStarts = ScratchBuffer<Int>(capacity: 4)

    init() {}

    deinit {
        edges.free(); run.free(); profile.free(); hits.free(); lines.free(); votes.free(); rowWords.free();
        rowStarts.free(); lineRead.free()
    }

    /// How many groups of left-edge crossings the last read tried.
    private(set) var lastCandidateCount = 0

    /// Samples of quiet zone added at each end of a line.
    private static let pad = 16

    /// Finds and decodes the MicroPDF417 symbols inside `bounds` (the
    /// whole frame when nil) and appends them to `out`. With `thorough`
    /// (still pictures) the search lines run at 36 angles, 3 pixels apart
    /// (more in frames over 480 pixels);
    /// with `across` (video frames: the direction across the bars of a
    /// region already found) only about that direction, 4 pixels apart.
    /// With `cells` (the detection pass's), only the lines that cross two
    /// cells of bars or more are read, and only over the bars and what
    /// lies a little either side (``CellTensors/partOverBars(_:minCells:minEnergy:dominance:maxAngle:)``): cells whose gradients run along the
    /// line, within 6 degrees of it (the lines are 5 degrees apart), twice
    /// as much as across it or more (the rows, two modules high or more,
    /// add gradients across).
    func read(
        _ image: LumaView, bounds: PixelRect?, thorough: Bool, across: (Double, Double)? = nil,
        cells: CellTensors? = nil, into out: inout [BarcodeResult]
    ) {
        let found = symbols(image, bounds: bounds, thorough: thorough, across: across, cells: cells)
            .map(MicroPDF417Reader.result)
        for r in found where !out.contains(where: { $0.isSameCode(as: r) }) { out.append(r) }
    }

    /// The symbols found inside `bounds`.
    func symbols(
        _ image: LumaView, bounds: PixelRect?, thorough: Bool,
        across: (Double, Double)? = nil, cells: CellTensors? = nil
    ) -> [MicroPDF417Symbol] {
        lastCandidateCount = 0
        guard image.width >= 16, image.height >= 8 else { return [] }
        let frame = bounds ?? PixelRect(x0: 0, y0: 0, x1: image.width, y1: image.height)
        // Lines 3 pixels apart in still pictures up to 480 pixels, further
        // apart in larger ones (whose symbols are rarely that small), in
        // 18 directions (10 degrees apart: a row address pattern's bars
        // still line up along a line 5 degrees off).
        let step = thorough || across == nil ? max(3, min(frame.width, frame.height) / 160) : 4
        var found: [MicroPDF417Symbol] = []
        // Still pictures that show none: again along lines three pixels
        // thick without the weak bumps, for noise (rows of a pixel or two
        // are read first, from lines one pixel thick); then with a quiet
        // zone of one module before the rows.
        let passes: [(thickness: Int, light: Float)] = thorough ? [(1, 1.8), (3, 1.8), (1, 0.8)] : [(1, 1.8)]
        for pass in passes where found.isEmpty && !stop.now {
            searchThickness = pass.thickness
            lightBefore = pass.light
            findHits(
                image, bounds: frame, step: step, directions: across == nil ? 18 : 3,
                across: across, cells: cells)
            found = group(image, step: step, thorough: thorough)
        }
        return found
    }

    /// The pixels averaged across each search line.
    private var searchThickness = 1
    /// The light a row's left edge needs before it, in modules (the
    /// quiet zone is one module, 5.8 of ISO/IEC 24728:2006; the first
    /// search asks for more, which only left edges have), and a one-column
    /// row's stop bar after it (at most 1.5).
    private var lightBefore: Float = 1.8

    /// Groups the crossings of the last search into edges and reads the
    /// symbols they start.
    private func group(_ image: LumaView, step: Int, thorough: Bool) -> [MicroPDF417Symbol] {
        guard hitCount >= 3 else { return [] }
        // Group the crossings of one edge: same polarity, about the same
        // direction and module, near one another.
        for k in 0..<hitCount { hits[k].parent = k }
        let cosLimit = cos(11 * Double.pi / 180)
        for a in 0..<hitCount {
            if stop.now { return [] }
            let ha = hits[a]
            for b in (a + 1)..<hitCount {
                let hb = hits[b]
                guard ha.inverted == hb.inverted, ha.dx * hb.dx + ha.dy * hb.dy > cosLimit else { continue }
                let ratio = ha.module / hb.module
                guard ratio > 0.67, ratio < 1.5 else { continue }
                let dx = ha.x - hb.x, dy = ha.y - hb.y
                let reach = 6 * max(ha.module, hb.module) + 2 * Double(step)
                guard dx * dx + dy * dy < reach * reach else { continue }
                let ra = root(a), rb = root(b)
                if ra != rb { hits[max(ra, rb)].parent = min(ra, rb) }
            }
        }
        var members: [Int: [Int]] = [:]
        for k in 0..<hitCount { members[root(k), default: []].append(k) }
        let groups = members.values.filter { $0.count >= 4 }.sorted { $0.count > $1.count }
        var found: [MicroPDF417Symbol] = []
        for g in groups.prefix(thorough ? 12 : 4) {
            guard !stop.now, let edge = fitEdge(g) else { continue }
            if found.contains(where: { PDF417Reader.contains($0.corners, edge.centre) }) { continue }
            lastCandidateCount += 1
            if let s = readSymbol(image, edge) { found.append(s) }
        }
        return found
    }

    private func root(_ i: Int) -> Int {
        var r = i
        while hits[r].parent != r { r = hits[r].parent }
        return r
    }

    /// A symbol's left edge as its crossings place it.
    private struct Edge {
        /// A point on the edge and the unit vectors along the rows (`u`)
        /// and down the edge (`v`, `u` turned a quarter clockwise on screen).
        var origin: Point
        var ux: Double, uy: Double
        var vx: Double, vy: Double
        /// How far the crossings reach along `v` from `origin`.
        var t0: Double, t1: Double
        var module: Double
        var inverted: Bool
        var centre: Point
    }

    /// The line through a group's crossings: its direction by their
    /// spread (or square to the reading direction when they lie close).
    private func fitEdge(_ g: [Int]) -> Edge? {
        var cx = 0.0, cy = 0.0, mdx = 0.0, mdy = 0.0
        var modules: [Double] = []
        modules.reserveCapacity(g.count)
        for k in g {
            cx += hits[k].x; cy += hits[k].y; mdx += hits[k].dx; mdy += hits[k].dy
            modules.append(hits[k].module)
        }
        let n = Double(g.count)
        cx /= n; cy /= n
        let ml = (mdx * mdx + mdy * mdy).squareRoot()
        guard ml > 0 else { return nil }
        mdx /= ml; mdy /= ml
        modules.sort()
        let module = modules[modules.count / 2]
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for k in g {
            let dx = hits[k].x - cx, dy = hits[k].y - cy
            sxx += dx * dx; syy += dy * dy; sxy += dx * dy
        }
        let angle = 0.5 * atan2(2 * sxy, sxx - syy)
        var ex = cos(angle), ey = sin(angle)
        var ux = mdx, uy = mdy
        if (sxx + syy) / n > 4 * module * module {
            // Square to the edge, on the reading direction's side.
            ux = -ey; uy = ex
            if ux * mdx + uy * mdy < 0 { ux = -ux; uy = -uy }
            // An edge far from square to the lines that crossed it is no edge.
            guard ux * mdx + uy * mdy > 0.9 else { return nil }
        }
        ex = -uy; ey = ux
        var t0 = Double.infinity, t1 = -Double.infinity
        // The crossings on the edge: within two modules of the line.
        var kept = 0
        for k in g where abs((hits[k].x - cx) * ux + (hits[k].y - cy) * uy) <= 2 * module { kept += 1 }
        guard kept * 3 >= g.count * 2 else { return nil }
        for k in g where abs((hits[k].x - cx) * ux + (hits[k].y - cy) * uy) <= 2 * module {
            let t = (hits[k].x - cx) * ex + (hits[k].y - cy) * ey
            t0 = min(t0, t); t1 = max(t1, t)
        }
        return Edge(
            origin: Point(x: cx, y: cy), ux: ux, uy: uy, vx: ex, vy: ey, t0: t0, t1: t1, module: module,
            inverted: hits[g[0]].inverted,
            centre: Point(x: cx + ux * 20 * module, y: cy + uy * 20 * module))
    }

    // MARK: Finding left edges

    /// Records the left-edge crossings of lines `step` pixels apart at
    /// `directions` angles over half a turn (each line read both ways),
    /// or about `across`.
    private func findHits(
        _ image: LumaView, bounds: PixelRect, step: Int, directions: Int, across: (Double, Double)?,
        cells: CellTensors?
    ) {
        hitCount = 0
        let cx = Double(bounds.x0 + bounds.x1) / 2, cy = Double(bounds.y0 + bounds.y1) / 2
        let reach = (Double(bounds.width * bounds.width + bounds.height * bounds.height)).squareRoot() / 2
        let base = across.map { atan2($0.1, $0.0) } ?? 0
        // Line k at -reach + (k + 1/2) step. With `cells` and no
        // `across`, every third line first, then the others out from one
        // that crossed a left edge until three in a row cross none.
        let lineCount = max(0, Int(((2 * reach) / Double(step)).rounded(.up)))
        let coarse = cells == nil || across != nil ? 1 : MicroPDF417Reader.coarseEvery
        for d in 0..<directions {
            // About `across`: the direction and 3 degrees either side.
            let angle =
                across == nil
                ? Double(d) * Double.pi / Double(directions)
                : base + Double(d - directions / 2) * 3 * Double.pi / 180
            let dx = cos(angle), dy = sin(angle)
            func read(_ k: Int) {
                lineOrder = d * lineCount + k
                guard !stop.now,
                    let line = ScanLine.numbered(
                        k, step: Double(step), reach: reach, centre: Point(x: cx, y: cy),
                        dx: dx, dy: dy, bounds: bounds)
                else { return }
                if let cells {
                    if let part = cells.partOverBars(line, minCells: 2, minEnergy: 25, dominance: 2, maxAngle: 0.1) {
                        cells.openParts(of: part.line) { scan(image, $0) }
                    }
                } else {
                    scan(image, line)
                }
            }
            lineRead.reserve(lineCount)
            readCoarseToFine(count: lineCount, coarse: coarse, marks: lineRead.pointer, found: { hitCount }, read: read)
        }
        if coarse > 1 { sortHits(hits.pointer, count: hitCount, order: \.order, parent: \.parent) }
    }

    /// Looks along `line`, both ways and in both polarities, for the
    /// left edge of a row.
    private func scan(_ image: LumaView, _ line: ScanLine) {
        guard line.length >= 30, hitCount < MicroPDF417Reader.maxHits else { return }
        lineScanner.scan(
            image, line, thickness: searchThickness, minEdges: 14, contrast: 20, prune: searchThickness > 1 ? 0.25 : 0
        ) { run, padded, inverted, reversed in
            findLeftEdges(run, padded, inverted: inverted, reversed: reversed)
        }
    }

    /// Records every bar of the run that starts a row: light before it,
    /// six elements that read as a side RAP, then eight that read as a
    /// codeword, and what may follow that (5.2.3, 5.2.5).
    private func findLeftEdges(_ run: ElementRun, _ line: ScanLine, inverted: Bool, reversed: Bool) {
        let count = run.count
        let w = run.widths.pointer, s = run.starts.pointer
        let length = Double(run.lineLength)
        let sign: Double = reversed ? -1 : 1
        var i = 1
        while i + 22 <= count {
            defer { i += 2 }
            var rapSum: Float = 0
            for k in 0..<6 { rapSum += w[i + k] }
            let m = rapSum / 10
            guard m >= 0.6, w[i - 1] >= lightBefore * m, w[i] >= 1.4 * m else { continue }
            let r = MicroPDF417.rap(w + i)
            guard r >= 1, r <= 52 else { continue }
            var cw: Float = 0
            for k in 6..<14 { cw += w[i + k] }
            guard cw > 14.5 * m, cw < 19.5 * m, let first = PDF417Codewords.decode(w + i + 6) else { continue }
            // What follows the first codeword: a second one of its
            // cluster, a centre RAP, or the right RAP and the stop bar.
            let j = i + 14
            var next: Float = 0
            guard j + 8 <= count else { continue }
            for k in 0..<8 { next += w[j + k] }
            var follows = next > 14.5 * m && next < 19.5 * m && PDF417Codewords.decode(w + j)?.cluster == first.cluster
            if !follows {
                var six: Float = 0
                for k in 0..<6 { six += w[j + k] }
                let rap = six > 8 * m && six < 12 * m ? MicroPDF417.rap(w + j) : 0
                follows =
                    rap > 64
                    || (rap >= 1 && w[j + 6] > 0.4 * m && w[j + 6] < 2 * m && w[j + 7] >= min(1.5, lightBefore) * m)
            }
            guard follows else { continue }
            guard hitCount < MicroPDF417Reader.maxHits else { return }
            hits.reserveKeeping(hitCount + 1)
            let at = line.point(at: reversed ? length - Double(s[i]) : Double(s[i]))
            hits[hitCount] = Hit(
                x: at.x, y: at.y, dx: sign * line.dx, dy: sign * line.dy, module: Double(m),
                inverted: inverted, parent: hitCount, order: lineOrder << 24 | hitCount)
            hitCount += 1
        }
    }

    // MARK: Reading a symbol

    /// Reads lines along the rows all down the edge, finds the symbol's
    /// size and every line's row, votes and decodes.
    private func readSymbol(_ image: LumaView, _ fitted: Edge) -> MicroPDF417Symbol? {
        // The edge turned by up to five degrees either way about its
        // centre, the turn (nearest to none) under which most of a dozen
        // lines read as rows: over a short edge the crossings place its
        // direction roughly only.
        var e = fitted, most = 0
        for turn in [0, -1, 1, -2, 2, -3, 3, -4, 4, -5, 5] {
            let a = Double(turn) * Double.pi / 180
            var c = fitted
            c.ux = fitted.ux * cos(a) - fitted.uy * sin(a); c.uy = fitted.ux * sin(a) + fitted.uy * cos(a)
            c.vx = -c.uy; c.vy = c.ux
            var count = 0
            for k in 0..<12 {
                let t = fitted.t0 + (fitted.t1 - fitted.t0) * (Double(k) + 0.5) / 12
                if readRow(image, from: Point(x: c.origin.x + c.vx * t, y: c.origin.y + c.vy * t), c) != nil {
                    count += 1
                }
            }
            if count > most { most = count; e = c }
            if most >= 10 { break }
        }
        // Crossings that line up by chance: no turn reads rows.
        guard most >= 2 else { return nil }
        let m = e.module
        let t0 = e.t0 - 5 * m, t1 = e.t1 + 5 * m
        let tStep = min(0.5, max(0.2, m / 4))
        let lineCount = min(3000, Int((t1 - t0) / tStep))
        guard lineCount >= 2 else { return nil }
        lines.reserve(lineCount)
        var n = 0
        for l in 0..<lineCount {
            let t = t0 + (Double(l) + 0.5) * tStep
            let p = Point(x: e.origin.x + e.vx * t, y: e.origin.y + e.vy * t)
            if var r = readRow(image, from: p, e) {
                r.t = t
                lines[n] = r
                n += 1
            }
        }
        guard n >= 2 else { return nil }
        // The column count most lines read, then the size whose RAPs and
        // clusters explain most of them.
        var columnVotes = (0, 0, 0, 0)
        for l in 0..<n {
            switch lines[l].columns {
            case 1: columnVotes.0 += 1
            case 2: columnVotes.1 += 1
            case 3: columnVotes.2 += 1
            default: columnVotes.3 += 1
            }
        }
        let counts = [columnVotes.0, columnVotes.1, columnVotes.2, columnVotes.3]
        var columns = 1
        for c in 2...4 where counts[c - 1] > counts[columns - 1] { columns = c }
        var best: MicroPDF417.Size? = nil, bestScore = 0
        for size in MicroPDF417.sizes where size.columns == columns {
            var score = 0
            for l in 0..<n where MicroPDF417Reader.row(of: lines[l], in: size) != nil { score += 1 }
            if score > bestScore { bestScore = score; best = size }
        }
        guard let size = best, bestScore >= 3 else { return nil }
        // Votes, and the fit row = a + b t for the corners.
        let cells = size.rows * columns
        votes.reserve(cells * 8)
        let candidates = votes.pointer, tally = votes.pointer + cells * 4
        for k in 0..<(cells * 4) { candidates[k] = -1; tally[k] = 0 }
        var st = 0.0, sr = 0.0, stt = 0.0, str = 0.0, known = 0.0, width = 0.0
        for l in 0..<n {
            let line = lines[l]
            guard let r = MicroPDF417Reader.row(of: line, in: size) else { continue }
            st += line.t; sr += Double(r); stt += line.t * line.t; str += line.t * Double(r); known += 1
            width += line.width
            withUnsafeBytes(of: line.words) { raw in
                let words = raw.bindMemory(to: Int32.self)
                for k in 0..<columns where words[k] >= 0 {
                    let v = words[k]
                    PDF417Reader.vote(
                        cell: r * columns + k, value: v & 0xFFF,
                        weight: v & PDF417Reader.softRead == 0 ? 2 : 1, candidates, tally)
                }
            }
        }
        var words = [Int](repeating: -1, count: cells)
        var margin = [Int32](repeating: 0, count: cells)
        for cell in 0..<cells {
            var most: Int32 = 0, second: Int32 = 0
            for q in 0..<4 {
                let c = tally[cell * 4 + q]
                if c > most {
                    second = most; most = c; words[cell] = Int(candidates[cell * 4 + q])
                } else if c > second {
                    second = c
                }
            }
            margin[cell] = most - second
        }
        guard let decoded = MicroPDF417Reader.decode(words, margin: margin, checkCount: size.checkCount) else {
            return nil
        }
        // The corners: the rows' ends as the fit places them.
        let den = known * stt - st * st
        guard known >= 2, abs(den) > 1e-9 else { return nil }
        let b = (known * str - st * sr) / den, a = (sr - b * st) / known
        guard abs(b) > 1e-6 else { return nil }
        let top = (-0.5 - a) / b, bottom = (Double(size.rows) - 0.5 - a) / b
        let w = width / known
        func point(_ t: Double, _ along: Double) -> Point {
            Point(x: e.origin.x + e.vx * t + e.ux * along, y: e.origin.y + e.vy * t + e.uy * along)
        }
        let corners = [point(top, 0), point(top, w), point(bottom, w), point(bottom, 0)]
        return MicroPDF417Symbol(corners: corners, decoded: decoded, size: size, inverted: e.inverted, mirrored: b < 0)
    }

    /// The row of `size` that a line's RAPs and cluster name, or nil when
    /// they name none, or different rows (5.11.3).
    private static func row(of line: LineRead, in size: MicroPDF417.Size) -> Int? {
        guard line.columns == size.columns else { return nil }
        let r = MicroPDF417.Size.row(line.left, first: size.left)
        guard r < size.rows, MicroPDF417.Size.row(line.right, first: size.right) == r,
            size.columns < 3 || MicroPDF417.Size.row(line.centre, first: size.centre) == r,
            (size.cluster + r) % 3 == line.cluster
        else { return nil }
        return r
    }

    /// Corrects the codewords (ISO/IEC 24728:2006, 5.7 and 5.16: `checkCount`
    /// check codewords over GF(929)), erasing the least surely read cells
    /// when the first try fails, and decodes the data codewords.
    package static func decode(_ read: [Int], margin: [Int32], checkCount: Int) -> PDF417DecodeResult? {
        var words = read
        var fixed = PDF417Decoder.correct(words, checkCount: checkCount)
        if fixed == nil {
            // The cells read least surely erased, two more at a time.
            let weakest = (0..<words.count).filter { words[$0] >= 0 && margin[$0] <= 2 }.sorted {
                margin[$0] < margin[$1]
            }
            var erased = words.filter { $0 < 0 }.count, k = 0
            while fixed == nil, erased + 4 <= checkCount, k + 2 <= weakest.count {
                words[weakest[k]] = -1; words[weakest[k + 1]] = -1
                k += 2; erased += 2
                fixed = PDF417Decoder.correct(words, checkCount: checkCount)
            }
        }
        guard let (corrected, changed) = fixed else { return nil }
        let dataCount = corrected.count - checkCount
        // No symbol length descriptor: one is put in front for the
        // PDF417 decoder.
        return PDF417Decoder.content([dataCount + 1] + corrected[0..<dataCount], correctedErrors: changed, ecLevel: 0)
    }

    /// Samples the line from `p` (on the left edge) along the rows and
    /// parses it as a row of 4, 3, 2 or 1 columns, the first that fits.
    private func readRow(_ image: LumaView, from p: Point, _ e: Edge) -> LineRead? {
        let m = e.module
        let sp = min(1, max(0.25, m / 3))
        let before = 6 * m
        var start = Point(x: p.x - e.ux * before, y: p.y - e.uy * before)
        var length = Double(MicroPDF417.modules(columns: 4) + 12) * m
        // Kept inside the frame.
        var t0 = 0.0, t1 = length
        for axis in 0..<2 {
            let o = axis == 0 ? start.x : start.y, d = axis == 0 ? e.ux : e.uy,
                size = axis == 0 ? image.width : image.height
            let lo = 1.0, hi = Double(size) - 2
            if abs(d) < 1e-9 {
                if o < lo || o > hi { return nil }
                continue
            }
            var a = (lo - o) / d, b = (hi - o) / d
            if a > b { swap(&a, &b) }
            t0 = max(t0, a); t1 = min(t1, b)
        }
        guard t1 - t0 > 20 * m, t0 < before else { return nil }
        start = Point(x: start.x + e.ux * t0, y: start.y + e.uy * t0)
        length = t1 - t0
        let n = Int(length / sp)
        let pad = MicroPDF417Reader.pad
        profile.reserve(n + 2 * pad)
        let q = profile.pointer
        let line = ScanLine(origin: start, dx: e.ux * sp, dy: e.uy * sp, length: n)
        // A third of a module either side (rows are two modules tall or more).
        image.sample(line, thickness: min(5, 1 + 2 * Int(m * 0.4)), into: q + pad)
        var lo = q[pad], hi = q[pad]
        for i in pad..<(pad + n) { lo = min(lo, q[i]); hi = max(hi, q[i]) }
        for i in 0..<pad { q[i] = e.inverted ? lo : hi; q[pad + n + i] = e.inverted ? lo : hi }
        let total = n + 2 * pad
        edges.extract(q, count: total, relative: 0.1, floor: 2)
        guard edges.edgeCount >= 20 else { return nil }
        let expected = Float(Double(pad) + (before - t0) / sp)
        if let r = parseRow(total, expected: expected, module: Float(m / sp), step: sp, inverted: e.inverted) {
            return r
        }
        // Again without the bumps noise leaves inside wide elements, then
        // on a smoothed profile (sensor noise, JPEG).
        edges.prune(q, count: total, fraction: 0.25)
        if edges.edgeCount >= 20,
            let r = parseRow(total, expected: expected, module: Float(m / sp), step: sp, inverted: e.inverted)
        {
            return r
        }
        EdgeExtractor.smooth(q, count: total)
        edges.extract(q, count: total, relative: 0.1, floor: 2)
        edges.prune(q, count: total, fraction: 0.25)
        guard edges.edgeCount >= 20 else { return nil }
        return parseRow(total, expected: expected, module: Float(m / sp), step: sp, inverted: e.inverted)
    }

    /// Parses the current edges of a line of `total` samples as a row of
    /// 4, 3, 2 or 1 columns from the bar nearest `expected` (the left
    /// edge's place, in samples, `module` samples a module).
    private func parseRow(
        _ total: Int, expected: Float, module mk: Float, step sp: Double, inverted: Bool
    ) -> LineRead? {
        run.fill(from: edges, lineLength: total, inverted: inverted)
        let count = run.count
        let w = run.widths.pointer, s = run.starts.pointer
        // The bar nearest where the edge lies.
        var i = 1
        while i + 2 < count && abs(s[i + 2] - expected) <= abs(s[i] - expected) { i += 2 }
        guard abs(s[i] - expected) <= 2.5 * mk else { return nil }
        for columns in stride(from: 4, through: 1, by: -1) {
            if var r = parse(w, s, count: count, from: i, columns: columns) {
                r.width *= sp
                return r
            }
        }
        return nil
    }

    /// Parses the elements from bar `i0` as a row of `columns` columns
    /// (5.2.3): left RAP, codewords with the centre RAP before the last two
    /// (3 and 4 columns), right RAP, a stop bar of one module.
    private func parse(
        _ w: UnsafeMutablePointer<Float>, _ s: UnsafeMutablePointer<Float>, count: Int, from i0: Int,
        columns: Int
    ) -> LineRead? {
        var i = i0
        guard i + 6 <= count else { return nil }
        let left = MicroPDF417.rap(w + i)
        guard left >= 1, left <= 52 else { return nil }
        var m: Float = 0
        for k in 0..<6 { m += w[i + k] }
        m /= 10
        i += 6
        var centre = 0
        let found = rowWords.pointer, at = rowStarts.pointer
        for k in 0..<4 { found[k] = -1; at[k] = 0 }
        var clusterCounts = (0, 0, 0)
        func sum(_ from: Int, _ k: Int) -> Float {
            var t: Float = 0
            for j in 0..<k { t += w[from + j] }
            return t
        }
        for k in 0..<columns {
            if columns >= 3 && k == columns - 2 {
                guard i + 6 <= count else { return nil }
                let c = MicroPDF417.rap(w + i), total = sum(i, 6)
                guard c > 64, total > 7.5 * m, total < 13 * m else { return nil }
                centre = c - 64
                i += 6
            }
            guard i + 8 <= count else { return nil }
            let total = sum(i, 8)
            guard total > 14 * m, total < 20 * m else { return nil }
            if let d = PDF417Codewords.decode(w + i) {
                found[k] = Int32(d.cluster << 12 | d.value)
                switch d.cluster {
                case 0: clusterCounts.0 += 1
                case 1: clusterCounts.1 += 1
                default: clusterCounts.2 += 1
                }
            }
            at[k] = i
            m = (m + total / 17) / 2
            i += 8
        }
        guard i + 7 <= count else { return nil }
        let right = MicroPDF417.rap(w + i), rightSum = sum(i, 6)
        guard right >= 1, right <= 52, rightSum > 7.5 * m, rightSum < 13 * m else { return nil }
        i += 6
        // The stop bar, then light.
        guard w[i] > 0.4 * m, w[i] < 2.2 * m, i + 1 >= count || w[i + 1] >= 0.8 * m else { return nil }
        let (c0, c1, c2) = clusterCounts
        let cluster = c0 >= c1 && c0 >= c2 ? 0 : c1 >= c2 ? 1 : 2
        guard max(c0, c1, c2) * 2 > c0 + c1 + c2 else { return nil }
        // Codewords of another cluster or none: the nearest of this one.
        for k in 0..<columns where found[k] < 0 || Int(found[k] >> 12) != cluster {
            if let v = PDF417Codewords.nearest(w + at[k], cluster: cluster) {
                found[k] = Int32(cluster << 12 | v) | PDF417Reader.softRead
            } else {
                found[k] = -1
            }
        }
        return LineRead(
            t: 0, columns: columns, left: left, centre: centre, right: right, cluster: cluster,
            words: (found[0], found[1], found[2], found[3]), width: Double(s[i] + w[i] - s[i0]))
    }

    /// The result of a decoded symbol.
    static func result(_ s: MicroPDF417Symbol) -> BarcodeResult {
        PDF417Reader.result(s.decoded, .microPDF417, corners: s.corners, inverted: s.inverted, mirrored: s.mirrored)
    }
}

extension MicroPDF417Reader: MatrixReader {
    /// ``read(_:bounds:thorough:across:cells:into:)`` of the search, at every angle.
    func read(_ search: MatrixSearch, into out: inout [BarcodeResult]) {
        read(search.image, bounds: search.bounds, thorough: search.thorough, cells: search.cells, into: &out)
    }
}
