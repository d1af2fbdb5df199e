/// EAN-13, UPC-A, EAN-8 and UPC-E with their EAN-2 and EAN-5 add-ons.
///
/// Implements ISO/IEC 15420:2009 (EAN/UPC bar code symbology
/// specification), clause "Requirements": the symbol structures of EAN-13,
/// UPC-A, EAN-8 and UPC-E (guard patterns, number sets A, B and C, the
/// leading digit of EAN-13 coded in the set pattern of the left half,
/// UPC-E's check digit coded in its set pattern, and its expansion to
/// UPC-A), the modulo-10 check digit, the add-on symbols (EAN-2 set pattern
/// by value modulo 4, EAN-5 set pattern by its weighted check value), the
/// quiet zones, and the symbology identifiers `]E0`, `]E3` and `]E4`.
///
/// Characters are classified from widths normalised by the character's own
/// seven modules, using both element widths and the edge-to-similar-edge
/// sums of the standard's reference decode algorithm, so ink spread, blur
/// and perspective along the line cost little.
final class EANReader: LinearReader {
    var symbologies: Symbology { .eanUPC }

    /// Number set A (odd parity) as widths space-bar-space-bar; set C has
    /// the same widths starting with a bar; set B is set A reversed.
    static let setA: [(Float, Float, Float, Float)] = [
        (3, 2, 1, 1), (2, 2, 2, 1), (2, 1, 2, 2), (1, 4, 1, 1), (1, 1, 3, 2),
        (1, 2, 3, 1), (1, 1, 1, 4), (1, 3, 1, 2), (1, 2, 1, 3), (3, 1, 1, 2)
    ]
    /// EAN-13 leading digit from the set pattern of the left half
    /// (bit 5 - i set = set B at position i).
    static let leadingParity: [UInt8] = [
        0b000000, 0b001011, 0b001101, 0b001110, 0b010011,
        0b011001, 0b011100, 0b010101, 0b010110, 0b011010
    ]
    /// UPC-E, number system 0: set pattern (bit 5 - i set = set B) by check digit.
    static let upcEParity: [UInt8] = [
        0b111000, 0b110100, 0b110010, 0b110001, 0b101100,
        0b100110, 0b100011, 0b101010, 0b101001, 0b100101
    ]
    /// EAN-5 set pattern (bit 4 - i set = set B) by check value.
    static let ean5Parity: [UInt8] = [
        0b11000, 0b10100, 0b10010, 0b10001, 0b01100,
        0b00110, 0b00011, 0b01010, 0b01001, 0b00101
    ]

    /// The largest per-character error accepted.
    var maxCharError: Float = 2.0
    /// Quiet zone required on each side, in modules (the standard asks for 7
    /// or more; photos crop closer). A quiet zone cut by the end of the scan
    /// line needs half a module; where that end lies on the frame's border,
    /// none (``ElementRun/reachesFrameBorder(_:)``).
    var minQuietZone: Float = 5

    /// Whether element `i` (a space) is a quiet zone for module `m`.
    ///
    /// A space shorter than the quiet zone still counts when the grey levels
    /// over the whole quiet zone stay lighter than halfway between the
    /// symbol's guard bars and spaces: specks of a textured label make short
    /// "spaces" of the background without being bars.
    ///
    /// A space reaching the frame's border counts whatever its width
    /// (ISO/IEC 15420:2009, "Requirements", the quiet zones: they let a
    /// reader find the symbol's ends): the picture ends where the symbol
    /// does. What tells a symbol the border cuts short from a whole one
    /// stays required: the guard patterns at their places, the number of
    /// characters, the set pattern and the modulo-10 check digit. Not for
    /// UPC-E (`border` false): six digits whose check digit is only their
    /// set pattern, which random stripes reaching the border can match; it
    /// keeps half a module at the line's end.
    @inline(__always)
    func quiet(
        _ run: borrowing ElementRun, _ i: Int, module m: Float, leading: Bool = false,
        border: Bool = true
    ) -> Bool {
        let w = run.widths[i]
        let need = minQuietZone * m
        if !border, run.profile != nil { return plainMargin(run, i, module: m, leading: leading) }
        if w >= need { return true }
        let last = run.count - 1
        if i == 0 || i == last {
            if w >= 0.5 * m { return true }
            if border, run.reachesFrameBorder(i) { return true }
        }
        let s = run.starts.pointer
        guard let levels = guardLevels(run, i, leading: leading) else { return false }
        let level = (levels.bar + levels.space) / 2
        let from = leading ? s[i + 1] - need : s[i]
        let to = leading ? s[i + 1] : s[i] + need
        guard from >= 0, to <= run.lineLength else { return false }
        return run.isClear(from: from, to: to, level: level)
    }

