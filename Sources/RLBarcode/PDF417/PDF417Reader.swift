#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The PDF417 stage of ``MatrixReaders``: finds the start and stop pattern
/// columns of PDF417 symbols (``PDF417Detector``), samples each symbol row
/// by row through a perspective transform fitted to its four corners,
/// decodes the codewords of every scan line, places them by the row
/// indicators and votes, then corrects and decodes the codeword matrix
/// (ISO/IEC 15438:2015, Annex reference decode algorithm; 5.3.4 row
/// indicators; 5.7 error correction; 5.4 data encodation). Owned by a
/// scanner and reused from frame to frame.
final class PDF417Reader {
    private var detector = PDF417Detector()
    /// The frame's time limit and stop (``PDF417Detector/stop``), checked
    /// every pattern too.
    var stop: ScanStop {
        get { detector.stop }
        set { detector.stop = newValue }
    }
    private var edges = EdgeExtractor()
    private var run = ElementRun()
    private var profile = ScratchBuffer<Float>(capacity: 4096)
    /// The codewords read on each sampled line (cluster index << 12 | value, or -1).
    private var lineWords = ScratchBuffer<Int32>(capacity: 4096)
    /// The position of each sampled line down the symbol, 0 ... 1.
    private var lineT = ScratchBuffer<Double>(capacity: 512)
    /// The flag of a codeword read as the nearest of its row's cluster
    /// rather than by rounding its widths (bit 15; the cluster index is in
    /// bits 12 ... 13, the value in bits 0 ... 9).
    static let softRead: Int32 = 1 << 15
    /// The flag of a codeword read only by ``readLine``'s retries (bit 14).
    static let retriedRead: Int32 = 1 << 14

    /// Where the codewords of a line start, in frame pixels.
    private var positions = ScratchBuffer<Point>(capacity: 32)
    /// The votes of a symbol's cells: four candidate values a cell, then their counts.
    private var votes = ScratchBuffer<Int32>(capacity: 4096)

    /// Whether the symbols of the current read are in a video frame
    /// (not `thorough`): their lines are then sampled a third of a module
    /// apart even where that is more than a pixel.
    private var videoSteps = false

    init() {}

    deinit {
        detector.free(); edges.free(); run.free(); profile.free(); lineWords.free(); lineT.free(); votes.free();
        positions.free()
    }

    /// How many start/stop pattern pairs the last read tried.
    private(set) var lastCandidateCount = 0
    /// How many start and stop patterns the last read found.
    private(set) var lastPatternCount = 0
    /// The distance between the pattern search's lines in the last read.
    private(set) var lastStep = 0

    /// Finds and decodes the PDF417 symbols inside `bounds` (the whole
    /// frame when nil) and appends them to `out`. With `thorough` (still
    /// pictures) the pattern search lines are two pixels apart, else six.
    /// `across` (video frames): the direction across the bars of the
    /// region `bounds` holds, the only one the pattern search then takes;
    /// compact PDF417 is then looked for only in still pictures.
    /// With `cells` (the detection pass's), the search reads only the lines
    /// that cross bars (``PDF417Detector/find(_:bounds:step:across:cells:)``).
    func read(
        _ image: LumaView, bounds: PixelRect?, thorough: Bool, across: (Double, Double)? = nil,
        lines: Int = 24, step: Int? = nil, cells: CellTensors? = nil, into out: inout [BarcodeResult]
    ) {
        for s in symbols(
            image, bounds: bounds, thorough: thorough, across: across, lines: lines, step: step, cells: cells)
        {
            let r = PDF417Reader.result(s)
            if out.contains(where: { $0.isSameCode(as: r) }) { continue }
            out.append(r)
        }
    }

