#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns the payload bytes of a QR Code or Micro QR symbol into text
/// (ISO/IEC 18004:2015, 7.4: ECI mode, Kanji mode, and the default
/// interpretation of byte data).
///
/// Byte data under an ECI designator is read in the ECI's character set.
/// Byte data without one is read as UTF-8 when it is valid UTF-8, else as
/// Shift JIS when it looks like Shift JIS (valid lead and trail byte pairs
/// and no stray high bytes), else as ISO/IEC 8859-1 (the standard's default).
/// UTF-8, UTF-16, ISO/IEC 8859-1 and ASCII are converted here; the other
/// character sets go through the C library's iconv. Shift JIS is read as
/// its Windows form (CP932), as encoders write it: bytes below 0x80 are
/// ASCII, so 0x5C is the backslash of MECARD's `\:` escapes and 0x7E a
/// tilde (JIS X 0201 has the yen sign and an overline there).
package enum QRCharacterSet {
    /// The iconv name under which Shift JIS is read: CP932, whose single
    /// bytes are ASCII (see the type's documentation).
    static let shiftJIS = "CP932"

    /// The iconv name of the character set of an ECI assignment number
    /// (AIM ECI specification), or nil for the ones converted here or unknown.
    static func iconvName(eci: Int) -> String? {
        switch eci {
        case 0, 2: return "CP437"
        case 4...13: return "ISO-8859-\(eci - 2)"
        case 15...18: return "ISO-8859-\(eci - 2)"
        case 20: return shiftJIS
        case 21: return "CP1250"
        case 22: return "CP1251"
        case 23: return "CP1252"
        case 24: return "CP1256"
        case 28: return "BIG5"
        case 29: return "GB2312"
        case 30: return "EUC-KR"
        case 31: return "GBK"
        case 32: return "GB18030"
        case 34: return "UTF-32BE"
        case 35: return "UTF-32LE"
        default: return nil
        }
    }

    /// The text of `bytes` in the character set of `encoding` (byte data
    /// without an ECI is first given one by `guess`).
    package static func text(_ bytes: ArraySlice<UInt8>, _ encoding: QRBitstream.TextEncoding) -> String {
        switch encoding {
        case .ascii: return latin1(bytes)
        case .shiftJIS: return convert(bytes, from: shiftJIS)
        case .gb2312: return convert(bytes, from: "GB2312")
        case .guess: return text(bytes, .eci(guess(bytes)))
        case .eci(let eci):
            switch eci {
            case 1, 3, 27, 170, 899: return latin1(bytes)
            case 25: return utf16(bytes, bigEndian: true)
            case 33: return utf16(bytes, bigEndian: false)
            case 26: return String(decoding: bytes, as: UTF8.self)
            default:
                guard let name = iconvName(eci: eci) else { return latin1(bytes) }
                return convert(bytes, from: name)
            }
        }
    }

    /// The ECI number of the character set to read byte data without an
    /// ECI in: 26 (UTF-8), 20 (Shift JIS) or 3 (ISO/IEC 8859-1).
    static func guess(_ bytes: ArraySlice<UInt8>) -> Int {
        if bytes.allSatisfy({ $0 < 0x80 }) || String(validating: bytes, as: UTF8.self) != nil { return 26 }
        return looksLikeShiftJIS(bytes) ? 20 : 3
    }

    /// Whether `bytes` read well as Shift JIS: every byte above 0x7F is
    /// half-width katakana (0xA1 ... 0xDF) or the lead byte of a pair (0x81
    /// ... 0x9F, 0xE0 ... 0xEF) followed by a trail byte (0x40 ... 0x7E,
    /// 0x80 ... 0xFC), there is at least one pair, and pairs outnumber lone
    /// katakana (which in Latin text are accented capitals and signs), or
    /// lone katakana come three or more in a row (a katakana word; Latin
    /// text rarely strings three accented capitals or signs together).
    static func looksLikeShiftJIS(_ bytes: ArraySlice<UInt8>) -> Bool {
        var i = bytes.startIndex, pairs = 0, katakana = 0, run = 0, longestRun = 0
        while i < bytes.endIndex {
            let b = bytes[i]
            if b < 0x80 {
                run = 0
                i += 1
            } else if b >= 0xA1 && b <= 0xDF {
                katakana += 1
                run += 1
                longestRun = max(longestRun, run)
                i += 1
            } else if (b >= 0x81 && b <= 0x9F) || (b >= 0xE0 && b <= 0xEF) {
                guard i + 1 < bytes.endIndex else { return false }
                let t = bytes[i + 1]
                guard (t >= 0x40 && t <= 0x7E) || (t >= 0x80 && t <= 0xFC) else { return false }
                pairs += 1
                run = 0
                i += 2
            } else {
                return false
            }
        }
        return (pairs > 0 && pairs >= katakana) || longestRun >= 3
    }

    /// ISO/IEC 8859-1: each byte is the code point of the same value.
    static func latin1(_ bytes: ArraySlice<UInt8>) -> String {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.count * 2)
        for b in bytes {
            if b < 0x80 {
                utf8.append(b)
            } else {
                utf8.append(0xC0 | b >> 6)
                utf8.append(0x80 | b & 0x3F)
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// UTF-16 in either byte order; an odd last byte is dropped.
    static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = bytes.startIndex
        while i + 1 < bytes.endIndex {
            let hi = UInt16(bytes[i]), lo = UInt16(bytes[i + 1])
            units.append(bigEndian ? hi << 8 | lo : lo << 8 | hi)
            i += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// Converts with iconv; a byte sequence iconv cannot convert becomes
    /// U+FFFD and conversion goes on after it. Falls back to ISO/IEC 8859-1
    /// when the character set is not available.
    static func convert(_ bytes: ArraySlice<UInt8>, from charset: String) -> String {
        if bytes.isEmpty { return "" }
        #if canImport(Glibc) || canImport(Darwin)
            let cd = iconv_open("UTF-8", charset)
            if cd == iconv_t(bitPattern: -1) { return latin1(bytes) }
            defer { iconv_close(cd) }
            var input = Array(bytes)
            var output = [UInt8](repeating: 0, count: 4 * input.count + 16)
            var produced: [UInt8] = []
            produced.reserveCapacity(output.count)
            input.withUnsafeMutableBufferPointer { inBuf in
                output.withUnsafeMutableBufferPointer { outBuf in
                    guard let inBase = inBuf.baseAddress, let outBase = outBuf.baseAddress else { return }
                    var offset = 0
                    while offset < inBuf.count {
                        var inPtr: UnsafeMutablePointer<CChar>? =
                            UnsafeMutableRawPointer(inBase + offset).assumingMemoryBound(to: CChar.self)
                        var inLeft = inBuf.count - offset
                        var outPtr: UnsafeMutablePointer<CChar>? =
                            UnsafeMutableRawPointer(outBase).assumingMemoryBound(to: CChar.self)
                        var outLeft = outBuf.count
                        let r = iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft)
                        produced.append(contentsOf: UnsafeBufferPointer(start: outBase, count: outBuf.count - outLeft))
                        let consumed = inBuf.count - offset - inLeft
                        offset += consumed
                        if r == -1 && inLeft > 0 {
                            // An invalid or incomplete sequence: replace one byte and go on.
                            produced.append(contentsOf: [0xEF, 0xBF, 0xBD])
                            offset += 1
                            _ = iconv(cd, nil, nil, nil, nil)
                        } else if inLeft > 0 && consumed == 0 {
                            break
                        }
                    }
                }
            }
            return String(decoding: produced, as: UTF8.self)
        #else
            return latin1(bytes)
        #endif
    }
}
