#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Three finder patterns that may form one symbol, with how well they fit.
struct QRFinderTriple {
    var topLeft: Int32
    var topRight: Int32
    var bottomLeft: Int32
    /// Lower is better.
    var score: Double
}

extension QRDetector {
    // MARK: - Grouping

    /// Groups the finder patterns into symbols and samples each.
    ///
    /// Three patterns make a symbol when their module sizes agree, the
    /// angle at the corner pattern is near a right angle and the two legs
    /// are of similar length (ISO/IEC 18004:2015, Annex reference decode
    /// algorithm, steps on finder pattern grouping). Triples are tried best
    /// first; a pattern joins one symbol at most.
    func groupFinders(_ img: LumaView, into out: inout [QRCandidate]) {
        let n = finderCount
        guard n >= 3 else { return }
        var tripleCount = 0
        let f = finders.pointer
        for i in 0..<(n - 2) {
            for j in (i + 1)..<(n - 1) where f[j].inverted == f[i].inverted {
                for k in (j + 1)..<n where f[k].inverted == f[i].inverted {
                    // Under strong perspective (still pictures) the two
                    // longest sides can be nearly as long: either may be the
                    // diagonal.
                    for second in 0..<(options.rescueFailedSymbols ? 2 : 1) {
                        guard
                            let t = QRDetector.triple(
                                f, i, j, k, relaxed: options.rescueFailedSymbols,
                                secondLongest: second == 1)
                        else { continue }
                        triples.reserveKeeping(tripleCount + 1)
                        triples[tripleCount] = t
                        tripleCount += 1
                    }
                }
            }
        }
        // Best first (insertion sort: the lists are short).
        let tp = triples.pointer
        if tripleCount > 1 {
            for a in 1..<tripleCount {
                let t = tp[a]
                var b = a - 1
                while b >= 0 && tp[b].score > t.score { tp[b + 1] = tp[b]; b -= 1 }
                tp[b + 1] = t
            }
        }
        var attempts = 0
        for a in 0..<tripleCount {
            let t = tp[a]
            if attempts == options.maxAttempts || stop.now { break }
            let tl = Int(t.topLeft), tr = Int(t.topRight), bl = Int(t.bottomLeft)
            if f[tl].used || f[tr].used || f[bl].used { continue }
            attempts += 1
            for k in 0..<3 {
                let i = k == 0 ? tl : k == 1 ? tr : bl
                if f[i].quadMeasured { continue }
                f[i].quad = finderCorners(img, f[i])
                f[i].quadMeasured = true
            }
            if let c = fitSymbol(img, f[tl], f[tr], f[bl]) {
                // On still pictures the patterns of a symbol that did not
                // decode stay free for other triples (other roles).
                if c.decoded != nil || !options.rescueFailedSymbols {
                    f[tl].used = true; f[tr].used = true; f[bl].used = true
                }
                out.append(c)
            }
        }
    }

    /// Whether finders `i`, `j`, `k` can be the corners of one symbol, and
    /// in which roles. `relaxed` (still pictures) admits stronger
    /// perspective: module sizes up to 2.2 times apart, legs up to twice as
    /// long as each other, corners further from square; the decoder's
    /// Reed-Solomon check rejects the wrong triples this lets through.
    /// With `secondLongest`, the side second in length is taken for the
    /// diagonal, when it is within a tenth of the longest.
    static func triple(
        _ f: UnsafeMutablePointer<QRFinder>, _ i: Int, _ j: Int, _ k: Int,
        relaxed: Bool = false, secondLongest: Bool = false
    ) -> QRFinderTriple? {
        let mMin = min(f[i].module, f[j].module, f[k].module), mMax = max(f[i].module, f[j].module, f[k].module)
        guard mMax <= (relaxed ? 2.2 : 1.7) * mMin else { return nil }
        func d2(_ a: Int, _ b: Int) -> Double {
            let dx = f[a].x - f[b].x, dy = f[a].y - f[b].y
            return dx * dx + dy * dy
        }
        let ij = d2(i, j), ik = d2(i, k), jk = d2(j, k)
        // The corner is opposite the longest side (the diagonal).
        var corner = i, p = j, q = k
        if secondLongest {
            // Sides by length, longest first (on a tie, in this order): the
            // second longest, if nearly the longest.
            var s0 = (ij, k, i, j), s1 = (ik, j, i, k), s2 = (jk, i, j, k)
            if s1.0 > s0.0 { swap(&s0, &s1) }
            if s2.0 > s1.0 {
                swap(&s1, &s2)
                if s1.0 > s0.0 { swap(&s0, &s1) }
            }
            guard s1.0 >= 0.81 * s0.0 else { return nil }  // lengths within 10%
            (corner, p, q) = (s1.1, s1.2, s1.3)
        } else if ij >= ik && ij >= jk {
            corner = k; p = i; q = j
        } else if ik >= ij && ik >= jk {
            corner = j; p = i; q = k
        }
        let ax = f[p].x - f[corner].x, ay = f[p].y - f[corner].y
        let bx = f[q].x - f[corner].x, by = f[q].y - f[corner].y
        let la = (ax * ax + ay * ay).squareRoot(), lb = (bx * bx + by * by).squareRoot()
        guard la > 0, lb > 0 else { return nil }
        let legRatio = max(la, lb) / min(la, lb)
        guard legRatio < (relaxed ? 2.0 : 1.6) else { return nil }
        let cosine = (ax * bx + ay * by) / (la * lb)
        guard abs(cosine) < (relaxed ? 0.5 : 0.35) else { return nil }
        let m = (f[i].module + f[j].module + f[k].module) / 3
        let legModules = (la + lb) / 2 / m
        guard legModules >= 9.5, legModules <= 175 else { return nil }
        let cross = ax * by - ay * bx
        let (tr, bl) = cross > 0 ? (p, q) : (q, p)
        let score = abs(cosine) + (legRatio - 1) + (mMax / mMin - 1)
        return QRFinderTriple(topLeft: Int32(corner), topRight: Int32(tr), bottomLeft: Int32(bl), score: score)
    }

    // MARK: - Symbol geometry

    /// The nearest valid QR Code size (21, 25, ..., 177) to `modules`.
    static func nearestQRSize(_ modules: Double) -> Int {
        let v = ((modules - 17) / 4).rounded()
        return 17 + 4 * Int(min(max(v, 1), 40))
    }