    /// The symbols found inside `bounds`.
    func symbols(
        _ image: LumaView, bounds: PixelRect?, thorough: Bool, across: (Double, Double)? = nil,
        lines: Int = 24, step fixedStep: Int? = nil, cells: CellTensors? = nil
    ) -> [PDF417Symbol] {
        lastCandidateCount = 0
        lastPatternCount = 0
        videoSteps = !thorough
        guard image.width >= 16, image.height >= 8 else { return [] }
        let frame = bounds ?? PixelRect(x0: 0, y0: 0, x1: image.width, y1: image.height)
        // Still pictures: lines 2 pixels apart in pictures under 480
        // pixels, 3 in larger ones (whose symbols are rarely under 3 rows
        // of 3 modules of 1.5 pixels: crossed 4 times).
        // Video frames: lines 6 pixels apart, or about `lines` lines over
        // the height of a region of bars (its rows run the symbol's height,
        // and the start and stop columns are followed to their ends).
        var step = thorough ? (min(frame.width, frame.height) < 480 ? 2 : 3) : 6
        if !thorough, let (ux, uy) = across {
            let height = abs(uy) * Double(frame.width) + abs(ux) * Double(frame.height)
            step = max(step, Int(height / Double(max(1, lines))))
        }
        if let fixedStep { step = fixedStep }
        lastStep = step
        detector.prune = 0
        let found = detector.find(image, bounds: frame, step: step, across: across, cells: cells)
        lastPatternCount = found.count
        var symbols = decode(image, found, thorough: thorough, across: across)
        if thorough && symbols.isEmpty && !stop.now {
            // Still pictures that show none: again without the weak bumps
            // inside wide elements (noise).
            detector.prune = 0.25
            symbols = decode(
                image, detector.find(image, bounds: frame, step: step, across: across, cells: cells),
                thorough: thorough, across: across)
        }
        return symbols
    }

    /// Pairs the start and stop patterns found and decodes the symbols between them.
    private func decode(
        _ image: LumaView, _ found: [PDF417Edge], thorough: Bool, across: (Double, Double)?
    ) -> [PDF417Symbol] {
        let starts = found.filter(\.isStart).sorted { $0.hits > $1.hits }
        let stops = found.filter { !$0.isStart }
        var symbols: [PDF417Symbol] = []
        for s in starts {
            if stop.now { break }
            let sc = Point(x: (s.top.x + s.bottom.x) / 2, y: (s.top.y + s.bottom.y) / 2)
            var best: PDF417Edge? = nil, bestAlong = Double.infinity
            for p in stops where p.inverted == s.inverted && s.ux * p.ux + s.uy * p.uy > 0.5 {
                let ratio = s.module / p.module
                guard ratio > 0.5, ratio < 2 else { continue }
                let pc = Point(x: (p.top.x + p.bottom.x) / 2, y: (p.top.y + p.bottom.y) / 2)
                let dx = pc.x - sc.x, dy = pc.y - sc.y
                // The stop pattern lies ahead of the start pattern, within
                // the rows the start pattern spans.
                let distance = (dx * dx + dy * dy).squareRoot()
                let m = max(s.module, p.module)
                guard distance > 60 * min(s.module, p.module), distance < 600 * m,
                    (dx * s.ux + dy * s.uy) / distance > 0.7, (dx * p.ux + dy * p.uy) / distance > 0.7
                else { continue }
                // Top pairs with top and bottom with bottom: the symbol's top
                // and bottom edges run along the rows.
                let tx = p.top.x - s.top.x, ty = p.top.y - s.top.y
                let bx = p.bottom.x - s.bottom.x, by = p.bottom.y - s.bottom.y
                let tl = (tx * tx + ty * ty).squareRoot(), bl = (bx * bx + by * by).squareRoot()
                guard tl > 0, bl > 0, tl / bl > 0.5, tl / bl < 2,
                    (tx * s.ux + ty * s.uy) / tl > 0.6, (bx * s.ux + by * s.uy) / bl > 0.6,
                    (tx * p.ux + ty * p.uy) / tl > 0.6, (bx * p.ux + by * p.uy) / bl > 0.6
                else { continue }
                let along = distance
                if along < bestAlong { bestAlong = along; best = p }
            }
            // Each symbol once: skip patterns inside one already read.
            if symbols.contains(where: { PDF417Reader.contains($0.corners, sc) }) { continue }
            lastCandidateCount += 1
            // With the stop pattern ahead; else (or failing that) as compact
            // PDF417, whose stop pattern is a single bar.
            if let p = best, let symbol = decode(image, start: s, stop: p) {
                symbols.append(symbol)
            } else if thorough || across == nil, let symbol = decodeCompact(image, start: s) {
                symbols.append(symbol)
            }
        }
        return symbols
    }

    /// Whether `p` lies inside the quadrilateral `c`.
    static func contains(_ c: [Point], _ p: Point) -> Bool {
        var sign = 0.0
        for k in 0..<4 {
            let a = c[k], b = c[(k + 1) % 4]
            let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if cross == 0 { continue }
            if sign == 0 { sign = cross } else if (sign > 0) != (cross > 0) { return false }
        }
        return true
    }

