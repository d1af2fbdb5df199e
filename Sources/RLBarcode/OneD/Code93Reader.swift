/// Code 93, with its full ASCII form.
///
/// Implements ANSI/AIM BC5-1995, Uniform Symbology Specification Code 93
/// (USS-93):
///
/// - Symbol structure: leading quiet zone, start character `*`, data
///   characters, check characters C and K, stop character `*`, a
///   termination bar of one module, trailing quiet zone.
/// - Character structure: 48 characters of six elements (three bars, three
///   spaces) over 9 modules, each element one to four modules: 43 data
///   characters (`0-9`, `A-Z`, `-`, `.`, space, `$`, `/`, `+`, `%`), the
///   four shift characters ($) (%) (/) (+) and the start/stop character.
/// - Check characters: C, modulo 47 over the data characters weighted 1 to
///   20 from the right (repeating), then K, modulo 47 over the data and C
///   weighted 1 to 15 from the right (repeating). Both are verified and
///   neither is transmitted.
/// - Full ASCII: a shift character followed by a letter stands for one of
///   the 128 ASCII characters: ($) A-Z control characters 1-26, (%) A-Z
///   the remaining control characters and punctuation, (/) A-O and Z
///   punctuation, (+) A-Z lower case. The pairs are decoded to text; a
///   shift character followed by anything else invalidates the symbol.
/// - Quiet zones of at least 10 modules on either side (a shorter space
///   still counts when the grey levels over the 10 modules stay light, see
///   ``Code128Reader/quiet(_:_:module:zone:leading:)``). The frame's border
///   counts as the quiet zone of a symbol that reaches it (a picture cut
///   tight): a symbol the border truncates lacks a start or stop
///   character on the line, and C and K verify the whole.
/// - Reference decode: edge-to-similar-edge distances normalised by the
///   character's own width (see ``EdgePatterns``).
/// - Symbology identifier `]G0`.
///
/// As with Code 128, a line that runs off the frame inside a code gives a
/// part (three data characters after the start, or two data characters, C
/// and K before the stop), joined with others across frames by
/// ``PartialCodes`` only when C and K verify the whole.
final class Code93Reader: StartStopReader {
    var symbologies: Symbology { .code93 }

    /// The 48 characters by value (43-46 the shifts ($) (%) (/) (+), 47 the
    /// start/stop character) as module widths bar-space-bar-space-bar-space.
    static let table: [UInt32] = [
        131112, 111213, 111312, 111411, 121113, 121212, 121311, 111114, 131211, 141111,
        211113, 211212, 211311, 221112, 221211, 231111, 112113, 112212, 112311, 122112,
        132111, 111123, 111222, 111321, 121122, 131121, 212112, 212211, 211122, 211221,
        221121, 222111, 112122, 112221, 122121, 123111, 121131, 311112, 311211, 321111,
        112131, 113121, 211131, 121221, 312111, 311121, 122211, 111141
    ]
    /// The data characters 0-42 in ASCII.
    static let alphabet: [UInt8] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%".utf8)
    static let startStop = 47

    /// The largest mismatch accepted for one character (the closest two
    /// characters are 2.0 apart).
    var maxCharError: Float = 1.8
    /// How much better the best character must fit than the next best.
    var minMargin: Float = 0.15
    /// Quiet zone required on each side, in modules.
    var minQuietZone: Float = 10
    /// The most characters (start and stop included) a symbol may have.
    static let maxCharacters = 160

