/// Codabar (NW-7, USS-Codabar).
///
/// Implements EN 798:1996 (Bar coding, Symbology specifications,
/// "Codabar") and AIM USS-Codabar: the symbol structure (quiet zone, start
/// character, data characters, stop character, quiet zone; each character
/// of four bars and three spaces, two or three of its seven elements wide,
/// characters separated by an inter-character gap), the character set (the
/// data characters `0`-`9`, `-`, `$`, `:`, `/`, `.`, `+` and the start/stop
/// characters `A`-`D`) and the symbology identifier `]F0` (no check
/// character: the text is transmitted as decoded, start and stop characters
/// included).
///
/// Each character is classified by its own widths, as two or three wide
/// elements, whichever stands out more clearly. Codabar has no check
/// character, so a reading needs clean widths: a low mean error (near 0
/// for sharp symbols, below 0.5 for clean photos; readings above 1.0 are
/// dropped), narrow and wide widths that change only slowly along the
/// symbol (perspective), at least three data characters between start and
/// stop, narrow inter-character gaps and quiet zones of ten narrow
/// elements (judged on the grey levels when specks break them). A symbol
/// may reach the frame's border, its outer bar cut by a line that ends on
/// the border: the reader then reads the run with that bar as an element
/// (``ElementRun/framed(into:)``) and takes the border for the quiet zone
/// on that side; the cut bar is at least as wide as seen (the first bar of
/// `A`-`D` is narrow, the last narrow or wide). The variants with
/// start/stop characters `T`, `N`, `*`, `E` are not read.
final class CodabarReader: StartStopReader {
    var symbologies: Symbology { .codabar }

    /// The character set; values 16...19 are the start/stop characters.
    static let alphabet: [UInt8] = Array("0123456789-$:/.+ABCD".utf8)
    /// The seven elements of each character (bar first), bit 6 for the first
    /// element, set for a wide element.
    static let patterns: [UInt8] = [
        0x03, 0x06, 0x09, 0x60, 0x12, 0x42, 0x21, 0x24, 0x30, 0x48,
        0x0C, 0x18, 0x45, 0x51, 0x54, 0x15, 0x1A, 0x29, 0x0B, 0x0E
    ]
    /// The first start/stop value.
    static let firstStartStop = 16

    /// Quiet zone required on each side, in narrow elements (measured with
    /// a tenth of tolerance: blur widens the narrow elements a little).
    var minQuietZone: Float = 10
    /// The largest error of one character accepted.
    var maxCharError: Float = 1.8
    /// The largest mean character error of a reading.
    var maxError: Float = 1.0
    /// The fewest data characters between start and stop.
    var minDataCharacters = 3
    /// The most characters read on one line, start and stop included.
    static let capacity = 128

    /// Character value by seven-bit wide-element mask; -1 for none.
    private let lookup = UnsafeMutablePointer<Int8>.allocate(capacity: 128)
    /// Text of the reading under way.
    private let text = UnsafeMutablePointer<UInt8>.allocate(capacity: CodabarReader.capacity)
    var framed = ElementRun()

    init() {
        lookup.initialize(repeating: -1, count: 128)
        for (v, p) in CodabarReader.patterns.enumerated() { lookup[Int(p)] = Int8(v) }
        text.initialize(repeating: 0, count: CodabarReader.capacity)
    }

    deinit { lookup.deallocate(); text.deallocate(); framed.free() }

