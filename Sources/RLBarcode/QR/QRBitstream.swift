/// The bit stream inside the data code words of a QR Code or Micro QR
/// symbol (ISO/IEC 18004:2015, 7.4 data encodation): a sequence of segments,
/// each a mode indicator, a character count and the characters (7.4, the
/// numeric, alphanumeric, byte and Kanji modes; character count indicator
/// lengths per version; Micro QR's shorter mode indicators); ECI designators
/// (7.4, ECI mode), FNC1 in first or second position (7.4, FNC1 modes), the
/// structured append header (clause 8), and the terminator (7.4).
package enum QRBitstream {
    /// How the bytes of a segment become text.
    package enum TextEncoding: Equatable, Sendable {
        /// Numeric or alphanumeric characters: plain ASCII.
        case ascii
        /// Byte-mode data with no ECI in force: the character set is guessed.
        case guess
        /// Data under an ECI designator (7.4, ECI mode), with its assignment number.
        case eci(Int)
        /// Kanji-mode characters with no ECI in force, turned back into Shift
        /// JIS byte pairs.
        case shiftJIS
        /// Hanzi-mode characters (GB/T 18284), turned back into GB 2312 pairs.
        case gb2312
    }

    /// FNC1 mode (7.4, FNC1 modes).
    enum FNC1: Equatable, Sendable {
        case none
        /// First position: the data is a GS1 element string.
        case first
        /// Second position: the data follows an application indicator.
        case second
    }

    /// What the bit stream holds.
    package struct Content: Sendable {
        /// The payload bytes, segment after segment (digits and alphanumeric
        /// characters as ASCII, Kanji as Shift JIS pairs, byte data as is; in
        /// FNC1 mode a `%` of alphanumeric mode is GS, 0x1D, and `%%` is `%`).
        var bytes: [UInt8] = []
        /// Runs of `bytes` and how each becomes text.
        var runs: [(range: Range<Int>, encoding: TextEncoding)] = []
        /// The first ECI assignment number, if any.
        var firstECI: Int?
        /// Whether any ECI designator occurs.
        var hasECI = false
        /// FNC1 mode.
        var fnc1: FNC1 = .none
        /// The application indicator of FNC1 second position, as text
        /// (two digits or one letter); it is also the start of `bytes`.
        var applicationIndicator: String?
        /// Structured append header (8): position, total, parity.
        var structuredAppend: (index: Int, total: Int, parity: UInt8)?

        /// Appends `bytes[start...]` as a run of `encoding`, merged with the
        /// previous run when it has the same encoding.
        mutating func closeRun(from start: Int, _ encoding: TextEncoding) {
            guard start < bytes.count else { return }
            if let last = runs.last, last.encoding == encoding, last.range.upperBound == start {
                runs[runs.count - 1].range = last.range.lowerBound..<bytes.count
            } else {
                runs.append((start..<bytes.count, encoding))
            }
        }
    }

    /// Why a bit stream is rejected.
    package enum Failure: Error, Equatable, Sendable {
        /// A mode indicator that the symbol type does not have.
        case unknownMode
        /// A segment runs past the end of the data.
        case truncated
        /// A value out of range: digits over 999, alphanumeric over 44, a bad
        /// ECI designator or application indicator.
        case invalidValue
    }

    /// The 45 characters of alphanumeric mode (7.4, alphanumeric mode).
    static let alphanumeric: [UInt8] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:".utf8)

    /// Reads bits most significant first from the data code words.
    struct BitReader {
        let data: UnsafeBufferPointer<UInt8>
        /// How many bits count (8 per code word, 4 fewer with a half code word).
        let bitCount: Int
        var position = 0

        var remaining: Int { bitCount - position }

        /// The next `n` bits (n <= 32), or nil when fewer remain.
        mutating func read(_ n: Int) -> Int? {
            guard n >= 0, n <= remaining else { return nil }
            var v = 0
            for _ in 0..<n {
                let byte = data[position >> 3]
                v = v << 1 | Int(byte >> UInt8(7 - position & 7) & 1)
                position += 1
            }
            return v
        }

        /// Whether the next min(n, remaining) bits are all zero.
        func zeros(_ n: Int) -> Bool {
            var copy = self
            return copy.read(min(n, remaining)) == 0
        }
    }

    /// The segment modes.
    private enum Mode {
        case numeric, alphanumeric, byte, kanji, hanzi, eci, fnc1First, fnc1Second, structuredAppend, terminator
    }

    /// Decodes the bit stream.
    /// - Parameters:
    ///   - data: the corrected data code words, in order.
    ///   - bitCount: how many bits of them belong to the stream.
    ///   - version: the QR Code version (1 ... 40) or Micro QR version (1 ... 4).
    ///   - micro: whether the symbol is a Micro QR symbol.
    ///   - skip: bits before the first segment, passed over (4 in QR Code
    ///     Model 1, ISO/IEC 18004:2000, Annex M).
    package static func decode(
        _ data: UnsafeBufferPointer<UInt8>, bitCount: Int, version: Int,
        micro: Bool, skip: Int = 0
    ) -> Result<Content, Failure> {
        var reader = BitReader(data: data, bitCount: min(bitCount, data.count * 8))
        if skip > 0 && reader.read(skip) == nil { return .failure(.truncated) }
        var content = Content()
        content.bytes.reserveCapacity(data.count * 2)
        var eci: Int?
        let range = version <= 9 ? 0 : version <= 26 ? 1 : 2
        // Micro QR terminator: 3, 5, 7 or 9 zero bits (7.4, terminator).
        let microTerminator = 2 * version + 1
        while true {
            let mode: Mode
            if micro {
                if reader.remaining == 0 || reader.zeros(microTerminator) { break }
                guard let m = reader.read(version - 1) else { return .failure(.truncated) }
                switch m {
                case 0: mode = .numeric
                case 1: mode = .alphanumeric
                case 2: mode = .byte
                case 3: mode = .kanji
                default: return .failure(.unknownMode)
                }
            } else {
                if reader.remaining < 4 { break }
                guard let m = modeIndicator(reader.read(4)!) else { return .failure(.unknownMode) }
                mode = m
            }
            switch mode {
            case .terminator:
                return .success(content)
            case .structuredAppend:
                guard let index = reader.read(4), let total = reader.read(4), let parity = reader.read(8) else {
                    return .failure(.truncated)
                }
                content.structuredAppend = (index, total + 1, UInt8(parity))
                continue
            case .fnc1First:
                content.fnc1 = .first
                continue
            case .fnc1Second:
                guard let ai = reader.read(8) else { return .failure(.truncated) }
                let text: String
                if ai < 100 {
                    text = ai < 10 ? "0\(ai)" : "\(ai)"
                } else if (165...190).contains(ai) || (197...222).contains(ai) {
                    text = String(UnicodeScalar(UInt8(ai - 100)))
                } else {
                    return .failure(.invalidValue)
                }
                content.fnc1 = .second
                content.applicationIndicator = text
                let start = content.bytes.count
                content.bytes.append(contentsOf: Array(text.utf8))
                content.closeRun(from: start, .ascii)
                continue
            case .eci:
                let value: Int
                switch readECI(&reader) {
                case .success(let v): value = v
                case .failure(let f): return .failure(f)
                }
                eci = value
                content.hasECI = true
                if content.firstECI == nil { content.firstECI = value }
                continue
            default:
                break
            }
            let start = content.bytes.count
            switch mode {
            case .numeric:
                let bits = micro ? version + 2 : [10, 12, 14][range]
                guard let count = reader.read(bits) else { return .failure(.truncated) }
                if let f = readNumeric(&reader, count, into: &content.bytes) { return .failure(f) }
                content.closeRun(from: start, .ascii)
            case .alphanumeric:
                let bits = micro ? version + 1 : [9, 11, 13][range]
                guard let count = reader.read(bits) else { return .failure(.truncated) }
                if let f = readAlphanumeric(&reader, count, fnc1: content.fnc1 != .none, into: &content.bytes) {
                    return .failure(f)
                }
                content.closeRun(from: start, .ascii)
            case .byte:
                let bits = micro ? version + 1 : [8, 16, 16][range]
                guard let count = reader.read(bits) else { return .failure(.truncated) }
                guard count * 8 <= reader.remaining else { return .failure(.truncated) }
                for _ in 0..<count { content.bytes.append(UInt8(reader.read(8)!)) }
                content.closeRun(from: start, eci.map { .eci($0) } ?? .guess)
            case .kanji:
                let bits = micro ? version : [8, 10, 12][range]
                guard let count = reader.read(bits) else { return .failure(.truncated) }
                if let f = readKanji(&reader, count, into: &content.bytes) { return .failure(f) }
                // Under an ECI the pairs are bytes of that character set (an encoder
                // may pack any byte pair that fits into Kanji mode).
                content.closeRun(from: start, eci.map { .eci($0) } ?? .shiftJIS)
            case .hanzi:
                // GB/T 18284: a 4-bit subset (1 = GB 2312), then 13-bit characters.
                guard let subset = reader.read(4) else { return .failure(.truncated) }
                guard subset == 1 else { return .failure(.unknownMode) }
                guard let count = reader.read([8, 10, 12][range]) else { return .failure(.truncated) }
                if let f = readHanzi(&reader, count, into: &content.bytes) { return .failure(f) }
                content.closeRun(from: start, .gb2312)
            default:
                return .failure(.unknownMode)
            }
        }
        return .success(content)
    }

    /// The mode of a QR Code mode indicator (7.4.2, Table 2); nil for none.
    private static func modeIndicator(_ v: Int) -> Mode? {
        switch v {
        case 0b0000: .terminator
        case 0b0001: .numeric
        case 0b0010: .alphanumeric
        case 0b0100: .byte
        case 0b1000: .kanji
        case 0b1101: .hanzi
        case 0b0111: .eci
        case 0b0101: .fnc1First
        case 0b1001: .fnc1Second
        case 0b0011: .structuredAppend
        default: nil
        }
    }

    /// An ECI designator (7.4.3.2, Table 4): one to three code words, at
    /// most 999999.
    private static func readECI(_ reader: inout BitReader) -> Result<Int, Failure> {
        guard let b0 = reader.read(8) else { return .failure(.truncated) }
        let value: Int
        if b0 & 0x80 == 0 {
            value = b0
        } else if b0 & 0xC0 == 0x80 {
            guard let b1 = reader.read(8) else { return .failure(.truncated) }
            value = (b0 & 0x3F) << 8 | b1
        } else if b0 & 0xE0 == 0xC0 {
            guard let b12 = reader.read(16) else { return .failure(.truncated) }
            value = (b0 & 0x1F) << 16 | b12
        } else {
            return .failure(.invalidValue)
        }
        guard value <= 999_999 else { return .failure(.invalidValue) }
        return .success(value)
    }

    /// Kanji mode (7.4.6): `count` 13-bit characters to Shift JIS byte pairs.
    private static func readKanji(_ reader: inout BitReader, _ count: Int, into out: inout [UInt8]) -> Failure? {
        guard count * 13 <= reader.remaining else { return .truncated }
        for _ in 0..<count {
            // 7.4, Kanji mode: the 13-bit value is (high - 0x81 or 0xC1) * 0xC0 + (low - 0x40).
            let v = reader.read(13)!
            var a = (v / 0xC0) << 8 | (v % 0xC0)
            a += a < 0x1F00 ? 0x8140 : 0xC140
            out.append(UInt8(a >> 8))
            out.append(UInt8(a & 0xFF))
        }
        return nil
    }

    /// Hanzi mode (GB/T 18284, GB 2312 subset): `count` 13-bit characters
    /// to GB 2312 byte pairs.
    private static func readHanzi(_ reader: inout BitReader, _ count: Int, into out: inout [UInt8]) -> Failure? {
        guard count * 13 <= reader.remaining else { return .truncated }
        for _ in 0..<count {
            let v = reader.read(13)!
            var a = (v / 0x60) << 8 | (v % 0x60)
            a += a < 0x0A00 ? 0xA1A1 : 0xA6A1
            out.append(UInt8(truncatingIfNeeded: a >> 8))
            out.append(UInt8(a & 0xFF))
        }
        return nil
    }

    /// Numeric mode (7.4): groups of three digits in 10 bits, a last
    /// group of two in 7 bits or one in 4 bits.
    private static func readNumeric(_ reader: inout BitReader, _ count: Int, into out: inout [UInt8]) -> Failure? {
        var left = count
        guard (count / 3) * 10 + [0, 4, 7][count % 3] <= reader.remaining else { return .truncated }
        while left > 0 {
            let digits = min(left, 3)
            let v = reader.read([0, 4, 7, 10][digits])!
            guard v < [1, 10, 100, 1000][digits] else { return .invalidValue }
            if digits == 3 { out.append(UInt8(48 + v / 100)) }
            if digits >= 2 { out.append(UInt8(48 + v / 10 % 10)) }
            out.append(UInt8(48 + v % 10))
            left -= digits
        }
        return nil
    }

    /// Alphanumeric mode (7.4): pairs in 11 bits (45 * first + second), a
    /// last single character in 6 bits. In FNC1 mode (7.4, FNC1 modes) `%` stands for
    /// GS (0x1D) and `%%` for `%`.
    private static func readAlphanumeric(
        _ reader: inout BitReader, _ count: Int, fnc1: Bool,
        into out: inout [UInt8]
    ) -> Failure? {
        guard (count / 2) * 11 + (count & 1) * 6 <= reader.remaining else { return .truncated }
        let start = out.count
        var left = count
        while left >= 2 {
            let v = reader.read(11)!
            guard v < 45 * 45 else { return .invalidValue }
            out.append(alphanumeric[v / 45])
            out.append(alphanumeric[v % 45])
            left -= 2
        }
        if left == 1 {
            let v = reader.read(6)!
            guard v < 45 else { return .invalidValue }
            out.append(alphanumeric[v])
        }
        if fnc1 {
            var r = start, w = start
            while r < out.count {
                if out[r] == UInt8(ascii: "%") {
                    if r + 1 < out.count && out[r + 1] == UInt8(ascii: "%") {
                        out[w] = UInt8(ascii: "%")
                        r += 2
                    } else {
                        out[w] = 0x1D
                        r += 1
                    }
                } else {
                    out[w] = out[r]
                    r += 1
                }
                w += 1
            }
            out.removeLast(out.count - w)
        }
        return nil
    }
}
