/// Code 128 and GS1-128.
///
/// Implements ISO/IEC 15417:2007 (Code 128 bar code symbology
/// specification):
///
/// - "Symbol structure": leading quiet zone, start character, data
///   characters, symbol check character, stop character, trailing quiet zone.
/// - "Symbol character structure" and the table of the 107 symbol
///   characters ("Code 128 character set"): six elements (three bars, three
///   spaces) over 11 modules, each element one to four modules, bars of an
///   even module count; the stop character has seven elements over 13
///   modules (its last bar is the termination bar).
/// - "Code sets" A, B and C: set A holds ASCII 0-95, set B ASCII 32-127,
///   set C the digit pairs 00-99; the start character (Start A, B or C)
///   selects the first set, "Code A/B/C" change the set for the rest of the
///   symbol, "Shift" changes it for the next character only.
/// - "Special characters": FNC1 in the first data position marks GS1-128
///   (the element string follows; FNC1 elsewhere separates variable-length
///   fields and is sent as GS, 0x1D), FNC1 in the second position after a
///   letter or a digit pair marks an application identifier (AIM `]C2`);
///   FNC2 (message append) is dropped; FNC3 (reader initialisation) makes
///   the symbol one for the reader, not data, so nothing is reported; FNC4
///   adds 128 to the next data character (two FNC4 in a row latch that for
///   the following characters, until two more; a single FNC4 meanwhile
///   gives one character without it), which gives ISO/IEC 8859-1.
/// - "Symbol check character": modulo 103 over the start character value
///   and every following character value weighted by its position.
/// - "Dimensions", quiet zones: at least 10 modules on either side. A
///   shorter space still counts when the grey levels over the 10 modules
///   stay lighter than halfway between the neighbouring character's bars
///   and spaces (specks on a textured label). The frame's border counts as
///   the quiet zone of a symbol that reaches it, its start or termination
///   bar cut by the line's end or a margin of any width left (a picture
///   cut tight): a line through a symbol the border truncates has no start
///   character there, or no stop character, and the check character
///   verifies the whole (see ``quiet(_:_:module:zone:leading:)``).
/// - "Reference decode algorithm": characters are classified by their
///   edge-to-similar-edge distances normalised by the character's own
///   width, which ink spread does not change (see ``EdgePatterns``).
/// - "Transmitted data" and Annex "Symbology identifier": `]C0` plain,
///   `]C1` GS1-128 (FNC1 first), `]C2` FNC1 in second position, as the
///   hit's ``LinearHit/aimModifier``.
///
/// A line that runs off the frame inside a code gives a part
/// (``LinearPart``): the start character and at least three data characters
/// up to the frame's border, or at least three characters, the check
/// character and the stop character from the border on. Parts seen as a
/// camera pans along a code wider than the frame are joined by
/// ``PartialCodes``, which accepts the whole only when the symbol check
/// character verifies it.
///
/// The text stored for a hit is the payload bytes: ASCII, GS for FNC1
/// separators and bytes 128-255 from FNC4, which are ISO/IEC 8859-1
/// characters (``latin1String(_:)`` decodes them).
final class Code128Reader: StartStopReader {
    var symbologies: Symbology { .code128 }

    /// The 106 characters 0-105 (values 103-105 are Start A, B and C) as
    /// module widths bar-space-bar-space-bar-space, decimal digits.
    static let table: [UInt32] = [
        212222, 222122, 222221, 121223, 121322, 131222, 122213, 122312, 132212, 221213,
        221312, 231212, 112232, 122132, 122231, 113222, 123122, 123221, 223211, 221132,
        221231, 213212, 223112, 312131, 311222, 321122, 321221, 312212, 322112, 322211,
        212123, 212321, 232121, 111323, 131123, 131321, 112313, 132113, 132311, 211313,
        231113, 231311, 112133, 112331, 132131, 113123, 113321, 133121, 313121, 211331,
        231131, 213113, 213311, 213131, 311123, 311321, 331121, 312113, 312311, 332111,
        314111, 221411, 431111, 111224, 111422, 121124, 121421, 141122, 141221, 112214,
        112412, 122114, 122411, 142112, 142211, 241211, 221114, 413111, 241112, 134111,
        111242, 121142, 121241, 114212, 124112, 124211, 411212, 421112, 421211, 212141,
        214121, 412121, 111143, 111341, 131141, 114113, 114311, 411113, 411311, 113141,
        114131, 311141, 411131, 211412, 211214, 211232
    ]
    /// The stop character with its termination bar: seven elements, 13 modules.
    static let stop: UInt32 = 2_331_112

    static let startA = 103, startB = 104, startC = 105
    /// Function character values.
    static let fnc1 = 102, fnc2 = 97, fnc3 = 96, shift = 98, codeC = 99

