/// GS1 element strings: the content of GS1-128, GS1 DataBar, and GS1 QR
/// Code and Data Matrix symbols, shared by every reader that carries them.
///
/// Implements the GS1 General Specifications' application identifier rules:
/// the length of each AI (two to four digits, chosen by its first digits),
/// the AIs of predefined (fixed) data length, which need no separator, and
/// the human-readable interpretation in which each AI stands in
/// parentheses before its data. In the raw element string a GS (0x1D)
/// follows the data of every variable-length AI that is not last.
public enum GS1 {
    /// The group separator that ends variable-length data.
    public static let groupSeparator: UInt8 = 0x1D

    /// How many digits the application identifier starting with `d0 d1 d2`
    /// has, or `nil` for prefixes that are not assigned.
    static func aiLength(_ d0: UInt8, _ d1: UInt8, _ d2: UInt8) -> Int? {
        let two = Int(d0) * 10 + Int(d1)
        switch two {
        case 0...2, 10...17, 20...22, 30, 37, 90...99: return 2
        case 23...25, 40...42: return 3
        case 31...36, 39: return 4
        case 70: return 4
        case 71: return 3
        case 72: return 4
        case 80, 81, 82: return 4
        default: return nil
        }
    }

    /// The fixed data length of an AI (given as its digits), or `nil` when
    /// its data is of variable length.
    static func fixedDataLength(_ ai: UnsafeBufferPointer<UInt8>) -> Int? {
        var value = 0
        for d in ai { value = value * 10 + Int(d) }
        switch ai.count {
        case 2:
            switch value {
            case 0: return 18
            case 1, 2, 3: return 14
            case 11...17: return 6
            case 20: return 2
            default: return nil
            }
        case 3:
            switch value {
            case 402: return 17
            case 410...417: return 13
            case 422, 424, 426: return 3
            default: return nil
            }
        case 4:
            switch value / 10 {
            case 310...369: return 6
            case 394: return 4
            case 395: return 6
            default: break
            }
            switch value {
            case 7001: return 13
            case 7003: return 10
            case 7006: return 6
            case 8001: return 14
            case 8005: return 6
            case 8006, 8017, 8018, 8026: return 18
            case 8111: return 4
            default: return nil
            }
        default:
            return nil
        }
    }

    /// The human-readable form `(01)09501101530003(10)ABC` of a raw element
    /// string (ASCII digits and data, GS after variable-length data).
    ///
    /// - Returns: `nil` when the string does not parse as element strings
    ///   (an unknown AI, a fixed field cut short, a GS out of place).
    public static func humanReadable(_ raw: [UInt8]) -> String? {
        raw.withUnsafeBufferPointer { humanReadable($0) }
    }

    /// The human-readable form of a raw element string; see ``humanReadable(_:)-([UInt8])``.
    public static func humanReadable(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count + 16)
        var i = 0
        let n = raw.count
        guard n > 0 else { return nil }
        func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
        while i < n {
            guard i + 1 < n, isDigit(raw[i]), isDigit(raw[i + 1]) else { return nil }
            let d2: UInt8 = i + 2 < n && isDigit(raw[i + 2]) ? raw[i + 2] - 48 : 0
            guard let length = aiLength(raw[i] - 48, raw[i + 1] - 48, d2), i + length < n else { return nil }
            for k in i..<(i + length) where !isDigit(raw[k]) { return nil }
            var digits = [UInt8](repeating: 0, count: length)
            for k in 0..<length { digits[k] = raw[i + k] - 48 }
            out.append(40)  // (
            out.append(contentsOf: raw[i..<(i + length)])
            out.append(41)  // )
            i += length
            if let fixed = digits.withUnsafeBufferPointer({ fixedDataLength($0) }) {
                guard i + fixed <= n else { return nil }
                for k in i..<(i + fixed) {
                    guard raw[k] != groupSeparator else { return nil }
                    out.append(raw[k])
                }
                i += fixed
                // A separator after fixed data is allowed, not needed.
                if i < n && raw[i] == groupSeparator { i += 1 }
            } else {
                let start = i
                while i < n && raw[i] != groupSeparator { out.append(raw[i]); i += 1 }
                guard i > start else { return nil }
                if i < n { i += 1 }  // the separator
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether the last of `count` digits is the GS1 modulo-10 check digit
    /// of the others (GTIN, SSCC, GLN and the like).
    public static func checkDigitOK(_ digits: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard count >= 2 else { return false }
        var sum = 0
        for i in 0..<(count - 1) {
            let weight = (count - 1 - i) % 2 == 1 ? 3 : 1
            sum += Int(digits[i]) * weight
        }
        return (10 - sum % 10) % 10 == Int(digits[count - 1])
    }
}