    /// Samples the symbol whose finder patterns are `tl`, `tr` and `bl`.
    ///
    /// The size comes from the finder distances over the module size along
    /// each axis, confirmed by counting the modules of both timing patterns
    /// (ISO/IEC 18004:2015, 6.3.5); when the two counts do not agree, the
    /// neighbouring sizes are sampled too and the one whose timing pattern
    /// reads best is kept.
    func fitSymbol(_ img: LumaView, _ tl: QRFinder, _ tr: QRFinder, _ bl: QRFinder) -> QRCandidate? {
        let inverted = tl.inverted
        let pTL = tl.centre, pTR = tr.centre, pBL = bl.centre
        let lx = pTL.distance(to: pTR), ly = pTL.distance(to: pBL)
        let ux = (pTR.x - pTL.x) / lx, uy = (pTR.y - pTL.y) / lx
        let vx = (pBL.x - pTL.x) / ly, vy = (pBL.y - pTL.y) / ly
        let reach = 6 * max(tl.module, tr.module, bl.module)
        // Module size along each axis: each pattern is 7 modules wide.
        var sx = 0.0, nx = 0, sy = 0.0, ny = 0
        func across(_ f: QRFinder, _ dx: Double, _ dy: Double) -> Double? {
            let p = f.centre
            let a = finderEdge(img, from: p, ux: dx, uy: dy, inverted: inverted, maxDistance: reach)
            let b = finderEdge(img, from: p, ux: -dx, uy: -dy, inverted: inverted, maxDistance: reach)
            // An outer ring merged with dark surroundings (no quiet zone)
            // shows no outer edge on that side: the other side twice.
            switch (a, b) {
            case let (a?, b?): return (a + b) / 7
            case let (a?, nil) where f.merged: return 2 * a / 7
            case let (nil, b?) where f.merged: return 2 * b / 7
            default: return nil
            }
        }
        // Per pattern, along u and along v (they differ under perspective).
        let tlu = across(tl, ux, uy), tru = across(tr, ux, uy), tlv = across(tl, vx, vy), blv = across(bl, vx, vy)
        if let m = tlu { sx += m; nx += 1 }
        if let m = tru { sx += m; nx += 1 }
        if let m = tlv { sy += m; ny += 1 }
        if let m = blv { sy += m; ny += 1 }
        guard nx > 0, ny > 0 else { trace?("no module size across the finder patterns"); return nil }
        let mx = sx / Double(nx), my = sy / Double(ny)
        let trv = across(tr, vx, vy) ?? my, blu = across(bl, ux, uy) ?? mx
        let estimate = (lx / mx + ly / my) / 2 + 7
        guard estimate >= 17, estimate <= 185 else { trace?("size estimate \(estimate) out of range"); return nil }
        let d0 = QRDetector.nearestQRSize(estimate)
        // Cheap first: the three finder patterns and their separators must
        // show through a grid spanned by their centres.
        var rings = RingCount()
        countRings(
            img, pTL, tlu ?? mx, tlv ?? my, ux: ux, uy: uy, vx: vx, vy: vy, inverted: inverted,
            outerU: -1, outerV: -1, merged: tl.merged, into: &rings)
        countRings(
            img, pTR, tru ?? mx, trv, ux: ux, uy: uy, vx: vx, vy: vy, inverted: inverted,
            outerU: 1, outerV: -1, merged: tr.merged, into: &rings)
        countRings(
            img, pBL, blu, blv ?? my, ux: ux, uy: uy, vx: vx, vy: vy, inverted: inverted,
            outerU: -1, outerV: 1, merged: bl.merged, into: &rings)
        // Still pictures admit more perspective, which the affine grid of
        // the three centres follows less well. (Of the 3 x 81 modules
        // counted, 64 for a merged pattern, most must lie in the frame.)
        let ringShare = options.rescueFailedSymbols ? 0.6 : 0.8
        let mergedCount = (tl.merged ? 1 : 0) + (tr.merged ? 1 : 0) + (bl.merged ? 1 : 0)
        guard rings.total > 150 - 11 * mergedCount && Double(rings.good) >= ringShare * Double(rings.total) else {
            trace?("finder rings \(rings.good) of \(rings.total) at size \(d0)")
            return nil
        }

        // Timing patterns: row 6 and column 6 between the finder patterns.
        let s0 = Double(d0 - 7)
        let ax = (pTR.x - pTL.x) / s0, ay = (pTR.y - pTL.y) / s0
        let bx = (pBL.x - pTL.x) / s0, by = (pBL.y - pTL.y) / s0
        let module = (mx + my) / 2
        let rowStart = Point(x: pTL.x + 3 * ax + 3 * bx, y: pTL.y + 3 * ay + 3 * by)
        let rowEnd = Point(x: pTR.x - 3 * ax + 3 * bx, y: pTR.y - 3 * ay + 3 * by)
        let colEnd = Point(x: pBL.x + 3 * ax - 3 * bx, y: pBL.y + 3 * ay - 3 * by)
        let dRow = countRuns(img, from: rowStart, to: rowEnd, module: mx, inverted: inverted) + 12
        let dCol = countRuns(img, from: rowStart, to: colEnd, module: my, inverted: inverted) + 12
        func valid(_ d: Int) -> Bool { d >= 21 && d <= 177 && d % 4 == 1 && abs(Double(d) - estimate) <= 8 }

        var sizes: (Int, Int, Int, Int) = (0, 0, 0, 0)
        var sizeCount = 0
        func add(_ d: Int) {
            guard d >= 21, d <= 177, d % 4 == 1 else { return }
            if sizeCount > 0 && sizes.0 == d || sizeCount > 1 && sizes.1 == d || sizeCount > 2 && sizes.2 == d {
                return
            }
            switch sizeCount {
            case 0: sizes.0 = d
            case 1: sizes.1 = d
            case 2: sizes.2 = d
            case 3: sizes.3 = d
            default: return
            }
            sizeCount += 1
        }
        let confirmed = dRow == dCol && valid(dRow)
        if confirmed {
            add(dRow)
        } else {
            if valid(dRow) { add(dRow) }
            if valid(dCol) { add(dCol) }
            add(d0)
            add(estimate > Double(d0) ? d0 + 4 : d0 - 4)
            add(estimate > Double(d0) ? d0 - 4 : d0 + 4)
        }
        let outline = symbolOutline(img, tl, tr, bl, ux: ux, uy: uy, vx: vx, vy: vy)
        // Sample each size; keep the one whose function patterns read best.
        var best: QRCandidate? = nil
        var bestScore = -1.0
        var others: [(BitMatrix, Double)] = []
        func fit(size s: Int) {
            let d = s == 0 ? sizes.0 : s == 1 ? sizes.1 : s == 2 ? sizes.2 : sizes.3
            // With the timing patterns' boundaries in the grid fit, and
            // without (they mislead it on a bent symbol): the better reading wins.
            for timing in [true, false] where outline != nil || !timing {
                guard
                    let (matrix, corners) = sampleQR(
                        img, pTL, pTR, pBL, outline: outline, size: d, timing: timing,
                        inverted: inverted)
                else {
                    trace?("size \(d) reaches out of the frame")
                    continue
                }
                let agreement = QRDetector.functionAgreement(matrix)
                guard agreement.finder >= 0.7, agreement.timing >= 0.6 else {
                    trace?(
                        "size \(d): finder patterns \(agreement.finder), timing \(agreement.timing), outline \(outline != nil)"
                    )
                    continue
                }
                let score = agreement.finder + 2 * agreement.timing
                let candidate = QRCandidate(
                    matrix: matrix, topLeft: corners.0, topRight: corners.1,
                    bottomRight: corners.2, bottomLeft: corners.3,
                    moduleSize: module, isInverted: inverted, isMicro: false,
                    sizeConfirmed: confirmed, alternatives: [])
                if score > bestScore {
                    if let b = best, b.matrix.width != d { others.append((b.matrix, bestScore)) }
                    best = candidate; bestScore = score
                } else if best?.matrix.width != d && !others.contains(where: { $0.0.width == d }) {
                    others.append((matrix, score))
                }
                if score >= 2.97 { break }  // nothing to gain from the other fit
            }
        }
        // A size whose finder and timing patterns all read right (the
        // highest score, 3) stays the best whatever the other sizes read:
        // they are sampled only when it does not decode, as the
        // alternatives to try next.
        var sampled = 0
        while sampled < sizeCount && bestScore < 3 {
            fit(size: sampled)
            sampled += 1
        }
        guard best != nil else { return nil }
        let early = sampled < sizeCount ? best.flatMap { QRDecoder.decode($0.matrix) } : nil
        while early == nil && sampled < sizeCount {
            fit(size: sampled)
            sampled += 1
        }
        guard var result = best else { return nil }
        if !others.isEmpty {
            others.sort { $0.1 > $1.1 }
            result.alternatives = others.map { $0.0 }
        }
        // A symbol found whose readings all fail Reed-Solomon decoding is
        // sampled again in other ways before it is given up (in video
        // frames, the first few of a scan).
        if let d = early ?? QRDetector.decodeFirst(result) {
            result.decoded = d
        } else if resampleModel1(img, pTL, pTR, pBL, outline: outline, inverted: inverted, into: &result) {
            // A Model 1 symbol, read without the alignment pattern.
        } else if options.rescueFailedSymbols || resamplesLeft > 0 {
            if !options.rescueFailedSymbols { resamplesLeft -= 1 }
            rescue(
                img, pTL, pTR, pBL, outline: outline, sizes: [result.matrix.width] + result.alternatives.map(\.width),
                inverted: inverted, into: &result)
        }
        result.decodeTried = true
        return result
    }

