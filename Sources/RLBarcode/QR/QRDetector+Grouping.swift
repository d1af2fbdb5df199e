#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Grouping finder patterns into triples, each a symbol's three corners.
extension QRDetector {
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
    /// perspective: module sizes up to 2.2 times apart, legs up to three
    /// times as long as each other (a view tilted by 70 degrees squashes
    /// one), corners further from square; the decoder's
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
        guard legRatio < (relaxed ? 3.0 : 1.6) else { return nil }
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

}
