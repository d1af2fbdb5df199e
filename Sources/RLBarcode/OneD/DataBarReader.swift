/// GS1 DataBar Omnidirectional, Truncated, Stacked, Stacked
/// Omnidirectional and Limited.
///
/// Implements ISO/IEC 24724:2011 (GS1 DataBar bar code symbology
/// specification):
/// - DataBar Omnidirectional and Truncated (one structure, Truncated only
///   shorter), clause "Symbol structure": left guard, outside character 1
///   (16 modules), left finder pattern (15 modules), inside character 2
///   (15 modules), inside character 4, right finder pattern (mirrored),
///   outside character 3 and the right guard: 46 elements, 96 modules.
///   Outside characters are read from the symbol's ends, inside
///   characters from its centre, each towards its finder. The nine finder
///   values (clause "Finder pattern"), the data character values from their
///   odd and even widths with the group tables of the outside (16-module)
///   and inside (15-module) characters, the pair values
///   `1597 * outside + inside`, the symbol value `4537077 * left + right`
///   giving 13 digits, and the modulo-79 checksum, clause "Check value
///   calculation": each element width weighted by 3^k (k its position over
///   characters 1, 2, 3, 4) and coded by the two finders as `9 * left + right`
///   (less one above 8 and above 72).
/// - DataBar Limited, clause "GS1 DataBar Limited": left guard, data
///   character 1 (14 elements, 26 modules), check character (14 elements,
///   18 modules, one of the 89 patterns of the standard's table), data
///   character 2, right guard: 47 elements with the leading space, 74
///   modules. Values from the seven groups of the Limited character table,
///   symbol value `2013571 * left + right` (13 digits led by 0 or 1), and the
///   modulo-89 checksum, weights 3^k over the 28 data elements.
///
/// - DataBar Stacked and Stacked Omnidirectional, clause "GS1 DataBar
///   Stacked": the left half (outside character 1, left finder, inside
///   character 2) above the right half (inside character 4, right finder,
///   outside character 3), each row between its own guards. A line reads
///   one half as a ``LinearFragment`` (the left finder's outer element is a
///   space, the right finder's a bar, so the two are told apart in either
///   reading direction); at the frame's end a left half and a right half
///   below it, or beside it on the same row when no line read the row
///   whole, assemble when the modulo-79 checksum over both agrees with
///   their finders. Halves one line read alone, or that other readings of
///   the same place outvote, are not used.
/// - Guards against other symbols' bars: each character must span its
///   module count at its finder's module size (two DataBar Expanded pairs
///   have the Omnidirectional element structure with 17-module
///   characters), and DataBar Limited's right guard must end in a space of
///   five modules or more (inside an EAN-13 the check character and both
///   data characters can pass the modulo-89 check).
///
/// Both give the GTIN with its modulo-10 check digit as the raw element
/// string `01` + 14 digits, and `(01)` + 14 digits as the extra text;
/// symbology identifier `]e0`.
final class DataBarReader: StackedLinearReader {
    var symbologies: Symbology { .dataBar }

