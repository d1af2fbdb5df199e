#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Micro QR: the one finder, its symbol sizes and the grid fitted from its timing patterns.
extension QRDetector {
    /// The Micro QR symbol sizes, M1 to M4 (ISO/IEC 18004:2015, 5.2 and 6.3.3).
    static let microSizes = [11, 13, 15, 17]

    /// Adds a point pair (module position, frame position) for a grid fit.
    func addPair(_ module: Point, _ frame: Point) {
        pairFrom.reserveKeeping(pairCount + 1)
        pairTo.reserveKeeping(pairCount + 1)
        pairFrom[pairCount] = module
        pairTo[pairCount] = frame
        pairCount += 1
    }

    /// Tries every finder pattern that is not part of a QR Code symbol as
    /// the finder pattern of a Micro QR symbol.
    func findMicro(_ img: LumaView, into out: inout [QRCandidate]) {
        for k in 0..<finderCount where !finders[k].used {
            if stop.now { return }
            if let c = fitMicro(img, finders[k]) {
                finders[k].used = true
                out.append(c)
            }
        }
    }

    /// The outer corners of the finder pattern `f` (the edge of its dark
    /// 7x7 ring), clockwise as seen in the frame.
    ///
    /// Rays from the centre in 32 directions find the ring's outer edge.
    /// The edge points are first whitened by their second moments, which
    /// turns an affine image of the square (a pattern squashed by a tilted
    /// view) back into a square; an elongated pattern is cast again with
    /// the rays evenly spread over that square, so that its short sides
    /// meet as many as its long ones. The edge is farthest from the centre at
    /// the corners, so the phase of the fourth harmonic of the whitened
    /// edge distance gives the corners' directions; a line fitted to the
    /// edge points between two corners gives each side, and neighbouring
    /// sides meet at the corners.
    func finderCorners(_ img: LumaView, _ f: QRFinder) -> (Point, Point, Point, Point)? {
        let centre = Point(x: f.x, y: f.y)
        let rays = 32
        // Edge points (x, y) per ray; NaN where a ray found no edge.
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 3 * rays) {
            buf -> (Point, Point, Point, Point)? in
            let px = buf.baseAddress!, py = px + rays, phase = py + rays
            /// Casts ray `k` along (`dx`, `dy`); adds its edge point's moments.
            func cast(_ k: Int, _ dx: Double, _ dy: Double, _ m: inout (Double, Double, Double)) -> Bool {
                px[k] = .nan; py[k] = .nan
                guard
                    let r = finderEdge(
                        img, from: centre, ux: dx, uy: dy, inverted: f.inverted,
                        maxDistance: 6 * f.module)
                else { return false }
                px[k] = centre.x + r * dx; py[k] = centre.y + r * dy
                m.0 += r * r * dx * dx; m.1 += r * r * dy * dy; m.2 += r * r * dx * dy
                return true
            }
            /// The principal axis of the moments and their two eigenvalues.
            func principal(_ m: (Double, Double, Double)) -> (axis: Double, l1: Double, l2: Double) {
                let mean = (m.0 + m.1) / 2, spread = (((m.0 - m.1) / 2) * ((m.0 - m.1) / 2) + m.2 * m.2).squareRoot()
                return (0.5 * atan2(2 * m.2, m.0 - m.1), mean + spread, mean - spread)
            }
            var moments = (0.0, 0.0, 0.0)
            var found = 0
            for k in 0..<rays {
                let a = Double(k) * 2 * Double.pi / Double(rays)
                if cast(k, cos(a), sin(a), &moments) { found += 1 }
            }
            guard found >= 24 else { return nil }
            var (axis, l1, l2) = principal(moments)
            guard l2 > 1e-9 else { return nil }
            if l1 > 2 * l2 {
                // An elongated pattern: its short sides met by few rays. The
                // rays again, evenly spread over the whitened square.
                let e1x = cos(axis), e1y = sin(axis), s1 = l1.squareRoot(), s2 = l2.squareRoot()
                moments = (0, 0, 0)
                found = 0
                for k in 0..<rays {
                    let a = Double(k) * 2 * Double.pi / Double(rays)
                    let u = cos(a) * s1, v = sin(a) * s2
                    let dx = u * e1x - v * e1y, dy = u * e1y + v * e1x, n = (dx * dx + dy * dy).squareRoot()
                    if cast(k, dx / n, dy / n, &moments) { found += 1 }
                }
                guard found >= 24 else { return nil }
                (axis, l1, l2) = principal(moments)
                guard l2 > 1e-9 else { return nil }
            }
            // The inverse square root of the moments (eigenvectors e1, e2):
            // W = e1 e1' / sqrt(l1) + e2 e2' / sqrt(l2).
            let e1x = cos(axis), e1y = sin(axis)
            let w1 = 1 / l1.squareRoot(), w2 = 1 / l2.squareRoot()
            var c4 = 0.0, s4 = 0.0
            for k in 0..<rays where !px[k].isNaN {
                let x = px[k] - centre.x, y = py[k] - centre.y
                let a1 = (x * e1x + y * e1y) * w1, a2 = (-x * e1y + y * e1x) * w2
                let phi = atan2(a2, a1), r = (a1 * a1 + a2 * a2).squareRoot()
                phase[k] = phi
                c4 += r * cos(4 * phi); s4 += r * sin(4 * phi)
            }
            let cornerAngle = atan2(s4, c4) / 4
            /// A line fitted to the edge points between corner `side` and the next.
            func sideLine(_ side: Int) -> (cx: Double, cy: Double, dx: Double, dy: Double)? {
                let a0 = cornerAngle + Double(side) * Double.pi / 2
                var sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0, n = 0.0
                for k in 0..<rays where !px[k].isNaN {
                    var d = (phase[k] - a0).truncatingRemainder(dividingBy: 2 * Double.pi)
                    if d < 0 { d += 2 * Double.pi }
                    // Away from the corners, where the rays graze two sides.
                    guard d > 0.2, d < Double.pi / 2 - 0.2 else { continue }
                    sx += px[k]; sy += py[k]; sxx += px[k] * px[k]; syy += py[k] * py[k]; sxy += px[k] * py[k]
                    n += 1
                }
                guard n >= 2 else { return nil }
                let mx = sx / n, my = sy / n
                let cxx = sxx / n - mx * mx, cyy = syy / n - my * my, cxy = sxy / n - mx * my
                let theta = 0.5 * atan2(2 * cxy, cxx - cyy)
                return (mx, my, cos(theta), sin(theta))
            }
            func meet(
                _ l: (cx: Double, cy: Double, dx: Double, dy: Double),
                _ m: (cx: Double, cy: Double, dx: Double, dy: Double)
            ) -> Point? {
                let den = l.dx * m.dy - l.dy * m.dx
                guard abs(den) > 0.3 else { return nil }
                let t = ((m.cx - l.cx) * m.dy - (m.cy - l.cy) * m.dx) / den
                return Point(x: l.cx + t * l.dx, y: l.cy + t * l.dy)
            }
            guard let l0 = sideLine(0), let l1 = sideLine(1), let l2 = sideLine(2), let l3 = sideLine(3) else {
                return nil
            }
            // Corner k lies between side k - 1 and side k.
            guard let p0 = meet(l3, l0), let p1 = meet(l0, l1), let p2 = meet(l1, l2), let p3 = meet(l2, l3) else {
                return nil
            }
            return (p0, p1, p2, p3)
        }
    }

    /// Follows the timing pattern of a Micro QR symbol along row 0 (or
    /// column 0 when `column`) from the separator at module 7 to the quiet
    /// zone (ISO/IEC 18004:2015, 6.3.5), and returns the symbol size: 7
    /// plus the number of boundaries between alternating modules, when the
    /// alternation ends on a dark module followed by at least 1.5 modules of
    /// quiet zone and gives a valid size (11, 13, 15 or 17).
    ///
    /// `grid` is a first, affine grid (module to frame coordinates) from the
    /// finder pattern; the walk adapts the module length to the boundaries
    /// it passes, so a symbol seen at an angle, whose modules shrink along
    /// the row, is followed too. Each boundary, module position and frame
    /// position, is added to the detector's point pairs (``addPair(_:_:)``).
    ///
    /// With an `expected` size, the walk ends at that size's last module
    /// when a light module follows it: the quiet zone may be narrower.
    func microTiming(
        _ img: LumaView, _ grid: PerspectiveTransform, column: Bool, inverted: Bool, expected: Int? = nil
    ) -> Int? {
        let step = 0.1
        let sign: Double = inverted ? -1 : 1
        func level(_ t: Double) -> Double? {
            lightness(img, column ? grid.map(0.5, t) : grid.map(t, 0.5), sign: sign)
        }
        let first = pairCount
        func fail() -> Int? {
            pairCount = first
            return nil
        }
        var t = 7.5
        guard var previous = level(t), previous > 0 else { return nil }
        var lastBoundary = 7.0
        var length = 1.0
        var boundaries = 0
        while t < 24 {
            guard let next = level(t + step) else { break }
            if (previous > 0) != (next > 0) {
                let at = t + step * previous / (previous - next)
                let run = at - lastBoundary
                if run < 0.5 * length || run > 1.6 * length { return fail() }
                length = 0.5 * length + 0.5 * run
                boundaries += 1
                lastBoundary = at
                let k = Double(7 + boundaries)
                addPair(
                    column ? Point(x: 0.5, y: k) : Point(x: k, y: 0.5), column ? grid.map(0.5, at) : grid.map(at, 0.5))
                if let e = expected, boundaries == e - 7 {
                    guard next > 0, let after = level(at + 0.5 * length), after > 0 else { return fail() }
                    return e
                }
            } else if next > 0 && t + step - lastBoundary > 1.6 * length {
                // The quiet zone.
                previous = next
                t += step
                break
            }
            previous = next
            t += step
        }
        let size = 7 + boundaries
        guard previous > 0, QRDetector.microSizes.contains(size), t - lastBoundary > 1.5 * length else { return fail() }
        return size
    }

    /// Samples a Micro QR symbol around the lone finder pattern `f`: finds
    /// its corners, tries the four rotations for the one whose top row and
    /// left column carry timing patterns of the same length (the symbol
    /// size), fits the grid to the finder pattern's corners and the
    /// boundaries between the timing patterns' modules, and samples it
    /// (ISO/IEC 18004:2015, 6.3.3 and 6.3.5).
    func fitMicro(_ img: LumaView, _ f: QRFinder) -> QRCandidate? {
        guard f.count >= 2, let (c0, c1, c2, c3) = f.quadMeasured ? f.quad : finderCorners(img, f) else { return nil }
        func corner(_ k: Int) -> Point { k & 3 == 0 ? c0 : k & 3 == 1 ? c1 : k & 3 == 2 ? c2 : c3 }
        for j in 0..<4 {
            let p0 = corner(j), p1 = corner(j + 1), p3 = corner(j + 3)
            let affine = startGrid(corner, j)
            guard let across = microTiming(img, affine, column: false, inverted: f.inverted),
                let down = microTiming(img, affine, column: true, inverted: f.inverted),
                across == down
            else { continue }
            let size = across
            let s = Double(size)
            let from = (0..<pairCount).map { pairFrom[$0] }, to = (0..<pairCount).map { pairTo[$0] }
            let grid = PerspectiveTransform.fitting(from: from, to: to) ?? affine
            guard let matrix = sampleGrid(img, grid, width: size, height: size, inverted: f.inverted) else { continue }
            guard QRDetector.microAgreement(matrix) >= 0.8 else { continue }
            let module = (p0.distance(to: p1) + p0.distance(to: p3)) / 14
            return QRCandidate(
                matrix: matrix, topLeft: grid.map(0, 0), topRight: grid.map(s, 0),
                bottomRight: grid.map(s, s), bottomLeft: grid.map(0, s),
                moduleSize: module, isInverted: f.inverted, isMicro: true,
                sizeConfirmed: true, alternatives: [])
        }
        return fitMicroBySize(img, f, corner)
    }

    /// The affine grid (module to frame coordinates) of the finder pattern
    /// whose corners, clockwise from the symbol's top-left, are `corner(j)`
    /// onwards: stable when extended beyond it, where a projective fit to
    /// its four corners is not. The corners become the detector's first
    /// point pairs.
    private func startGrid(_ corner: (Int) -> Point, _ j: Int) -> PerspectiveTransform {
        let p0 = corner(j), p1 = corner(j + 1), p2 = corner(j + 2), p3 = corner(j + 3)
        let ux = ((p1.x - p0.x) + (p2.x - p3.x)) / 14, uy = ((p1.y - p0.y) + (p2.y - p3.y)) / 14
        let vx = ((p3.x - p0.x) + (p2.x - p1.x)) / 14, vy = ((p3.y - p0.y) + (p2.y - p1.y)) / 14
        let ox = (p0.x + p1.x + p2.x + p3.x) / 4 - 3.5 * (ux + vx)
        let oy = (p0.y + p1.y + p2.y + p3.y) / 4 - 3.5 * (uy + vy)
        pairCount = 0
        addPair(Point(x: 0, y: 0), p0); addPair(Point(x: 7, y: 0), p1)
        addPair(Point(x: 7, y: 7), p2); addPair(Point(x: 0, y: 7), p3)
        return PerspectiveTransform(a11: ux, a12: uy, a13: 0, a21: vx, a22: vy, a23: 0, a31: ox, a32: oy, a33: 1)
    }

    /// A Micro QR symbol whose timing patterns could not be followed
    /// to a quiet zone (a narrow margin; JPEG, blur or noise at one or two
    /// pixels a module): every rotation and every size sampled on the
    /// finder pattern's grid, those whose finder, separator and timing
    /// modules read nine in ten tried, the best first, and the first whose
    /// format information and Reed-Solomon check pass (ISO/IEC
    /// 18004:2015, 7.9.2 and 7.5.2) taken.
    private func fitMicroBySize(_ img: LumaView, _ f: QRFinder, _ corner: (Int) -> Point) -> QRCandidate? {
        var tries: [(agreement: Double, matrix: BitMatrix, grid: PerspectiveTransform)] = []
        for j in 0..<4 {
            // A turn whose finder pattern and separator read poorly on the
            // smallest size's grid is no symbol's (texture full of finder
            // look-alikes stays cheap).
            guard let smallest = sampleGrid(img, startGrid(corner, j), width: 11, height: 11, inverted: f.inverted),
                QRDetector.microAgreement(smallest) >= 0.9
            else { continue }
            for size in QRDetector.microSizes {
                if stop.now { return nil }
                // The timing patterns followed to this size's end where
                // they can be (the grid then fitted to their boundaries).
                let affine = startGrid(corner, j)
                var grid = affine
                if microTiming(img, affine, column: false, inverted: f.inverted, expected: size) != nil,
                    microTiming(img, affine, column: true, inverted: f.inverted, expected: size) != nil,
                    let fitted = PerspectiveTransform.fitting(
                        from: (0..<pairCount).map { pairFrom[$0] }, to: (0..<pairCount).map { pairTo[$0] })
                {
                    grid = fitted
                }
                guard let m = sampleGrid(img, grid, width: size, height: size, inverted: f.inverted) else { continue }
                let a = QRDetector.microAgreement(m)
                if a >= 0.9 { tries.append((a, m, grid)) }
            }
        }
        for t in tries.sorted(by: { $0.agreement > $1.agreement }) {
            guard let d = QRDecoder.decode(t.matrix) else { continue }
            let s = Double(t.matrix.width), g = t.grid
            return QRCandidate(
                matrix: t.matrix, topLeft: g.map(0, 0), topRight: g.map(s, 0), bottomRight: g.map(s, s),
                bottomLeft: g.map(0, s),
                moduleSize: (corner(0).distance(to: corner(1)) + corner(0).distance(to: corner(3))) / 14,
                isInverted: f.inverted, isMicro: true, sizeConfirmed: true, alternatives: [], decoded: d,
                decodeTried: true)
        }
        return nil
    }

    /// The fraction of a Micro QR matrix's finder pattern, separator and
    /// timing pattern modules that read as they must.
    static func microAgreement(_ m: BitMatrix) -> Double {
        var good = 0, total = 0
        for j in 0..<8 {
            for i in 0..<8 {
                let ring = max(abs(i - 3), abs(j - 3))
                let dark = i < 7 && j < 7 && ring != 2
                if m[i, j] == dark { good += 1 }
                total += 1
            }
        }
        for k in 8..<m.width {
            if m[k, 0] == (k % 2 == 0) { good += 1 }
            if m[0, k] == (k % 2 == 0) { good += 1 }
            total += 2
        }
        return Double(good) / Double(total)
    }
}
