#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A symbol's geometry from its three finders: size, corners and the rescue of symbols that fail.
extension QRDetector {
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
        let moduleSizes = (tlu ?? mx, tlv ?? my, tru ?? mx, trv, blu, blv ?? my)
        guard finderRingsShow(img, (tl, tr, bl), moduleSizes, axes: (ux, uy, vx, vy), inverted: inverted, size: d0)
        else { return nil }

        let module = (mx + my) / 2
        let (sizes, sizeCount, confirmed) = candidateSizes(
            img, pTL, pTR, pBL, size: d0, estimate: estimate, module: (mx, my), inverted: inverted)
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

    /// Whether the three finder patterns and their separators show through
    /// the grid their centres span (the cheap first test of a triple):
    /// enough of their rings' modules, counted at `size`, read right.
    /// `m` are the module sizes across the patterns: top-left along u and
    /// v, top-right along u and v, bottom-left along u and v.
    private func finderRingsShow(
        _ img: LumaView, _ f: (QRFinder, QRFinder, QRFinder),
        _ m: (Double, Double, Double, Double, Double, Double), axes: (Double, Double, Double, Double),
        inverted: Bool, size d0: Int
    ) -> Bool {
        let (tl, tr, bl) = f
        let pTL = tl.centre, pTR = tr.centre, pBL = bl.centre
        let (ux, uy, vx, vy) = axes
        var rings = RingCount()
        countRings(
            img, pTL, m.0, m.1, ux: ux, uy: uy, vx: vx, vy: vy, inverted: inverted,
            outerU: -1, outerV: -1, merged: tl.merged, into: &rings)
        countRings(
            img, pTR, m.2, m.3, ux: ux, uy: uy, vx: vx, vy: vy, inverted: inverted,
            outerU: 1, outerV: -1, merged: tr.merged, into: &rings)
        countRings(
            img, pBL, m.4, m.5, ux: ux, uy: uy, vx: vx, vy: vy, inverted: inverted,
            outerU: -1, outerV: 1, merged: bl.merged, into: &rings)
        // Still pictures admit more perspective, which the affine grid of
        // the three centres follows less well. (Of the 3 x 81 modules
        // counted, 64 for a merged pattern, most must lie in the frame.)
        let ringShare = options.rescueFailedSymbols ? 0.6 : 0.8
        let mergedCount = (tl.merged ? 1 : 0) + (tr.merged ? 1 : 0) + (bl.merged ? 1 : 0)
        guard rings.total > 150 - 11 * mergedCount && Double(rings.good) >= ringShare * Double(rings.total) else {
            trace?("finder rings \(rings.good) of \(rings.total) at size \(d0)")
            return false
        }

        return true
    }

    /// The sizes to sample a symbol of estimated size `estimate` (nearest
    /// valid size `d0`) at, up to four: the size both timing patterns
    /// count (ISO/IEC 18004:2015, 6.3.5) when they agree, else each count
    /// that is valid, `d0` and its neighbours; whether the counts agreed.
    private func candidateSizes(
        _ img: LumaView, _ pTL: Point, _ pTR: Point, _ pBL: Point, size d0: Int, estimate: Double,
        module: (Double, Double), inverted: Bool
    ) -> (sizes: (Int, Int, Int, Int), count: Int, confirmed: Bool) {
        let (mx, my) = module
        // Timing patterns: row 6 and column 6 between the finder patterns.
        let s0 = Double(d0 - 7)
        let ax = (pTR.x - pTL.x) / s0, ay = (pTR.y - pTL.y) / s0
        let bx = (pBL.x - pTL.x) / s0, by = (pBL.y - pTL.y) / s0
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
        return (sizes, sizeCount, confirmed)
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
}
