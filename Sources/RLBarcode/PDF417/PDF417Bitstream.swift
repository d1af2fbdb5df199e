/// The data codewords of a PDF417 symbol turned into bytes and text
/// (ISO/IEC 15438:2015, 5.4 data encodation): the three compaction modes
/// (5.4.2 Text Compaction with its four sub-modes, 5.4.3 Byte Compaction,
/// 5.4.4 Numeric Compaction), the mode latch and shift codewords (5.4.1),
/// Extended Channel Interpretation (5.5, codewords 925 to 927), reader
/// initialisation (921) and the Macro PDF417 control block (Annex H:
/// codewords 928, 923 and 922).
package enum PDF417Bitstream {
    /// Mode latch to Text Compaction (5.4.1).
    static let textLatch = 900
    /// Mode latch to Byte Compaction, byte count not a multiple of 6 (5.4.3).
    static let byteLatch = 901
    /// Mode latch to Numeric Compaction (5.4.4).
    static let numericLatch = 902
    /// Mode shift to Byte Compaction for one codeword, inside Text Compaction.
    static let byteShift = 913
    /// Reader initialisation (5.4.1.5).
    static let readerInit = 921
    /// Macro PDF417 terminator (Annex H).
    static let macroTerminator = 922
    /// Macro PDF417 optional field designator (Annex H).
    static let macroOptionalField = 923
    /// Mode latch to Byte Compaction, byte count a multiple of 6 (5.4.3).
    static let byteLatch6 = 924
    /// ECI user-defined (810900 ...), general purpose (900 ... 810899) and
    /// character set (0 ... 899) designators (5.5).
    static let eciUser = 925, eciGeneral = 926, eciCharacterSet = 927
    /// Begin Macro PDF417 control block (Annex H).
    static let macroBegin = 928

    /// The Macro PDF417 control block (Annex H).
    struct Macro: Sendable, Equatable {
        /// The segment index, from 0.
        var segmentIndex = 0
        /// The file ID: its codewords, three decimal digits each.
        var fileID = ""
        /// Whether this is the file's last segment (terminator 922).
        var isLast = false
        /// Optional field 1, the number of segments (0 when absent).
        var segmentCount = 0
        /// Optional field 0, the file name (empty when absent).
        var fileName = ""
    }

    /// What the codewords hold.
    package struct Content: Sendable {
        /// The payload bytes (text and digits as ASCII, bytes as they are).
        var bytes: [UInt8] = []
        /// Runs of `bytes` and how each becomes text.
        var runs: [(range: Range<Int>, encoding: QRBitstream.TextEncoding)] = []
        /// Whether an ECI designator occurs.
        var hasECI = false
        /// Whether the symbol starts with reader initialisation.
        var readerInit = false
        /// The Macro PDF417 control block, when there is one.
        var macro: Macro?

        /// Appends `bytes[start...]` as a run of `encoding`.
        mutating func closeRun(from start: Int, _ encoding: QRBitstream.TextEncoding) {
            guard start < bytes.count else { return }
            if let last = runs.last, last.encoding == encoding, last.range.upperBound == start {
                runs[runs.count - 1].range = last.range.lowerBound..<bytes.count
            } else {
                runs.append((start..<bytes.count, encoding))
            }
        }

        /// The text of the payload: each run in its character set (byte
        /// data without an ECI as UTF-8 when it is valid UTF-8, else as
        /// ISO/IEC 8859-1).
        package var text: String {
            var s = ""
            for run in runs {
                let slice = bytes[run.range]
                if case .guess = run.encoding {
                    s +=
                        slice.allSatisfy({ $0 < 0x80 }) || String(validating: slice, as: UTF8.self) != nil
                        ? String(decoding: slice, as: UTF8.self) : QRCharacterSet.latin1(slice)
                } else {
                    s += QRCharacterSet.text(slice, run.encoding)
                }
            }
            return s
        }
    }

    /// The sub-modes of Text Compaction (5.4.2.2, Table 2).
    private enum SubMode { case alpha, lower, mixed, punctuation }

    /// Mixed sub-mode values 0 ... 24 (25 ... 29 are latches and shifts).
    private static let mixed: [UInt8] = Array("0123456789&\r\t,:#-.$/+%*=^".utf8)
    /// Punctuation sub-mode values 0 ... 28 (29 is the latch to Alpha).
    private static let punctuation: [UInt8] = Array(";<>@[\\]_`~!\r\t,:\n-.$/\"|*()?{}'".utf8)

    /// Decodes the data codewords `words` (the symbol length descriptor
    /// first, then data, Macro PDF417 control block and padding).
    ///
    /// - Returns: nil when the codewords break the rules: a reserved
    ///   codeword, a value out of range, a control block cut short.
    package static func decode(_ words: [Int]) -> Content? {
        guard let n = words.first, n >= 1, n <= words.count else { return nil }
        var content = Content()
        var eci: Int? = nil
        var runStart = 0
        var i = 1
        var subMode = SubMode.alpha
        /// Closes the current run in the encoding that `ascii` text or bytes take.
        func close(_ ascii: Bool) {
            let enc: QRBitstream.TextEncoding = eci.map { .eci($0) } ?? (ascii ? .ascii : .guess)
            content.closeRun(from: runStart, enc)
            runStart = content.bytes.count
        }
        var mode = textLatch
        if i < n, words[i] == readerInit { content.readerInit = true; i += 1 }
        while i < n {
            let w = words[i]
            switch w {
            case textLatch:
                subMode = .alpha
                mode = textLatch
                i += 1
            case byteLatch, byteLatch6, numericLatch:
                mode = w
                i += 1
            case eciCharacterSet, eciGeneral, eciUser:
                let count = w == eciGeneral ? 2 : 1
                guard i + count < n else { return nil }
                let a = words[i + 1]
                guard a < 900 else { return nil }
                close(mode != byteLatch && mode != byteLatch6)
                if w == eciCharacterSet {
                    eci = a
                } else if w == eciUser {
                    eci = 810_900 + a
                } else {
                    let b = words[i + 2]
                    guard b < 900 else { return nil }
                    eci = (a + 1) * 900 + b
                }
                content.hasECI = true
                i += 1 + count
            case macroBegin:
                guard let (macro, next) = macroBlock(words, from: i + 1, end: n) else { return nil }
                content.macro = macro
                i = next
            case macroOptionalField, macroTerminator:
                // Only inside a control block.
                return nil
            case readerInit:
                return nil
            case byteShift:
                guard mode == textLatch, i + 1 < n, words[i + 1] < 900 else { return nil }
                let b = words[i + 1]
                guard b < 256 else { return nil }
                content.bytes.append(UInt8(b))
                close(false)
                i += 2
            case 903...912, 914...920:
                return nil
            default:
                var j = i
                while j < n && words[j] < 900 { j += 1 }
                switch mode {
                case numericLatch:
                    guard numeric(words[i..<j], into: &content.bytes) else { return nil }
                case byteLatch, byteLatch6:
                    guard bytes(words[i..<j], sixes: mode == byteLatch6, into: &content.bytes) else { return nil }
                    close(false)
                default:
                    text(words[i..<j], subMode: &subMode, into: &content.bytes)
                }
                if mode != byteLatch && mode != byteLatch6 { close(true) }
                i = j
            }
        }
        close(true)
        return content
    }

    /// Text Compaction (5.4.2): each codeword holds two values 0 ... 29,
    /// 30 h + l, read in the current sub-mode, with latches (which last)
    /// and shifts (one character). A trailing value 29 pads an odd count.
    private static func text(_ words: ArraySlice<Int>, subMode: inout SubMode, into out: inout [UInt8]) {
        var shift: SubMode? = nil
        for w in words {
            for v in [w / 30, w % 30] {
                let mode = shift ?? subMode
                shift = nil
                switch mode {
                case .alpha, .lower:
                    let base: UInt8 = mode == .alpha ? 65 : 97
                    switch v {
                    case 0..<26: out.append(base + UInt8(v))
                    case 26: out.append(32)
                    case 27: if mode == .alpha { subMode = .lower } else { shift = .alpha }
                    case 28: subMode = .mixed
                    default: shift = .punctuation
                    }
                case .mixed:
                    switch v {
                    case 0..<25: out.append(mixed[v])
                    case 25: subMode = .punctuation
                    case 26: out.append(32)
                    case 27: subMode = .lower
                    case 28: subMode = .alpha
                    default: shift = .punctuation
                    }
                case .punctuation:
                    if v < 29 { out.append(punctuation[v]) } else { subMode = .alpha }
                }
            }
        }
    }

    /// Byte Compaction (5.4.3): groups of five codewords are six bytes
    /// (base 900 to base 256); with latch 901 the last one to five
    /// codewords are one byte each.
    private static func bytes(_ words: ArraySlice<Int>, sixes: Bool, into out: inout [UInt8]) -> Bool {
        let count = words.count
        let groups = sixes ? count / 5 : (count - 1) / 5
        guard !sixes || count % 5 == 0 else { return false }
        var k = words.startIndex
        for _ in 0..<groups {
            var v: UInt64 = 0
            for _ in 0..<5 { v = v * 900 + UInt64(words[k]); k += 1 }
            guard v < 1 << 48 else { return false }
            for s in stride(from: 40, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: v >> UInt64(s))) }
        }
        while k < words.endIndex {
            guard words[k] < 256 else { return false }
            out.append(UInt8(words[k]))
            k += 1
        }
        return true
    }

    /// Numeric Compaction (5.4.4): groups of up to 15 codewords are a
    /// base 900 number whose decimal digits, after a leading 1, are the data.
    private static func numeric(_ words: ArraySlice<Int>, into out: inout [UInt8]) -> Bool {
        var k = words.startIndex
        while k < words.endIndex {
            let end = min(k + 15, words.endIndex)
            guard appendDigits(words[k..<end], into: &out) else { return false }
            k = end
        }
        return true
    }

    /// Appends the decimal digits of the base 900 number `group`, without
    /// its leading 1.
    static func appendDigits(_ group: ArraySlice<Int>, into out: inout [UInt8]) -> Bool {
        // Repeated division by 10 of the base 900 digits, most significant first.
        var digits = Array(group)
        var decimal: [UInt8] = []
        while digits.contains(where: { $0 != 0 }) {
            var remainder = 0
            for d in 0..<digits.count {
                let v = remainder * 900 + digits[d]
                digits[d] = v / 10
                remainder = v % 10
            }
            decimal.append(UInt8(48 + remainder))
        }
        guard decimal.last == 49 else { return false }
        decimal.removeLast()
        out.append(contentsOf: decimal.reversed())
        return true
    }

    /// Reads a Macro PDF417 control block from `words[start]` (after 928):
    /// the segment index (two codewords, five digits as in Numeric
    /// Compaction), the file ID (codewords up to the next 923 or 922), the
    /// optional fields (923 and a designator) and the terminator 922.
    /// - Returns: the block and the index after it.
    private static func macroBlock(_ words: [Int], from start: Int, end n: Int) -> (Macro, Int)? {
        guard start + 2 <= n, words[start] < 900, words[start + 1] < 900 else { return nil }
        var digits: [UInt8] = []
        guard appendDigits(words[start..<(start + 2)], into: &digits), digits.count <= 5,
            let index = Int(String(decoding: digits, as: UTF8.self))
        else { return nil }
        var macro = Macro(segmentIndex: index)
        var i = start + 2
        var id = ""
        while i < n && words[i] < 900 {
            let v = words[i]
            id += v < 10 ? "00\(v)" : v < 100 ? "0\(v)" : "\(v)"
            i += 1
        }
        macro.fileID = id
        while i < n {
            let w = words[i]
            if w == macroTerminator { macro.isLast = true; i += 1; continue }
            guard w == macroOptionalField, i + 1 < n else {
                // Padding after the block.
                if w == textLatch { i += 1; continue }
                return nil
            }
            let field = words[i + 1]
            var j = i + 2
            while j < n && words[j] < 900 { j += 1 }
            let values = words[(i + 2)..<j]
            switch field {
            case 0:
                var sub = SubMode.alpha, name: [UInt8] = []
                text(values, subMode: &sub, into: &name)
                macro.fileName = String(decoding: name, as: UTF8.self)
            case 1:
                var d: [UInt8] = []
                guard appendDigits(values, into: &d), let count = Int(String(decoding: d, as: UTF8.self)) else {
                    return nil
                }
                macro.segmentCount = count
            default:
                break
            }
            i = j
        }
        return (macro, i)
    }
}