    /// The first of a candidate's matrices (``QRCandidate/matrix``, then
    /// its ``QRCandidate/alternatives``) that decodes.
    static func decodeFirst(_ c: QRCandidate) -> QRDecodeResult? {
        if let d = QRDecoder.decode(c.matrix) { return d }
        for m in c.alternatives {
            if let d = QRDecoder.decode(m) { return d }
        }
        return nil
    }

    /// Samples a QR Code symbol that was found but did not decode again:
    /// for each of the first two `sizes`, with both grid fits (with and
    /// without the timing patterns' boundaries, ISO/IEC 18004:2015, 6.3.5)
    /// and with each ``SampleRule``; the first matrix whose function
    /// patterns read well and that decodes (its Reed-Solomon check, 7.5,
    /// passing) goes into `candidate`, with its corners. Runs only on
    /// symbols whose readings failed, never on frames without symbols.
    func rescue(
        _ img: LumaView, _ pTL: Point, _ pTR: Point, _ pBL: Point, outline: Outline?, sizes: [Int],
        inverted: Bool, into candidate: inout QRCandidate
    ) {
        var tried: [Int] = []
        for d in sizes where !tried.contains(d) && tried.count < 2 {
            tried.append(d)
            for (rule, bend) in [
                (SampleRule.moduleScale, false), (.plain, false), (.pixelBlocks, false),
                (.moduleScale, true), (.plain, true)
            ] {
                for timing in [true, false] where outline != nil || !timing {
                    guard
                        let (matrix, corners) = sampleQR(
                            img, pTL, pTR, pBL, outline: outline, size: d, timing: timing,
                            inverted: inverted, rule: rule, bend: bend)
                    else { continue }
                    let agreement = QRDetector.functionAgreement(matrix)
                    guard agreement.finder >= 0.7, agreement.timing >= 0.6 else { continue }
                    guard let decoded = QRDecoder.decode(matrix) else { continue }
                    candidate.adopt(matrix, corners, decoded)
                    return
                }
            }
        }
    }

    /// Samples a symbol that was found but did not decode again without the
    /// alignment patterns, when its format information, read through the
    /// grid of the finder patterns alone (`roughGrid`), is that of a QR Code
    /// Model 1 symbol (ISO/IEC 18004:2000, Annex M), upright or mirrored:
    /// Model 1 has no alignment patterns, and what the search for them finds
    /// among its data modules bends the grid. Only versions 2 to 14
    /// (version 1 has no alignment pattern either way). The format
    /// information lies in row and column 8 (7.9): 2 x size modules are
    /// sampled for the test.
    /// - Returns: whether the symbol decoded (into `candidate`).
    func resampleModel1(
        _ img: LumaView, _ pTL: Point, _ pTR: Point, _ pBL: Point, outline: Outline?,
        inverted: Bool, into candidate: inout QRCandidate
    ) -> Bool {
        let size = candidate.matrix.width
        guard size >= 25, size <= 73 else { return false }
        let (grid, _, _) = roughGrid(
            img, pTL, pTR, pBL, outline: outline, size: size, timing: false, inverted: inverted)
        var format = BitMatrix(size: size)
        for k in 0..<size {
            format[k, 8] = isDark(img, grid.map(Double(k) + 0.5, 8.5), inverted: inverted)
            format[8, k] = isDark(img, grid.map(8.5, Double(k) + 0.5), inverted: inverted)
        }
        guard QRFormat.readModel1Info(format) != nil || QRFormat.readModel1Info(format.transposed()) != nil else {
            return false
        }
        for timing in [true, false] where outline != nil || !timing {
            guard
                let (matrix, corners) = sampleQR(
                    img, pTL, pTR, pBL, outline: outline, size: size, timing: timing,
                    inverted: inverted, alignment: false),
                let decoded = QRDecoder.decode(matrix)
            else { continue }
            candidate.adopt(matrix, corners, decoded)
            return true
        }
        return false
    }

    /// Modules of finder patterns and separators that read as they must, of how many.
    struct RingCount {
        var good = 0
        var total = 0
    }