    /// Samples and decodes the symbol between a start and a stop pattern.
    private func decode(_ image: LumaView, start s: PDF417Edge, stop p: PDF417Edge) -> PDF417Symbol? {
        let corners = [s.top, p.top, p.bottom, s.bottom]
        let width = (s.top.distance(to: p.top) + s.bottom.distance(to: p.bottom)) / 2
        let modules = width / ((s.module + p.module) / 2)
        let columns = Int(((modules - 69) / 17).rounded())
        guard columns >= 1, columns <= 30 else { return nil }
        return sample(image, columns: columns, inverted: s.inverted, compact: false) { _ in corners }
    }

    /// Samples and decodes a compact PDF417 symbol (ISO/IEC 15438:2015,
    /// 5.11 compact PDF417: no right row indicator, a stop pattern of one
    /// bar) from its start pattern alone: its rows run along the start
    /// pattern's normal, as many modules as the left row indicators'
    /// column count makes.
    private func decodeCompact(_ image: LumaView, start s: PDF417Edge) -> PDF417Symbol? {
        func corners(_ columns: Int) -> [Point] {
            let w = Double(17 * columns + 35) * s.module
            return [
                s.top, Point(x: s.top.x + s.ux * w, y: s.top.y + s.uy * w),
                Point(x: s.bottom.x + s.ux * w, y: s.bottom.y + s.uy * w), s.bottom
            ]
        }
        var columns = 1
        switch sample(image, corners(1), columns: 1, inverted: s.inverted, compact: true) {
        case .symbol(let symbol): return symbol
        case .columns(let c) where c > 1: columns = c
        default: return nil
        }
        // The rows' direction: the start pattern's normal turned by up to
        // four degrees either way, the turn (nearest to none) whose lines
        // at a quarter, half and three quarters of the height read most
        // codewords of their left row indicator's cluster (their row); the
        // module from where the farthest of them lies.
        let width = Double(17 * columns + 35)
        let perLine = columns + 1
        lineWords.reserve(perLine)
        positions.reserve(perLine)
        var refined = corners(columns), best = 0
        for turn in [0, -1, 1, -2, 2, -3, 3, -4, 4, -5, 5, -6, 6, -7, 7, -8, 8, -10, 10] {
            let a = Double(turn) * 0.4 * Double.pi / 180
            let ux = s.ux * cos(a) - s.uy * sin(a), uy = s.ux * sin(a) + s.uy * cos(a)
            let w = width * s.module
            let c = [
                s.top, Point(x: s.top.x + ux * w, y: s.top.y + uy * w),
                Point(x: s.bottom.x + ux * w, y: s.bottom.y + uy * w), s.bottom
            ]
            let h = PerspectiveTransform.squareToQuadrilateral(c[0], c[1], c[2], c[3])
            var count = 0, module = 0.0, farthest = 0
            for t in [0.25, 0.5, 0.75] {
                readLine(
                    image, h, t: t, width: width, count: perLine, inverted: s.inverted, into: lineWords.pointer,
                    positions: positions.pointer)
                guard lineWords[0] >= 0 else { continue }
                let cluster = lineWords[0] >> 12 & 3
                var last = 0
                for k in 1..<perLine where lineWords[k] >= 0 && lineWords[k] >> 12 & 3 == cluster {
                    count += 1; last = k
                }
                if last > farthest {
                    farthest = last
                    module = positions[0].distance(to: positions[last]) / Double(17 * last)
                }
            }
            guard count > best, farthest > 0 else { continue }
            best = count
            let wm = width * module
            refined = [
                s.top, Point(x: s.top.x + ux * wm, y: s.top.y + uy * wm),
                Point(x: s.bottom.x + ux * wm, y: s.bottom.y + uy * wm), s.bottom
            ]
        }
        if case .symbol(let symbol) = sample(image, refined, columns: columns, inverted: s.inverted, compact: true) {
            return symbol
        }
        return nil
    }

    /// Samples with `columns` data columns, and again with the column
    /// count the row indicators give when that differs; `corners` gives
    /// the symbol's outer corners for a column count.
    private func sample(
        _ image: LumaView, columns first: Int, inverted: Bool, compact: Bool,
        corners: (Int) -> [Point]
    ) -> PDF417Symbol? {
        var columns = first
        for _ in 0..<2 {
            switch sample(image, corners(columns), columns: columns, inverted: inverted, compact: compact) {
            case .symbol(let symbol): return symbol
            case .columns(let c) where c != columns: columns = c
            default: return nil
            }
        }
        return nil
    }