    /// The largest mismatch accepted for one character (the closest two
    /// characters are 3.0 apart; see ``EdgePatterns/mismatch(_:_:elements:modules:)``).
    var maxCharError: Float = 2.0
    /// How much better the best character must fit than the next best.
    var minMargin: Float = 0.25
    /// Quiet zone required on each side, in modules.
    var minQuietZone: Float = 10
    /// The most characters (start and stop included) a symbol may have.
    static let maxCharacters = 160

    private let patterns = EdgePatterns(Code128Reader.table, elements: 6, modules: 11)
    /// Character values of the symbol being read.
    private let values = UnsafeMutablePointer<Int>.allocate(capacity: Code128Reader.maxCharacters + 1)
    /// Its payload bytes (a set C character gives two).
    private let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * Code128Reader.maxCharacters + 2)
    private let stopPattern = UnsafeMutablePointer<Float>.allocate(capacity: 7)
    var framed = ElementRun()

    init() {
        values.initialize(repeating: 0, count: Code128Reader.maxCharacters + 1)
        bytes.initialize(repeating: 0, count: 2 * Code128Reader.maxCharacters + 2)
        var s = Code128Reader.stop
        for k in (0..<7).reversed() { stopPattern[k] = Float(s % 10); s /= 10 }
    }

    deinit { values.deallocate(); bytes.deallocate(); stopPattern.deallocate(); framed.free() }

    /// Decodes ISO/IEC 8859-1 bytes (payload bytes of Code 128 with FNC4).
    static func latin1String(_ bytes: some Sequence<UInt8>) -> String {
        var s = ""
        for b in bytes { s.unicodeScalars.append(Unicode.Scalar(b)) }
        return s
    }

    /// Start (6) + one data character (6) + check (6) + stop (7) + trailing quiet zone.
    var shortestSymbol: Int { 25 }

    /// The fewest characters a part holds: the start and three data
    /// characters, or three characters and the check character.
    static let minPartCharacters = 4

    /// Looks for a stop character with its trailing quiet zone whose
    /// characters reach back to the line's start, which lies on the frame's
    /// border: the end of a code that the frame cuts. Appends it as a
    /// trailing part.
    func readTrailingPart(_ run: borrowing ElementRun, into sink: inout LinearHitSink) {
        // Characters back to the line's start, the check character last.
        patterns.appendTrailingPart(
            .code128, run, minimum: Code128Reader.minPartCharacters, maxError: maxCharError, margin: minMargin,
            most: Code128Reader.maxCharacters, isData: { $0 < Code128Reader.startA }, values: values, into: &sink
        ) { run, j in
            let w = run.widths.pointer
            let stopWidth = w[j] + w[j + 1] + w[j + 2] + w[j + 3] + w[j + 4] + w[j + 5] + w[j + 6]
            let m = stopWidth / 13
            // Bar 2, space 3, bar 3 modules (cheap tests first).
            guard m > 0, w[j] > 1.2 * m, w[j] < 3 * m, w[j + 1] > 2 * m, w[j + 2] > 2 * m,
                EdgePatterns.mismatch(w + j, stopPattern, elements: 7, modules: 13) <= maxCharError,
                Code128Reader.quiet(run, j + 7, module: m, zone: minQuietZone, leading: false)
            else { return nil }
            return (m, 11 * m)
        }
    }

    /// Reads a symbol whose start character begins at bar `b`.
    /// - Returns: the bar after its last bar's space, 0 when there is none.
    func read(_ run: borrowing ElementRun, at b: Int, borderOnly: Bool, into sink: inout LinearHitSink) -> Int {
        let w = run.widths.pointer
        let n = run.count
        let startWidth = w[b] + w[b + 1] + w[b + 2] + w[b + 3] + w[b + 4] + w[b + 5]
        let m = startWidth / 11
        let maxError = EdgePatterns.tolerance(maxCharError, module: m)
        // The start character: bar 2, space 1, bar 1 modules, after a space
        // that may be a quiet zone (cheap tests first).
        guard m > 0, w[b] > 1.2 * m, w[b] < 3 * m, w[b + 1] < 2 * m, w[b + 2] < 2 * m,
            Code128Reader.mayBeQuiet(run, b - 1, module: m, zone: minQuietZone),
            min(
                patterns.mismatch(w + b, value: Code128Reader.startA),
                patterns.mismatch(w + b, value: Code128Reader.startB),
                patterns.mismatch(w + b, value: Code128Reader.startC)) <= maxError,
            Code128Reader.quiet(run, b - 1, module: m, zone: minQuietZone, leading: true),
            let start = patterns.classify(w + b, maxError: maxError, margin: minMargin),
            start.value >= Code128Reader.startA
        else { return 0 }
        values[0] = start.value
        var errorSum = start.error
        var count = 1
        var previousWidth = startWidth
        var j = b + 6
        while true {
            // The stop character, followed by the trailing quiet zone.
            if j + 7 < n {
                let stopWidth = w[j] + w[j + 1] + w[j + 2] + w[j + 3] + w[j + 4] + w[j + 5] + w[j + 6]
                let ratio = stopWidth * 11 / (13 * previousWidth)
                if ratio > 0.75, ratio < 1.33 {
                    let e = EdgePatterns.mismatch(w + j, stopPattern, elements: 7, modules: 13)
                    if e <= maxError,
                        Code128Reader.quiet(run, j + 7, module: stopWidth / 13, zone: minQuietZone, leading: false)
                    {
                        errorSum += e
                        break
                    }
                }
            }
            guard j + 6 < n, count < Code128Reader.maxCharacters else {
                // The line ends inside the code, on the frame's border: a leading part.
                sink.appendLeadingPart(
                    .code128, values: values, count: count, minimum: Code128Reader.minPartCharacters,
                    run: run, first: b, last: j - 1, module: m, cut: j + 6 >= n, borderOnly: borderOnly)
                return 0
            }
            guard let c = patterns.classify(w, at: j, near: previousWidth, maxError: maxError, margin: minMargin),
                c.value < Code128Reader.startA
            else { return 0 }
            values[count] = c.value
            count += 1
            errorSum += c.error
            previousWidth = c.width
            j += 6
        }
        // Start, at least one data character, check character.
        guard count >= 3 else { return 0 }
        let lastBar = j + 6
        if borderOnly, !run.meetsFrameBorder(first: b, last: lastBar) { return 0 }
        var sum = values[0]
        for i in 1..<(count - 1) { sum += i * values[i] }
        guard sum % 103 == values[count - 1] else { return 0 }
        guard let (length, modifier) = payload(count: count - 1), length > 0 else { return 0 }
        sink.appendSymbol(
            .code128, text: UnsafeBufferPointer(start: bytes, count: length), run: run, first: b, last: lastBar,
            error: errorSum / Float(count + 1), aimModifier: modifier)
        return lastBar + 2
    }

    /// The payload of a whole symbol given as character values (start
    /// character first, check character last), when the check character
    /// verifies it: the bytes and the AIM modifier.
    func payload(ofSymbol v: [Int32]) -> (bytes: [UInt8], modifier: UInt8)? {
        let count = v.count
        guard count >= 3, count <= Code128Reader.maxCharacters,
            Int(v[0]) >= Code128Reader.startA, Int(v[0]) <= Code128Reader.startC
        else { return nil }
        var sum = Int(v[0])
        for i in 1..<(count - 1) {
            guard v[i] >= 0, Int(v[i]) < Code128Reader.startA else { return nil }
            sum += i * Int(v[i])
        }
        guard sum % 103 == Int(v[count - 1]) else { return nil }
        for i in 0..<count { values[i] = Int(v[i]) }
        guard let (length, modifier) = payload(count: count - 1), length > 0 else { return nil }
        return (Array(UnsafeBufferPointer(start: bytes, count: length)), modifier)
    }

    /// The payload read so far from a leading part (start character first,
    /// no check character), as far as it decodes; empty when it does not.
    func payload(ofLeadingPart v: [Int32]) -> [UInt8] {
        let count = min(v.count, Code128Reader.maxCharacters)
        guard count >= 2 else { return [] }
        for i in 0..<count { values[i] = Int(v[i]) }
        // A shift as the last character has nothing to apply to yet.
        let usable = values[count - 1] == Code128Reader.shift ? count - 1 : count
        guard let (length, _) = payload(count: usable) else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }

    /// Turns `values[1 ..< count]` (the characters between the start and the
    /// check character) into payload bytes, following the code sets.
    /// - Returns: the byte count and the AIM modifier; `nil` for a symbol
    ///   that is not data (FNC3) or breaks the rules.
    private func payload(count: Int) -> (Int, UInt8)? {
        // 0: set A, 1: set B, 2: set C.
        var set = values[0] - Code128Reader.startA
        var shifted = false
        var fnc4Once = false, fnc4Latched = false
        var previousWasFNC4 = false
        var length = 0
        var dataCharacters = 0
        var firstIsLetterOrPair = false
        var modifier = UInt8(ascii: "0")
        for i in 1..<count {
            let v = values[i]
            let current = shifted ? 1 - set : set
            shifted = false
            var isFNC4 = false
            if current == 2 {
                switch v {
                case 0..<100:
                    bytes[length] = UInt8(48 + v / 10)
                    bytes[length + 1] = UInt8(48 + v % 10)
                    length += 2
                    if dataCharacters == 0 { firstIsLetterOrPair = true }
                    dataCharacters += 1
                case 100: set = 1
                case 101: set = 0
                case Code128Reader.fnc1:
                    if !fnc1(
                        &modifier, dataCharacters: dataCharacters, firstIsLetterOrPair: firstIsLetterOrPair,
                        length: &length)
                    {
                        return nil
                    }
                default: return nil
                }
            } else {
                switch v {
                case 0..<96:
                    var c = current == 0 ? (v < 64 ? v + 32 : v - 64) : v + 32
                    if dataCharacters == 0 {
                        firstIsLetterOrPair = (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
                    }
                    if fnc4Once != fnc4Latched { c += 128 }
                    fnc4Once = false
                    bytes[length] = UInt8(c)
                    length += 1
                    dataCharacters += 1
                case Code128Reader.fnc3: return nil
                case Code128Reader.fnc2: break
                case Code128Reader.shift:
                    // A shift applies to the next character, which must be in the symbol.
                    guard i + 1 < count else { return nil }
                    shifted = true
                case Code128Reader.codeC: set = 2
                case 100, 101:
                    if (v == 100) == (current == 0) {
                        set = current == 0 ? 1 : 0  // Code B in set A, Code A in set B
                    } else {
                        isFNC4 = true
                        if previousWasFNC4 {
                            // Two in a row: latch (or unlatch) instead.
                            fnc4Latched.toggle()
                            fnc4Once = false
                            isFNC4 = false  // a third one starts afresh
                        } else {
                            fnc4Once = true
                        }
                    }
                case Code128Reader.fnc1:
                    if !fnc1(
                        &modifier, dataCharacters: dataCharacters, firstIsLetterOrPair: firstIsLetterOrPair,
                        length: &length)
                    {
                        return nil
                    }
                default: return nil
                }
            }
            previousWasFNC4 = isFNC4
        }
        return (length, modifier)
    }

    /// FNC1: first position (GS1-128), second position after a letter or a
    /// digit pair (application indicator), or a field separator (GS).
    @inline(__always)
    private func fnc1(_ modifier: inout UInt8, dataCharacters: Int, firstIsLetterOrPair: Bool, length: inout Int)
        -> Bool
    {
        if dataCharacters == 0 && modifier == UInt8(ascii: "0") {
            modifier = UInt8(ascii: "1")
        } else if dataCharacters == 1 && firstIsLetterOrPair && modifier == UInt8(ascii: "0") {
            modifier = UInt8(ascii: "2")
        } else {
            guard length > 0 else { return false }
            bytes[length] = 0x1D
            length += 1
        }
        return true
    }

    /// Whether element `i` (a space) is wide enough for
    /// ``quiet(_:_:module:zone:leading:)`` to take it: the whole zone, one
    /// module where the line ends, any width where it ends on the frame's
    /// border (``ElementRun/reachesFrameBorder(_:)``), else two (a narrower
    /// space is a gap between characters, not a margin). The cheap part of
    /// that test, for readers to make before measuring a character.
    @inline(__always)
    static func mayBeQuiet(_ run: borrowing ElementRun, _ i: Int, module m: Float, zone: Float) -> Bool {
        if run.reachesFrameBorder(i) { return true }
        let last = run.count - 1
        return run.widths[i] >= min(zone * m, i == 0 || i == last ? m : 2 * m)
    }

    /// Whether element `i` (a space) is a quiet zone of `zone` modules of
    /// size `m` before (`leading`) or after a symbol.
    ///
    /// A shorter space still counts when the grey levels over the whole
    /// zone stay lighter than halfway between the bars and spaces of the six
    /// elements next to it. A space that runs to the end of the line needs
    /// one module; where that end lies on the frame's border, none: the
    /// picture ends where the symbol does (ISO/IEC 15417 and AIM USS-93 ask
    /// for the quiet zone so that a reader finds the symbol's ends; the
    /// start and stop characters and the check character, which a line
    /// through a symbol cut short lacks, find them here).
    static func quiet(_ run: borrowing ElementRun, _ i: Int, module m: Float, zone: Float, leading: Bool) -> Bool {
        guard mayBeQuiet(run, i, module: m, zone: zone) else { return false }
        let w = run.widths.pointer, s = run.starts.pointer
        let need = zone * m
        if w[i] >= need { return true }
        if run.reachesFrameBorder(i) { return true }
        let last = run.count - 1
        if (i == 0 || i == last) && w[i] >= m { return true }
        guard leading ? i + 6 <= last : i >= 6 else { return false }
        let from = leading ? s[i + 1] : s[i - 6]
        let to = leading ? s[i + 6] + w[i + 6] : s[i]
        guard let levels = run.levels(from: from, to: to) else { return false }
        let level = (levels.bar + levels.space) / 2
        let zoneFrom = leading ? s[i + 1] - need : s[i]
        let zoneTo = leading ? s[i + 1] : s[i] + need
        guard zoneFrom >= 0, zoneTo <= run.lineLength else { return false }
        return run.isClear(from: zoneFrom, to: zoneTo, level: level)
    }
}
