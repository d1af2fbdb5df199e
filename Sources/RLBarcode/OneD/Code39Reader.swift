/// Code 39, with its optional modulo-43 check character and full ASCII.
///
/// Implements ISO/IEC 16388:2007 (Code 39 bar code symbology
/// specification): the "Symbol structure" (quiet zone, start character,
/// data characters, stop character, quiet zone; each symbol character of
/// five bars and four spaces, three of the nine elements wide, characters
/// separated by an inter-character gap), the "Character set" table (the 43
/// data characters `0`-`9`, `A`-`Z`, `-`, `.`, space, `$`, `/`, `+`, `%` and
/// the start/stop character `*`), the optional "Check character" (modulo
/// 43 of the character values), the "Full ASCII" annex (the pairs `$A`,
/// `%A`, `/A`, `+A`... for the ASCII characters that the character set
/// lacks) and the symbology identifier table: `]A0` plain, `]A1` modulo-43
/// check character verified and transmitted, `]A4` full ASCII applied,
/// `]A5` both.
///
/// Each character is classified by its own widths: its three widest
/// elements are its wide ones, so wide-to-narrow ratios from 2 to 3, ink
/// spread and perspective along the line cost little. A reading needs the
/// start and stop characters, at least one data character, inter-character
/// gaps no wider than a few narrow elements, character widths that change
/// slowly along the line, and quiet zones of ten narrow elements (judged on
/// the grey levels when specks break them). A symbol may reach the frame's
/// border, its outer bar cut by a line that ends on the border: the
/// reader then reads the run with that bar as an element
/// (``ElementRun/framed(into:)``), takes the border for the quiet zone on
/// that side and the cut bar, at least as wide as seen, for the narrow
/// outer bar of `*`.
///
/// The text is the data without start and stop characters. A symbol's
/// check character cannot be told from data (the standard leaves it to the
/// application), so a last character that is a valid check character of
/// the others stays in the text and the modifier says it verified; when
/// the text holds full ASCII shift characters and every one of them begins
/// a valid pair, the pairs before the check character are decoded and the
/// raw characters go to the extra text.
///
/// Code 32, the Italian pharmaceutical code, is a Code 39 symbol of six
/// characters holding a nine-digit number in base 32 (``code32(_:into:)``).
/// A reading of exactly six characters that are all Code 32 digits and
/// whose number's check digit holds is reported as Code 32: text `A` and
/// the nine digits, the six Code 39 characters as extra text, `]A0`. Any
/// other reading, a six-character one whose Code 32 check fails included,
/// stays plain Code 39.
///
/// A line that runs off the frame inside a code gives a part: `*` and at
/// least three characters up to the border, or three characters or more
/// from the border to `*`. ``PartialCodes`` joins a leading and a
/// trailing part across video frames only when the whole ends in a valid
/// modulo-43 check character; a code without one is never joined.
///
/// A reading's error is the mean character error: near 0 for sharp
/// symbols, below 0.5 for clean photos, above 1.2 for doubtful widths; a
/// verified check character lowers it by a third. Short readings without
/// a check character need clean widths. The symbology identifier's
/// modifier (ISO/IEC 16388's table) goes with each reading: `]A0`, `]A1`
/// (check character verified, transmitted), `]A4` (full ASCII applied)
/// or `]A5` (both).
final class Code39Reader: StartStopReader {
    var symbologies: Symbology { .code39 }

    /// The character set in value order (the modulo-43 values), then `*`.
    static let alphabet: [UInt8] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%*".utf8)
    /// The nine elements of each character of ``alphabet`` (bar first), bit 8
    /// for the first element, set for a wide element.
    static let patterns: [UInt16] = [
        0x034, 0x121, 0x061, 0x160, 0x031, 0x130, 0x070, 0x025, 0x124, 0x064,
        0x109, 0x049, 0x148, 0x019, 0x118, 0x058, 0x00D, 0x10C, 0x04C, 0x01C,
        0x103, 0x043, 0x142, 0x013, 0x112, 0x052, 0x007, 0x106, 0x046, 0x016,
        0x181, 0x0C1, 0x1C0, 0x091, 0x190, 0x0D0, 0x085, 0x184, 0x0C4, 0x0A8,
        0x0A2, 0x08A, 0x02A, 0x094
    ]
    /// The value of `*` in ``alphabet``.
    static let startStop = 43