    /// UPC-E's quiet zone, judged on the profile: a space at least half a
    /// module wide where the line ends, else half of ``minQuietZone`` (a
    /// speck may break the rest), the whole zone on the line, and from
    /// a module off the guard (its edge's blur) to the zone's end the grey
    /// levels stay within ``plainTolerance`` of the symbol's contrast from
    /// its space level, measured on the guard. Six digits whose check digit
    /// is only their set pattern are matched by the grey stripes of another
    /// code blurred beyond reading; its margin there is not paper.
    private func plainMargin(_ run: borrowing ElementRun, _ i: Int, module m: Float, leading: Bool) -> Bool {
        let w = run.widths[i]
        let need = minQuietZone * m
        let last = run.count - 1
        let atEnd = i == 0 || i == last
        if w < (atEnd ? 0.5 * m : 0.5 * need) { return false }
        let s = run.starts.pointer
        guard let levels = guardLevels(run, i, leading: leading), abs(levels.space - levels.bar) > 8 else {
            return false
        }
        let level = levels.space + (levels.bar - levels.space) * EANReader.plainTolerance
        let edge = leading ? s[i + 1] : s[i]
        let reach = min(need, atEnd ? w : need)
        let from = max(0, leading ? edge - reach : edge + m)
        let to = min(run.lineLength - 1, leading ? edge - m : edge + reach)
        // A margin cut by the line's end within a module of the guard: its blur only.
        if to <= from { return atEnd }
        if !atEnd {
            let length = run.lineLength
            if leading ? edge - need < 0 : edge + need > length { return false }
        }
        return run.isClear(from: from, to: to, level: level)
    }

    /// The symbol's bar and space levels, measured on the guard next to
    /// the quiet zone `i` (three elements).
    private func guardLevels(_ run: borrowing ElementRun, _ i: Int, leading: Bool) -> (bar: Float, space: Float)? {
        let s = run.starts.pointer, widths = run.widths.pointer
        guard leading ? i + 3 <= run.count - 1 : i >= 3 else { return nil }
        let from = leading ? s[i + 1] : s[max(0, i - 3)]
        let to = leading ? s[i + 3] + widths[i + 3] : s[i]
        return run.levels(from: from, to: to)
    }

    /// How far from the space level (a share of the symbol's contrast) a
    /// UPC-E margin may go (``plainMargin(_:_:module:leading:)``).
    static let plainTolerance: Float = 0.3

    /// Digits of the code being decoded (13 + 5 add-on at most).
    /// (0-12 main code, 13-17 add-on, 20-25 UPC-E's six digits, 26-33 UPC-E printed form.)
    private let digits = UnsafeMutablePointer<UInt8>.allocate(capacity: 40)

    /// The line's run with the bars cut by its ends as elements (``ElementRun/framed(into:)``).
    private var framed = ElementRun()

    init() { digits.initialize(repeating: 0, count: 40) }
    deinit { digits.deallocate(); framed.free() }