    private enum Sampling {
        case symbol(PDF417Symbol)
        case columns(Int)
        case failed
    }

    /// Reads the symbol whose outer corners are `c` (top-left, top-right,
    /// bottom-right, bottom-left as the start and stop patterns place them)
    /// with `columns` data columns: lines evenly spread down the symbol
    /// find the row indicators and how the rows lie, then lines through
    /// every row read its codewords.
    private func sample(_ image: LumaView, _ c: [Point], columns: Int, inverted: Bool, compact: Bool) -> Sampling {
        let width = Double(17 * columns + (compact ? 35 : 69))
        let h = PerspectiveTransform.squareToQuadrilateral(c[0], c[1], c[2], c[3])
        let height = max(c[0].distance(to: c[3]), c[1].distance(to: c[2]))
        // Lines half a pixel apart; a quarter in symbols under 80 pixels
        // tall, whose rows may be a pixel or two; a sixth of a module in
        // symbols of larger modules (rows are at least two modules tall, so
        // that each still gets twelve lines or more).
        let module = min(c[0].distance(to: c[1]), c[3].distance(to: c[2])) / width
        let spacing = height < 80 ? 0.25 : max(0.5, module / 6)
        let lineCount = max(9, min(3000, Int(height / spacing)))
        let perLine = columns + (compact ? 1 : 2)
        lineWords.reserve(lineCount * perLine)
        lineT.reserve(lineCount)
        // The indicators from the edges as found, then, unless the rows
        // they place decode, with the retries for noise (``readLine``'s
        // `retry`), whose readings count less surely, then fully.
        var tried: Layout? = nil, named: Int? = nil
        for (retry, lenient) in [(false, false), (true, false), (true, true)] {
            for l in 0..<lineCount where !lenient {
                let t = (Double(l) + 0.5) / Double(lineCount)
                lineT[l] = t
                // Only the row indicators count here: in symbols of rows of
                // several pixels, only the ends of the line are read (in
                // smaller ones, whose rows the indicators place less surely,
                // the whole line, so that each indicator's place follows the
                // codewords before it).
                readLine(
                    image, h, t: t, width: width, count: perLine, inverted: inverted,
                    into: lineWords.pointer + l * perLine, indicatorsOnly: height >= 80, rightIndicator: !compact,
                    retry: retry)
            }
            switch indicators(lineCount: lineCount, columns: columns, compact: compact, lenient: lenient) {
            case .layout(let layout):
                if let t = tried, t.rows == layout.rows, t.ecLevel == layout.ecLevel,
                    abs(t.a - layout.a) < 0.25, abs(t.b - layout.b) < 0.25
                {
                    continue
                }
                tried = layout
                // The rows as read plainly, then, unless they decode, with
                // the retries for noise.
                for retryRows in [false, true] {
                    if let symbol = readRows(
                        image, h, layout, columns: columns, width: width, height: height, inverted: inverted,
                        compact: compact, retry: retryRows)
                    {
                        return .symbol(symbol)
                    }
                }
            case .columns(let k): named = named ?? k
            case .failed: continue
            }
        }
        if let k = named { return .columns(k) }
        return .failed
    }

