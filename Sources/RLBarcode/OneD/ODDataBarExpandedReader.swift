/// GS1 DataBar Expanded, single row.
///
/// Implements ISO/IEC 24724:2011, clause "GS1 DataBar Expanded":
/// - Symbol structure: left guard, then pairs of data characters (8
///   elements, 17 modules each) around a finder pattern (5 elements, 15
///   modules, values A to F, read outermost element first in orientation 1,
///   mirrored in orientation 2), the last pair possibly without its right
///   character, then the right guard. The first character is the check
///   character. Left characters are read left to right, right characters
///   right to left (each towards its finder).
/// - Data characters: odd/even widths, the five groups of the Expanded
///   character table, 12 bits each.
/// - Finder sequences: the standard's table of finder pattern sequences by
///   the number of finders, orientations alternating 1, 2, 1, ...
/// - Check character: the modulo-211 sum of the element widths weighted by
///   3^k (k running over the weight rows of the characters, a row chosen by
///   the character's finder, orientation and side), plus
///   `211 * (number of characters - 4)`.
/// - Encodation: the linkage flag, the encodation methods `1` (AI 01),
///   `00` (general purpose), `0100` (01 + 3103), `0101` (01 + 3202/3203),
///   `01100` (01 + 392x), `01101` (01 + 393x) and `0111xxx` (01 + 310x/320x
///   + a date AI), and the general-purpose compaction with its numeric,
///   alphanumeric and ISO/IEC 646 modes; FNC1 becomes GS (0x1D), a final
///   FNC1 is dropped.
///
/// Text: the raw element string; extra: its human-readable form; `]e0`.
final class DataBarExpandedReader: LinearReader {
    var symbologies: Symbology { .dataBarExpanded }

    /// Finder patterns A to F, outermost element first.
    static let finders: [(Float, Float, Float, Float, Float)] = [
        (1, 8, 4, 1, 1), (3, 6, 4, 1, 1), (3, 4, 6, 1, 1), (3, 2, 8, 1, 1), (2, 6, 5, 1, 1), (2, 2, 9, 1, 1),
    ]
    /// Finder values (A = 0) by number of finders, 2...11.
    static let sequences: [[Int]] = [
        [0, 0], [0, 1, 1], [0, 2, 1, 3], [0, 4, 1, 3, 2], [0, 4, 1, 3, 3, 5], [0, 4, 1, 3, 4, 5, 5],
        [0, 0, 1, 1, 2, 2, 3, 3], [0, 0, 1, 1, 2, 2, 3, 4, 4], [0, 0, 1, 1, 2, 2, 3, 4, 5, 5],
        [0, 0, 1, 1, 2, 3, 3, 4, 4, 5, 5],
    ]
    /// Characters by group 0...4 (odd total 12, 10, 8, 6, 4): widest odd
    /// element, even combinations, value offset.
    static let oddWidest = [7, 5, 4, 3, 1]
    static let evenTotal = [4, 20, 52, 104, 204]
    static let offset = [0, 348, 1388, 2948, 3988]
    /// ISO/IEC 646 characters coded 232...252.
    static let iso646Specials: [UInt8] = Array("!\"%&'()*+,-./:;<=>?_ ".utf8)
    /// Alphanumeric-mode punctuation coded 58...62.
    static let alphanumericSpecials: [UInt8] = Array("*,-./".utf8)

    /// The largest mean distance (modules) between a character's measured
    /// and whole-module widths.
    var maxCharError: Float = 0.42

