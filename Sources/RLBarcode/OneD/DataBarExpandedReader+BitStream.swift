/// The bit stream to a GS1 element string (ISO/IEC 24724, clause 7.2.5).
extension DataBarExpandedReader {
    @inline(__always)
    func read(_ pos: Int, _ count: Int) -> Int {
        var v = 0
        for k in pos..<(pos + count) { v = v << 1 | Int(bits[k]) }
        return v
    }

    @inline(__always)
    func put(_ byte: UInt8) {
        if outCount < 512 { out[outCount] = byte; outCount += 1 }
    }

    /// Appends `value` as `digits` decimal digits.
    func putNumber(_ value: Int, digits: Int) {
        var d = 1
        for _ in 1..<max(digits, 1) { d *= 10 }
        var v = value
        for _ in 0..<digits { put(UInt8(48 + v / d % 10)); v %= d; d = max(1, d / 10) }
    }

    func putAI(_ ai: StaticString) {
        ai.withUTF8Buffer { for b in $0 { put(b) } }
    }

    /// `01` + `9` + the 12 digits of four 10-bit groups from `pos` + check digit.
    func putGTIN(_ pos: Int, indicator: Int? = 9) {
        put(48); put(49)
        let start = outCount
        if let indicator { put(UInt8(48 + indicator)) }
        for k in 0..<4 {
            let v = read(pos + 10 * k, 10)
            putNumber(v, digits: 3)
        }
        var sum = 0
        for i in 0..<13 { sum += Int(out[start + i] - 48) * (i % 2 == 0 ? 3 : 1) }
        put(UInt8(48 + (10 - sum % 10) % 10))
    }

    /// Decodes the encodation method and the data into `out`.
    func decodeBits() -> Bool {
        outCount = 0
        let n = bitCount
        guard n >= 5 else { return false }
        // bits[0] is the linkage flag.
        if bits[1] == 1 {
            // Method 1: (01) with the GTIN's first digit in 4 bits.
            guard n >= 48 else { return false }
            let first = read(4, 4)
            guard first <= 9 else { return false }
            putGTIN(8, indicator: first)
            return general(from: 48)
        }
        if bits[2] == 0 {
            // Method 00: general purpose only.
            return general(from: 5)
        }
        let method4 = read(1, 4)
        if method4 == 0b0100 || method4 == 0b0101 {
            guard n >= 60 else { return false }
            putGTIN(5)
            let weight = read(45, 15)
            if method4 == 0b0100 {
                putAI("3103"); putNumber(weight, digits: 6)
            } else if weight < 10000 {
                putAI("3202"); putNumber(weight, digits: 6)
            } else {
                putAI("3203"); putNumber(weight - 10000, digits: 6)
            }
            return true
        }
        let method5 = read(1, 5)
        if method5 == 0b01100 || method5 == 0b01101 {
            guard n >= 50 else { return false }
            putGTIN(8)
            let decimals = read(48, 2)
            if method5 == 0b01100 {
                putAI("392"); put(UInt8(48 + decimals))
                return general(from: 50)
            }
            guard n >= 60 else { return false }
            putAI("393"); put(UInt8(48 + decimals))
            putNumber(read(50, 10), digits: 3)
            return general(from: 60)
        }
        // 0111xxx: (01) + (310x or 320x) + date AI.
        guard read(1, 4) == 0b0111, n >= 84 else { return false }
        let kind = read(5, 3)
        putGTIN(8)
        let weight = read(48, 20)
        putAI(kind % 2 == 0 ? "310" : "320")
        put(UInt8(48 + weight / 100000))
        putNumber(weight % 100000, digits: 6)
        let date = read(68, 16)
        if date != 38400 {
            put(49)
            put(UInt8(48 + [1, 3, 5, 7][kind / 2]))
            putNumber(date / 384, digits: 2)
            putNumber(date / 32 % 12 + 1, digits: 2)
            putNumber(date % 32, digits: 2)
        }
        return true
    }

    /// The general-purpose compaction from bit `start` to the end.
    func general(from start: Int) -> Bool {
        let n = bitCount
        var pos = start
        var mode = 0  // 0 numeric, 1 alphanumeric, 2 ISO/IEC 646
        while pos < n {
            let left = n - pos
            switch mode {
            case 0:
                if left < 4 { pos = n; break }
                if read(pos, 4) == 0 { mode = 1; pos += 4; break }
                if left < 7 {
                    // A final digit in 4 bits (its value plus one).
                    let v = read(pos, 4)
                    guard v >= 1, v <= 10 else { return false }
                    put(UInt8(48 + v - 1))
                    pos = n
                    break
                }
                let v = read(pos, 7) - 8
                guard v >= 0, v < 121 else { return false }
                let d1 = v / 11, d2 = v % 11
                if d1 == 10 {
                    fnc1()
                } else {
                    put(UInt8(48 + d1))
                }
                if d2 == 10 { fnc1() } else { put(UInt8(48 + d2)) }
                pos += 7
            default:
                if left < 3 { pos = n; break }
                if read(pos, 3) == 0 { mode = 0; pos += 3; break }
                if left < 5 { pos = n; break }
                let v5 = read(pos, 5)
                if v5 == 0b00100 { mode = mode == 1 ? 2 : 1; pos += 5; break }
                if v5 >= 5 && v5 < 15 { put(UInt8(48 + v5 - 5)); pos += 5; break }
                if v5 == 15 {
                    // FNC1 latches to numeric (ISO/IEC 24724:2011, Tables 12 and 13).
                    fnc1(); mode = 0; pos += 5
                    if lenientLatch && pos + 3 <= n && read(pos, 3) == 0 { pos += 3 }
                    break
                }
                if mode == 1 {
                    guard left >= 6 else { pos = n; break }
                    let v6 = read(pos, 6)
                    if v6 >= 32 && v6 < 58 {
                        put(UInt8(65 + v6 - 32))
                    } else if v6 >= 58 && v6 < 63 {
                        put(DataBarExpandedReader.alphanumericSpecials[v6 - 58])
                    } else {
                        return false
                    }
                    pos += 6
                } else {
                    guard left >= 7 else { pos = n; break }
                    let v7 = read(pos, 7)
                    if v7 >= 64 && v7 < 90 { put(UInt8(65 + v7 - 64)); pos += 7; break }
                    if v7 >= 90 && v7 < 116 { put(UInt8(97 + v7 - 90)); pos += 7; break }
                    guard left >= 8 else { pos = n; break }
                    let v8 = read(pos, 8)
                    guard v8 >= 232 && v8 <= 252 else { return false }
                    put(DataBarExpandedReader.iso646Specials[v8 - 232])
                    pos += 8
                }
            }
        }
        // A trailing FNC1 ends the data: no separator.
        while outCount > 0 && out[outCount - 1] == GS1.groupSeparator { outCount -= 1 }
        return true
    }

    /// FNC1 in the data: a GS unless it is the first thing (no data yet).
    @inline(__always)
    func fnc1() {
        if outCount > 0 { put(GS1.groupSeparator) }
    }
}