    /// Reads the codewords of every row that `layout` places, from lines
    /// through each row's middle and either side of it, and decodes them.
    /// With `retry` (noise), the lines average the pixels across the row
    /// and read their unsure codewords again (``readLine``'s `retry`).
    private func readRows(
        _ image: LumaView, _ h: PerspectiveTransform, _ layout: Layout, columns: Int, width: Double, height: Double,
        inverted: Bool, compact: Bool, retry: Bool
    ) -> PDF417Symbol? {
        let perLine = columns + (compact ? 1 : 2)
        // Lines through every row: the row's middle and either side of it.
        let rows = layout.rows
        let rowPixels = height / Double(rows)
        let offsets: [Double] = rowPixels >= 4 || rowPixels < 2.5 ? [-0.3, -0.15, 0, 0.15, 0.3] : [-0.2, 0, 0.2]
        let count = rows * offsets.count
        lineWords.reserve(count * perLine)
        lineT.reserve(count)
        let cells = rows * columns
        votes.reserve(cells * 8)
        let candidates = votes.pointer, tally = votes.pointer + cells * 4
        for k in 0..<(cells * 4) { candidates[k] = -1; tally[k] = 0 }
        var words = [Int](repeating: -1, count: cells)
        var margin = [Int32](repeating: 0, count: cells)
        // The middle lines of every row first (a clean symbol decodes from
        // them), then, unless that decoded, the outer ones too.
        let middle = offsets.count / 2
        var decoded: PDF417DecodeResult? = nil
        for pass in 0..<2 {
            for r in 0..<rows {
                for (o, offset) in offsets.enumerated() where (abs(o - middle) <= 1) == (pass == 0) {
                    let t = (Double(r) + offset - layout.a) / layout.b
                    // Rows beyond the traced pattern (a start pattern cut short) too.
                    guard t > -0.5, t < 1.5 else { continue }
                    let words = lineWords.pointer + (r * offsets.count + o) * perLine
                    // Averaged across the row as far as the line stays inside it.
                    let across = retry ? 1 + 2 * max(0, Int((0.4 - abs(offset)) * rowPixels)) : 1
                    readLine(
                        image, h, t: t, width: width, count: perLine, inverted: inverted, into: words, cluster: r % 3,
                        thickness: min(across, videoSteps ? 3 : 7), retry: retry)
                    let cluster = r % 3
                    // A row indicator that names another row: the line is not in this one.
                    var elsewhere = false
                    for k in (compact ? [0] : [0, perLine - 1])
                    where words[k] >= 0 && Int(words[k] >> 12 & 3) == cluster {
                        let v = Int(words[k] & 0xFFF)
                        if v < 900 && 3 * (v / 30) + cluster != r { elsewhere = true }
                    }
                    if elsewhere { continue }
                    for j in 0..<columns {
                        let v = words[j + 1]
                        guard v >= 0, Int(v >> 12 & 3) == cluster else { continue }
                        // Rounded readings count twice as much as nearest ones.
                        PDF417Reader.vote(
                            cell: r * columns + j, value: v & 0xFFF, weight: v & PDF417Reader.softRead == 0 ? 2 : 1,
                            candidates, tally)
                    }
                }
            }
            for cell in 0..<cells {
                var best = -1, most: Int32 = 0, second: Int32 = 0
                for q in 0..<4 {
                    let n = tally[cell * 4 + q]
                    if n > most {
                        second = most; most = n; best = Int(candidates[cell * 4 + q])
                    } else if n > second {
                        second = n
                    }
                }
                words[cell] = best
                margin[cell] = most - second
            }
            decoded = PDF417Decoder.decode(words, ecLevel: layout.ecLevel)
            if decoded != nil || offsets.count <= 3 { break }
        }
        if decoded == nil {
            // The cells read least surely erased, more and more of them.
            let checkCount = 2 << layout.ecLevel
            let weakest = (0..<cells).filter { words[$0] >= 0 }.sorted { margin[$0] < margin[$1] }
            var erased = words.filter { $0 < 0 }.count, k = 0, step = 2
            while decoded == nil, erased + step + 2 <= checkCount, k + step <= weakest.count {
                for q in k..<(k + step) { words[weakest[q]] = -1 }
                k += step; erased += step; step *= 2
                decoded = PDF417Decoder.decode(words, ecLevel: layout.ecLevel)
            }
        }
        guard let decoded else { return nil }
        // The corners where the rows end, as the layout places them.
        // (beyond the traced patterns when the rows reach further).
        var t0 = (-0.5 - layout.a) / layout.b, t1 = (Double(rows) - 0.5 - layout.a) / layout.b
        if layout.mirrored { t0 = max(t0, 1); t1 = min(t1, 0) } else { t0 = min(t0, 0); t1 = max(t1, 1) }
        let q = [h.map(0, t0), h.map(1, t0), h.map(1, t1), h.map(0, t1)]
        let corners = q
        return PDF417Symbol(
            corners: corners, decoded: decoded, rows: rows, columns: columns,
            inverted: inverted, mirrored: layout.mirrored)
    }

    /// Counts one reading of `value` in `cell`: up to four candidate values
    /// a cell, the least read one giving way to a new value.
    @inline(__always)
    static func vote(
        cell: Int, value: Int32, weight: Int32, _ candidates: UnsafeMutablePointer<Int32>,
        _ tally: UnsafeMutablePointer<Int32>
    ) {
        let base = cell * 4
        for q in 0..<4 where candidates[base + q] == value { tally[base + q] += weight; return }
        var weakest = 0
        for q in 1..<4 where tally[base + q] < tally[base + weakest] { weakest = q }
        if tally[base + weakest] == 0 { candidates[base + weakest] = value; tally[base + weakest] = weight }
    }