    /// Counts how many modules of a finder pattern (7x7 modules, 6.3.3)
    /// and of the light separator around it (the ring of 9x9) read as they
    /// must. The pattern is given by its centre and its module sizes along
    /// the unit vectors u and v (from the top-left pattern towards the
    /// top-right and bottom-left ones). `outerU` and `outerV` (-1 or 1)
    /// name the pattern's outer sides, beyond which the ring of 9x9 lies
    /// in the quiet zone (ISO/IEC 18004:2015, 6.3.3: the separators lie on
    /// the inner sides only): not counted for a `merged` pattern, since a
    /// symbol printed without its quiet zone on a dark surface has none.
    func countRings(
        _ img: LumaView, _ c: Point, _ mu: Double, _ mv: Double, ux: Double, uy: Double,
        vx: Double, vy: Double, inverted: Bool, outerU: Int, outerV: Int, merged: Bool,
        into count: inout RingCount
    ) {
        let ax = ux * mu, ay = uy * mu, bx = vx * mv, by = vy * mv
        for j in -4...4 {
            for i in -4...4 {
                // The quiet zone beyond the outer sides is not the symbol's.
                if merged && (i == 4 * outerU || j == 4 * outerV) { continue }
                let p = Point(x: c.x + Double(i) * ax + Double(j) * bx, y: c.y + Double(i) * ay + Double(j) * by)
                guard QRDetector.inside(img, p) else { continue }
                let ring = max(abs(i), abs(j))
                if isDark(img, p, inverted: inverted) == (ring != 2 && ring != 4) { count.good += 1 }
                count.total += 1
            }
        }
    }

    /// Counts the dark and light runs along a line, ignoring runs shorter
    /// than 0.4 modules (noise).
    func countRuns(_ img: LumaView, from a: Point, to b: Point, module: Double, inverted: Bool) -> Int {
        let length = a.distance(to: b)
        let step = min(1, max(0.25, module / 5))
        let n = Int(length / step)
        guard n > 1 else { return 0 }
        let dx = (b.x - a.x) / Double(n), dy = (b.y - a.y) / Double(n)
        let minRun = max(1, Int((0.4 * module / step).rounded()))
        var current = true  // the line starts on a dark module
        var pending = 0
        var runs = 1
        for i in 0...n {
            let p = Point(x: a.x + Double(i) * dx, y: a.y + Double(i) * dy)
            guard QRDetector.inside(img, p) else { return 0 }
            let d = isDark(img, p, inverted: inverted)
            if d == current {
                pending = 0
            } else {
                pending += 1
                if pending >= minRun { current = d; runs += 1; pending = 0 }
            }
        }
        return runs
    }

    /// The luma contrast of a finder pattern: its light ring against its
    /// centre, two modules out along both axes.
    func finderContrast(_ img: LumaView, _ p: Point, ax: Double, ay: Double, bx: Double, by: Double) -> Double {
        let centre = QRDetector.luma(img, p)
        var ring = 0.0
        ring += QRDetector.luma(img, Point(x: p.x + 2 * ax, y: p.y + 2 * ay))
        ring += QRDetector.luma(img, Point(x: p.x - 2 * ax, y: p.y - 2 * ay))
        ring += QRDetector.luma(img, Point(x: p.x + 2 * bx, y: p.y + 2 * by))
        ring += QRDetector.luma(img, Point(x: p.x - 2 * bx, y: p.y - 2 * by))
        return abs(ring / 4 - centre)
    }

    /// The outer corners of the symbol's three finder patterns (4 each, in
    /// the order of ``Outline/moduleCorners(size:)``) and where the symbol's
    /// fourth corner is: where the right edge of the top-right pattern
    /// meets the bottom edge of the bottom-left one (straight lines stay
    /// straight under perspective).
    struct Outline {
        var corners: [Point]
        var bottomRight: Point

        /// The module positions of ``corners`` in a symbol of `size` modules.
        static func moduleCorners(size: Int) -> [Point] {
            let s = Double(size), f = s - 7
            return [
                Point(x: 0, y: 0), Point(x: 7, y: 0), Point(x: 7, y: 7), Point(x: 0, y: 7),
                Point(x: f, y: 0), Point(x: s, y: 0), Point(x: s, y: 7), Point(x: f, y: 7),
                Point(x: 0, y: f), Point(x: 7, y: f), Point(x: 7, y: s), Point(x: 0, y: s)
            ]
        }
    }

