/// Shared pieces of the GS1 DataBar readers (ISO/IEC 24724:2011).
///
/// A DataBar data character is a run of bars and spaces whose widths, read
/// in the character's reading direction, split into "odd" elements (the
/// 1st, 3rd, 5th... ) and "even" elements. Each set carries a number by the
/// standard's combinatorial method (clause "Data character value
/// calculation": the rank of the set of widths among all sets with the same
/// element count, module total and widest element, with or without the
/// "no narrow element" restriction), and the character's group, found from
/// the odd module total, gives the multiplier and offset of the two numbers
/// (the standard's group tables for each character type).
enum DataBar {
    /// n choose r, 0 when r is out of range.
    @inline(__always)
    static func combinations(_ n: Int, _ r: Int) -> Int {
        guard r >= 0, n >= r else { return 0 }
        let k = min(r, n - r)
        var result = 1
        var i = 0
        while i < k {
            result = result * (n - i) / (i + 1)
            i += 1
        }
        return result
    }

    /// Whether the five elements from `first` (with `step`) may be a
    /// finder pattern of DataBar or DataBar Expanded (clause "Finder
    /// patterns"): the readers' finder match needs its last two elements
    /// each 0.4 to 1.9 of its fifteen modules, and every pattern has ten
    /// modules or more in the middle two, which a match may miss by less
    /// than 3.2. The same tests as the match's first ones, without a
    /// division: most places in a scan line fail them.
    @inline(__always)
    static func couldBeFinder(_ w: UnsafePointer<Float>, _ first: Int, step: Int) -> Bool {
        let e0 = w[first], e1 = w[first + step], e2 = w[first + 2 * step]
        let e3 = w[first + 3 * step], e4 = w[first + 4 * step]
        let total = e0 + e1 + e2 + e3 + e4
        // A little slack either way for rounding.
        let lo = total * (0.39 / 15), hi = total * (1.91 / 15)
        return total > 0 && e3 > lo && e3 < hi && e4 > lo && e4 < hi && e1 + e2 > total * (6.7 / 15)
    }

    /// The checksum weights 3^k modulo `modulus` for k from 0 to `count` - 1:
    /// the standard's tables of check character weights, where each
    /// element's weight is three times the one before (clause "Check
    /// character calculation"). The caller deallocates them.
    static func checksumWeights(count: Int, modulus: Int) -> UnsafeMutablePointer<Int> {
        let weights = UnsafeMutablePointer<Int>.allocate(capacity: count)
        var p = 1
        for k in 0..<count { (weights + k).initialize(to: p); p = p * 3 % modulus }
        return weights
    }

    /// The finder pattern among `patterns` (widths in modules, clause
    /// "Finder patterns") that the five elements from `first` (with `step`)
    /// match best, scaled to fifteen modules, and its error. A match needs
    /// its last two elements each 0.4 to 1.9 modules, its first under
    /// `maxFirst`, and a mismatch under 3.2 summed over the five widths and
    /// the first two edge-to-similar-edge distances.
    @inline(__always)
    static func finder(
        _ w: UnsafePointer<Float>, _ first: Int, step: Int, patterns: [(Float, Float, Float, Float, Float)],
        maxFirst: Float = .infinity
    ) -> (value: Int, error: Float)? {
        let e0 = w[first], e1 = w[first + step], e2 = w[first + 2 * step]
        let e3 = w[first + 3 * step], e4 = w[first + 4 * step]
        let total = e0 + e1 + e2 + e3 + e4
        guard total > 0 else { return nil }
        let k = 15 / total
        let n0 = e0 * k, n1 = e1 * k, n2 = e2 * k, n3 = e3 * k, n4 = e4 * k
        guard n3 > 0.4, n3 < 1.9, n4 > 0.4, n4 < 1.9, n0 < maxFirst else { return nil }
        var best: Float = .infinity, bestValue = -1
        for v in 0..<patterns.count {
            let p = patterns[v]
            let e =
                abs(n0 - p.0) + abs(n1 - p.1) + abs(n2 - p.2) + abs(n3 - p.3) + abs(n4 - p.4)
                + abs(n0 + n1 - p.0 - p.1) + abs(n1 + n2 - p.1 - p.2)
            if e < best { best = e; bestValue = v }
        }
        guard best < 3.2 else { return nil }
        return (bestValue, best / 7)
    }