    /// Samples the line at height `t` (0 ... 1) across the symbol and
    /// decodes its first `count` codewords (left row indicator first), each
    /// from the bar edge nearest to where the transform expects it, moved
    /// by how far the previous codeword lay from where it was expected.
    /// With `positions`, writes there where each codeword read starts.
    /// With a `cluster` (the line's row known), widths that round to no
    /// codeword of that cluster are read as its nearest codeword.
    /// With `indicatorsOnly`, only the two ends of the line are sampled and
    /// read: the left row indicator, and the right one unless
    /// `rightIndicator` is false (compact PDF417 has none); the other
    /// codewords stay unread. `thickness`: pixels averaged across the line.
    /// With `retry`, codewords unread or read only as their cluster's
    /// nearest are read again from pruned edges, then from a smoothed
    /// profile.
    private func readLine(
        _ image: LumaView, _ h: PerspectiveTransform, t: Double, width: Double, count perLine: Int,
        inverted: Bool, into words: UnsafeMutablePointer<Int32>,
        positions: UnsafeMutablePointer<Point>? = nil, cluster: Int = -1,
        indicatorsOnly: Bool = false, rightIndicator: Bool = true, thickness: Int = 1, retry: Bool = false
    ) {
        for k in 0..<perLine { words[k] = -1 }
        let p0 = h.map(0, t), p1 = h.map(1, t)
        let length = p0.distance(to: p1)
        guard length > 10 else { return }
        let ux = (p1.x - p0.x) / length, uy = (p1.y - p0.y) / length
        let m0 = p0.distance(to: h.map(17 / width, t)) / 17
        let m1 = p1.distance(to: h.map(1 - 17 / width, t)) / 17
        // Three samples a module. Still pictures: at most a pixel apart
        // (every pixel of large modules read: their faint or blurred edges
        // placed from more samples). Video frames: three a module however
        // large, enough to place each edge, so that a symbol of large
        // modules costs no more samples a line than one of small modules.
        let third = max(0.25, min(m0, m1) / 3)
        let step = videoSteps ? third : min(1, third)
        // Reads codewords `first ... last` from the part of the line between
        // `a` and `b` pixels from its start (`p0`).
        func window(_ a: Double, _ b: Double, _ first: Int, _ last: Int) {
            let origin = Point(x: p0.x + a * ux, y: p0.y + a * uy)
            let n = Int((b - a) / step)
            guard n >= 20 else { return }
            let line = ScanLine(origin: origin, dx: ux * step, dy: uy * step, length: n)
            profile.reserve(n)
            image.sample(line, thickness: thickness, into: profile.pointer)
            edges.extract(profile.pointer, count: n, relative: 0.1, floor: 2)
            let least = last > first ? 16 : 8
            guard edges.edgeCount >= least else { return }
            var unsure = decodeWords(line, origin, first, last, retry: false)
            retried = PDF417Reader.retriedRead
            // Codewords unread or read only as their cluster's nearest:
            // again without the bumps that noise leaves inside wide
            // elements, then on a smoothed profile (sensor noise, JPEG).
            if unsure > 0 && retry {
                edges.prune(profile.pointer, count: n, fraction: 0.25)
                if edges.edgeCount >= least { unsure = decodeWords(line, origin, first, last, retry: true) }
            }
            if unsure > 0 && retry {
                let p = profile.pointer
                EdgeExtractor.smooth(p, count: n)
                edges.extract(p, count: n, relative: 0.1, floor: 2)
                edges.prune(p, count: n, fraction: 0.25)
                if edges.edgeCount >= least { _ = decodeWords(line, origin, first, last, retry: true) }
            }
        }
        // Decodes codewords `first ... last` from the current edges (with
        // `retry`, only those unread or read as the nearest of their
        // cluster) and returns how many are still so.
        var retried: Int32 = 0
        func decodeWords(_ line: ScanLine, _ origin: Point, _ first: Int, _ last: Int, retry: Bool) -> Int {
            run.fill(from: edges, lineLength: line.length, inverted: inverted)
            let count = run.count
            let w = run.widths.pointer, s = run.starts.pointer
            var i = 1
            var drift: Float = 0
            var unsure = 0
            for k in first...last {
                let x0 = Double(17 + 17 * k) / width, x1 = Double(34 + 17 * k) / width
                let e0 = h.map(x0, t), e1 = h.map(x1, t)
                let pe = Float(((e0.x - origin.x) * ux + (e0.y - origin.y) * uy) / step) + drift
                let mk = Float(e0.distance(to: e1) / 17 / step)
                let known = retry && words[k] >= 0 && words[k] & PDF417Reader.softRead == 0
                // The bar edge nearest the expected place.
                while i + 2 < count && abs(s[i + 2] - pe) <= abs(s[i] - pe) { i += 2 }
                if known { continue }
                guard i + 8 <= count, abs(s[i] - pe) <= 2 * mk else { unsure += 1; continue }
                var sum: Float = 0
                for j in 0..<8 { sum += w[i + j] }
                guard sum > 14 * mk, sum < 20 * mk else { unsure += 1; continue }
                var read = PDF417Codewords.decode(w + i)
                var soft: Int32 = 0
                if cluster >= 0, read?.cluster != cluster, let v = PDF417Codewords.nearest(w + i, cluster: cluster) {
                    read = (cluster, v)
                    soft = PDF417Reader.softRead
                }
                if let d = read {
                    if soft != 0 { unsure += 1 }
                    if soft == 0 || words[k] < 0 {
                        words[k] = Int32(d.cluster << 12 | d.value) | soft | retried
                        positions?[k] = line.point(at: Double(s[i]))
                    }
                    drift = s[i] - (pe - drift)
                } else {
                    unsure += 1
                }
            }
            return unsure
        }
        if indicatorsOnly && perLine > 2 {
            // The left row indicator with the start pattern before it, half
            // a codeword of margin after; the right one likewise.
            window(-3 * m0, p0.distance(to: h.map(min(1, 42.5 / width), t)), 0, 0)
            if rightIndicator {
                let k = perLine - 1
                window(p0.distance(to: h.map(max(0, (Double(17 + 17 * k) - 8.5) / width), t)), length + 3 * m1, k, k)
            }
        } else {
            window(-3 * m0, length + 3 * m1, 0, perLine - 1)
        }
    }