    /// Classifies the seven elements from `j` (a bar).
    ///
    /// The two or the three widest elements are the wide ones, whichever
    /// makes a character with the clearer step from narrow to wide. The
    /// error measures how far the widths lie from a model of narrow and wide
    /// elements with a uniform ink spread, how clearly the wide elements
    /// stand out and how far the wide-to-narrow ratio lies outside 1.8 to
    /// 3.3 (blur brings wide and narrow elements closer). The narrow
    /// elements must agree within a factor 2.2, as measured or once the ink
    /// spread is taken off (thin bars between wide spaces are one printing,
    /// not a misread wide element). `minMargin` is the
    /// least ratio of the narrowest wide element to the widest narrow one;
    /// `startStop` admits only `A`-`D`.
    /// - Returns: the character value, its error, its narrow and its wide width; `nil` when nothing fits.
    @inline(__always)
    func character(
        _ w: UnsafeMutablePointer<Float>, _ j: Int, minMargin: Float, startStop: Bool = false,
        apart: Float? = nil
    ) -> Character? {
        // The four widest, in order.
        var v0: Float = -1, v1: Float = -1, v2: Float = -1, v3: Float = -1
        var i0 = 0, i1 = 0, i2 = 0
        for k in 0..<7 {
            let v = w[j + k]
            if v > v0 {
                v3 = v2; v2 = v1; i2 = i1; v1 = v0; i1 = i0; v0 = v; i0 = k
            } else if v > v1 {
                v3 = v2; v2 = v1; i2 = i1; v1 = v; i1 = k
            } else if v > v2 {
                v3 = v2; v2 = v; i2 = k
            } else if v > v3 {
                v3 = v
            }
        }
        guard v3 > 0 else { return nil }
        // Bars printed much thinner or thicker than the spaces (ink spread
        // of a good part of a narrow element) rank a wide bar below a
        // narrow space, or the other way round: the wide elements are then
        // picked among the bars and among the spaces apart, as the
        // characters are built (EN 798, 4.2: every character has one or
        // three wide bars, and two, one or no wide spaces with them).
        // First when the reading so far has such a spread, else after the
        // widest elements of all.
        if let expected = apart, !expected.isNaN, abs(expected) >= CodabarReader.apartSpread,
            let c = characterApart(w, j, minMargin: minMargin, startStop: startStop, expected: expected)
        {
            return c
        }
        let two = (1 << (6 - i0)) | (1 << (6 - i1))
        let three = two | (1 << (6 - i2))
        let value2 = Int(lookup[two]), value3 = Int(lookup[three])
        let margin2 = v1 / v2, margin3 = v2 / v3
        if value2 >= 0 && (value3 < 0 || margin2 >= margin3) {
            if let c = fit(w, j, mask: two, value: value2, margin: margin2, minMargin: minMargin, startStop: startStop)
            {
                return c
            }
        } else if value3 >= 0,
            let c = fit(w, j, mask: three, value: value3, margin: margin3, minMargin: minMargin, startStop: startStop)
        {
            return c
        }
        guard let expected = apart, expected.isNaN || abs(expected) < CodabarReader.apartSpread,
            mayBeSpread(w, j, startStop: startStop)
        else { return nil }
        return characterApart(w, j, minMargin: minMargin, startStop: startStop, expected: expected)
    }

    /// A quick test before ``characterApart(_:_:minMargin:startStop:expected:)``
    /// after the widest elements read nothing: the narrowest bar and the
    /// narrowest space, narrow elements in every character, differ by an
    /// ink spread; start and stop characters have a wide middle space.
    @inline(__always)
    private func mayBeSpread(_ w: UnsafeMutablePointer<Float>, _ j: Int, startStop: Bool) -> Bool {
        if startStop && w[j + 3] < min(w[j + 1], w[j + 5]) { return false }
        let minBar = min(min(w[j], w[j + 2]), min(w[j + 4], w[j + 6]))
        let minSpace = min(w[j + 1], min(w[j + 3], w[j + 5]))
        return abs(minBar - minSpace) >= CodabarReader.apartSpread * (minBar + minSpace)
    }

    /// ``character(_:_:minMargin:startStop:apart:)`` with bars and spaces
    /// ranked apart (``classifyApart(_:_:minMargin:startStop:)``), for an ink spread
    /// of ``apartSpread`` narrow elements or more, of the sign of
    /// `expected` and near it (any when NaN).
    @inline(__always)
    private func characterApart(
        _ w: UnsafeMutablePointer<Float>, _ j: Int, minMargin: Float, startStop: Bool,
        expected: Float
    ) -> Character? {
        guard let (mask, value, margin) = classifyApart(w, j, minMargin: minMargin, startStop: startStop),
            let c = fit(w, j, mask: mask, value: value, margin: margin, minMargin: minMargin, startStop: startStop)
        else { return nil }
        let own = c.spread / c.narrow
        guard abs(own) >= CodabarReader.apartSpread,
            expected.isNaN || (own * expected > 0 && abs(own - expected) <= CodabarReader.apartSpread)
        else { return nil }
        return c
    }