    /// Measures the finder patterns' outlines (see ``finderCorners(_:_:)``)
    /// and extends their edges to the symbol's fourth corner.
    ///
    /// - Parameters: (`ux`, `uy`) and (`vx`, `vy`): unit vectors from the
    ///   top-left pattern towards the top-right and bottom-left ones.
    func symbolOutline(
        _ img: LumaView, _ tl: QRFinder, _ tr: QRFinder, _ bl: QRFinder,
        ux: Double, uy: Double, vx: Double, vy: Double
    ) -> Outline? {
        var corners: [Point] = []
        corners.reserveCapacity(12)
        /// The corners of `f`, from the one towards -u -v on, clockwise as read.
        func add(_ f: QRFinder) -> Bool {
            guard let c = f.quad ?? finderCorners(img, f) else { return false }
            let centre = f.centre
            for (su, sv) in [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)] {
                var best = c.0, bestScore = -Double.infinity
                for k in 0..<4 {
                    let p = k == 0 ? c.0 : k == 1 ? c.1 : k == 2 ? c.2 : c.3
                    let du = (p.x - centre.x) * ux + (p.y - centre.y) * uy
                    let dv = (p.x - centre.x) * vx + (p.y - centre.y) * vy
                    let score = su * du + sv * dv
                    if score > bestScore { bestScore = score; best = p }
                }
                corners.append(best)
            }
            return true
        }
        guard add(tl), add(tr), add(bl) else { return nil }
        // Right edge of the top-right pattern, bottom edge of the bottom-left one.
        let b = corners[5], c = corners[6], d = corners[11], e = corners[10]
        let rx = c.x - b.x, ry = c.y - b.y, bx = e.x - d.x, by = e.y - d.y
        let den = rx * by - ry * bx
        guard abs(den) > 1e-6 else { return nil }
        let t = ((d.x - b.x) * by - (d.y - b.y) * bx) / den
        let br = Point(x: b.x + t * rx, y: b.y + t * ry)
        guard QRDetector.inside(img, br, margin: 4 * max(tl.module, 1)) else { return nil }
        return Outline(corners: corners, bottomRight: br)
    }

    /// Samples a QR Code symbol of `size` modules whose finder pattern
    /// centres are `tl`, `tr`, `bl`, locating the bottom-right alignment
    /// pattern first for versions 2 and up (ISO/IEC 18004:2015, 6.3.6).
    ///
    /// With the finder patterns' outlines (`outline`), a first grid is
    /// fitted (least squares) to the three centres, the twelve outer
    /// corners and the fourth corner where the patterns' edges meet; it
    /// tells where the alignment pattern should be. The final grid is fitted
    /// to the centres, the corners and the alignment pattern's centre,
    /// module (size - 6.5, size - 6.5), which outweighs the rest near it.
    /// Version 1 has no alignment pattern: its grid is the first one.
    /// Without outlines the grid maps the three centres and the alignment
    /// pattern (or where a parallelogram puts it). Without `alignment` (a
    /// QR Code Model 1 symbol, which has none) the first grid is the final
    /// one at every size.
    ///
    /// - Returns: the matrix and the symbol's corners in the frame, or
    ///   `nil` when the symbol reaches out of the frame.
    func sampleQR(
        _ img: LumaView, _ tl: Point, _ tr: Point, _ bl: Point, outline: Outline?, size: Int,
        timing: Bool, inverted: Bool, rule: SampleRule = .moduleScale,
        bend: Bool = false, alignment: Bool = true
    ) -> (BitMatrix, (Point, Point, Point, Point))? {
        let s = Double(size)
        let span = s - 7
        let ax = (tr.x - tl.x) / span, ay = (tr.y - tl.y) / span
        let bx = (bl.x - tl.x) / span, by = (bl.y - tl.y) / span
        let fitted = roughGrid(img, tl, tr, bl, outline: outline, size: size, timing: timing, inverted: inverted)
        let rough = fitted.0
        var from = fitted.1, to = fitted.2
        // Cheap first: the three finder patterns as this grid places them
        // (147 modules), before the alignment patterns, the local grid and
        // the whole symbol are sampled. Near the finder patterns' centres,
        // which anchor the grid, a symbol's read well whatever its
        // distortion; a triple of finder-like shapes in texture does not.
        guard QRDetector.finderShare(img, rough, size: size, inverted: inverted) >= 0.6 else {
            trace?("size \(size): the finder patterns do not show through the rough grid")
            return nil
        }
        var transform = rough
        if alignment && size >= 25 {
            let c = s - 6.5
            let predicted = rough.map(c, c)
            let pu = rough.map(c + 1, c), pv = rough.map(c, c + 1)
            let contrast = finderContrast(img, tl, ax: ax, ay: ay, bx: bx, by: by)
            let found = findAlignment(
                img, near: predicted, ax: pu.x - predicted.x, ay: pu.y - predicted.y,
                bx: pv.x - predicted.x, by: pv.y - predicted.y,
                radius: outline == nil ? 4 + s / 25 : 2.5 + s / 50, inverted: inverted, contrast: contrast)
            let ap = found ?? predicted
            if outline != nil {
                for _ in 0..<4 { from.append(Point(x: c, y: c)); to.append(ap) }
                transform = PerspectiveTransform.fitting(from: from, to: to) ?? rough
            } else {
                transform = .quadrilateralToQuadrilateral(
                    from: Point(x: 3.5, y: 3.5), Point(x: s - 3.5, y: 3.5), Point(x: c, y: c),
                    Point(x: 3.5, y: s - 3.5),
                    to: tl, tr, ap, bl)
            }
        }
        // From version 7 on, every alignment pattern corrects the grid
        // locally (lens distortion bends a large symbol's rows).
        var local: QRLocalGrid? = nil
        if alignment && size >= 45 {
            let contrast = finderContrast(img, tl, ax: ax, ay: ay, bx: bx, by: by)
            local = localGrid(img, transform, size: size, inverted: inverted, contrast: contrast)
        }
        var shifts: QRTimingShifts? = nil
        if bend && local == nil { shifts = timingShifts(img, transform, size: size, inverted: inverted) }
        gridsSampled += 1
        guard
            let matrix = sampleGrid(
                img, transform, width: size, height: size, inverted: inverted, local: local, rule: rule,
                shifts: shifts)
        else { return nil }
        func corner(_ u: Double, _ v: Double) -> Point { local?.map(u, v) ?? transform.map(u, v) }
        return (matrix, (corner(0, 0), corner(s, 0), corner(s, s), corner(0, s)))
    }

    /// The first grid of `sampleQR`, before any alignment pattern: fitted to
    /// the three finder pattern centres `tl`, `tr`, `bl` and, with their
    /// outlines, to their twelve outer corners and the fourth corner where
    /// their edges meet, then (with `timing`) to the boundaries between the
    /// timing patterns' modules (ISO/IEC 18004:2015, 6.3.5); without
    /// outlines, the parallelogram of the three centres. Also returns the
    /// points it was fitted to, module coordinates and frame positions.
    func roughGrid(
        _ img: LumaView, _ tl: Point, _ tr: Point, _ bl: Point, outline: Outline?, size: Int,
        timing: Bool, inverted: Bool
    ) -> (PerspectiveTransform, [Point], [Point]) {
        let s = Double(size)
        var from: [Point] = [Point(x: 3.5, y: 3.5), Point(x: s - 3.5, y: 3.5), Point(x: 3.5, y: s - 3.5)]
        var to: [Point] = [tl, tr, bl]
        var rough: PerspectiveTransform
        if let o = outline {
            from += Outline.moduleCorners(size: size)
            to += o.corners
            rough =
                PerspectiveTransform.fitting(from: from + [Point(x: s, y: s)], to: to + [o.bottomRight])
                ?? .quadrilateralToQuadrilateral(
                    from: Point(x: 0, y: 0), Point(x: s, y: 0), Point(x: s, y: s), Point(x: 0, y: s),
                    to: o.corners[0], o.corners[5], o.bottomRight, o.corners[11])
        } else {
            let br = Point(x: tr.x + bl.x - tl.x, y: tr.y + bl.y - tl.y)
            rough = .quadrilateralToQuadrilateral(
                from: Point(x: 3.5, y: 3.5), Point(x: s - 3.5, y: 3.5), Point(x: s - 3.5, y: s - 3.5),
                Point(x: 3.5, y: s - 3.5),
                to: tl, tr, br, bl)
        }
        // The timing patterns (row and column 6) add points between the
        // finder patterns: every boundary between two of their modules.
        if outline != nil && timing {
            let before = from.count
            timingPoints(img, rough, size: size, column: false, inverted: inverted, from: &from, to: &to)
            timingPoints(img, rough, size: size, column: true, inverted: inverted, from: &from, to: &to)
            if from.count > before + 4, let refined = PerspectiveTransform.fitting(from: from, to: to) {
                rough = refined
            }
        }
        return (rough, from, to)
    }

    /// The module centres of the alignment patterns' rows and columns of a
    /// QR Code symbol of `version` (ISO/IEC 18004:2015, 6.3.6 and its table
    /// of alignment pattern positions): the first at 6, the last 7 modules
    /// in from the far edge, the others spaced evenly (an even spacing, the
    /// odd remainder going to the first gap), 26 apart in version 32.
    static func alignmentCoordinates(version: Int) -> [Int] {
        guard version >= 2 else { return [] }
        let size = 17 + 4 * version
        let count = version / 7 + 2
        let last = size - 7
        let stepSize = version == 32 ? 26 : ((last - 6 + (count - 1) * 2 - 1) / ((count - 1) * 2)) * 2
        var c = [6]
        for k in stride(from: count - 2, through: 0, by: -1) { c.append(last - k * stepSize) }
        return c
    }

    /// Locates every alignment pattern of a symbol of `size` modules near
    /// where `transform` puts it (within 1.5 modules) and returns the grid
    /// of local transforms between them; a pattern not found keeps the
    /// place `transform` gives it, as do the three places under the finder
    /// patterns.
    func localGrid(
        _ img: LumaView, _ transform: PerspectiveTransform, size: Int, inverted: Bool,
        contrast: Double
    ) -> QRLocalGrid? {
        let coords = QRDetector.alignmentCoordinates(version: (size - 17) / 4)
        let k = coords.count
        guard k >= 3 else { return nil }
        var control = [Point](repeating: Point(x: 0, y: 0), count: k * k)
        var found = 0
        for j in 0..<k {
            for i in 0..<k {
                let cx = Double(coords[i]) + 0.5, cy = Double(coords[j]) + 0.5
                let predicted = transform.map(cx, cy)
                control[j * k + i] = predicted
                if (i == 0 && j == 0) || (i == k - 1 && j == 0) || (i == 0 && j == k - 1) { continue }
                let pu = transform.map(cx + 1, cy), pv = transform.map(cx, cy + 1)
                if let p = findAlignment(
                    img, near: predicted, ax: pu.x - predicted.x, ay: pu.y - predicted.y,
                    bx: pv.x - predicted.x, by: pv.y - predicted.y, radius: 1.5,
                    inverted: inverted, contrast: contrast)
                {
                    control[j * k + i] = p
                    found += 1
                }
            }
        }
        guard found > 0 else { return nil }
        var cells: [PerspectiveTransform] = []
        cells.reserveCapacity((k - 1) * (k - 1))
        for j in 0..<(k - 1) {
            for i in 0..<(k - 1) {
                let u0 = Double(coords[i]) + 0.5, u1 = Double(coords[i + 1]) + 0.5
                let v0 = Double(coords[j]) + 0.5, v1 = Double(coords[j + 1]) + 0.5
                cells.append(
                    .quadrilateralToQuadrilateral(
                        from: Point(x: u0, y: v0), Point(x: u1, y: v0), Point(x: u1, y: v1), Point(x: u0, y: v1),
                        to: control[j * k + i], control[j * k + i + 1], control[(j + 1) * k + i + 1],
                        control[(j + 1) * k + i]))
            }
        }
        return QRLocalGrid(positions: coords.map { Double($0) + 0.5 }, cells: cells)
    }

    /// Finds the boundaries between the modules of a QR Code timing pattern
    /// (row 6, or column 6 when `column`; ISO/IEC 18004:2015, 6.3.5), from
    /// the top-left finder pattern's dark ring to the next pattern's, where
    /// `grid` (module to frame coordinates) puts them, and appends each
    /// boundary within 0.35 modules of a whole module position, as module
    /// and frame position, to `from` and `to`.
    func timingPoints(
        _ img: LumaView, _ grid: PerspectiveTransform, size: Int, column: Bool, inverted: Bool,
        from: inout [Point], to: inout [Point]
    ) {
        let step = 0.1
        let sign: Double = inverted ? -1 : 1
        func level(_ t: Double) -> Double? {
            lightness(img, column ? grid.map(6.5, t) : grid.map(t, 6.5), sign: sign)
        }
        var t = 6.5
        let end = Double(size) - 6.5
        guard var previous = level(t) else { return }
        while t < end {
            guard let next = level(t + step) else { return }
            if (previous > 0) != (next > 0) {
                let at = t + step * previous / (previous - next)
                let k = at.rounded()
                if abs(at - k) < 0.35 {
                    from.append(column ? Point(x: 6.5, y: k) : Point(x: k, y: 6.5))
                    to.append(column ? grid.map(6.5, at) : grid.map(at, 6.5))
                }
            }
            previous = next
            t += step
        }
    }

    /// How far the timing patterns' module boundaries (row 6 and column
    /// 6, ISO/IEC 18004:2015, 6.3.5) lie from where `grid` puts them, as
    /// one shift per column (from row 6) and one per row (from column 6),
    /// interpolated between the boundaries found and zero at the finder
    /// pattern centres. Added to every module of its column and row, they
    /// follow paper bent about one axis, which no single projective grid
    /// fits. `nil` when either timing pattern shows too few boundaries.
    func timingShifts(_ img: LumaView, _ grid: PerspectiveTransform, size: Int, inverted: Bool) -> QRTimingShifts? {
        func table(column: Bool) -> [Point]? {
            var from: [Point] = [], to: [Point] = []
            timingPoints(img, grid, size: size, column: column, inverted: inverted, from: &from, to: &to)
            guard from.count >= (size - 14) / 2 else { return nil }
            // Known shifts by module position, the finder centres fixed.
            var at: [(Double, Point)] = [(3.5, Point(x: 0, y: 0))]
            for k in 0..<from.count {
                let t = column ? from[k].y : from[k].x
                let q = column ? grid.map(6.5, t) : grid.map(t, 6.5)
                at.append((t, Point(x: to[k].x - q.x, y: to[k].y - q.y)))
            }
            at.append((Double(size) - 3.5, Point(x: 0, y: 0)))
            at.sort { $0.0 < $1.0 }
            var out = [Point](repeating: Point(x: 0, y: 0), count: size)
            var j = 0
            for i in 0..<size {
                let t = Double(i) + 0.5
                while j + 2 < at.count && at[j + 1].0 <= t { j += 1 }
                let (t0, a) = at[j], (t1, b) = at[j + 1]
                let f = t1 > t0 ? min(max((t - t0) / (t1 - t0), 0), 1) : 0
                out[i] = Point(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f)
            }
            return out
        }
        guard let column = table(column: false), let row = table(column: true) else { return nil }
        return QRTimingShifts(column: column, row: row)
    }

    /// Samples every module centre of a `width` x `height` grid through
    /// `transform` (module to frame coordinates), or through `local`'s
    /// piecewise transforms when given.
    ///
    /// Each module's luma is compared with a threshold at the symbol's own
    /// scale, the middle of the darkest and lightest module centres within
    /// 3 modules (the pixel blocks' threshold where those are too alike),
    /// after a
    /// mild sharpening on the module grid (the luma plus half its difference
    /// from the mean of its four neighbours), which restores the contrast
    /// that blur takes from a lone light module among dark ones, and the
    /// reverse.
    func sampleGrid(
        _ img: LumaView, _ transform: PerspectiveTransform, width: Int, height: Int,
        inverted: Bool, local: QRLocalGrid? = nil, rule: SampleRule = .moduleScale,
        shifts: QRTimingShifts? = nil
    ) -> BitMatrix? {
        // The symbol must lie in the frame (a module's width of slack). On
        // still pictures the corner without a finder pattern may lie beyond
        // the frame (a symbol cut by the picture's edge, or a corner that
        // strong perspective puts further than three finder patterns tell):
        // its modules read as the edge's pixels, errors that Reed-Solomon
        // decoding corrects or refuses.
        let m = max(transform.map(0, 0).distance(to: transform.map(1, 0)), 0.5)
        let w = Double(width), h = Double(height)
        guard QRDetector.inside(img, transform.map(0, 0), margin: m),
            QRDetector.inside(img, transform.map(w, 0), margin: m),
            options.rescueFailedSymbols || QRDetector.inside(img, transform.map(w, h), margin: m),
            QRDetector.inside(img, transform.map(0, h), margin: m)
        else { return nil }
        let n = width * height
        moduleLuma.reserve(n); moduleThreshold.reserve(n)
        let lp = moduleLuma.pointer, tp = moduleThreshold.pointer
        // The local grid's cell of each module column (first) and row.
        var columnCell: UnsafeMutablePointer<Int>? = nil, rowCell: UnsafeMutablePointer<Int>? = nil
        if let local {
            gridCells.reserve(width + height)
            columnCell = gridCells.pointer
            rowCell = gridCells.pointer + width
            for x in 0..<width { columnCell![x] = local.cell(Double(x) + 0.5) }
            for y in 0..<height { rowCell![y] = local.cell(Double(y) + 0.5) }
        }
        func sample(
            _ cells: UnsafeBufferPointer<PerspectiveTransform>, _ cellsPerRow: Int,
            _ column: UnsafeBufferPointer<Point>, _ row: UnsafeBufferPointer<Point>
        ) {
            for y in 0..<height {
                let v = Double(y) + 0.5
                let rowBase = rowCell.map { $0[y] * cellsPerRow } ?? 0
                for x in 0..<width {
                    let u = Double(x) + 0.5
                    var p = columnCell.map { cells[rowBase + $0[x]].map(u, v) } ?? transform.map(u, v)
                    if !column.isEmpty {
                        p.x += column[x].x + row[y].x
                        p.y += column[x].y + row[y].y
                    }
                    lp[y * width + x] = QRDetector.luma(img, p)
                    tp[y * width + x] = Double(thresholds.threshold(x: Int(p.x + 0.5), y: Int(p.y + 0.5)))
                }
            }
        }
        let cells = local?.cells ?? []
        let cellsPerRow = max(1, (local?.positions.count ?? 2) - 1)
        let columnShifts = shifts?.column ?? [], rowShifts = shifts?.row ?? []
        cells.withUnsafeBufferPointer { c in
            columnShifts.withUnsafeBufferPointer { cs in
                rowShifts.withUnsafeBufferPointer { rs in sample(c, cellsPerRow, cs, rs) }
            }
        }
        // Per module, the middle of the darkest and lightest module within
        // 3 modules (separable: along rows, then columns), where there is
        // contrast; else the pixel blocks' threshold.
        moduleLow.reserve(n); moduleHigh.reserve(n)
        let lo = moduleLow.pointer, hi = moduleHigh.pointer
        windowLow.reserve(max(width, height)); windowHigh.reserve(max(width, height))
        for y in 0..<height {
            QRDetector.windowExtremes(
                count: width, step: 1, low: lp + y * width, high: lp + y * width,
                into: (lo + y * width, hi + y * width), (windowLow.pointer, windowHigh.pointer))
        }
        for x in 0..<width {
            QRDetector.windowExtremes(
                count: height, step: width, low: lo + x, high: hi + x,
                into: (lo + x, hi + x), (windowLow.pointer, windowHigh.pointer))
        }
        let minContrast = Double(options.minContrast)
        if rule != .pixelBlocks {
            for i in 0..<n where hi[i] - lo[i] >= minContrast { tp[i] = (lo[i] + hi[i]) / 2 }
        }
        var matrix = BitMatrix(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                var sum = 0.0, count = 0.0
                if x > 0 { sum += lp[i - 1]; count += 1 }
                if x + 1 < width { sum += lp[i + 1]; count += 1 }
                if y > 0 { sum += lp[i - width]; count += 1 }
                if y + 1 < height { sum += lp[i + width]; count += 1 }
                let v = count > 0 && rule == .moduleScale ? lp[i] + 0.5 * (lp[i] - sum / count) : lp[i]
                if (v < tp[i]) != inverted { matrix[x, y] = true }
            }
        }
        return matrix
    }

    /// The least of `low` and the greatest of `high` within 3 places
    /// either way (clipped to `0 ..< count`) of each of `count` places
    /// `step` apart, written to `into` (which may be `low` and `high`
    /// themselves): over the 4 places from each place first
    /// (`scratch`), then the two such spans that cover each window, 3
    /// comparisons a place instead of 7.
    @inline(__always)
    static func windowExtremes(
        count: Int, step: Int,
        low: UnsafeMutablePointer<Double>, high: UnsafeMutablePointer<Double>,
        into out: (UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>),
        _ scratch: (UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>)
    ) {
        guard count > 0 else { return }
        let last = count - 1
        let a = scratch.0, b = scratch.1
        // Pairs, then spans of 4: place k covers k ... min(k + 3, last).
        for k in 0..<count {
            let k1 = min(k + 1, last)
            a[k] = min(low[k * step], low[k1 * step])
            b[k] = max(high[k * step], high[k1 * step])
        }
        for k in 0..<count {
            let k2 = min(k + 2, last)
            a[k] = min(a[k], a[k2])
            b[k] = max(b[k], b[k2])
        }
        // The window k - 3 ... k + 3 is the span from k - 3 (from 0 near
        // the start, which reaches no further than k + 3) and the span from k.
        for k in 0..<count {
            let k0 = max(k - 3, 0)
            out.0[k * step] = min(a[k0], a[k])
            out.1[k * step] = max(b[k0], b[k])
        }
    }

    /// How ``sampleGrid(_:_:width:height:inverted:local:rule:)`` tells dark
    /// modules from light ones.
    enum SampleRule {
        /// The threshold at the symbol's own scale, after the mild
        /// sharpening on the module grid: the first reading.
        case moduleScale
        /// The same threshold without the sharpening, which can invent
        /// modules where the print bleeds or the paper bends.
        case plain
        /// The pixel blocks' threshold (``BlockThreshold``), unsharpened:
        /// follows light that changes faster than 7 modules.
        case pixelBlocks
    }

    /// Searches for the alignment pattern (a dark module in a light ring in
    /// a dark ring, 5x5 modules; ISO/IEC 18004:2015, 6.3.6) near
    /// `predicted`, by matching that template, with the local module
    /// vectors (`ax`, `ay`) and (`bx`, `by`), at positions on a grid of a
    /// third of a module within `radius` modules.
    ///
    /// - Returns: the best match, or `nil` when none reaches a third of
    ///   the finder pattern's contrast.
    func findAlignment(
        _ img: LumaView, near predicted: Point, ax: Double, ay: Double, bx: Double, by: Double,
        radius: Double, inverted: Bool, contrast: Double
    ) -> Point? {
        let module = ((ax * ax + ay * ay).squareRoot() + (bx * bx + by * by).squareRoot()) / 2
        let sign: Double = inverted ? -1 : 1
        // The template's 25 modules from its centre (i * a, j * b, each way),
        // rows first as the sums below add them.
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 100) { table -> Point? in
            let iax = table.baseAddress!, jbx = iax + 25, iay = iax + 50, jby = iax + 75
            var k = 0
            for j in -2...2 {
                for i in -2...2 {
                    iax[k] = Double(i) * ax; jbx[k] = Double(j) * bx
                    iay[k] = Double(i) * ay; jby[k] = Double(j) * by
                    k += 1
                }
            }
            // How far the template reaches from its centre each way.
            var reachX = 0.0, reachY = 0.0
            for k in 0..<25 {
                reachX = max(reachX, abs(iax[k] + jbx[k])); reachY = max(reachY, abs(iay[k] + jby[k]))
            }
            let maxX = Double(img.width) - 1.0001, maxY = Double(img.height) - 1.0001
            func score(_ p: Point) -> Double {
                /// The template's light ring and dark modules, each luma read by `luma`.
                @inline(__always) func sums(_ luma: (Double, Double) -> Double) -> (light: Double, dark: Double) {
                    var dark = 0.0, light = 0.0
                    var k = 0
                    for j in -2...2 {
                        for i in -2...2 {
                            let v = luma(p.x + iax[k] + jbx[k], p.y + iay[k] + jby[k])
                            if max(abs(i), abs(j)) == 1 { light += v } else { dark += v }
                            k += 1
                        }
                    }
                    return (light, dark)
                }
                // Inside the frame, QRDetector.luma without its clamps.
                let (light, dark) =
                    p.x - reachX - 1e-9 >= 0 && p.x + reachX + 1e-9 <= maxX && p.y - reachY - 1e-9 >= 0
                        && p.y + reachY + 1e-9 <= maxY
                    ? sums { QRDetector.lumaInside(img, x: $0, y: $1) }
                    : sums { QRDetector.luma(img, Point(x: $0, y: $1)) }
                return sign * (light / 8 - dark / 17)
            }
            return bestAlignment(img, near: predicted, module: module, radius: radius, contrast: contrast, score: score)
        }
    }

    /// The search of ``findAlignment(_:near:ax:ay:bx:by:radius:inverted:contrast:)``
    /// with its template's `score`.
    @inline(__always)
    private func bestAlignment(
        _ img: LumaView, near predicted: Point, module: Double, radius: Double, contrast: Double,
        score: (Point) -> Double
    ) -> Point? {
        var best = predicted, bestScore = -Double.infinity
        let step = max(0.5, module / 3)
        let reach = radius * module
        let n = Int(reach / step)
        for j in -n...n {
            for i in -n...n {
                let p = Point(x: predicted.x + Double(i) * step, y: predicted.y + Double(j) * step)
                guard QRDetector.inside(img, p) else { continue }
                // A slight preference for the predicted place.
                let d = (Double(i * i + j * j)).squareRoot() * step / module
                let sc = score(p) * (1 - 0.02 * d)
                if sc > bestScore { bestScore = sc; best = p }
            }
        }
        // Refine on a finer grid.
        let fine = step / 4
        let centre = best
        for j in -4...4 {
            for i in -4...4 {
                let p = Point(x: centre.x + Double(i) * fine, y: centre.y + Double(j) * fine)
                let sc = score(p) * (1 - 0.02 * p.distance(to: predicted) / module)
                if sc > bestScore { bestScore = sc; best = p }
            }
        }
        guard bestScore > max(contrast / 3, Double(options.minContrast) / 2) else { return nil }
        return best
    }

    /// The share of the three finder patterns' modules (ISO/IEC
    /// 18004:2015, 6.3.3: a dark 3x3 square in a light ring in a dark ring)
    /// that read right where `transform` puts them in a symbol of `size`
    /// modules, each pattern against the middle of its own darkest and
    /// lightest module.
    static func finderShare(_ img: LumaView, _ transform: PerspectiveTransform, size: Int, inverted: Bool) -> Double {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 49) { levels in
            var good = 0
            for (ox, oy) in [(0, 0), (size - 7, 0), (0, size - 7)] {
                var lo = Double.infinity, hi = -Double.infinity
                for j in 0..<7 {
                    for i in 0..<7 {
                        let v = luma(img, transform.map(Double(ox + i) + 0.5, Double(oy + j) + 0.5))
                        levels[j * 7 + i] = v
                        lo = min(lo, v); hi = max(hi, v)
                    }
                }
                let middle = (lo + hi) / 2
                for j in 0..<7 {
                    for i in 0..<7 {
                        let ring = max(abs(i - 3), abs(j - 3))
                        if ((levels[j * 7 + i] < middle) != inverted) == (ring != 2) { good += 1 }
                    }
                }
            }
            return Double(good) / 147
        }
    }

    /// How well a sampled QR Code matrix shows its function patterns: the
    /// fraction of the three finder patterns' modules (6.3.3) and of the
    /// two timing patterns' modules (6.3.5) that read as they must.
    static func functionAgreement(_ m: BitMatrix) -> (finder: Double, timing: Double) {
        let d = m.width
        var good = 0, total = 0
        for (ox, oy) in [(0, 0), (d - 7, 0), (0, d - 7)] {
            for j in 0..<7 {
                for i in 0..<7 {
                    let ring = max(abs(i - 3), abs(j - 3))
                    if m[ox + i, oy + j] == (ring != 2) { good += 1 }
                    total += 1
                }
            }
        }
        let finder = Double(good) / Double(total)
        good = 0; total = 0
        if d > 16 {
            for k in 8..<(d - 8) {
                if m[k, 6] == (k % 2 == 0) { good += 1 }
                if m[6, k] == (k % 2 == 0) { good += 1 }
                total += 2
            }
        }
        return (finder, total > 0 ? Double(good) / Double(total) : 0)
    }
}

/// Shifts of a QR Code sampling grid taken from its timing patterns
/// (``QRDetector/timingShifts(_:_:size:inverted:)``), in frame pixels.
struct QRTimingShifts {
    /// Per module column, measured along the timing row.
    var column: [Point]
    /// Per module row, measured along the timing column.
    var row: [Point]
}

/// A QR Code sampling grid in pieces: one projective transform per cell
/// between neighbouring alignment pattern centres (cells at the edges
/// extend outwards), so that a symbol bent by lens distortion is followed.
struct QRLocalGrid {
    /// Module coordinates of the alignment patterns' centres, ascending.
    var positions: [Double]
    /// Row-major, `positions.count - 1` cells a row.
    var cells: [PerspectiveTransform]

    /// The cell along one axis that holds `t` (the first or last beyond).
    @inline(__always)
    func cell(_ t: Double) -> Int {
        var i = 0
        while i + 2 < positions.count && t >= positions[i + 1] { i += 1 }
        return i
    }

    /// Maps module coordinates to frame pixels.
    @inline(__always)
    func map(_ u: Double, _ v: Double) -> Point {
        cells[cell(v) * (positions.count - 1) + cell(u)].map(u, v)
    }
}