    /// How the rows lie: their number, the error correction level, and
    /// row = a + b t for the line at height t.
    private struct Layout {
        var rows: Int
        var ecLevel: Int
        var a: Double
        var b: Double
        /// The rows run upwards: a mirror image.
        var mirrored: Bool { b < 0 }
    }

    private enum IndicatorReading {
        case layout(Layout)
        case columns(Int)
        case failed
    }

    /// Reads the row indicators of the evenly spread lines (ISO/IEC
    /// 15438:2015, 5.3.4: the left and right row indicators give the row
    /// number, the number of rows and columns and the error correction
    /// level) and fits the row number against the lines' height.
    private func indicators(lineCount: Int, columns: Int, compact: Bool, lenient: Bool) -> IndicatorReading {
        let perLine = columns + (compact ? 1 : 2)
        var rowsDiv3 = [Int](repeating: 0, count: 30), info = [Int](repeating: 0, count: 30)
        var cols = [Int](repeating: 0, count: 30)
        var sumT = 0.0, sumR = 0.0, sumTT = 0.0, sumTR = 0.0, known = 0.0
        var rowOfLine = [Int](repeating: -1, count: lineCount)
        for l in 0..<lineCount {
            let words = lineWords.pointer + l * perLine
            var row = -1, sides = 0, retriedSides = 0
            var fields: [(slot: Int, x: Int)] = []
            for (k, left) in compact ? [(0, true)] : [(0, true), (perLine - 1, false)] {
                let v = words[k]
                guard v >= 0 else { continue }
                let cluster = Int(v >> 12 & 3), value = Int(v & 0xFFF)
                if v & PDF417Reader.retriedRead != 0 { retriedSides += 1 }
                guard value < 900 else { continue }
                let r = 3 * (value / 30) + cluster
                // Left: (rows - 1) / 3, level and rows, columns; right: columns, (rows - 1) / 3, level and rows.
                fields.append(((cluster + (left ? 0 : 2)) % 3, value % 30))
                sides += 1
                if row == -1 { row = r } else if row != r { row = -2 }
            }
            // A line whose two indicators name different rows votes for
            // nothing; one whose two agree counts twice; one read only by
            // the retries for noise counts when the other agrees (or when
            // `lenient`, the last resort).
            let trusted = row >= 0 && (sides == 2 || retriedSides == 0 || lenient)
            if trusted {
                for f in fields {
                    switch f.slot {
                    case 0: rowsDiv3[f.x] += sides
                    case 1: info[f.x] += sides
                    default: cols[f.x] += sides
                    }
                }
            }
            if trusted {
                rowOfLine[l] = row
                let t = lineT[l]
                sumT += t; sumR += Double(row); sumTT += t * t; sumTR += t * Double(row); known += 1
            }
        }
        func argmax(_ a: [Int]) -> Int? {
            var b = 0
            for k in 1..<a.count where a[k] > a[b] { b = k }
            return a[b] > 0 ? b : nil
        }
        guard let rd = argmax(rowsDiv3), let inf = argmax(info), let cm = argmax(cols) else { return .failed }
        let rows = 3 * rd + inf % 3 + 1, ecLevel = inf / 3
        guard cm + 1 == columns else { return .columns(cm + 1) }
        guard rows >= 3, rows <= 90, ecLevel <= 8, known >= 2 else { return .failed }
        var den = known * sumTT - sumT * sumT
        guard abs(den) > 1e-12 else { return .failed }
        var b = (known * sumTR - sumT * sumR) / den, a = (sumR - b * sumT) / known
        // Again without the lines more than a row off the first fit (misread indicators).
        sumT = 0; sumR = 0; sumTT = 0; sumTR = 0; known = 0
        for l in 0..<lineCount where rowOfLine[l] >= 0 {
            let t = lineT[l], r = Double(rowOfLine[l])
            guard abs(a + b * t - r) <= 1 else { continue }
            sumT += t; sumR += r; sumTT += t * t; sumTR += t * r; known += 1
        }
        den = known * sumTT - sumT * sumT
        if known >= 2, abs(den) > 1e-12 {
            b = (known * sumTR - sumT * sumR) / den; a = (sumR - b * sumT) / known
        }
        guard abs(b) > 1 else { return .failed }
        // The rows evenly spread between the traced top and bottom, unless
        // the fit agrees better with the row indicators.
        let bg = b > 0 ? Double(rows) : -Double(rows), ag = b > 0 ? -0.5 : Double(rows) - 0.5
        var fitted = 0, even = 0
        for l in 0..<lineCount where rowOfLine[l] >= 0 {
            let t = lineT[l], r = Double(rowOfLine[l])
            if abs(a + b * t - r) < 0.5 { fitted += 1 }
            if abs(ag + bg * t - r) < 0.5 { even += 1 }
        }
        if even >= fitted { return .layout(Layout(rows: rows, ecLevel: ecLevel, a: ag, b: bg)) }
        return .layout(Layout(rows: rows, ecLevel: ecLevel, a: a, b: b))
    }