    /// The value of `count` element widths (in modules) whose widest element
    /// is at most `maxWidth`. With `narrowRequired` only the patterns holding
    /// a one-module element are counted, as the standard's width algorithm
    /// does when its "no narrow" flag is clear.
    static func value(_ widths: UnsafePointer<Int>, count elements: Int, maxWidth: Int, narrowRequired: Bool) -> Int {
        var n = 0
        for i in 0..<elements { n += widths[i] }
        var value = 0
        var narrowMask = 0
        var bar = 0
        while bar < elements - 1 {
            var elmWidth = 1
            narrowMask |= 1 << bar
            while elmWidth < widths[bar] {
                var sub = combinations(n - elmWidth - 1, elements - bar - 2)
                if narrowRequired, narrowMask == 0, n - elmWidth - (elements - bar - 1) >= elements - bar - 1 {
                    sub -= combinations(n - elmWidth - (elements - bar), elements - bar - 2)
                }
                if elements - bar - 1 > 1 {
                    var less = 0
                    var widest = n - elmWidth - (elements - bar - 2)
                    while widest > maxWidth {
                        less += combinations(n - elmWidth - widest - 1, elements - bar - 3)
                        widest -= 1
                    }
                    sub -= less * (elements - 1 - bar)
                } else if n - elmWidth > maxWidth {
                    sub -= 1
                }
                value += sub
                elmWidth += 1
                narrowMask &= ~(1 << bar)
            }
            n -= elmWidth
            bar += 1
        }
        return value
    }

    /// Rounds `count` measured widths (taken from `w[first]` with `step` +1
    /// or -1, so a character can be read in either direction) to whole
    /// modules of a character `modules` wide, into `out`.
    ///
    /// The odd elements are made to total one of the sums allowed by the
    /// character type (`oddSums`: bit s set when s is allowed), the nearest
    /// to what was measured, and the even elements the rest; rounding moves
    /// go to the elements whose measured width is furthest from their whole
    /// number, as the standard's reference decode suggests for
    /// odd/even sum corrections. A uniform ink spread (bars wider, spaces
    /// narrower, up to 0.7 module) is taken out first.
    ///
    /// - Returns: the mean distance between the measured and the rounded
    ///   widths (modules), or `nil` when no allowed sum fits.
    static func quantize(
        _ w: UnsafePointer<Float>, first: Int, step: Int, count: Int, modules: Int, oddSums: UInt64,
        scaled: UnsafeMutablePointer<Float>, out: UnsafeMutablePointer<Int>
    ) -> Float? {
        var total: Float = 0
        for k in 0..<count { total += w[first + step * k] }
        guard total > 0 else { return nil }
        let scale = Float(modules) / total
        for k in 0..<count { scaled[k] = w[first + step * k] * scale }
        // Ink spread or blooming makes every bar wider (or narrower) and
        // every space narrower (or wider) by one amount: take out the
        // amount that brings the widths nearest to whole modules (bars and
        // spaces alternate and are as many, so the total does not change).
        var bestSpread: Float = 0, bestFit: Float = .infinity
        var spread: Float = -0.7
        while spread <= 0.701 {
            var fit: Float = 0.15 * abs(spread)
            for k in 0..<count {
                let c = scaled[k] + (k & 1 == 0 ? spread : -spread)
                // Nearest whole number of modules, at least 1 (c > -1 here:
                // truncating c + 0.5 is rounding, without a libm call).
                fit += abs(c - max(1, Float(Int(c + 0.5))))
            }
            if fit < bestFit { bestFit = fit; bestSpread = spread }
            spread += 0.05
        }
        var oddMeasured: Float = 0
        for k in 0..<count {
            let s = scaled[k] + (k & 1 == 0 ? bestSpread : -bestSpread)
            scaled[k] = s
            out[k] = max(1, Int(s.rounded()))
            if k & 1 == 0 { oddMeasured += s }
        }
        // The allowed odd total nearest to the measured one.
        var target = -1
        var bestDistance: Float = .infinity
        for s in 0..<64 where oddSums & (1 << UInt64(s)) != 0 {
            let d = abs(Float(s) - oddMeasured)
            if d < bestDistance { bestDistance = d; target = s }
        }
        guard target > 0, bestDistance < 1.6 else { return nil }
        guard adjust(scaled, out, from: 0, count: count, to: target),
            adjust(scaled, out, from: 1, count: count, to: modules - target)
        else { return nil }
        var error: Float = 0
        for k in 0..<count { error += abs(scaled[k] - Float(out[k])) }
        return error / Float(count)
    }

    /// Moves the rounded widths of the elements `from`, `from + 2`, ... until
    /// they total `target`, one module at a time where rounding erred most.
    @inline(__always)
    private static func adjust(
        _ scaled: UnsafeMutablePointer<Float>, _ out: UnsafeMutablePointer<Int>,
        from: Int, count: Int, to target: Int
    ) -> Bool {
        var sum = 0
        var k = from
        while k < count { sum += out[k]; k += 2 }
        guard target >= (count - from + 1) / 2 else { return false }
        var guardCount = 0
        while sum != target && guardCount < 16 {
            guardCount += 1
            var pick = -1
            var best: Float = -.infinity
            k = from
            while k < count {
                // Growing: the element most under-rounded; shrinking: the most over-rounded.
                let residual = sum < target ? scaled[k] - Float(out[k]) : Float(out[k]) - scaled[k]
                if (sum < target || out[k] > 1) && residual > best { best = residual; pick = k }
                k += 2
            }
            guard pick >= 0 else { return false }
            if sum < target { out[pick] += 1; sum += 1 } else { out[pick] -= 1; sum -= 1 }
        }
        return sum == target
    }