    /// Classifies four widths as a digit. `allowB` admits set B;
    /// `barFirst` says the first width is a bar (right half) rather than a
    /// space.
    ///
    /// The error combines the three edge-to-similar-edge sums with the
    /// element widths. When no pattern fits, the widths are tried again
    /// after removing the best uniform spread (bars wider and spaces
    /// narrower by one amount, up to 0.6 module), which ink spread and
    /// blooming cause; the edge sums do not change with it.
    /// - Returns: digit, whether set B, and the error; `nil` when nothing fits.
    @inline(__always)
    func digit(_ w0: Float, _ w1: Float, _ w2: Float, _ w3: Float, allowB: Bool, barFirst: Bool = false)
        -> (digit: Int, isB: Bool, error: Float)?
    {
        let total = w0 + w1 + w2 + w3
        guard total > 0 else { return nil }
        let k = 7 / total
        let n0 = w0 * k, n1 = w1 * k, n2 = w2 * k, n3 = w3 * k
        // +1 when the first width is a bar.
        let s0: Float = barFirst ? 1 : -1
        for pass in 0..<2 {
            var best: Float = .infinity, second: Float = .infinity
            var bestDigit = -1, bestB = false
            for d in 0..<10 {
                let p = EANReader.setA[d]
                for b in 0..<(allowB ? 2 : 1) {
                    let (p0, p1, p2, p3) = b == 0 ? p : (p.3, p.2, p.1, p.0)
                    let edge = abs(n0 + n1 - p0 - p1) + abs(n1 + n2 - p1 - p2) + abs(n2 + n3 - p2 - p3)
                    let r0 = n0 - p0, r1 = n1 - p1, r2 = n2 - p2, r3 = n3 - p3
                    var e: Float
                    if pass == 0 {
                        e = edge + 0.5 * (abs(r0) + abs(r1) + abs(r2) + abs(r3))
                    } else {
                        let spread = min(max(s0 * (r0 + r2 - r1 - r3) / 4, -0.6), 0.6)
                        e =
                            edge + 0.5
                            * (abs(r0 - s0 * spread) + abs(r1 + s0 * spread)
                                + abs(r2 - s0 * spread) + abs(r3 + s0 * spread)) + 0.5 * abs(spread)
                    }
                    if e < best {
                        second = best; best = e; bestDigit = d; bestB = b == 1
                    } else if e < second {
                        second = e
                    }
                }
            }
            if best <= maxCharError, second - best > 0.1 { return (bestDigit, bestB, best) }
        }
        return nil
    }

    /// Whether `count` elements from `i` each measure about one module.
    @inline(__always)
    func guardOK(_ w: UnsafeMutablePointer<Float>, _ i: Int, _ count: Int, module m: Float) -> Bool {
        let lo = 0.3 * m, hi = 2.2 * m
        for k in i..<(i + count) where w[k] < lo || w[k] > hi { return false }
        return true
    }

    /// Sum of `count` widths from `i`.
    @inline(__always)
    func span(_ w: UnsafeMutablePointer<Float>, _ i: Int, _ count: Int) -> Float {
        var s: Float = 0
        for k in i..<(i + count) { s += w[k] }
        return s
    }

    /// Sum of `count` widths from `i`, from the elements' start positions
    /// (each element starts where the one before it ends): one subtraction
    /// instead of `count` additions at each of a line's places.
    @inline(__always)
    func span(_ run: borrowing ElementRun, _ i: Int, _ count: Int) -> Float {
        let last = i + count - 1
        return run.starts.pointer[last] + run.widths.pointer[last] - run.starts.pointer[i]
    }

    /// The GS1 modulo-10 check over `count` digits (the last is the check digit).
    static func checkDigitOK(_ d: UnsafePointer<UInt8>, count: Int) -> Bool {
        GS1.checkDigitOK(d, count: count)
    }

    func decode(_ run: borrowing ElementRun, enabled: Symbology, into sink: inout LinearHitSink) {
        // A symbol may reach the frame's border, its outer guard bar cut by
        // the line's end: the run is read again with the cut bars as
        // elements, for the symbols that start or end at the border.
        run.readWithCutBars(scratch: &framed) { r, borderOnly in
            if borderOnly {
                decodeAtBorder(r, enabled: enabled, into: &sink)
            } else {
                decodeRun(r, enabled: enabled, into: &sink)
            }
        }
    }

    /// Reads the symbols of a run framed by ``ElementRun/framed(into:)``
    /// that begin at its first bar or end at its last (59 elements for
    /// EAN-13 and UPC-A, 43 for EAN-8; UPC-E takes no border for its quiet
    /// zone, see ``quiet(_:_:module:leading:border:)``).
    private func decodeAtBorder(_ run: borrowing ElementRun, enabled: Symbology, into sink: inout LinearHitSink) {
        let n = run.count
        if run.isFrameBorder(0) && n > 34 { decodeSymbol(run, 1, enabled, &sink) }
        guard run.isFrameBorder(n - 1) else { return }
        if enabled.contains(.ean13) || enabled.contains(.upcA), n - 60 >= 1 {
            _ = decode13(run, n - 60, enabled, &sink)
        }
        if enabled.contains(.ean8), n - 44 >= 1 { _ = decode8(run, n - 44, enabled, &sink) }
    }