    /// One character read: its value, its error, its narrow and wide
    /// widths and the ink spread (half of how much wider the narrow bars
    /// are than the narrow spaces; negative when thinner).
    typealias Character = (value: Int, error: Float, narrow: Float, wide: Float, spread: Float)

    /// The least ink spread, in narrow elements, for which bars and spaces
    /// are classified apart.
    static let apartSpread: Float = 0.2

    /// The character whose wide elements are the widest bar and space, the
    /// three widest bars, or the widest bar and the two widest spaces
    /// (start and stop characters: only the last), whichever is a
    /// character with the clearest step from narrow to wide among the
    /// bars and among the spaces (the margin: the lesser of the two), of
    /// `minMargin` at least.
    @inline(__always)
    private func classifyApart(_ w: UnsafeMutablePointer<Float>, _ j: Int, minMargin: Float, startStop: Bool)
        -> (mask: Int, value: Int, margin: Float)?
    {
        // Bars (elements 0, 2, 4, 6) and spaces (1, 3, 5), widest first.
        var b = (w[j], 0), b1 = (w[j + 2], 2), b2 = (w[j + 4], 4), b3 = (w[j + 6], 6)
        if b1.0 > b.0 { swap(&b, &b1) }
        if b3.0 > b2.0 { swap(&b2, &b3) }
        if b2.0 > b.0 { swap(&b, &b2) }
        if b3.0 > b1.0 { swap(&b1, &b3) }
        if b2.0 > b1.0 { swap(&b1, &b2) }
        var s = (w[j + 1], 1), s1 = (w[j + 3], 3), s2 = (w[j + 5], 5)
        if s1.0 > s.0 { swap(&s, &s1) }
        if s2.0 > s1.0 { swap(&s1, &s2) }
        if s1.0 > s.0 { swap(&s, &s1) }
        guard b3.0 > 0, s2.0 > 0 else { return nil }
        @inline(__always) func bit(_ k: Int) -> Int { 1 << (6 - k) }
        var best: (mask: Int, value: Int, margin: Float)? = nil
        func consider(_ mask: Int, _ margin: Float) {
            guard margin >= minMargin else { return }
            let v = Int(lookup[mask])
            guard v >= 0, !startStop || v >= CodabarReader.firstStartStop else { return }
            if best == nil || margin > best!.margin { best = (mask, v, margin) }
        }
        let barMargin = b.0 / b1.0
        consider(bit(b.1) | bit(s.1) | bit(s1.1), min(barMargin, s1.0 / s2.0))
        if !startStop {
            consider(bit(b.1) | bit(s.1), min(barMargin, s.0 / s1.0))
            // Three wide bars, the spaces all narrow.
            consider(bit(b.1) | bit(b1.1) | bit(b2.1), b2.0 / b3.0)
        }
        return best
    }

    /// Checks the character `value` with the wide elements `mask` against
    /// the model of narrow and wide widths (``character(_:_:minMargin:startStop:)``).
    @inline(__always)
    private func fit(
        _ w: UnsafeMutablePointer<Float>, _ j: Int, mask: Int, value: Int, margin: Float,
        minMargin: Float, startStop: Bool
    ) -> Character? {
        if startStop && value < CodabarReader.firstStartStop { return nil }
        // Every character has a narrow bar and a narrow space.
        guard let model = NarrowWideFit(w + j, count: 7, wideMask: mask) else { return nil }
        let narrow = model.narrow, wide = model.wide, spread = model.spread
        let maxNarrow = model.maxNarrow, minNarrow = model.minNarrow
        let ratio = wide / narrow
        // The narrow elements must agree, as measured or once the ink
        // spread is taken off (bars thinner or thicker than spaces by one
        // amount).
        var agree = maxNarrow <= 2.2 * minNarrow
        if !agree {
            var spreadMax: Float = 0, spreadMin: Float = .infinity
            for k in 0..<7 where mask & (1 << (6 - k)) == 0 {
                let v = w[j + k] + (k % 2 == 0 ? -spread : spread)
                spreadMax = max(spreadMax, v); spreadMin = min(spreadMin, v)
            }
            agree = spreadMin > 0 && spreadMax <= 2.2 * spreadMin
        }
        guard margin >= minMargin, ratio >= 1.3, ratio <= 4, agree else { return nil }
        let e = narrowWideError(
            w + j, count: 7, wideMask: mask, narrow: narrow, wide: wide, spread: spread,
            margin: margin)
        guard e <= maxCharError else { return nil }
        return (value, e, narrow, wide, spread)
    }

