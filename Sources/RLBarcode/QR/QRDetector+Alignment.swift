#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Alignment patterns, and how well a sampled grid shows the function patterns.
extension QRDetector {
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
    func bestAlignment(
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