    /// The finder patterns by value, widths in reading order (outermost first).
    static let finders: [(Float, Float, Float, Float, Float)] = [
        (3, 8, 2, 1, 1), (3, 5, 5, 1, 1), (3, 3, 7, 1, 1), (3, 1, 9, 1, 1), (2, 7, 4, 1, 1),
        (2, 5, 6, 1, 1), (2, 3, 8, 1, 1), (1, 5, 7, 1, 1), (1, 3, 9, 1, 1)
    ]
    /// Outside characters (16 modules) by group 0...4 (odd total 12, 10, 8, 6, 4):
    /// widest odd element, even combinations, value offset.
    static let outsideOddWidest = [8, 6, 4, 3, 1]
    static let outsideEvenTotal = [1, 10, 34, 70, 126]
    static let outsideOffset = [0, 161, 961, 2015, 2715]
    /// Inside characters (15 modules) by group 0...3 (even total 10, 8, 6, 4):
    /// widest odd element, odd combinations, value offset.
    static let insideOddWidest = [2, 4, 6, 8]
    static let insideOddTotal = [4, 20, 48, 81]
    static let insideOffset = [0, 336, 1036, 1516]
    /// Limited characters (26 modules) by group 0...6: odd module total,
    /// widest odd element, even combinations, value offset.
    static let limitedOddModules = [17, 13, 9, 15, 11, 19, 7]
    static let limitedOddWidest = [6, 5, 3, 5, 4, 8, 1]
    static let limitedEvenTotal = [28, 728, 6454, 203, 2408, 1, 16632]
    static let limitedOffset = [0, 183064, 820064, 1000776, 1491021, 1979845, 1996939]
    /// The 89 Limited check character patterns by checksum value, 14 widths
    /// as decimal digits (left to right).
    static let limitedCheck: [Int] = [
        11111111113311, 11111111123211, 11111111133111, 11111112113211, 11111112123111, 11111113113111,
        11111211113211, 11111211123111, 11111212113111, 11111311113111, 11121111113211, 11121111123111,
        11121112113111, 11121211113111, 11131111113111, 12111111113211, 12111111123111, 12111112113111,
        12111211113111, 12121111113111, 13111111113111, 11111111212311, 11111111222211, 11111111232111,
        11111112212211, 11111112222111, 11111113212111, 11111211212211, 11111211222111, 11111212212111,
        11111311212111, 11121111212211, 11121111222111, 11121112212111, 11121211212111, 11131111212111,
        12111111212211, 12111111222111, 12111112212111, 12111211212111, 12121111212111, 13111111212111,
        11111111311311, 11111111321211, 11111112311211, 11121111311211, 12111111311211, 11111121112311,
        11111121122211, 11111121132111, 11111122112211, 11121121112211, 11121121122111, 11121122112111,
        11121221112111, 11131121112111, 12111121112211, 12111121122111, 12121121112111, 11112111112311,
        11112111122211, 11112111132111, 11112112112211, 11112112122111, 11112211112211, 12112111112211,
        12112111122111, 12112112112111, 12112211112111, 12122111112111, 13112111112111, 11211111112311,
        11211111122211, 11211111132111, 11211112112211, 11211112122111, 11211113112111, 11211211112211,
        11211211122111, 11221111112211, 21111111122211, 21111111132111, 21111112112211, 21111112122111,
        21111113112111, 21111211122111, 21111212112111, 21121111122111, 21111111221211
    ]

    /// The largest mean distance (modules) between a character's measured
    /// and whole-module widths.
    var maxCharError: Float = 0.42