    /// The result of a decoded symbol.
    static func result(_ s: PDF417Symbol) -> BarcodeResult {
        result(s.decoded, .pdf417, corners: s.corners, inverted: s.inverted, mirrored: s.mirrored)
    }

    /// The result of a decoded PDF417 or MicroPDF417 symbol with these corners.
    static func result(
        _ d: PDF417DecodeResult, _ symbology: Symbology, corners c: [Point], inverted: Bool,
        mirrored: Bool
    ) -> BarcodeResult {
        let deg = BarcodeResult.degrees(dx: c[1].x - c[0].x, dy: c[1].y - c[0].y)
        var r = BarcodeResult(
            symbology: symbology, text: d.text, bytes: d.bytes, symbologyIdentifier: d.symbologyIdentifier,
            corners: c, orientation: deg, isInverted: inverted, isMirrored: mirrored,
            quality: max(0, 100 - 5 * d.correctedErrors))
        if let m = d.macro {
            r.structuredAppend = StructuredAppend(
                index: m.segmentIndex, total: m.segmentCount, id: m.fileID,
                isLast: m.isLast)
        }
        return r
    }
}

extension PDF417Reader: MatrixReader {
    /// ``read(_:bounds:thorough:across:lines:cells:into:)`` of the search,
    /// along the search lines of every direction.
    func read(_ search: MatrixSearch, into out: inout [BarcodeResult]) {
        read(search.image, bounds: search.bounds, thorough: search.thorough, cells: search.cells, into: &out)
    }
}