    /// Scratch, made once with the reader.
    private let moduleWidths = UnsafeMutablePointer<Int>.allocate(capacity: 24 * 8)
    private let split = UnsafeMutablePointer<Int>.allocate(capacity: 8)
    private let scaled = UnsafeMutablePointer<Float>.allocate(capacity: 8)
    private let values = UnsafeMutablePointer<Int>.allocate(capacity: 24)
    private let finderValues = UnsafeMutablePointer<Int>.allocate(capacity: 12)
    private let bits = UnsafeMutablePointer<UInt8>.allocate(capacity: 24 * 12)
    private let out = UnsafeMutablePointer<UInt8>.allocate(capacity: 512)
    private var bitCount = 0
    /// The run's widths with a rebuilt first width (left guard cut off).
    private var leading = ScratchBuffer<Float>(capacity: 128)
    /// Skip a numeric latch right after an FNC1 in alphanumeric or ISO/IEC 646 mode.
    private var lenientLatch = false
    private var outCount = 0

    init() {
        moduleWidths.initialize(repeating: 0, count: 24 * 8)
        split.initialize(repeating: 0, count: 8)
        scaled.initialize(repeating: 0, count: 8)
        values.initialize(repeating: 0, count: 24)
        finderValues.initialize(repeating: 0, count: 12)
        bits.initialize(repeating: 0, count: 24 * 12)
        out.initialize(repeating: 0, count: 512)
    }

    deinit {
        moduleWidths.deallocate(); split.deallocate(); scaled.deallocate(); values.deallocate()
        finderValues.deallocate(); bits.deallocate(); out.deallocate(); leading.free()
    }

    func decode(_ run: borrowing ElementRun, enabled: Symbology, into sink: inout LinearHitSink) {
        guard enabled.contains(.dataBarExpanded) else { return }
        let n = run.count
        // A symbol whose left guard bar the line's start cut off begins with
        // the check character at element 0, its first width lost in the
        // leading space: it is rebuilt from the character's 17 modules.
        if n > 28, let f = finder(run.widths.pointer, 8, step: 1), f.value == 0,
           rebuildCutFirstWidth(run.widths.pointer, count: n, modules: 17, into: &leading) {
            _ = decodeAt(run, -1, &sink, widths: leading.pointer)
        }
        var b = 1
        while b + 30 < n {
            let used = decodeAt(run, b, &sink, widths: run.widths.pointer)
            b += used > 0 ? used : 2
        }
    }

    /// The finder value of five elements from `first` read with `step`, and its error.
    @inline(__always)
    private func finder(_ w: UnsafePointer<Float>, _ first: Int, step: Int) -> (value: Int, error: Float)? {
        let e0 = w[first], e1 = w[first + step], e2 = w[first + 2 * step]
        let e3 = w[first + 3 * step], e4 = w[first + 4 * step]
        let total = e0 + e1 + e2 + e3 + e4
        guard total > 0 else { return nil }
        let k = 15 / total
        let n0 = e0 * k, n1 = e1 * k, n2 = e2 * k, n3 = e3 * k, n4 = e4 * k
        guard n3 > 0.4, n3 < 1.9, n4 > 0.4, n4 < 1.9 else { return nil }
        var best: Float = .infinity, bestValue = -1
        for v in 0..<6 {
            let p = DataBarExpandedReader.finders[v]
            let e = abs(n0 - p.0) + abs(n1 - p.1) + abs(n2 - p.2) + abs(n3 - p.3) + abs(n4 - p.4)
                + abs(n0 + n1 - p.0 - p.1) + abs(n1 + n2 - p.1 - p.2)
            if e < best { best = e; bestValue = v }
        }
        guard best < 3.2 else { return nil }
        return (bestValue, best / 7)
    }