    private let patterns = EdgePatterns(Code93Reader.table, elements: 6, modules: 9)
    private let values = UnsafeMutablePointer<Int>.allocate(capacity: Code93Reader.maxCharacters + 1)
    private let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: Code93Reader.maxCharacters + 1)
    private let alphabetBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 43)

    init() {
        values.initialize(repeating: 0, count: Code93Reader.maxCharacters + 1)
        bytes.initialize(repeating: 0, count: Code93Reader.maxCharacters + 1)
        for (i, c) in Code93Reader.alphabet.enumerated() { alphabetBytes[i] = c }
    }

    var framed = ElementRun()

    deinit { values.deallocate(); bytes.deallocate(); alphabetBytes.deallocate(); framed.free() }

    /// Start, one data character, C, K, stop (6 each), termination bar, quiet zone.
    var shortestSymbol: Int { 31 }

    /// The fewest characters a part holds: three data characters after the
    /// start, or two data characters and C and K before the stop.
    static let minPartCharacters = 3

    /// Looks for a stop character with its termination bar and quiet zone
    /// whose characters reach back to the line's start, which lies on the
    /// frame's border: the end of a code that the frame cuts. Appends its
    /// characters (C and K last) as a trailing part.
    func readTrailingPart(_ run: borrowing ElementRun, into sink: inout LinearHitSink) {
        // Two data characters at least, then C and K.
        patterns.appendTrailingPart(
            .code93, run, minimum: Code93Reader.minPartCharacters + 1, maxError: maxCharError, margin: minMargin,
            most: Code93Reader.maxCharacters, isData: { $0 != Code93Reader.startStop }, values: values, into: &sink
        ) { run, j in
            let w = run.widths.pointer
            let width = w[j] + w[j + 1] + w[j + 2] + w[j + 3] + w[j + 4] + w[j + 5]
            let m = width / 9
            guard m > 0, w[j + 4] > 2.5 * m, w[j] < 2 * m, w[j + 1] < 2 * m, w[j + 2] < 2 * m,
                patterns.mismatch(w + j, value: Code93Reader.startStop) <= maxCharError,
                w[j + 6] > 0.4 * m, w[j + 6] < 2.2 * m,
                Code128Reader.quiet(run, j + 7, module: m, zone: minQuietZone, leading: false)
            else { return nil }
            return (m, width)
        }
    }

    /// The payload of a whole symbol given as its character values (the
    /// data characters, then C and K; no start or stop), when C and K
    /// verify it.
    func payload(ofSymbol v: [Int32]) -> [UInt8]? {
        let count = v.count
        guard count >= 3, count <= Code93Reader.maxCharacters else { return nil }
        for i in 0..<count {
            guard v[i] >= 0, v[i] < Int32(Code93Reader.startStop) else { return nil }
            values[i] = Int(v[i])
        }
        guard checkOK(count: count), let length = text(count: count - 2), length > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }

    /// The payload read so far from the characters of a part, as far as it
    /// decodes (a shift whose partner is beyond the part is left out).
    func payload(ofPart v: [Int32]) -> [UInt8] {
        let count = min(v.count, Code93Reader.maxCharacters)
        for i in 0..<count { values[i] = Int(v[i]) }
        for usable in stride(from: count, to: max(count - 2, 0), by: -1) {
            if let length = text(count: usable) { return Array(UnsafeBufferPointer(start: bytes, count: length)) }
        }
        return []
    }

    /// Reads a symbol whose start character begins at bar `b`.
    /// - Returns: the bar after its termination bar's space, 0 when there is none.
    func read(_ run: borrowing ElementRun, at b: Int, borderOnly: Bool, into sink: inout LinearHitSink) -> Int {
        let w = run.widths.pointer
        let n = run.count
        let startWidth = w[b] + w[b + 1] + w[b + 2] + w[b + 3] + w[b + 4] + w[b + 5]
        let m = startWidth / 9
        // The start character 1 1 1 1 4 1: its fifth element is the widest (cheap tests first).
        guard m > 0, w[b + 4] > 2.5 * m, w[b] < 2 * m, w[b + 1] < 2 * m, w[b + 2] < 2 * m,
            patterns.mismatch(w + b, value: Code93Reader.startStop) <= maxCharError,
            Code128Reader.quiet(run, b - 1, module: m, zone: minQuietZone, leading: true),
            let start = patterns.classify(w + b, maxError: maxCharError, margin: minMargin),
            start.value == Code93Reader.startStop
        else { return 0 }
        var errorSum = start.error
        var count = 0
        var previousWidth = startWidth
        var j = b + 6
        while true {
            guard j + 7 < n, count < Code93Reader.maxCharacters else {
                // The line ends inside the code, on the frame's border: a leading part.
                sink.appendLeadingPart(
                    .code93, values: values, count: count, minimum: Code93Reader.minPartCharacters,
                    run: run, first: b, last: j - 1, module: m, cut: j + 7 >= n, borderOnly: borderOnly)
                return 0
            }
            guard let c = patterns.classify(w, at: j, near: previousWidth, maxError: maxCharError, margin: minMargin)
            else { return 0 }
            errorSum += c.error
            previousWidth = c.width
            if c.value == Code93Reader.startStop {
                // The stop: a termination bar of one module, then the quiet zone.
                let cm = c.width / 9
                let t = w[j + 6] / cm
                guard t > 0.4, t < 2.2,
                    Code128Reader.quiet(run, j + 7, module: cm, zone: minQuietZone, leading: false)
                else { return 0 }
                break
            }
            values[count] = c.value
            count += 1
            j += 6
        }
        // At least one data character, then C and K.
        guard count >= 3, checkOK(count: count) else { return 0 }
        let lastBar = j + 6
        if borderOnly, !run.meetsFrameBorder(first: b, last: lastBar) { return 0 }
        guard let length = text(count: count - 2), length > 0 else { return 0 }
        sink.appendSymbol(
            .code93, text: UnsafeBufferPointer(start: bytes, count: length), run: run, first: b, last: lastBar,
            error: errorSum / Float(count + 2))
        return lastBar + 2
    }

    /// Whether `values[count - 2]` and `values[count - 1]` are the check
    /// characters C and K of the characters before them.
    private func checkOK(count: Int) -> Bool {
        var c = 0, k = 0
        let data = count - 2
        for i in 0..<data {
            c += values[i] * ((data - 1 - i) % 20 + 1)
            k += values[i] * ((data - i) % 15 + 1)
        }
        guard c % 47 == values[data] else { return false }
        k += values[data]  // weight 1
        return k % 47 == values[data + 1]
    }

    /// Decodes the `count` data characters into `bytes`, expanding the full
    /// ASCII shift pairs.
    /// - Returns: the byte count, `nil` for a shift character without a valid partner.
    private func text(count: Int) -> Int? {
        var length = 0
        var i = 0
        while i < count {
            let v = values[i]
            if v < 43 {
                bytes[length] = alphabetBytes[v]
                length += 1
                i += 1
                continue
            }
            guard v < 47, i + 1 < count else { return nil }
            let next = values[i + 1]
            // The partner is a letter A-Z (values 10-35).
            guard next >= 10, next <= 35 else { return nil }
            let letter = next - 10  // 0 = A
            var c: Int
            switch v {
            case 43:  // ($): control characters 1-26
                c = letter + 1
            case 44:  // (%)
                switch letter {
                case 0...4: c = 27 + letter  // ESC FS GS RS US
                case 5...9: c = 59 + letter - 5  // ; < = > ?
                case 10...14: c = 91 + letter - 10  // [ \ ] ^ _
                case 15...19: c = 123 + letter - 15  // { | } ~ DEL
                case 20: c = 0  // NUL
                case 21: c = 64  // @
                case 22: c = 96  // `
                default: c = 127  // DEL
                }
            case 45:  // (/): ! " # $ % & ' ( ) * + , - . / and :
                if letter <= 14 { c = 33 + letter } else if letter == 25 { c = 58 } else { return nil }
            default:  // (+): lower case
                c = 97 + letter
            }
            bytes[length] = UInt8(c)
            length += 1
            i += 2
        }
        return length
    }
}