    /// Scratch, made once with the reader.
    private let modules = UnsafeMutablePointer<Int>.allocate(capacity: 4 * 16)
    private let scaled = UnsafeMutablePointer<Float>.allocate(capacity: 16)
    /// 3^k modulo 79 and modulo 89.
    private let weights79 = DataBar.checksumWeights(count: 32, modulus: 79)
    private let weights89 = DataBar.checksumWeights(count: 28, modulus: 89)
    private let digits = UnsafeMutablePointer<UInt8>.allocate(capacity: 16)
    private let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 40)
    /// The values of a half's fragment.
    private let halfValues = UnsafeMutablePointer<Int32>.allocate(capacity: 5)
    /// Where the line's whole symbols lie (their left finders).
    private let fullReads = UnsafeMutablePointer<Int>.allocate(capacity: 8)
    /// The run's widths with a rebuilt first width (left guard cut off).
    private var leading = ScratchBuffer<Float>(capacity: 128)
    /// The line's run with the bars cut by its ends as elements (``ElementRun/framed(into:)``).
    private var framed = ElementRun()

    init() {
        modules.initialize(repeating: 0, count: 4 * 16)
        scaled.initialize(repeating: 0, count: 16)
        digits.initialize(repeating: 0, count: 16)
        bytes.initialize(repeating: 0, count: 40)
        halfValues.initialize(repeating: 0, count: 5)
        fullReads.initialize(repeating: 0, count: 8)
    }

    deinit {
        modules.deallocate(); scaled.deallocate(); weights79.deallocate(); weights89.deallocate()
        digits.deallocate(); bytes.deallocate(); leading.free(); framed.free()
        halfValues.deallocate(); fullReads.deallocate()
    }

    func decode(_ run: borrowing ElementRun, enabled: Symbology, into sink: inout LinearHitSink) {
        guard enabled.contains(.dataBar) else { return }
        let n = run.count
        // Omnidirectional / Truncated: the left finder starts with a space (even index).
        // The right guard bar may be cut off by the end of the line.
        // A symbol whose left guard bar the line's start cut off begins with
        // character 1 at element 0, its first width lost in the leading
        // space: it is rebuilt from the character's 16 modules.
        if n > 20, finder(run.widths.pointer, 8, step: 1) != nil,
            rebuildCutFirstWidth(run.widths.pointer, count: n, modules: 16, into: &leading)
        {
            var whole = false
            if n > 42 { whole = decodeOmni(run, 8, &sink, widths: leading.pointer, cutLeft: true) }
            if !whole {
                decodeHalf(run, 8, right: false, &sink, widths: leading.pointer, cut: true)
            }
        }
        let w = UnsafePointer(run.widths.pointer)
        var i = 10
        var fullCount = 0
        while i + 12 < n {
            // Both need the left finder here.
            guard DataBar.couldBeFinder(w, i, step: 1),
                finder(run.widths.pointer, i, step: 1) != nil
            else { i += 2; continue }
            if i + 34 < n, decodeOmni(run, i, &sink, widths: run.widths.pointer) {
                if fullCount < 8 { fullReads[fullCount] = i; fullCount += 1 }
                i += 36
                continue
            }
            // Not a whole symbol here: maybe its left half (the top row of
            // a stacked symbol, or a row whose middle this line lost).
            decodeHalf(run, i, right: false, &sink, widths: run.widths.pointer)
            i += 2
        }
        // Right halves: the finder's outer element is a bar (odd index).
        var j = 13
        while j + 9 < n {
            var inFull = false
            for k in 0..<fullCount where fullReads[k] + 25 == j { inFull = true }
            if !inFull && DataBar.couldBeFinder(w, j, step: -1) {
                decodeHalf(run, j, right: true, &sink, widths: run.widths.pointer)
            }
            j += 2
        }
        // Limited: the left guard bar (odd index) and 44 elements after it
        // (the last, the right guard bar, possibly cut off by the line's end).
        var b = 1
        while b + 43 < n {
            if decodeLimited(run, b, &sink) { b += 44 } else { b += 2 }
        }
        // Limited cut at its left guard bar by the frame's border (a picture
        // cut tight): that bar as an element of its own, after the space of
        // unknown width beyond the border (``ElementRun/framed(into:)``).
        // The check character verifies the rest as on any other line.
        if run.cutBarAtStart > 0, run.startsAtFrameBorder {
            run.framed(into: &framed)
            if framed.isFrameBorder(0) && framed.count > 44 { _ = decodeLimited(framed, 1, &sink) }
        }
    }

    /// One half of a DataBar Omnidirectional, Truncated or Stacked symbol
    /// (clause "GS1 DataBar Stacked": each row of a stacked symbol is one
    /// half) as a ``LinearFragment``: outside character, finder and inside
    /// character. A left half has its finder's outer element (a space) at
    /// `f`, outside character 1 before it behind the left guard bar, inside
    /// character 2 after it; a right half has its finder's outer element (a
    /// bar) at `f`, inside character 4 before it and outside character 3
    /// after it, then the right guard. The values: 0 (left) or 1 (right),
    /// the finder value, the outside and inside character values, and the
    /// half's share of the modulo-79 checksum.
    /// With `cut` the line's start cut off the left guard bar and `widths`
    /// holds the run's widths with the first character's first rebuilt.
    private func decodeHalf(
        _ run: borrowing ElementRun, _ f: Int, right: Bool, _ sink: inout LinearHitSink,
        widths: UnsafeMutablePointer<Float>, cut: Bool = false
    ) {
        let w = UnsafePointer(widths)
        let n = run.count
        let outerFirst = right ? f + 8 : f - 8, innerFirst = right ? f - 12 : f + 12
        let outerStep = right ? -1 : 1, innerStep = right ? 1 : -1
        guard let fv = finder(w, f, step: right ? -1 : 1), fv.error < 0.33 else { return }
        var fw: Float = 0
        for k in 0..<5 { fw += w[right ? f - k : f + k] }
        let m = fw / 15
        // The guard: a narrow bar (and, on the right, a narrow space before
        // it) and no bar right outside it.
        if right {
            guard narrow(w, f + 9, m), f + 10 == n || (narrow(w, f + 10, m) && (f + 11 >= n - 1 || w[f + 11] > 0.5 * m))
            else { return }
        } else {
            guard cut || (narrow(w, f - 9, m) && (f == 10 || w[f - 10] > 0.5 * m)) else { return }
        }
        let outerLow = right ? f + 1 : f - 8, innerLow = right ? f - 12 : f + 5
        guard span(w, outerLow, 8, m, 16), span(w, innerLow, 8, m, 15) else { return }
        let outsideSums: UInt64 = (1 << 4) | (1 << 6) | (1 << 8) | (1 << 10) | (1 << 12)
        let insideSums: UInt64 = (1 << 5) | (1 << 7) | (1 << 9) | (1 << 11)
        let co = modules, ci = modules + 8
        guard
            let eo = DataBar.quantize(
                w, first: outerFirst, step: outerStep, count: 8, modules: 16,
                oddSums: outsideSums, scaled: scaled, out: co), eo <= maxCharError,
            let ei = DataBar.quantize(
                w, first: innerFirst, step: innerStep, count: 8, modules: 15,
                oddSums: insideSums, scaled: scaled, out: ci), ei <= maxCharError,
            let vo = outsideValue(co), let vi = insideValue(ci)
        else { return }
        // Left: characters 1 and 2 (weights 3^0...3^15); right: 3 and 4 (3^16...3^31).
        let base = right ? 16 : 0
        var sum = 0
        for k in 0..<8 { sum += co[k] * weights79[base + k] + ci[k] * weights79[base + 8 + k] }
        halfValues[0] = right ? 1 : 0
        halfValues[1] = Int32(fv.value)
        halfValues[2] = Int32(vo)
        halfValues[3] = Int32(vi)
        halfValues[4] = Int32(sum % 79)
        let s = run.starts.pointer
        let first = right ? f - 12 : f - 8, last = right ? f + 8 : f + 12
        sink.appendFragment(
            .dataBar, values: UnsafeBufferPointer(start: halfValues, count: 5),
            start: s[first], end: s[last] + w[last],
            error: min(2, 3 * (eo + ei) / 2 + fv.error))
    }

    /// Assembles halves read on different lines into symbols: a left half
    /// with a right half below it, reading the same way and overlapping
    /// along the row (DataBar Stacked and Stacked Omnidirectional, clause
    /// "GS1 DataBar Stacked"), or to its right on the same row (a single
    /// row whose middle no line read whole). The modulo-79 checksum over
    /// both halves must agree with their finders.
    func assemble(_ rows: borrowing RowTable, enabled: Symbology, into sink: inout LinearHitSink) -> [[Int]] {
        guard enabled.contains(.dataBar) else { return [] }
        var (lefts, rights) = halves(rows)
        guard !lefts.isEmpty, !rights.isEmpty else { return [] }
        lefts.sort { rows[$0].support > rows[$1].support }
        var taken = Set<Int>()
        var made: [[Int]] = []
        for l in lefts where !taken.contains(l) {
            let lrow = rows[l]
            let lv = rows.values(of: l)
            var best = -1, bestScore = -1
            for r in rights where !taken.contains(r) && completes(rows, l, r) {
                let score = lrow.support + rows[r].support
                if score > bestScore { bestScore = score; best = r }
            }
            guard best >= 0 else { continue }
            let rv = rows.values(of: best)
            let value = 4537077 * (1597 * Int(lv[2]) + Int(lv[3])) + 1597 * Int(rv[2]) + Int(rv[3])
            guard value < 10_000_000_000_000 else { continue }
            setDigits(value)
            DataBar.emitGTIN(
                digits, symbology: .dataBar, error: min(2, lrow.error + rows[best].error),
                bytes: bytes, sink: &sink)
            taken.insert(l); taken.insert(best)
            made.append([l, best])
        }
        return made
    }

    /// The halves fit to assemble: read alike by two lines at least, and
    /// not outvoted by another reading of the same half; left halves, then
    /// right halves.
    private func halves(_ rows: borrowing RowTable) -> (lefts: [Int], rights: [Int]) {
        var lefts: [Int] = [], rights: [Int] = []
        for r in 0..<rows.count where rows[r].symbology == .dataBar && rows[r].valueCount == 5 && rows[r].support >= 2 {
            let len = rows[r].length
            guard !rows.isOutvoted(r, along: 0.2 * len, across: 0.15 * len, kindValues: 1) else { continue }
            if rows.values(of: r)[0] == 0 { lefts.append(r) } else { rights.append(r) }
        }
        return (lefts, rights)
    }

    /// Whether right half `r` completes left half `l`: parallel, of about
    /// its length, below it (Stacked) or after it on the same row, in the
    /// same polarity, and the modulo-79 checksum over both agrees with
    /// their finders.
    private func completes(_ rows: borrowing RowTable, _ l: Int, _ r: Int) -> Bool {
        let lrow = rows[l], rrow = rows[r]
        let len = lrow.length
        guard rrow.inverted == lrow.inverted, rows.parallelism(l, r) > 0.94,
            rrow.length > 0.75 * len, rrow.length < 1.33 * len
        else { return false }
        let o = rows.offset(of: r, from: l)
        let stacked = o.across > 0.04 * len && o.across < 1.8 * len && abs(o.along) < 0.2 * len
        let sameRow = abs(o.across) < 0.25 * len && o.along > 0.8 * len && o.along < 1.25 * len
        guard stacked || sameRow else { return false }
        let lv = rows.values(of: l), rv = rows.values(of: r)
        var target = 9 * Int(lv[1]) + Int(rv[1])
        if target > 72 { target -= 1 }
        if target > 8 { target -= 1 }
        return (Int(lv[4]) + Int(rv[4])) % 79 == target
    }

    /// The halves fit to assemble (see ``assemble(_:enabled:into:)``) that
    /// no half of the other side completes: where a row of a stacked
    /// symbol was read without the other row.
    func lonelyHalves(_ rows: borrowing RowTable) -> [Int] {
        let (lefts, rights) = halves(rows)
        var lonely: [Int] = []
        for l in lefts where !rights.contains(where: { completes(rows, l, $0) }) { lonely.append(l) }
        for r in rights where !lefts.contains(where: { completes(rows, $0, r) }) { lonely.append(r) }
        return lonely
    }

    /// The finder value of the five elements from `w[first]` read with `step`, and its error.
    @inline(__always)
    private func finder(_ w: UnsafePointer<Float>, _ first: Int, step: Int) -> (value: Int, error: Float)? {
        // The two narrow elements (last) are next to the inside character.
        DataBar.finder(w, first, step: step, patterns: DataBarReader.finders, maxFirst: 4.2)
    }

    /// Whether the `count` elements from `first` span `modules` modules of
    /// `m` pixels, give or take 1.7 (perspective).
    @inline(__always)
    private func span(_ w: UnsafePointer<Float>, _ first: Int, _ count: Int, _ m: Float, _ modules: Float) -> Bool {
        var t: Float = 0
        for k in 0..<count { t += w[first + k] }
        return abs(t / m - modules) < 1.7
    }

    /// Whether element `i` measures about one module `m`.
    @inline(__always)
    private func narrow(_ w: UnsafePointer<Float>, _ i: Int, _ m: Float) -> Bool {
        let r = w[i] / m
        return r > 0.35 && r < 2.0
    }

    /// DataBar Omnidirectional with its left finder at element `i`.
    /// With `cutLeft` the left guard bar is missing (cut off by the line's
    /// start) and `i` is 8.
    private func decodeOmni(
        _ run: borrowing ElementRun, _ i: Int, _ sink: inout LinearHitSink,
        widths: UnsafeMutablePointer<Float>, cutLeft: Bool = false
    ) -> Bool {
        let w = UnsafePointer(widths)
        guard let left = finder(w, i, step: 1) else { return false }
        var fw: Float = 0
        for k in 0..<5 { fw += w[i + k] }
        let m = fw / 15
        guard let right = finder(w, i + 25, step: -1) else { return false }
        var rw: Float = 0
        for k in 21...25 { rw += w[i + k] }
        guard rw > 0.75 * fw, rw < 1.33 * fw,
            cutLeft || (narrow(w, i - 9, m) && (i == 10 || w[i - 10] > 0.5 * m)),
            narrow(w, i + 34, rw / 15), i + 35 == run.count || narrow(w, i + 35, rw / 15)
        else { return false }
        let outsideSums: UInt64 = (1 << 4) | (1 << 6) | (1 << 8) | (1 << 10) | (1 << 12)
        let insideSums: UInt64 = (1 << 5) | (1 << 7) | (1 << 9) | (1 << 11)
        let c1 = modules, c2 = modules + 8, c3 = modules + 16, c4 = modules + 24
        // Each character spans its module count at its finder's module
        // size: outside 16, inside 15 (two DataBar Expanded pairs, whose
        // characters are 17 modules, have the same element structure).
        guard span(w, i - 8, 8, m, 16), span(w, i + 5, 8, m, 15),
            span(w, i + 13, 8, rw / 15, 15), span(w, i + 26, 8, rw / 15, 16)
        else { return false }
        guard
            let e1 = DataBar.quantize(
                w, first: i - 8, step: 1, count: 8, modules: 16, oddSums: outsideSums,
                scaled: scaled, out: c1), e1 <= maxCharError,
            let e2 = DataBar.quantize(
                w, first: i + 12, step: -1, count: 8, modules: 15, oddSums: insideSums,
                scaled: scaled, out: c2), e2 <= maxCharError,
            let e4 = DataBar.quantize(
                w, first: i + 13, step: 1, count: 8, modules: 15, oddSums: insideSums,
                scaled: scaled, out: c4), e4 <= maxCharError,
            let e3 = DataBar.quantize(
                w, first: i + 33, step: -1, count: 8, modules: 16, oddSums: outsideSums,
                scaled: scaled, out: c3), e3 <= maxCharError
        else { return false }
        // Checksum over characters 1, 2, 3, 4.
        var sum = 0
        for k in 0..<8 {
            sum +=
                c1[k] * weights79[k] + c2[k] * weights79[8 + k] + c3[k] * weights79[16 + k]
                + c4[k] * weights79[24 + k]
        }
        var target = 9 * left.value + right.value
        if target > 72 { target -= 1 }
        if target > 8 { target -= 1 }
        guard sum % 79 == target,
            let v1 = outsideValue(c1), let v2 = insideValue(c2), let v3 = outsideValue(c3), let v4 = insideValue(c4)
        else { return false }
        let value = 4537077 * (1597 * v1 + v2) + 1597 * v3 + v4
        guard value < 10_000_000_000_000 else { return false }
        setDigits(value)
        let error = min(2, 3 * (e1 + e2 + e3 + e4) / 4 + left.error + right.error)
        DataBar.emitGTIN(
            digits, symbology: .dataBar, run: run, first: max(0, i - 9), last: min(i + 35, run.count - 1), error: error,
            bytes: bytes, sink: &sink)
        return true
    }

    /// The 13 digits of `value` and the check digit into `digits`.
    private func setDigits(_ value: Int) {
        var v = value
        for k in (0..<13).reversed() { digits[k] = UInt8(v % 10); v /= 10 }
        DataBar.appendCheckDigit(digits)
    }

    /// The value of an outside (16-module) character, widths in reading order.
    @inline(__always)
    private func outsideValue(_ c: UnsafeMutablePointer<Int>) -> Int? {
        let odd = scratchOdd(c), even = odd + 4
        let oddSum = odd[0] + odd[1] + odd[2] + odd[3]
        let group = (12 - oddSum) / 2
        guard group >= 0, group < 5 else { return nil }
        let oddWidest = DataBarReader.outsideOddWidest[group], evenWidest = 9 - oddWidest
        for k in 0..<4 where odd[k] > oddWidest || even[k] > evenWidest { return nil }
        let vOdd = DataBar.value(odd, count: 4, maxWidth: oddWidest, narrowRequired: false)
        let vEven = DataBar.value(even, count: 4, maxWidth: evenWidest, narrowRequired: true)
        return vOdd * DataBarReader.outsideEvenTotal[group] + vEven + DataBarReader.outsideOffset[group]
    }

    /// The value of an inside (15-module) character, widths in reading order.
    @inline(__always)
    private func insideValue(_ c: UnsafeMutablePointer<Int>) -> Int? {
        let odd = scratchOdd(c), even = odd + 4
        let evenSum = even[0] + even[1] + even[2] + even[3]
        let group = (10 - evenSum) / 2
        guard group >= 0, group < 4 else { return nil }
        let oddWidest = DataBarReader.insideOddWidest[group], evenWidest = 9 - oddWidest
        for k in 0..<4 where odd[k] > oddWidest || even[k] > evenWidest { return nil }
        let vOdd = DataBar.value(odd, count: 4, maxWidth: oddWidest, narrowRequired: true)
        let vEven = DataBar.value(even, count: 4, maxWidth: evenWidest, narrowRequired: false)
        return vEven * DataBarReader.insideOddTotal[group] + vOdd + DataBarReader.insideOffset[group]
    }

    /// Splits the 8 (or 14) widths at `c` into odd then even elements in
    /// the scratch after the four characters; returns the odd ones.
    @inline(__always)
    private func scratchOdd(_ c: UnsafeMutablePointer<Int>, count: Int = 8) -> UnsafeMutablePointer<Int> {
        let half = count / 2
        let out = modules + 32
        for k in 0..<half { out[k] = c[2 * k]; out[half + k] = c[2 * k + 1] }
        return out
    }

    /// DataBar Limited with its left guard bar at element `b`.
    private func decodeLimited(_ run: borrowing ElementRun, _ b: Int, _ sink: inout LinearHitSink) -> Bool {
        let w = UnsafePointer(run.widths.pointer)
        // First the cheap test that rejects most places: the right guard's
        // space (five modules or more, below) is wider than the left guard
        // bar (one module), unless the line ends there.
        if b + 45 < run.count - 1 && w[b + 45] < 2.5 * w[b] { return false }
        // The three characters, 26, 18 and 26 modules; their modules may
        // differ somewhat (perspective), the guards go by their neighbours.
        var s1: Float = 0, sc: Float = 0, s2: Float = 0
        for k in 0..<14 { s1 += w[b + 1 + k]; sc += w[b + 15 + k]; s2 += w[b + 29 + k] }
        let m1 = s1 / 26, mc = sc / 18, m2 = s2 / 26
        guard mc > 0, m1 / mc > 0.85, m1 / mc < 1.18, m2 / mc > 0.85, m2 / mc < 1.18 else { return false }
        let cut = b + 44 == run.count
        guard narrow(w, b, m1), narrow(w, b + 43, m2), cut || narrow(w, b + 44, m2), b == 1 || w[b - 1] > 0.5 * m1
        else { return false }
        // The right guard ends in a space of at least five modules (clause
        // "GS1 DataBar Limited", right guard pattern), unless the line ends
        // there: inside another symbol's bars the space after the 44th
        // element is as narrow as any other.
        if b + 45 < run.count - 1 { guard w[b + 45] > 4 * mc else { return false } }
        var limitedSums: UInt64 = 0
        for s in DataBarReader.limitedOddModules { limitedSums |= 1 << UInt64(s) }
        let c1 = modules, c2 = modules + 14
        guard
            let e1 = DataBar.quantize(
                w, first: b + 1, step: 1, count: 14, modules: 26, oddSums: limitedSums,
                scaled: scaled, out: c1), e1 <= maxCharError,
            let e2 = DataBar.quantize(
                w, first: b + 29, step: 1, count: 14, modules: 26, oddSums: limitedSums,
                scaled: scaled, out: c2), e2 <= maxCharError
        else { return false }
        var sum = 0
        for k in 0..<14 { sum += c1[k] * weights89[k] + c2[k] * weights89[14 + k] }
        // The check character: the measured widths must be nearest to the
        // expected pattern, clearly nearer than to any other.
        let k18 = 18 / sc
        for k in 0..<14 { scaled[k] = w[b + 15 + k] * k18 }
        let expected = sum % 89
        var ec: Float = 0, other: Float = .infinity
        for v in 0..<89 {
            var pattern = DataBarReader.limitedCheck[v]
            var e: Float = 0
            for k in (0..<14).reversed() {
                e += abs(scaled[k] - Float(pattern % 10))
                pattern /= 10
            }
            if v == expected { ec = e / 14 } else { other = min(other, e / 14) }
        }
        guard other - ec > 0.04 else { return false }
        guard ec <= maxCharError, let v1 = limitedValue(c1), let v2 = limitedValue(c2) else { return false }
        let value = 2013571 * v1 + v2
        guard value < 2_000_000_000_000 else { return false }
        setDigits(value)
        let error = min(2, 3 * (e1 + e2 + ec) / 3)
        DataBar.emitGTIN(
            digits, symbology: .dataBar, run: run, first: b, last: cut ? b + 43 : b + 44, error: error,
            bytes: bytes, sink: &sink)
        return true
    }

    /// The value of a Limited (26-module) character, widths in reading order.
    @inline(__always)
    private func limitedValue(_ c: UnsafeMutablePointer<Int>) -> Int? {
        let odd = scratchOdd(c, count: 14), even = odd + 7
        var oddSum = 0
        for k in 0..<7 { oddSum += odd[k] }
        guard let group = DataBarReader.limitedOddModules.firstIndex(of: oddSum) else { return nil }
        let oddWidest = DataBarReader.limitedOddWidest[group], evenWidest = 9 - oddWidest
        for k in 0..<7 where odd[k] > oddWidest || even[k] > evenWidest { return nil }
        let vOdd = DataBar.value(odd, count: 7, maxWidth: oddWidest, narrowRequired: false)
        let vEven = DataBar.value(even, count: 7, maxWidth: evenWidest, narrowRequired: true)
        return vOdd * DataBarReader.limitedEvenTotal[group] + vEven + DataBarReader.limitedOffset[group]
    }
}
