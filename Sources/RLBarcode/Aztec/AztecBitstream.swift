/// The bit stream inside the data code words of an Aztec Code symbol
/// (ISO/IEC 24778:2008, 7.4.1 data encodation): characters of five 5-bit
/// modes (Upper, Lower, Mixed, Punct) and the 4-bit Digit mode, with
/// latches and shifts between them (7.4.1.1, Table 2 and Table 3), Binary
/// Shift for byte data (7.4.1.1), FLG(n) for FNC1 and ECI designators
/// (7.4.1.3, 7.4.1.4), and the structured append header (8).
package enum AztecBitstream {
    /// The modes (7.4.1.1).
    enum Mode { case upper, lower, mixed, punct, digit }

    /// FNC1 position.
    enum FNC1: Equatable, Sendable {
        case none
        /// FNC1 first: the data is a GS1 element string (AIM ]z1).
        case first
        /// FNC1 after one letter or two digits (AIM ]z2).
        case second
    }

    /// What the bit stream holds.
    package struct Content {
        var bytes: [UInt8] = []
        /// Runs of `bytes` and the ECI in force over each (nil: none).
        var runs: [(range: Range<Int>, eci: Int?)] = []
        var firstECI: Int?
        var hasECI = false
        var fnc1: FNC1 = .none
        var structuredAppend: (index: Int, total: Int, id: String)?
    }

    // Code values of the 5-bit modes; nil entries are latches and shifts.
    private static let upperTable: [UInt8] = Array(" ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
    private static let lowerTable: [UInt8] = Array(" abcdefghijklmnopqrstuvwxyz".utf8)
    /// Mixed mode codes 1 ... 27: SP, ^A ... ^M, ^[ ... ^_, @ \ ^ _ ` | ~ DEL.
    private static let mixedTable: [UInt8] = [
        32, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
        27, 28, 29, 30, 31, 64, 92, 94, 95, 96, 124, 126, 127
    ]
    /// Punct mode codes 1 ... 30 (code 1 CR, 2 CR LF, 3 ". ", 4 ", ", 5 ": ").
    private static let punctTable: [[UInt8]] =
        [[13], [13, 10], [46, 32], [44, 32], [58, 32]]
        + Array("!\"#$%&'()*+,-./:;<=>?[]{}".utf8).map { [$0] }

    /// Decodes the unstuffed data bits (one bit per element).
    package static func decode(_ bits: [UInt8]) -> Content? {
        var pos = 0
        let n = bits.count
        func read(_ k: Int) -> Int? {
            guard pos + k <= n else { return nil }
            var v = 0
            for i in 0..<k { v = v << 1 | Int(bits[pos + i]) }
            pos += k
            return v
        }
        var c = Content()
        c.bytes.reserveCapacity(n / 5 + 8)
        var eci: Int? = nil
        var runStart = 0
        func closeRun() {
            guard runStart < c.bytes.count else { return }
            if let last = c.runs.last, last.eci == eci, last.range.upperBound == runStart {
                c.runs[c.runs.count - 1].range = last.range.lowerBound..<c.bytes.count
            } else {
                c.runs.append((runStart..<c.bytes.count, eci))
            }
            runStart = c.bytes.count
        }
        // 8: structured append: the message starts with M/L U/L; the
        // header that follows is parsed from the decoded characters.
        let appended = n >= 10 && bits[0..<10].elementsEqual([1, 1, 1, 0, 1, 1, 1, 1, 0, 1])
        if appended { pos = 10 }
        var latched = Mode.upper
        var shifted: Mode? = nil
        var charsEmitted = 0
        decoding: while true {
            let mode = shifted ?? latched
            shifted = nil
            let width = mode == .digit ? 4 : 5
            guard let code = read(width) else { break }
            switch mode {
            case .digit:
                digit(code, into: &c.bytes, latched: &latched, shifted: &shifted)
                if code == 0 || code >= 14 { continue }
                charsEmitted += 1
                continue
            case .punct:
                if code == 0 {
                    // 7.4.1.3 FLG(n).
                    guard let f = read(3) else { return nil }
                    if f == 0 {
                        // FNC1.
                        closeRun()
                        if charsEmitted == 0 && c.fnc1 == .none {
                            c.fnc1 = .first
                        } else if c.fnc1 == .none && isApplicationIndicator(c.bytes) {
                            c.fnc1 = .second
                        } else {
                            c.bytes.append(GS1.groupSeparator)
                            charsEmitted += 1
                        }
                    } else if f == 7 {
                        return nil
                    } else {
                        var value = 0
                        for _ in 0..<f {
                            guard let dgt = read(4), dgt >= 2, dgt <= 11 else { return nil }
                            value = value * 10 + dgt - 2
                        }
                        closeRun()
                        eci = value
                        c.hasECI = true
                        if c.firstECI == nil { c.firstECI = value }
                    }
                    continue
                }
                if code == 31 { latched = .upper; continue }
                c.bytes.append(contentsOf: punctTable[code - 1])
                charsEmitted += 1
                continue
            case .upper, .lower, .mixed:
                if code == 31 {
                    // Binary Shift (7.4.1.1).
                    // The padding at the end is ones: a Binary Shift with
                    // no room for its length is padding.
                    guard var count = read(5) else { break decoding }
                    if count == 0 {
                        guard let more = read(11) else { break decoding }
                        count = more + 31
                    }
                    guard count * 8 <= n - pos else {
                        if n - pos < 8 && bits[pos...].allSatisfy({ $0 == 1 }) { break decoding }
                        return nil
                    }
                    for _ in 0..<count { c.bytes.append(UInt8(read(8)!)) }
                    charsEmitted += count
                    // After the bytes the mode Binary Shift was given in
                    // holds, also when that was itself a shift (Digit U/S
                    // B/S goes on in Upper).
                    latched = mode
                    continue
                }
                if code == 0 { shifted = .punct; continue }
                switch (mode, code) {
                case (.upper, 28), (.mixed, 28): latched = .lower; continue
                case (.upper, 29), (.lower, 29): latched = .mixed; continue
                case (.upper, 30), (.lower, 30): latched = .digit; continue
                case (.lower, 28): shifted = .upper; continue
                case (.mixed, 29): latched = .upper; continue
                case (.mixed, 30): latched = .punct; continue
                default: break
                }
                switch mode {
                case .upper: c.bytes.append(upperTable[code - 1])
                case .lower: c.bytes.append(lowerTable[code - 1])
                default: c.bytes.append(mixedTable[code - 1])
                }
                charsEmitted += 1
            }
        }
        closeRun()
        if appended, !structuredAppendHeader(&c) { return nil }
        return c
    }

    /// The digit mode character `code` (7.4.1.1, Table 3), or its latch or shift.
    private static func digit(_ code: Int, into bytes: inout [UInt8], latched: inout Mode, shifted: inout Mode?) {
        switch code {
        case 0: shifted = .punct
        case 1: bytes.append(32)
        case 2...11: bytes.append(UInt8(46 + code))
        case 12: bytes.append(44)
        case 13: bytes.append(46)
        case 14: latched = .upper
        default: shifted = .upper
        }
    }

    /// Takes the structured append header (8) off the front of `c`'s
    /// bytes into ``Content/structuredAppend``; false when it is malformed.
    private static func structuredAppendHeader(_ c: inout Content) -> Bool {
        // An optional message id between spaces, then the position and
        // the count as letters A = 1 ... Z = 26.
        var i = 0
        var id: [UInt8] = []
        if c.bytes.first == 32 {
            i = 1
            while i < c.bytes.count && c.bytes[i] != 32 { id.append(c.bytes[i]); i += 1 }
            guard i < c.bytes.count else { return false }
            i += 1
        }
        guard i + 1 < c.bytes.count else { return false }
        let a = Int(c.bytes[i]) - 64, b = Int(c.bytes[i + 1]) - 64
        guard a >= 1, a <= 26, b >= 1, b <= 26, a <= b else { return false }
        c.structuredAppend = (a - 1, b, String(decoding: id, as: UTF8.self))
        let cut = i + 2
        c.bytes.removeFirst(cut)
        var runs: [(range: Range<Int>, eci: Int?)] = []
        for r in c.runs where r.range.upperBound > cut {
            runs.append((max(0, r.range.lowerBound - cut)..<(r.range.upperBound - cut), r.eci))
        }
        c.runs = runs
        return true
    }

    /// Whether the data so far is an application indicator before FNC1 in
    /// second position: one letter or two digits.
    private static func isApplicationIndicator(_ b: [UInt8]) -> Bool {
        func digit(_ x: UInt8) -> Bool { x >= 48 && x <= 57 }
        func letter(_ x: UInt8) -> Bool { (x >= 65 && x <= 90) || (x >= 97 && x <= 122) }
        return (b.count == 1 && letter(b[0])) || (b.count == 2 && digit(b[0]) && digit(b[1]))
    }

    /// The text of the payload: each run in its ECI's character set,
    /// ISO/IEC 8859-1 where none is in force (7.4.1.2).
    package static func text(of c: Content) -> String {
        var text = ""
        var covered = 0
        for run in c.runs {
            if run.range.lowerBound > covered {
                text += QRCharacterSet.latin1(c.bytes[covered..<run.range.lowerBound])
            }
            text += QRCharacterSet.text(c.bytes[run.range], .eci(run.eci ?? 3))
            covered = run.range.upperBound
        }
        if covered < c.bytes.count { text += QRCharacterSet.latin1(c.bytes[covered...]) }
        return text
    }
}
