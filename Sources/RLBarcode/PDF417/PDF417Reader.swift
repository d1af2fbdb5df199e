#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A PDF417 symbol located in a frame, sampled and decoded.
struct PDF417Symbol {
    /// The code's own corners: top-left, top-right, bottom-right, bottom-left.
    var corners: [Point]
    var decoded: PDF417DecodeResult
    var rows: Int
    var columns: Int
    var inverted: Bool
    var mirrored: Bool
}

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
    private var edges = EdgeExtractor()
    private var run = ElementRun()
    private var profile = ScratchBuffer<Float>(capacity: 4096)
    /// The codewords read on each sampled line (cluster index << 12 | value, or -1).
    private var lineWords = ScratchBuffer<Int32>(capacity: 4096)
    /// The position of each sampled line down the symbol, 0 ... 1.
    private var lineT = ScratchBuffer<Double>(capacity: 512)

    init() {}

    deinit { detector.free(); edges.free(); run.free(); profile.free(); lineWords.free(); lineT.free() }

    /// How many start/stop pattern pairs the last read tried.
    private(set) var lastCandidateCount = 0

    /// Finds and decodes the PDF417 symbols inside `bounds` (the whole
    /// frame when nil) and appends them to `out`. With `thorough` (still
    /// pictures) the pattern search lines are two pixels apart, else four.
    func read(_ image: LumaView, bounds: PixelRect?, thorough: Bool, into out: inout [BarcodeResult]) {
        for s in symbols(image, bounds: bounds, thorough: thorough) {
            let r = PDF417Reader.result(s)
            if out.contains(where: { $0.isSameCode(as: r) }) { continue }
            out.append(r)
        }
    }

    /// The symbols found inside `bounds`.
    func symbols(_ image: LumaView, bounds: PixelRect?, thorough: Bool) -> [PDF417Symbol] {
        lastCandidateCount = 0
        guard image.width >= 16, image.height >= 8 else { return [] }
        let frame = bounds ?? PixelRect(x0: 0, y0: 0, x1: image.width, y1: image.height)
        let found = detector.find(image, bounds: frame, step: thorough ? 2 : 4)
        let starts = found.filter(\.isStart).sorted { $0.hits > $1.hits }
        let stops = found.filter { !$0.isStart }
        if debugPDF417 { for e in found { print("edge", e) } }
        var symbols: [PDF417Symbol] = []
        for s in starts {
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
                      (dx * s.ux + dy * s.uy) / distance > 0.7, (dx * p.ux + dy * p.uy) / distance > 0.7 else { continue }
                // Top pairs with top and bottom with bottom: the symbol's top
                // and bottom edges run along the rows.
                let tx = p.top.x - s.top.x, ty = p.top.y - s.top.y
                let bx = p.bottom.x - s.bottom.x, by = p.bottom.y - s.bottom.y
                let tl = (tx * tx + ty * ty).squareRoot(), bl = (bx * bx + by * by).squareRoot()
                guard tl > 0, bl > 0, tl / bl > 0.5, tl / bl < 2,
                      (tx * s.ux + ty * s.uy) / tl > 0.6, (bx * s.ux + by * s.uy) / bl > 0.6,
                      (tx * p.ux + ty * p.uy) / tl > 0.6, (bx * p.ux + by * p.uy) / bl > 0.6 else { continue }
                let along = distance
                if along < bestAlong { bestAlong = along; best = p }
            }
            guard let p = best else { continue }
            // Each symbol once: skip pairs inside one already read.
            if symbols.contains(where: { PDF417Reader.contains($0.corners, sc) }) { continue }
            lastCandidateCount += 1
            if let symbol = decode(image, start: s, stop: p) { symbols.append(symbol) }
        }
        return symbols
    }

    /// Whether `p` lies inside the quadrilateral `c`.
    private static func contains(_ c: [Point], _ p: Point) -> Bool {
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
        var columns = Int(((modules - 69) / 17).rounded())
        guard columns >= 1, columns <= 30 else { return nil }
        // A second sampling when the row indicators give another column count.
        for _ in 0..<2 {
            switch sample(image, corners, columns: columns, inverted: s.inverted) {
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
    /// with `columns` data columns.
    private func sample(_ image: LumaView, _ c: [Point], columns: Int, inverted: Bool) -> Sampling {
        let width = Double(17 * columns + 69)
        let h = PerspectiveTransform.squareToQuadrilateral(c[0], c[1], c[2], c[3])
        let height = max(c[0].distance(to: c[3]), c[1].distance(to: c[2]))
        let lineCount = max(9, min(2000, Int(height / 0.7)))
        let perLine = columns + 2
        lineWords.reserve(lineCount * perLine)
        lineT.reserve(lineCount)
        for l in 0..<lineCount {
            let t = (Double(l) + 0.5) / Double(lineCount)
            lineT[l] = t
            readLine(image, h, t: t, width: width, columns: columns, inverted: inverted,
                     into: lineWords.pointer + l * perLine)
        }
        return assemble(lineCount: lineCount, columns: columns, corners: c, inverted: inverted)
    }

    /// Samples the line at height `t` (0 ... 1) across the symbol and
    /// decodes each codeword at the place the transform expects it, from
    /// the bar edge nearest to that place.
    private func readLine(_ image: LumaView, _ h: PerspectiveTransform, t: Double, width: Double, columns: Int,
                          inverted: Bool, into words: UnsafeMutablePointer<Int32>) {
        let perLine = columns + 2
        for k in 0..<perLine { words[k] = -1 }
        let p0 = h.map(0, t), p1 = h.map(1, t)
        let length = p0.distance(to: p1)
        guard length > 10 else { return }
        let ux = (p1.x - p0.x) / length, uy = (p1.y - p0.y) / length
        let m0 = p0.distance(to: h.map(17 / width, t)) / 17
        let m1 = p1.distance(to: h.map(1 - 18 / width, t)) / 18
        let step = min(1, max(0.25, min(m0, m1) / 3))
        let origin = Point(x: p0.x - 3 * m0 * ux, y: p0.y - 3 * m0 * uy)
        let total = length + 3 * m0 + 3 * m1
        let n = Int(total / step)
        guard n >= 20 else { return }
        let line = ScanLine(origin: origin, dx: ux * step, dy: uy * step, length: n)
        profile.reserve(n)
        image.sample(line, thickness: 1, into: profile.pointer)
        edges.extract(profile.pointer, count: n, relative: 0.1, floor: 2)
        guard edges.edgeCount >= 16 else { return }
        run.fill(from: edges, lineLength: n, inverted: inverted)
        let count = run.count
        let w = run.widths.pointer, s = run.starts.pointer
        var i = 1
        for k in 0..<perLine {
            let x0 = Double(17 + 17 * k) / width, x1 = Double(34 + 17 * k) / width
            let e0 = h.map(x0, t), e1 = h.map(x1, t)
            let pe = Float(((e0.x - origin.x) * ux + (e0.y - origin.y) * uy) / step)
            let mk = Float(e0.distance(to: e1) / 17 / step)
            // The bar edge nearest the expected place.
            while i + 2 < count && abs(s[i + 2] - pe) <= abs(s[i] - pe) { i += 2 }
            guard i + 8 <= count, abs(s[i] - pe) <= 2 * mk else { continue }
            var sum: Float = 0
            for j in 0..<8 { sum += w[i + j] }
            guard sum > 14 * mk, sum < 20 * mk else { continue }
            if let d = PDF417Codewords.decode(w + i) {
                words[k] = Int32(d.cluster << 12 | d.value)
            }
        }
    }

    /// Places the codewords of the sampled lines in their rows (row
    /// indicators first, then the line's height and cluster), votes per
    /// cell, and corrects and decodes the matrix (ISO/IEC 15438:2015,
    /// 5.3.4: the left and right row indicators give the row number, the
    /// number of rows and columns and the error correction level).
    private func assemble(lineCount: Int, columns: Int, corners c: [Point], inverted: Bool) -> Sampling {
        let perLine = columns + 2
        var rowsDiv3 = [Int](repeating: 0, count: 30), info = [Int](repeating: 0, count: 30)
        var cols = [Int](repeating: 0, count: 30)
        var lineCluster = [Int](repeating: -1, count: lineCount)
        var lineRow = [Int](repeating: -1, count: lineCount)
        var sumT = 0.0, sumR = 0.0, sumTT = 0.0, sumTR = 0.0, known = 0.0
        for l in 0..<lineCount {
            let words = lineWords.pointer + l * perLine
            var counts = (0, 0, 0)
            for k in 0..<perLine where words[k] >= 0 {
                switch words[k] >> 12 { case 0: counts.0 += 1; case 1: counts.1 += 1; default: counts.2 += 1 }
            }
            let best = max(counts.0, counts.1, counts.2)
            guard best >= 1 else { continue }
            let cluster = counts.0 == best ? 0 : counts.1 == best ? 1 : 2
            let ties = (counts.0 == best ? 1 : 0) + (counts.1 == best ? 1 : 0) + (counts.2 == best ? 1 : 0)
            guard ties == 1 else { continue }
            lineCluster[l] = cluster
            var row = -1
            for (k, left) in [(0, true), (perLine - 1, false)] {
                let v = words[k]
                guard v >= 0, Int(v >> 12) == cluster else { continue }
                let value = Int(v & 0xFFF)
                guard value < 900 else { continue }
                let r = 3 * (value / 30) + cluster, x = value % 30
                // Left: (rows - 1) / 3, level and rows, columns; right: columns, (rows - 1) / 3, level and rows.
                switch (cluster + (left ? 0 : 2)) % 3 {
                case 0: rowsDiv3[x] += 1
                case 1: info[x] += 1
                default: cols[x] += 1
                }
                if row < 0 { row = r } else if row != r { row = -2 }
            }
            if row >= 0 {
                lineRow[l] = row
                let t = lineT[l]
                sumT += t; sumR += Double(row); sumTT += t * t; sumTR += t * Double(row); known += 1
            }
        }
        func argmax(_ a: [Int]) -> Int? {
            var b = 0
            for k in 1..<a.count where a[k] > a[b] { b = k }
            return a[b] > 0 ? b : nil
        }
        if debugPDF417 { print("indicators", rowsDiv3, info, cols, "columns", columns, "lines", lineCount) }
        guard let rd = argmax(rowsDiv3), let inf = argmax(info), let cm = argmax(cols) else { return .failed }
        let rows = 3 * rd + inf % 3 + 1, ecLevel = inf / 3
        guard cm + 1 == columns else { return .columns(cm + 1) }
        guard rows >= 3, rows <= 90, ecLevel <= 8, known >= 2 else { return .failed }
        // Row as a function of the line's height: row = a + b t.
        let den = known * sumTT - sumT * sumT
        guard abs(den) > 1e-12 else { return .failed }
        let b = (known * sumTR - sumT * sumR) / den, a = (sumR - b * sumT) / known
        let mirrored = b < 0
        // Votes per cell: up to four candidate values and their counts.
        let cells = rows * columns
        var candidates = [Int32](repeating: -1, count: cells * 4), votes = [Int32](repeating: 0, count: cells * 4)
        for l in 0..<lineCount {
            let cluster = lineCluster[l]
            guard cluster >= 0 else { continue }
            let estimate = a + b * lineT[l]
            var row = lineRow[l]
            if row < 0 || abs(Double(row) - estimate) > 2 {
                // The nearest row of the line's cluster.
                var r = -1
                for q in (Int(estimate.rounded(.down)) - 2)...(Int(estimate.rounded(.down)) + 3)
                where q >= 0 && q % 3 == cluster && (r < 0 || abs(Double(q) - estimate) < abs(Double(r) - estimate)) {
                    r = q
                }
                guard r >= 0, abs(Double(r) - estimate) <= 1.5 else { continue }
                row = r
            }
            guard row >= 0, row < rows, row % 3 == cluster else { continue }
            let words = lineWords.pointer + l * perLine
            for j in 0..<columns {
                let v = words[j + 1]
                guard v >= 0, Int(v >> 12) == cluster else { continue }
                let value = v & 0xFFF
                let base = (row * columns + j) * 4
                var placed = false
                for q in 0..<4 where candidates[base + q] == value {
                    votes[base + q] += 1; placed = true; break
                }
                if placed { continue }
                var weakest = 0
                for q in 1..<4 where votes[base + q] < votes[base + weakest] { weakest = q }
                if votes[base + weakest] <= 0 || candidates[base + weakest] < 0 {
                    candidates[base + weakest] = value; votes[base + weakest] = 1
                }
            }
        }
        var words = [Int](repeating: -1, count: cells)
        for cell in 0..<cells {
            var best = -1, count: Int32 = 0
            for q in 0..<4 where votes[cell * 4 + q] > count { count = votes[cell * 4 + q]; best = Int(candidates[cell * 4 + q]) }
            words[cell] = best
        }
        if debugPDF417 { print("rows", rows, "ec", ecLevel, "erasures", words.filter { $0 < 0 }.count, "of", cells) }
        guard let decoded = PDF417Decoder.decode(words, ecLevel: ecLevel) else { return .failed }
        let corners = mirrored ? [c[3], c[2], c[1], c[0]] : c
        return .symbol(PDF417Symbol(corners: corners, decoded: decoded, rows: rows, columns: columns,
                                    inverted: inverted, mirrored: mirrored))
    }

    /// The result of a decoded symbol.
    static func result(_ s: PDF417Symbol) -> BarcodeResult {
        let c = s.corners
        var deg = Int((atan2(c[1].y - c[0].y, c[1].x - c[0].x) * 180 / Double.pi).rounded())
        deg = ((deg % 360) + 360) % 360
        let d = s.decoded
        var r = BarcodeResult(symbology: .pdf417, text: d.text, bytes: d.bytes, symbologyIdentifier: d.symbologyIdentifier,
                              corners: c, orientation: deg, isInverted: s.inverted, isMirrored: s.mirrored,
                              quality: max(0, 100 - 5 * d.correctedErrors))
        if let m = d.macro {
            r.structuredAppend = StructuredAppend(index: m.segmentIndex, total: m.segmentCount, id: m.fileID,
                                                  isLast: m.isLast)
        }
        return r
    }
}

nonisolated(unsafe) var debugPDF417 = false