    /// Tries EAN-13 (or UPC-A), EAN-8 and UPC-E at bar `b`, the first that
    /// reads; returns the elements it consumed, 0 when none.
    @discardableResult
    private func decodeSymbol(
        _ run: borrowing ElementRun, _ b: Int, _ enabled: Symbology,
        _ sink: inout LinearHitSink
    ) -> Int {
        var consumed = 0
        if enabled.contains(.ean13) || enabled.contains(.upcA) { consumed = decode13(run, b, enabled, &sink) }
        if consumed == 0 && enabled.contains(.ean8) { consumed = decode8(run, b, enabled, &sink) }
        if consumed == 0 && enabled.contains(.upcE) { consumed = decodeE(run, b, enabled, &sink) }
        return consumed
    }

    /// Reads every symbol of `run`.
    private func decodeRun(_ run: borrowing ElementRun, enabled: Symbology, into sink: inout LinearHitSink) {
        let n = run.count
        var b = 1
        while b + 33 < n {
            let consumed = decodeSymbol(run, b, enabled, &sink)
            b += consumed > 0 ? consumed : 2
        }
    }

    /// Reads `count` characters of 4 elements from element `i` on; set B
    /// admitted when `allowB`. Digits go to `digits[at...]`; the set pattern
    /// (bit count-1-k set = set B) and summed error are returned.
    @inline(__always)
    private func chars(
        _ w: UnsafeMutablePointer<Float>, _ i: Int, _ count: Int, step: Int, allowB: Bool, at: Int,
        barFirst: Bool = false
    )
        -> (pattern: UInt8, error: Float)?
    {
        var pattern: UInt8 = 0, err: Float = 0
        for k in 0..<count {
            let j = i + step * k
            guard let c = digit(w[j], w[j + 1], w[j + 2], w[j + 3], allowB: allowB, barFirst: barFirst) else {
                return nil
            }
            digits[at + k] = UInt8(c.digit)
            if c.isB { pattern |= 1 << UInt8(count - 1 - k) }
            err += c.error
        }
        return (pattern, err)
    }

    /// EAN-13 / UPC-A at bar `b`: 59 elements, 95 modules. Returns elements consumed, 0 when none.
    private func decode13(_ run: borrowing ElementRun, _ b: Int, _ enabled: Symbology, _ sink: inout LinearHitSink)
        -> Int
    {
        let w = run.widths.pointer
        guard b + 59 < run.count else { return 0 }
        let m = span(run, b, 59) / 95
        // Each quiet zone in the module at its own end (the guard and the
        // character next to it, 10 modules): perspective and curvature
        // narrow the modules towards one end or both.
        let mStart = min(m, span(run, b, 7) / 10), mEnd = min(m, span(run, b + 52, 7) / 10)
        // Guards first: they are cheap and rule out most positions.
        guard guardOK(w, b, 3, module: m), guardOK(w, b + 27, 5, module: m), guardOK(w, b + 56, 3, module: m),
            quiet(run, b - 1, module: mStart, leading: true), quiet(run, b + 59, module: mEnd),
            let left = chars(w, b + 3, 6, step: 4, allowB: true, at: 1),
            let right = chars(w, b + 32, 6, step: 4, allowB: false, at: 7, barFirst: true),
            let lead = EANReader.leadingParity.firstIndex(of: left.pattern)
        else { return 0 }
        digits[0] = UInt8(lead)
        guard EANReader.checkDigitOK(digits, count: 13) else { return 0 }
        let sym: Symbology = lead == 0 && enabled.contains(.upcA) ? .upcA : .ean13
        guard enabled.contains(sym) else { return 0 }
        emit(
            run, sym, count: 13, first: b, last: b + 58, module: m, error: (left.error + right.error) / 12,
            enabled: enabled, sink: &sink)
        return 58
    }