    /// Reads the character of 8 elements from `first` (with `step`) into
    /// `moduleWidths[8 * index...]` and `values[index]`; returns its error.
    private func character(_ w: UnsafePointer<Float>, _ first: Int, step: Int, index: Int, module m: Float) -> Float? {
        var total: Float = 0
        for k in 0..<8 { total += w[first + step * k] }
        guard abs(total / m - 17) < 3.4 else { return nil }
        let c = moduleWidths + 8 * index
        let sums: UInt64 = (1 << 4) | (1 << 6) | (1 << 8) | (1 << 10) | (1 << 12)
        guard let e = DataBar.quantize(w, first: first, step: step, count: 8, modules: 17, oddSums: sums,
                                       scaled: scaled, out: c), e <= maxCharError else { return nil }
        let odd = split, even = split + 4
        for k in 0..<4 { odd[k] = c[2 * k]; even[k] = c[2 * k + 1] }
        let oddSum = odd[0] + odd[1] + odd[2] + odd[3]
        let group = (12 - oddSum) / 2
        guard group >= 0, group < 5 else { return nil }
        let ow = DataBarExpandedReader.oddWidest[group], ew = 9 - ow
        for k in 0..<4 where odd[k] > ow || even[k] > ew { return nil }
        let vOdd = DataBar.value(odd, count: 4, maxWidth: ow, narrowRequired: true)
        let vEven = DataBar.value(even, count: 4, maxWidth: ew, narrowRequired: false)
        values[index] = vOdd * DataBarExpandedReader.evenTotal[group] + vEven + DataBarExpandedReader.offset[group]
        return e
    }

    /// A symbol whose left guard bar is element `b` (-1: cut off by the
    /// line's start). Returns the elements used, 0 when none.
    private func decodeAt(_ run: borrowing ElementRun, _ b: Int, _ sink: inout LinearHitSink,
                          widths: UnsafeMutablePointer<Float>) -> Int {
        let w = UnsafePointer(widths)
        let n = run.count
        guard let first = finder(w, b + 9, step: 1), first.value == 0 else { return 0 }
        var fw: Float = 0
        for k in 9...13 { fw += w[b + k] }
        var m = fw / 15
        if b >= 0 {
            let g = w[b] / m
            guard g > 0.35, g < 2.0, b == 1 || w[b - 1] > 0.5 * m else { return 0 }
        }
        var count = 0, finders = 0
        var errorSum: Float = 0
        var end = -1  // the last element of the symbol's content
        var j = 0
        while j < 11 {
            let s = b + 1 + 21 * j
            guard s + 12 < n else { break }
            let f = j % 2 == 0 ? finder(w, s + 8, step: 1) : finder(w, s + 12, step: -1)
            guard let f else { break }
            var thisWidth: Float = 0
            for k in 8...12 { thisWidth += w[s + k] }
            guard thisWidth > 0.75 * 15 * m, thisWidth < 1.33 * 15 * m,
                  let el = character(w, s, step: 1, index: count, module: m) else { break }
            m = 0.5 * m + 0.5 * thisWidth / 15
            finderValues[finders] = f.value
            finders += 1
            count += 1
            errorSum += el + f.error
            end = s + 12
            // The right character, unless the symbol ends after this finder.
            if s + 20 < n, let er = character(w, s + 20, step: -1, index: count, module: m) {
                count += 1
                errorSum += er
                end = s + 20
            } else {
                break
            }
            j += 1
        }
        guard count >= 4, finders >= 2 else { return 0 }
        // The right guard: a narrow bar, after a narrow space when the
        // content ends with a bar; a guard bar cut off by the line's end
        // counts.
        var guardBar = end + 1
        if guardBar % 2 == 0 {
            guard guardBar < n, w[guardBar] / m > 0.35, w[guardBar] / m < 2.0 else { return 0 }
            guardBar += 1
        }
        if guardBar == n {
            guardBar = n - 1
        } else {
            guard guardBar < n, w[guardBar] / m > 0.35, w[guardBar] / m < 2.0 else { return 0 }
            if guardBar + 2 < n { guard w[guardBar + 1] > 0.5 * m else { return 0 } }
        }
        // A symbol with an odd character count cannot end on a right character and vice versa.
        // Finder sequence.
        let sequence = DataBarExpandedReader.sequences[finders - 2]
        for k in 0..<finders where sequence[k] != finderValues[k] { return 0 }
        // Checksum over characters 1..<count.
        var sum = 0
        for c in 1..<count {
            let pair = c / 2
            let orientation2 = pair % 2 == 1
            let right = c % 2 == 1
            let row = 4 * finderValues[pair] + (orientation2 ? 2 : 0) + (right ? 1 : 0) - 1
            var weight = 1
            for _ in 0..<(8 * row) { weight = weight * 3 % 211 }
            let cw = moduleWidths + 8 * c
            for k in 0..<8 { sum += cw[k] * weight; weight = weight * 3 % 211 }
        }
        guard values[0] == 211 * (count - 4) + sum % 211 else { return 0 }
        // The bit stream: 12 bits per data character.
        bitCount = 0
        for c in 1..<count {
            let v = values[c]
            for k in (0..<12).reversed() { bits[bitCount] = UInt8((v >> k) & 1); bitCount += 1 }
        }
        lenientLatch = false
        guard decodeBits(), outCount > 0 else { return 0 }
        var readable = GS1.humanReadable(UnsafeBufferPointer(start: out, count: outCount))
        if readable == nil {
            // Some generators follow an FNC1 by an explicit numeric latch,
            // which the FNC1 already implies; read them so when the strict
            // reading does not give element strings.
            lenientLatch = true
            if decodeBits(), outCount > 0 {
                readable = GS1.humanReadable(UnsafeBufferPointer(start: out, count: outCount))
            }
            if readable == nil {
                lenientLatch = false
                guard decodeBits(), outCount > 0 else { return 0 }
            }
        }
        let raw = UnsafeBufferPointer(start: out, count: outCount)
        let textOffset = sink.store(raw)
        var extraOffset = 0, extraCount = 0
        if let readable {
            var bytes = Array(readable.utf8)
            extraCount = bytes.count
            extraOffset = bytes.withUnsafeMutableBufferPointer { sink.store(UnsafeBufferPointer($0)) }
            bytes.removeAll()
        }
        let starts = run.starts.pointer
        let error = min(2, 3 * errorSum / Float(count))
        sink.append(LinearHit(symbology: .dataBarExpanded, textOffset: textOffset, textCount: outCount,
                              addOnOffset: textOffset, addOnCount: 0, extraOffset: extraOffset, extraCount: extraCount,
                              firstElement: max(b, 0), lastElement: guardBar, start: starts[max(b, 0)],
                              end: starts[guardBar] + w[guardBar], error: error, aimModifier: 48))
        return guardBar - b
    }