    /// Quiet zone required on each side, in narrow elements (measured with
    /// a tenth of tolerance: blur widens the narrow elements a little).
    var minQuietZone: Float = 10
    /// The largest error of one character accepted.
    var maxCharError: Float = 2.4
    /// The largest mean character error of a reading.
    var maxError: Float = 1.6
    /// The largest mean character error of a short reading (fewer than
    /// three data characters) without a check character.
    var maxShortError: Float = 0.9
    /// The most characters read on one line, start and stop included.
    static let capacity = 128

    /// Character value by nine-bit wide-element mask; -1 for none.
    private let lookup = UnsafeMutablePointer<Int8>.allocate(capacity: 512)
    /// Values of the characters of the reading under way.
    private let values = UnsafeMutablePointer<UInt8>.allocate(capacity: Code39Reader.capacity)
    /// Text bytes: 0..<capacity decoded text, capacity..<2*capacity raw text.
    private let text = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * Code39Reader.capacity)
    var framed = ElementRun()

    init() {
        lookup.initialize(repeating: -1, count: 512)
        for (v, p) in Code39Reader.patterns.enumerated() { lookup[Int(p)] = Int8(v) }
        values.initialize(repeating: 0, count: Code39Reader.capacity)
        text.initialize(repeating: 0, count: 2 * Code39Reader.capacity)
    }

    deinit { lookup.deallocate(); values.deallocate(); text.deallocate(); framed.free() }

    /// Classifies the nine elements from `j` (a bar).
    ///
    /// The three widest elements are the wide ones. The error measures how
    /// far the widths lie from a model of narrow and wide elements with a
    /// uniform ink spread (bars wider, spaces narrower by one amount), how
    /// clearly the wide elements stand out, and how far the wide-to-narrow
    /// ratio lies outside 1.8 to 3.3 (blur brings wide and narrow
    /// elements closer). `minMargin` is the least ratio of the narrowest
    /// wide element to the widest narrow one; `startStop` admits only `*`.
    /// - Returns: the character value, its error, its narrow width and its total width; `nil` when nothing fits.
    @inline(__always)
    func character(_ w: UnsafeMutablePointer<Float>, _ j: Int, minMargin: Float, startStop: Bool = false)
        -> (value: Int, error: Float, narrow: Float, width: Float)?
    {
        var v1: Float = -1, v2: Float = -1, v3: Float = -1
        var i1 = 0, i2 = 0, i3 = 0
        var total: Float = 0
        for k in 0..<9 {
            let v = w[j + k]
            total += v
            if v > v1 {
                v3 = v2; i3 = i2; v2 = v1; i2 = i1; v1 = v; i1 = k
            } else if v > v2 {
                v3 = v2; i3 = i2; v2 = v; i2 = k
            } else if v > v3 {
                v3 = v; i3 = k
            }
        }
        let mask = (1 << (8 - i1)) | (1 << (8 - i2)) | (1 << (8 - i3))
        let value = Int(lookup[mask])
        guard value >= 0, !startStop || value == Code39Reader.startStop else { return nil }
        // Every character has narrow bars and at least one narrow space.
        guard let model = NarrowWideFit(w + j, count: 9, wideMask: mask) else { return nil }
        let narrow = model.narrow, wide = model.wide, spread = model.spread
        let maxNarrow = model.maxNarrow, minNarrow = model.minNarrow
        let ratio = wide / narrow
        let margin = v3 / maxNarrow
        guard margin >= minMargin, ratio >= 1.3, ratio <= 4.5, maxNarrow <= 2.6 * minNarrow else { return nil }
        let e = narrowWideError(
            w + j, count: 9, wideMask: mask, narrow: narrow, wide: wide, spread: spread,
            margin: margin)
        guard e <= maxCharError else { return nil }
        return (value, e, narrow, total)
    }

    /// Start, one data character, stop: 29 elements, then the quiet zone.
    var shortestSymbol: Int { 29 }

    /// The fewest characters a part holds besides `*`.
    static let minPartCharacters = 3

    /// Looks for a stop `*` with its quiet zone whose characters reach back
    /// to the line's start, which lies on the frame's border: the end of a
    /// code that the frame cuts. Appends its characters as a trailing part.
    func readTrailingPart(_ run: borrowing ElementRun, into sink: inout LinearHitSink) {
        let w = run.widths.pointer, s = run.starts.pointer
        let n = run.count
        for j in run.barsBackward(from: n - 10, through: 1 + 10 * Code39Reader.minPartCharacters) {
            guard w[j + 1] > w[j], w[j + 4] > w[j + 3], let stop = character(w, j, minMargin: 1.25, startStop: true),
                run.isQuietZone(
                    j + 9, need: 0.9 * minQuietZone * stop.narrow, leading: false,
                    from: s[j], to: s[j + 8] + w[j + 8])
            else { continue }
            // Back to the line's start, character by character.
            var count = 0
            var narrow = stop.narrow, previousWidth = stop.width
            var k = j - 10
            while k >= 1 {
                let gap = w[k + 9]
                guard count < Code39Reader.capacity, gap <= 6 * narrow, gap >= 0.25 * narrow,
                    let ch = character(w, k, minMargin: 1.1), ch.value != Code39Reader.startStop
                else { return }
                let r = ch.width / previousWidth
                guard r > 0.75, r < 1.33 else { return }
                values[count] = UInt8(ch.value)
                count += 1
                narrow = (narrow + ch.narrow) / 2
                previousWidth = ch.width
                k -= 10
            }
            guard count >= Code39Reader.minPartCharacters else { return }
            // Read backwards: into reading order.
            var reading = UnsafeMutableBufferPointer(start: values, count: count)
            reading.reverse()
            sink.appendPart(
                .code39, leading: false, values: values, count: count,
                start: s[k + 10], end: s[j + 8] + w[j + 8], module: narrow)
            return
        }
    }

    /// The payload of a whole symbol given as its character values (no
    /// `*`), when its last character is the modulo-43 check character of
    /// the others: the data, full ASCII applied when every shift begins a
    /// valid pair, then the check character, and the symbology
    /// identifier's modifier (`1` or `5`).
    func payload(ofSymbol v: [Int32]) -> (bytes: [UInt8], modifier: UInt8)? {
        let count = v.count
        guard count >= 2, count <= Code39Reader.capacity else { return nil }
        var sum = 0
        for k in 0..<count {
            guard v[k] >= 0, v[k] < Int32(Code39Reader.startStop) else { return nil }
            if k < count - 1 { sum += Int(v[k]) }
        }
        guard sum % 43 == Int(v[count - 1]) else { return nil }
        let raw = text + Code39Reader.capacity
        for k in 0..<(count - 1) { raw[k] = Code39Reader.alphabet[Int(v[k])] }
        let converted = Code39Reader.fullASCII(raw, count: count - 1, into: text)
        let check = Code39Reader.alphabet[Int(v[count - 1])]
        let bytes =
            converted >= 0
            ? Array(UnsafeBufferPointer(start: text, count: converted)) + [check]
            : Array(UnsafeBufferPointer(start: raw, count: count - 1)) + [check]
        return (bytes, UInt8(ascii: converted >= 0 ? "5" : "1"))
    }

    /// The characters of a part as they stand (a check character, if any,
    /// cannot be told from data before the whole is known).
    func payload(ofPart v: [Int32]) -> [UInt8] {
        v.compactMap { $0 >= 0 && $0 < Int32(Code39Reader.startStop) ? Code39Reader.alphabet[Int($0)] : nil }
    }

    /// Tries a code whose start character begins at bar `b`.
    /// - Returns: the element after its last bar, 0 when nothing was read.
    func read(_ run: borrowing ElementRun, at b: Int, borderOnly: Bool, into sink: inout LinearHitSink) -> Int {
        let n = run.count
        let w = run.widths.pointer
        // The line sees nothing past the frame's border: a bar it starts
        // inside is at least as wide as seen. The first bar of `*` is narrow
        // like its third and last, so a narrower cut bar counts as narrow.
        let cutFirst = run.isFrameBorder(0) && b == 1
        let seenFirst = w[b]
        if cutFirst { w[b] = max(seenFirst, (w[b + 2] + w[b + 8]) / 2) }
        defer { if cutFirst { w[b] = seenFirst } }
        // `*` is narrow, wide, narrow, narrow, wide, narrow, wide...: a quick test first.
        let w1 = w[b + 1], w4 = w[b + 4]
        guard w1 > w[b], w1 > w[b + 2], w4 > w[b + 3], w4 > w[b + 5],
            let start = character(w, b, minMargin: 1.25, startStop: true)
        else { return 0 }
        let s = run.starts.pointer
        guard
            run.isQuietZone(
                b - 1, need: 0.9 * minQuietZone * start.narrow, leading: true, from: s[b], to: s[b + 8] + w[b + 8])
        else { return 0 }
        var count = 0
        var errorSum = start.error
        // The narrow width where the reading is, following perspective.
        var narrow = start.narrow
        var previousWidth = start.width
        var c = b + 10
        var stop = -1
        while c + 9 < n && count < Code39Reader.capacity - 1 {
            // The inter-character gap before this character.
            let gap = w[c - 1]
            guard gap <= 6 * narrow, gap >= 0.25 * narrow else { return 0 }
            // A character ending at the frame's border is the stop `*`; its
            // last bar, cut by the border, is narrow like its first and third.
            let cutLast = run.isFrameBorder(n - 1) && c + 9 == n - 1
            let seenLast = w[c + 8]
            if cutLast { w[c + 8] = max(seenLast, (w[c] + w[c + 2]) / 2) }
            let read = character(w, c, minMargin: 1.1)
            if cutLast { w[c + 8] = seenLast }
            guard let ch = read else { return 0 }
            // Characters change width slowly along the line (perspective).
            let r = ch.width / previousWidth
            guard r > 0.75, r < 1.33 else { return 0 }
            errorSum += ch.error
            narrow = (narrow + ch.narrow) / 2
            previousWidth = ch.width
            if ch.value == Code39Reader.startStop { stop = c; break }
            values[count] = UInt8(ch.value)
            count += 1
            c += 10
        }
        if stop < 0 {
            // The line ends inside the code, on the frame's border: a leading part.
            sink.appendLeadingPart(
                .code39, values: values, count: count, minimum: Code39Reader.minPartCharacters,
                run: run, first: b, last: c - 2, module: narrow, cut: c + 9 >= n, borderOnly: borderOnly)
            return 0
        }
        guard count >= 1 else { return 0 }
        if borderOnly, !run.meetsFrameBorder(first: b, last: stop + 8) { return 0 }
        guard
            run.isQuietZone(
                stop + 9, need: 0.9 * minQuietZone * narrow, leading: false,
                from: s[stop], to: s[stop + 8] + w[stop + 8])
        else { return 0 }
        // Raw characters, then the check character and full ASCII.
        let raw = text + Code39Reader.capacity
        for k in 0..<count { raw[k] = Code39Reader.alphabet[Int(values[k])] }
        var dataCount = count
        var checked = false
        // Six characters forming a valid Code 32 number are Code 32 (its
        // check digit verified), even when the last one also happens to be
        // a modulo-43 check character of the others.
        let pharmacode = count == Code39Reader.code32Length && Code39Reader.code32(values, into: text)
        if count >= 2 && !pharmacode {
            var sum = 0
            for k in 0..<(count - 1) { sum += Int(values[k]) }
            if sum % 43 == Int(values[count - 1]) { checked = true; dataCount = count - 1 }
        }
        // A verified check character makes a misread 43 times less likely.
        let error = errorSum / Float(count + 2) * (checked ? 0.7 : 1)
        guard error <= (!checked && count < 3 ? maxShortError : maxError) else { return 0 }
        let textCount = pharmacode ? -1 : Code39Reader.fullASCII(raw, count: dataCount, into: text)
        let converted = textCount >= 0
        // A verified check character is transmitted, after the data: a
        // payload whose last character happens to be its own check
        // character keeps it (ISO/IEC 16388, Annex C: modifiers 1 and 5).
        if converted && checked { text[textCount] = raw[count - 1] }
        let length =
            pharmacode ? Code39Reader.code32TextLength : converted ? textCount + (checked ? 1 : 0) : count
        let textOffset = sink.store(UnsafeBufferPointer(start: converted || pharmacode ? text : raw, count: length))
        var extraOffset = 0, extraCount = 0
        if converted || pharmacode {
            extraOffset = sink.store(UnsafeBufferPointer(start: raw, count: count))
            extraCount = count
        }
        let last = stop + 8
        sink.append(
            LinearHit(
                symbology: .code39, textOffset: textOffset, textCount: length,
                addOnOffset: textOffset, addOnCount: 0,
                extraOffset: extraOffset, extraCount: extraCount,
                firstElement: b, lastElement: last,
                start: s[b], end: s[last] + w[last], error: error,
                aimModifier: UInt8(48 + (converted ? 4 : 0) + (checked ? 1 : 0))))
        return last + 1
    }

    /// The Code 39 characters of a Code 32 symbol.
    static let code32Length = 6
    /// The length of a Code 32 text: `A` and nine digits.
    static let code32TextLength = 10
    /// The base-32 digit of each Code 39 character value (``alphabet``
    /// order), -1 for the characters Code 32 does not use: the vowels `A`,
    /// `E`, `I`, `O` and the symbols.
    static let code32Digits: [Int8] = {
        var t = [Int8](repeating: -1, count: 44)
        for (d, c) in "0123456789BCDFGHJKLMNPQRSTUVWXYZ".utf8.enumerated() {
            t[alphabet.firstIndex(of: c)!] = Int8(d)
        }
        return t
    }()

    /// Reads six Code 39 character values as Code 32, the Italian
    /// pharmaceutical code (Ministry of Health, "Specifiche PHARMACODE
    /// (o CODE32)"): the characters are the base-32 digits of a
    /// nine-digit number, most significant first, with the digits `0`-`9`
    /// and the consonants `B`-`Z` (no vowels) as the values 0 to 31. The
    /// ninth digit checks the first eight: the odd-placed digits plus the
    /// digit sums of the doubled even-placed ones, modulo 10.
    /// - Returns: whether the values form a valid Code 32 number; if so,
    ///   `out` receives its text, `A` and the nine digits.
    static func code32(_ values: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Bool {
        var number = 0
        for k in 0..<code32Length {
            let digit = Int(code32Digits[Int(values[k])])
            guard digit >= 0 else { return false }
            number = number * 32 + digit
        }
        guard number < 1_000_000_000 else { return false }
        out[0] = UInt8(ascii: "A")
        var sum = 0
        for k in 0..<9 {
            let d = number % 10
            number /= 10
            out[9 - k] = UInt8(48 + d)
            // Place 9 - k (1-based): 9 is the check digit, even places are doubled.
            let place = 9 - k
            if place == 9 { continue }
            sum += place % 2 == 0 ? (2 * d) / 10 + (2 * d) % 10 : d
        }
        return sum % 10 == Int(out[9] - 48)
    }

    /// Decodes the full ASCII pairs of `raw` into `out`.
    ///
    /// ISO/IEC 16388 full ASCII: `$A`-`$Z` are the controls 1-26, `%A`-`%E`
    /// 27-31, `%F`-`%J` `;<=>?`, `%K`-`%O` `[\]^_`, `%P`-`%T` `{|}~` and DEL,
    /// `%U` NUL, `%V` `@`, `%W` `` ` ``, `%X`-`%Z` DEL, `/A`-`/O` `!` to `/`,
    /// `/Z` `:`, `+A`-`+Z` the lower-case letters. The other pairs are
    /// reserved.
    /// - Returns: the decoded length, or -1 when `raw` holds no shift
    ///   character or one that does not begin a valid pair.
    static func fullASCII(_ raw: UnsafePointer<UInt8>, count: Int, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var i = 0, o = 0
        var shifted = false
        let A = UInt8(ascii: "A"), Z = UInt8(ascii: "Z")
        while i < count {
            let c = raw[i]
            let isShift =
                c == UInt8(ascii: "$") || c == UInt8(ascii: "%") || c == UInt8(ascii: "/") || c == UInt8(ascii: "+")
            if !isShift { out[o] = c; o += 1; i += 1; continue }
            guard i + 1 < count else { return -1 }
            let d = raw[i + 1]
            guard d >= A, d <= Z else { return -1 }
            let k = d - A  // 0...25
            var v: UInt8
            switch c {
            case UInt8(ascii: "$"): v = k + 1
            case UInt8(ascii: "+"): v = k + UInt8(ascii: "a")
            case UInt8(ascii: "/"):
                if k <= 14 { v = k + UInt8(ascii: "!") } else if d == Z { v = UInt8(ascii: ":") } else { return -1 }
            default:  // %
                switch k {
                case 0...4: v = k + 27
                case 5...9: v = k - 5 + UInt8(ascii: ";")
                case 10...14: v = k - 10 + UInt8(ascii: "[")
                case 15...19: v = k - 15 + UInt8(ascii: "{")
                case 20: v = 0
                case 21: v = UInt8(ascii: "@")
                case 22: v = UInt8(ascii: "`")
                default: v = 127
                }
            }
            out[o] = v; o += 1; i += 2
            shifted = true
        }
        return shifted ? o : -1
    }

}