    /// EAN-8 at bar `b`: 43 elements, 67 modules.
    private func decode8(_ run: borrowing ElementRun, _ b: Int, _ enabled: Symbology, _ sink: inout LinearHitSink)
        -> Int
    {
        let w = run.widths.pointer
        guard b + 43 < run.count else { return 0 }
        let m = span(run, b, 43) / 67
        // The quiet zones in the modules at their ends, as for EAN-13.
        let mStart = min(m, span(run, b, 7) / 10), mEnd = min(m, span(run, b + 36, 7) / 10)
        guard guardOK(w, b, 3, module: m), guardOK(w, b + 19, 5, module: m), guardOK(w, b + 40, 3, module: m),
            quiet(run, b - 1, module: mStart, leading: true), quiet(run, b + 43, module: mEnd),
            let left = chars(w, b + 3, 4, step: 4, allowB: false, at: 0),
            let right = chars(w, b + 24, 4, step: 4, allowB: false, at: 4, barFirst: true),
            EANReader.checkDigitOK(digits, count: 8)
        else { return 0 }
        emit(
            run, .ean8, count: 8, first: b, last: b + 42, module: m, error: (left.error + right.error) / 8,
            enabled: enabled, sink: &sink)
        return 42
    }

    /// UPC-E at bar `b`: 33 elements, 51 modules, expanded to a UPC-A GTIN.
    private func decodeE(_ run: borrowing ElementRun, _ b: Int, _ enabled: Symbology, _ sink: inout LinearHitSink)
        -> Int
    {
        let w = run.widths.pointer
        guard b + 33 < run.count else { return 0 }
        let m = span(run, b, 33) / 51
        // The quiet zones in the modules at their ends, as for EAN-13 (the
        // last character and the 6-module end guard: 13 modules).
        let mStart = min(m, span(run, b, 7) / 10), mEnd = min(m, span(run, b + 23, 10) / 13)
        guard guardOK(w, b, 3, module: m), guardOK(w, b + 27, 6, module: m),
            quiet(run, b - 1, module: mStart, leading: true, border: false),
            quiet(run, b + 33, module: mEnd, border: false),
            let chars6 = chars(w, b + 3, 6, step: 4, allowB: true, at: 20)
        else { return 0 }
        var system = -1, check = -1
        if let c = EANReader.upcEParity.firstIndex(of: chars6.pattern) {
            system = 0; check = c
        } else if let c = EANReader.upcEParity.firstIndex(of: ~chars6.pattern & 0b111111) {
            system = 1; check = c
        }
        guard system >= 0 else { return 0 }
        // Expand to UPC-A (digits[1..12]) with a leading 0 for the GTIN-13.
        let e = digits + 20
        let a = digits
        a[0] = 0; a[1] = UInt8(system)
        for i in 2...11 { a[i] = 0 }
        switch e[5] {
        case 0, 1, 2:
            a[2] = e[0]; a[3] = e[1]; a[4] = e[5]; a[9] = e[2]; a[10] = e[3]; a[11] = e[4]
        case 3:
            a[2] = e[0]; a[3] = e[1]; a[4] = e[2]; a[10] = e[3]; a[11] = e[4]
        case 4:
            a[2] = e[0]; a[3] = e[1]; a[4] = e[2]; a[5] = e[3]; a[11] = e[4]
        default:
            a[2] = e[0]; a[3] = e[1]; a[4] = e[2]; a[5] = e[3]; a[6] = e[4]; a[11] = e[5]
        }
        a[12] = UInt8(check)
        guard EANReader.checkDigitOK(a, count: 13) else { return 0 }
        // The printed 8-digit form: number system, the six digits, check digit.
        digits[26] = UInt8(system)
        for i in 0..<6 { digits[27 + i] = e[i] }
        digits[33] = UInt8(check)
        emit(
            run, .upcE, count: 13, first: b, last: b + 32, module: m, error: chars6.error / 6,
            enabled: enabled, sink: &sink, extra: 26, extraCount: 8)
        return 32
    }