    /// Start, the fewest data characters and stop, 8 elements each but the last.
    var shortestSymbol: Int { 8 * (minDataCharacters + 2) - 1 }

    /// Tries a code whose start character begins at bar `b`.
    /// - Returns: the element after its last bar, 0 when nothing was read.
    func read(_ run: borrowing ElementRun, at b: Int, borderOnly: Bool, into sink: inout LinearHitSink) -> Int {
        let n = run.count
        let w = run.widths.pointer
        // The line sees nothing past the frame's border: a bar it starts
        // inside is at least as wide as seen. `A`-`D` start with a narrow
        // bar, and one of their other bars is narrow too.
        let cutFirst = run.isFrameBorder(0) && b == 1
        let seenFirst = w[b]
        if cutFirst { w[b] = max(seenFirst, min(w[b + 2], min(w[b + 4], w[b + 6]))) }
        defer { if cutFirst { w[b] = seenFirst } }
        // `A`-`D` all start with a narrow bar and have a wide middle space: a quick test first.
        guard w[b + 3] > w[b], let start = character(w, b, minMargin: 1.25, startStop: true, apart: .nan) else {
            return 0
        }
        let s = run.starts.pointer
        guard
            run.isQuietZone(
                b - 1, need: 0.9 * minQuietZone * start.narrow, leading: true, from: s[b], to: s[b + 6] + w[b + 6])
        else { return 0 }
        text[0] = CodabarReader.alphabet[start.value]
        var count = 1
        var errorSum = start.error
        // Narrow and wide widths where the reading is, following perspective.
        var narrow = start.narrow, wide = start.wide
        // The ink spread so far, in narrow elements.
        var spread = start.spread / start.narrow
        var c = b + 8
        var stop = -1
        while c + 7 < n && count < CodabarReader.capacity {
            let gap = w[c - 1]
            guard gap <= 5 * narrow, gap >= 0.3 * narrow else { return 0 }
            var read = character(w, c, minMargin: 1.15, apart: spread)
            if run.isFrameBorder(n - 1) && c + 7 == n - 1 {
                // The stop character's last bar is cut by the frame's border,
                // so it is at least as wide as seen: narrow (`A`, `D`; like
                // their first bar) or wide (`B`, `C`).
                let seen = w[c + 6]
                for k in 0..<2 {
                    if let ch = read, ch.value >= CodabarReader.firstStartStop { break }
                    let width = k == 0 ? min(w[c], w[c + 2]) : wide
                    guard width > seen else { continue }
                    w[c + 6] = width
                    read = character(w, c, minMargin: 1.15, apart: spread)
                }
                w[c + 6] = seen
            }
            guard let ch = read else { return 0 }
            // One narrow and one wide width along the symbol, changing slowly.
            let rn = ch.narrow / narrow, rw = ch.wide / wide
            guard rn > 0.7, rn < 1.43, rw > 0.7, rw < 1.43 else { return 0 }
            errorSum += ch.error
            narrow = (narrow + ch.narrow) / 2
            wide = (wide + ch.wide) / 2
            spread = (spread + ch.spread / ch.narrow) / 2
            text[count] = CodabarReader.alphabet[ch.value]
            count += 1
            if ch.value >= CodabarReader.firstStartStop { stop = c; break }
            c += 8
        }
        guard stop > 0, count - 2 >= minDataCharacters else { return 0 }
        if borderOnly, !run.meetsFrameBorder(first: b, last: stop + 6) { return 0 }
        guard
            run.isQuietZone(
                stop + 7, need: 0.9 * minQuietZone * narrow, leading: false,
                from: s[stop], to: s[stop + 6] + w[stop + 6])
        else { return 0 }
        let error = errorSum / Float(count)
        guard error <= maxError else { return 0 }
        let last = stop + 6
        sink.appendSymbol(
            .codabar, text: UnsafeBufferPointer(start: text, count: count), run: run, first: b, last: last, error: error
        )
        return last + 1
    }
}