    /// Writes the GS1 modulo-10 check digit of the 13 digits at `d` to `d[13]`.
    static func appendCheckDigit(_ d: UnsafeMutablePointer<UInt8>) {
        var sum = 0
        for i in 0..<13 { sum += Int(d[i]) * (i % 2 == 0 ? 3 : 1) }
        d[13] = UInt8((10 - sum % 10) % 10)
    }

    /// Appends a hit for a symbol assembled from rows (no run: its ends
    /// come from the rows), with the raw element string `01` + the GTIN
    /// at `gtin` and `(01)` + GTIN as its extra text.
    static func emitGTIN(
        _ gtin: UnsafeMutablePointer<UInt8>, symbology: Symbology, error: Float,
        bytes: UnsafeMutablePointer<UInt8>, sink: inout LinearHitSink
    ) {
        let (textOffset, extraOffset) = storeGTIN(gtin, bytes: bytes, sink: &sink)
        sink.append(
            LinearHit(
                symbology: symbology, textOffset: textOffset, textCount: 16,
                addOnOffset: textOffset, addOnCount: 0,
                extraOffset: extraOffset, extraCount: 18,
                firstElement: 0, lastElement: 0, start: 0, end: 0, error: error, aimModifier: 48))
    }

    /// Stores `01` + the 14 digits at `gtin` (digit values) and `(01)` +
    /// the same digits in the sink, through `bytes` (34 bytes of scratch);
    /// returns where the two texts are.
    private static func storeGTIN(
        _ gtin: UnsafeMutablePointer<UInt8>, bytes: UnsafeMutablePointer<UInt8>,
        sink: inout LinearHitSink
    ) -> (text: Int, extra: Int) {
        bytes[0] = 48; bytes[1] = 49
        bytes[16] = 40; bytes[17] = 48; bytes[18] = 49; bytes[19] = 41
        for i in 0..<14 {
            bytes[2 + i] = gtin[i] + 48
            bytes[20 + i] = gtin[i] + 48
        }
        return (
            sink.store(UnsafeBufferPointer(start: bytes, count: 16)),
            sink.store(UnsafeBufferPointer(start: bytes + 16, count: 18))
        )
    }

    /// Stores the raw element string `01` + the 14-digit GTIN at `gtin`
    /// (digit values) as the hit's text and its human-readable form
    /// `(01)` + GTIN as its extra text, and appends the hit.
    static func emitGTIN(
        _ gtin: UnsafeMutablePointer<UInt8>, symbology: Symbology, run: borrowing ElementRun,
        first: Int, last: Int, error: Float, bytes: UnsafeMutablePointer<UInt8>,
        sink: inout LinearHitSink
    ) {
        let (textOffset, extraOffset) = storeGTIN(gtin, bytes: bytes, sink: &sink)
        let s = run.starts.pointer, w = run.widths.pointer
        sink.append(
            LinearHit(
                symbology: symbology, textOffset: textOffset, textCount: 16,
                addOnOffset: textOffset, addOnCount: 0,
                extraOffset: extraOffset, extraCount: 18,
                firstElement: first, lastElement: last,
                start: s[first], end: s[last] + w[last], error: error, aimModifier: 48))
    }
}

/// A DataBar symbol whose left guard bar the scan line's start cut off: its
/// first character's first width is lost in the run's leading space. When
/// elements 8...12 form a finder, that width is rebuilt from the first
/// character's `modules` (elements 1...7 and the rebuilt one span them at
/// the finder's module size) and `buffer` receives the run's widths with
/// it in place of element 0 (the run itself is not the reader's to change).
///
/// - Returns: whether the rebuilt width is plausible (at least half a
///   module, and within the leading space).
func rebuildCutFirstWidth(
    _ w: UnsafeMutablePointer<Float>, count n: Int, modules: Float,
    into buffer: inout ScratchBuffer<Float>
) -> Bool {
    var fw: Float = 0, rest: Float = 0
    for k in 8...12 { fw += w[k] }
    for k in 1...7 { rest += w[k] }
    let rebuilt = modules * fw / 15 - rest
    guard rebuilt > 0.5 * fw / 15, rebuilt < w[0] + 0.5 * fw / 15 else { return false }
    buffer.reserve(n)
    buffer.pointer.update(from: w, count: n)
    buffer[0] = rebuilt
    return true
}