    /// Looks for an add-on after the main code's last bar `last`; its digits go to `digits[13...]`.
    /// - Returns: the number of add-on digits (0, 2 or 5) and its last element index.
    private func addOn(_ run: borrowing ElementRun, after last: Int, module m: Float, enabled: Symbology) -> (Int, Int)
    {
        let w = run.widths.pointer
        let a = last + 2
        guard a + 13 < run.count else { return (0, 0) }
        let gap = w[last + 1] / m
        guard gap >= 5, gap <= 16 else { return (0, 0) }
        // Start pattern: bar 1, space 1, bar 2 (modules).
        let startSpan = span(w, a, 3)
        let am = startSpan / 4
        guard am > 0.5 * m, am < 2 * m,
            w[a] / am > 0.3, w[a] / am < 2.2, w[a + 1] / am > 0.3, w[a + 1] / am < 2.2,
            w[a + 2] / am > 1.2, w[a + 2] / am < 3.2
        else { return (0, 0) }
        // EAN-5 first: 31 elements. Its parity pattern is a check digit, so
        // half the quiet zone after it will do: labels are often cut close
        // to the add-on, and the label's edge follows it.
        var trailing5 = false
        if a + 31 < run.count {
            trailing5 = w[a + 31] >= 0.5 * minQuietZone * am
            if !trailing5 { trailing5 = quiet(run, a + 31, module: am) }
        }
        if enabled.contains(.ean5), trailing5 {
            var ok = true
            var pattern: UInt8 = 0
            for k in 0..<5 {
                let j = a + 3 + 6 * k
                if k > 0 && !guardOK(w, j - 2, 2, module: am) { ok = false; break }
                guard let c = digit(w[j], w[j + 1], w[j + 2], w[j + 3], allowB: true) else { ok = false; break }
                digits[13 + k] = UInt8(c.digit)
                if c.isB { pattern |= 1 << UInt8(4 - k) }
            }
            if ok {
                let d = digits + 13
                let v = (3 * (Int(d[0]) + Int(d[2]) + Int(d[4])) + 9 * (Int(d[1]) + Int(d[3]))) % 10
                if EANReader.ean5Parity[v] == pattern { return (5, a + 30) }
            }
        }
        if enabled.contains(.ean2), quiet(run, a + 13, module: am), guardOK(w, a + 7, 2, module: am),
            let c0 = digit(w[a + 3], w[a + 4], w[a + 5], w[a + 6], allowB: true),
            let c1 = digit(w[a + 9], w[a + 10], w[a + 11], w[a + 12], allowB: true)
        {
            let value = c0.digit * 10 + c1.digit
            let pattern = (c0.isB ? 2 : 0) + (c1.isB ? 1 : 0)
            if value % 4 == pattern {
                digits[13] = UInt8(c0.digit); digits[14] = UInt8(c1.digit)
                return (2, a + 12)
            }
        }
        return (0, 0)
    }

    private func emit(
        _ run: borrowing ElementRun, _ sym: Symbology, count: Int, first: Int, last: Int, module m: Float,
        error: Float, enabled: Symbology, sink: inout LinearHitSink, extra: Int = 0, extraCount: Int = 0
    ) {
        var addOnCount = 0
        if enabled.contains(.ean2) || enabled.contains(.ean5) {
            addOnCount = addOn(run, after: last, module: m, enabled: enabled).0
        }
        for i in 0..<34 { digits[i] &+= 48 }  // to ASCII
        defer { for i in 0..<34 { digits[i] &-= 48 } }
        let textOffset = sink.store(UnsafeBufferPointer(start: digits, count: count))
        let addOnOffset = sink.store(UnsafeBufferPointer(start: digits + 13, count: addOnCount))
        var extraOffset = 0, extraLength = extraCount
        if extraCount > 0 {
            extraOffset = sink.store(UnsafeBufferPointer(start: digits + extra, count: extraCount))
        } else if sym == .upcA {
            extraOffset = sink.store(UnsafeBufferPointer(start: digits + 1, count: 12))
            extraLength = 12
        }
        let s = run.starts.pointer, w = run.widths.pointer
        sink.append(
            LinearHit(
                symbology: sym, textOffset: textOffset, textCount: count,
                addOnOffset: addOnOffset, addOnCount: addOnCount,
                extraOffset: extraOffset, extraCount: extraLength,
                firstElement: first, lastElement: last,
                start: s[first], end: s[last] + w[last], error: error))
    }
}