    // MARK: - Bit stream to element string

    @inline(__always)
    private func read(_ pos: Int, _ count: Int) -> Int {
        var v = 0
        for k in pos..<(pos + count) { v = v << 1 | Int(bits[k]) }
        return v
    }

    @inline(__always)
    private func put(_ byte: UInt8) {
        if outCount < 512 { out[outCount] = byte; outCount += 1 }
    }

    /// Appends `value` as `digits` decimal digits.
    private func putNumber(_ value: Int, digits: Int) {
        var d = 1
        for _ in 1..<max(digits, 1) { d *= 10 }
        var v = value
        for _ in 0..<digits { put(UInt8(48 + v / d % 10)); v %= d; d = max(1, d / 10) }
    }

    private func putAI(_ ai: StaticString) {
        ai.withUTF8Buffer { for b in $0 { put(b) } }
    }

    /// `01` + `9` + the 12 digits of four 10-bit groups from `pos` + check digit.
    private func putGTIN(_ pos: Int, indicator: Int? = 9) {
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
    private func decodeBits() -> Bool {
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
    private func general(from start: Int) -> Bool {
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
                    if v6 >= 32 && v6 < 58 { put(UInt8(65 + v6 - 32)) }
                    else if v6 >= 58 && v6 < 63 { put(DataBarExpandedReader.alphanumericSpecials[v6 - 58]) }
                    else { return false }
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
    private func fnc1() {
        if outCount > 0 { put(GS1.groupSeparator) }
    }
}
