/// The data encodation of Data Matrix ECC 200 (ISO/IEC 16022:2006, 5.2):
/// turns the corrected data code words into payload bytes.
///
/// The schemes are ASCII (5.2.3: characters, digit pairs, the upper shift
/// and the function code words), C40 and Text (5.2.5, 5.2.6: three
/// characters in two code words, with shift sets), ANSI X12 (5.2.7),
/// EDIFACT (5.2.8: four 6-bit values in three code words) and Base 256
/// (5.2.9: bytes with a length field and the 255-state randomising
/// algorithm of Annex B). Extended Channel Interpretation (5.4.3 and 5.2.4
/// ECI code word), FNC1 (5.2.4.3 and 5.6: GS1 and AIM application
/// indicators), structured append (5.6), reader programming (5.2.4.9) and
/// the Macro 05 and Macro 06 abbreviations (5.2.4.7) are read as well.
/// Padding (5.2.3, pad character 129 and its 253-state randomising, Annex
/// H) ends the data.
package enum DMBitstream {
    /// What the code words hold.
    package struct Content: Sendable {
        /// The payload bytes. FNC1 other than in first or second position
        /// is GS (0x1D); Macro 05/06 contribute their header and trailer.
        var bytes: [UInt8] = []
        /// Runs of `bytes` and the ECI in force (nil: the default
        /// interpretation, ISO/IEC 8859-1).
        var runs: [(range: Range<Int>, eci: Int?)] = []
        /// The first ECI assignment number, if any.
        var firstECI: Int?
        /// FNC1 in first position (after any structured append): GS1 data.
        var gs1 = false
        /// FNC1 in second position: an AIM application indicator precedes it.
        var aimApplication = false
        /// Structured append (5.6): position from 0, count, file id.
        var structuredAppend: (index: Int, total: Int, id: Int)?
        /// The reader programming code word came first.
        var readerProgramming = false
        /// Macro 05 or 06 (5.2.4.7), or nil.
        var macro: Int?
    }

    /// Why code words are rejected.
    package enum Failure: Error, Equatable, Sendable {
        /// A code word that no scheme assigns, or that may not stand where it is.
        case invalidCodeword
        /// A scheme's data runs past the end.
        case truncated
    }

    private enum Mode { case ascii, c40, text, x12, edifact, base256 }

    /// Decodes the data code words.
    package static func decode(_ data: UnsafeBufferPointer<UInt8>) -> Result<Content, Failure> {
        var st = State()
        st.content.bytes.reserveCapacity(data.count * 2)
        var mode = Mode.ascii
        var i = 0
        let n = data.count
        while i < n {
            let failure: Failure?
            switch mode {
            case .ascii: failure = ascii(data, &i, &mode, &st)
            case .c40, .text: failure = c40(data, &i, &mode, &st)
            case .x12: failure = x12(data, &i, &mode, &st)
            case .edifact: failure = edifact(data, &i, &mode, &st)
            case .base256: failure = base256(data, &i, &mode, &st)
            }
            if let failure { return .failure(failure) }
        }
        if st.upperShift { return .failure(.truncated) }
        if st.content.macro != nil {
            st.content.bytes.append(0x1E); st.content.bytes.append(0x04)
        }
        st.closeRun()
        return .success(st.content)
    }

    /// What ``decode(_:)`` carries from code word to code word.
    private struct State {
        var content = Content()
        /// The ECI in force, and where its run of bytes began.
        var eci: Int?
        var runStart = 0
        var upperShift = false
        /// The C40 / Text shift set in force (it may carry over to the next pair).
        var shift = 0

        /// Closes the current ECI run at the end of the bytes.
        mutating func closeRun() {
            if runStart < content.bytes.count { content.runs.append((runStart..<content.bytes.count, eci)) }
            runStart = content.bytes.count
        }

        /// Appends a character, adding 128 after an upper shift.
        mutating func emit(_ b: Int) {
            content.bytes.append(UInt8(truncatingIfNeeded: upperShift ? b + 128 : b))
            upperShift = false
        }

        /// FNC1 at the current place: first position (code word 0, or 4 after
        /// structured append) marks GS1 data; second position (after one
        /// letter or two digits) an AIM application indicator; elsewhere GS.
        mutating func fnc1(at position: Int) {
            let first = content.structuredAppend != nil ? 4 : 0
            if position == first && content.bytes.isEmpty {
                content.gs1 = true
            } else if content.bytes.count <= 2, !content.gs1, !content.aimApplication,
                position == first + 1,
                DMBitstream.isApplicationIndicator(content.bytes)
            {
                content.aimApplication = true
            } else {
                content.bytes.append(0x1D)
            }
        }
    }

    /// One ASCII code word (5.2.3), or a function code word with its data,
    /// at `i`.
    private static func ascii(
        _ data: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ mode: inout Mode, _ st: inout State
    ) -> Failure? {
        let n = data.count
        let c = Int(data[i]), position = i
        i += 1
        switch c {
        case 1...128: st.emit(c - 1)
        case 129:
            // Pad (5.2.3): the rest is padding.
            i = n
        case 130...229:
            let v = c - 130
            if st.upperShift { return .invalidCodeword }
            st.content.bytes.append(UInt8(48 + v / 10)); st.content.bytes.append(UInt8(48 + v % 10))
        case 230: mode = .c40
        case 231: mode = .base256
        case 232:
            if st.upperShift { return .invalidCodeword }
            st.fnc1(at: position)
        case 233:
            // Structured append (5.6): first code word only; then the
            // sequence indicator and two file identification code words.
            guard position == 0 else { return .invalidCodeword }
            guard i + 3 <= n else { return .truncated }
            let s = Int(data[i]), f1 = Int(data[i + 1]), f2 = Int(data[i + 2])
            i += 3
            let index = s >> 4, count = 17 - (s & 0x0F)
            guard count >= 2, count <= 16, index < count, (1...254).contains(f1), (1...254).contains(f2)
            else { return .invalidCodeword }
            st.content.structuredAppend = (index, count, f1 * 256 + f2)
        case 234:
            // Reader programming (5.2.4.9): first code word only.
            guard position == 0 else { return .invalidCodeword }
            st.content.readerProgramming = true
        case 235:
            if st.upperShift { return .invalidCodeword }
            st.upperShift = true
        case 236, 237:
            // Macro 05 / 06 (5.2.4.7): first code word only; header now,
            // trailer at the end.
            guard position == 0 else { return .invalidCodeword }
            st.content.macro = c == 236 ? 5 : 6
            st.content.bytes.append(contentsOf: Array("[)>\u{1E}0\(c == 236 ? 5 : 6)\u{1D}".utf8))
        case 254:
            // An unlatch where ASCII is in force already (some
            // encoders write one after a Base 256 field): nothing to do.
            break
        case 238: mode = .x12
        case 239: mode = .text
        case 240: mode = .edifact
        case 241:
            // ECI (5.4.3.2): one to three code words.
            guard let (value, used) = readECI(data, i) else { return .truncated }
            i += used
            st.closeRun()
            st.eci = value
            if st.content.firstECI == nil { st.content.firstECI = value }
        default:
            return .invalidCodeword
        }
        return nil
    }

    /// The three values of the two C40, Text or X12 code words at `i`
    /// (5.2.5.2, 5.2.7); nil, and ASCII again, at an unlatch (254) or a
    /// lone last code word (which is ASCII).
    private static func tripleValues(
        _ data: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ mode: inout Mode, _ st: inout State
    ) -> [Int]? {
        if data[i] == 254 { i += 1; mode = .ascii; st.shift = 0; return nil }
        if i + 1 >= data.count { mode = .ascii; st.shift = 0; return nil }
        let v = Int(data[i]) * 256 + Int(data[i + 1]) - 1
        i += 2
        return [v / 1600, v / 40 % 40, v % 40]
    }

    /// Two C40 or Text code words (5.2.5.2), three values; 254 unlatches;
    /// a lone last code word is ASCII.
    private static func c40(
        _ data: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ mode: inout Mode, _ st: inout State
    ) -> Failure? {
        guard let values = tripleValues(data, &i, &mode, &st) else { return nil }
        for value in values {
            switch c40Value(value, text: mode == .text, shift: &st.shift) {
            case .none: break
            case .character(let ch): st.emit(ch)
            case .fnc1: st.fnc1(at: i - 2)
            case .upperShift:
                if st.upperShift { return .invalidCodeword }
                st.upperShift = true
            case .invalid: return .invalidCodeword
            }
        }
        return nil
    }

    /// Two ANSI X12 code words (5.2.7), three values.
    private static func x12(
        _ data: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ mode: inout Mode, _ st: inout State
    ) -> Failure? {
        guard let values = tripleValues(data, &i, &mode, &st) else { return nil }
        for value in values {
            switch value {
            case 0: st.emit(13)
            case 1: st.emit(42)
            case 2: st.emit(62)
            case 3: st.emit(32)
            case 4...13: st.emit(value - 4 + 48)
            case 14...39: st.emit(value - 14 + 65)
            default: return .invalidCodeword
            }
        }
        return nil
    }

    /// Three EDIFACT code words (5.2.8.1), four values.
    private static func edifact(
        _ data: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ mode: inout Mode, _ st: inout State
    ) -> Failure? {
        let n = data.count
        // Three code words, four 6-bit values (5.2.8.1); 0x1F unlatches,
        // the rest of the code word being ignored. Fewer than three code
        // words left are ASCII.
        if n - i < 3 { mode = .ascii; return nil }
        let v = Int(data[i]) << 16 | Int(data[i + 1]) << 8 | Int(data[i + 2])
        var used = 3
        var unlatched = false
        for k in 0..<4 {
            let value = v >> (18 - 6 * k) & 0x3F
            if value == 0x1F {
                // The code word holding the unlatch ends the segment.
                used = (6 * k + 6 + 7) / 8
                unlatched = true
                break
            }
            st.emit(value & 0x20 != 0 ? value : value | 0x40)
        }
        i += used
        if unlatched { mode = .ascii }
        return nil
    }

    /// A Base 256 field (5.2.9, Annex B).
    private static func base256(
        _ data: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ mode: inout Mode, _ st: inout State
    ) -> Failure? {
        let n = data.count
        // Length field, then bytes, all randomised (5.2.9, Annex B).
        let d1 = unrandomize255(data[i], position: i + 1)
        i += 1
        var length: Int
        if d1 == 0 {
            length = n - i
        } else if d1 < 250 {
            length = d1
        } else {
            guard i < n else { return .truncated }
            length = (d1 - 249) * 250 + unrandomize255(data[i], position: i + 1)
            i += 1
        }
        guard i + length <= n else { return .truncated }
        for _ in 0..<length {
            st.content.bytes.append(UInt8(unrandomize255(data[i], position: i + 1)))
            i += 1
        }
        mode = .ascii
        return nil
    }

    /// What one C40 or Text value does.
    private enum C40Action { case none, character(Int), fnc1, upperShift, invalid }

    /// One value of C40 or Text (5.2.5.2 and Table 10 / 5.2.6 and Table 11):
    /// the basic set, or after a shift the shift 1 (control characters),
    /// shift 2 (punctuation, FNC1, upper shift) or shift 3 set.
    private static func c40Value(_ value: Int, text: Bool, shift: inout Int) -> C40Action {
        let set = shift
        shift = 0
        switch set {
        case 0:
            switch value {
            case 0, 1, 2: shift = value + 1; return .none
            case 3: return .character(32)
            case 4...13: return .character(value - 4 + 48)
            case 14...39: return .character(value - 14 + (text ? 97 : 65))
            default: return .invalid
            }
        case 1:
            return .character(value)
        case 2:
            switch value {
            case 0...14: return .character(value + 33)
            case 15...21: return .character(value - 15 + 58)
            case 22...26: return .character(value - 22 + 91)
            case 27: return .fnc1
            case 30: return .upperShift
            default: return .invalid
            }
        default:
            if text {
                switch value {
                case 0: return .character(96)
                case 1...26: return .character(value - 1 + 65)
                case 27...31: return .character(value - 27 + 123)
                default: return .invalid
                }
            }
            return value <= 31 ? .character(value + 96) : .invalid
        }
    }

    /// The ECI assignment number after an ECI code word (5.4.3.2): 1 ... 127
    /// gives 0 ... 126; 128 ... 191 with one more code word 127 ... 16382;
    /// 192 ... 207 with two more 16383 ... 999999. Nil when it runs past the end.
    private static func readECI(_ data: UnsafeBufferPointer<UInt8>, _ i: Int) -> (Int, Int)? {
        guard i < data.count else { return nil }
        let c1 = Int(data[i])
        switch c1 {
        case 1...127: return (c1 - 1, 1)
        case 128...191:
            guard i + 1 < data.count else { return nil }
            return ((c1 - 128) * 254 + Int(data[i + 1]) - 1 + 127, 2)
        case 192...207:
            guard i + 2 < data.count else { return nil }
            return ((c1 - 192) * 64516 + (Int(data[i + 1]) - 1) * 254 + Int(data[i + 2]) - 1 + 16383, 3)
        default: return nil
        }
    }

    /// Annex B, the 255-state algorithm undone: the code word at (1-based)
    /// `position` less ((149 * position) mod 255) + 1, modulo 256.
    @inline(__always)
    static func unrandomize255(_ codeword: UInt8, position: Int) -> Int {
        let r = Int(codeword) - ((149 * position) % 255 + 1)
        return r >= 0 ? r : r + 256
    }

    /// Whether the bytes before an FNC1 in second position form an AIM
    /// application indicator: one letter or two digits.
    private static func isApplicationIndicator(_ b: [UInt8]) -> Bool {
        if b.count == 1 { return (b[0] >= 65 && b[0] <= 90) || (b[0] >= 97 && b[0] <= 122) }
        if b.count == 2 { return b.allSatisfy { $0 >= 48 && $0 <= 57 } }
        return false
    }
}
