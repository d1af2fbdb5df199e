/// GS1 DataBar Expanded and Expanded Stacked.
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
/// - Expanded Stacked, clause "GS1 DataBar Expanded Stacked": 2 to 11
///   rows of pairs between guards, every row but the last as long as the
///   first. A row may begin with an odd pair (its guard bar then followed
///   by a narrow space) and may be printed right to left; lines read each
///   row the way its pairs run in the symbol, as a ``LinearFragment`` with
///   its pairs' finder values, character values and shares of the
///   checksum. At the frame's end rows are chained from the one that holds
///   the check character downwards while their finders continue one of the
///   standard's sequences; a chain that completes a sequence and agrees
///   with the check character is decoded like a single row, and must
///   parse as GS1 element strings.
///
/// Text: the raw element string; extra: its human-readable form; `]e0`.
final class DataBarExpandedReader: StackedLinearReader {
    var symbologies: Symbology { .dataBarExpanded }

    /// Finder patterns A to F, outermost element first.
    static let finders: [(Float, Float, Float, Float, Float)] = [
        (1, 8, 4, 1, 1), (3, 6, 4, 1, 1), (3, 4, 6, 1, 1), (3, 2, 8, 1, 1), (2, 6, 5, 1, 1), (2, 2, 9, 1, 1)
    ]
    /// Finder values (A = 0) by number of finders, 2...11.
    static let sequences: [[Int]] = [
        [0, 0], [0, 1, 1], [0, 2, 1, 3], [0, 4, 1, 3, 2], [0, 4, 1, 3, 3, 5], [0, 4, 1, 3, 4, 5, 5],
        [0, 0, 1, 1, 2, 2, 3, 3], [0, 0, 1, 1, 2, 2, 3, 4, 4], [0, 0, 1, 1, 2, 2, 3, 4, 5, 5],
        [0, 0, 1, 1, 2, 3, 3, 4, 4, 5, 5]
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
    let moduleWidths = UnsafeMutablePointer<Int>.allocate(capacity: 24 * 8)
    let split = UnsafeMutablePointer<Int>.allocate(capacity: 8)
    let scaled = UnsafeMutablePointer<Float>.allocate(capacity: 8)
    let values = UnsafeMutablePointer<Int>.allocate(capacity: 24)
    let finderValues = UnsafeMutablePointer<Int>.allocate(capacity: 12)
    let bits = UnsafeMutablePointer<UInt8>.allocate(capacity: 24 * 12)
    /// 3^k modulo 211 for the 23 weight rows of 8 elements.
    let weights211 = DataBar.checksumWeights(count: 23 * 8, modulus: 211)
    /// The values of a row's fragment.
    let rowValues = UnsafeMutablePointer<Int32>.allocate(capacity: 3 + 5 * 11)
    let out = UnsafeMutablePointer<UInt8>.allocate(capacity: 512)
    var bitCount = 0
    /// The run's widths with a rebuilt first width (left guard cut off).
    var leading = ScratchBuffer<Float>(capacity: 128)
    /// How many more whole chains of rows the assembly may check.
    var checksLeft = 0
    /// Skip a numeric latch right after an FNC1 in alphanumeric or ISO/IEC 646 mode.
    var lenientLatch = false
    var outCount = 0

    init() {
        moduleWidths.initialize(repeating: 0, count: 24 * 8)
        split.initialize(repeating: 0, count: 8)
        scaled.initialize(repeating: 0, count: 8)
        values.initialize(repeating: 0, count: 24)
        finderValues.initialize(repeating: 0, count: 12)
        bits.initialize(repeating: 0, count: 24 * 12)
        out.initialize(repeating: 0, count: 512)
        rowValues.initialize(repeating: 0, count: 3 + 5 * 11)
    }

    deinit {
        moduleWidths.deallocate(); split.deallocate(); scaled.deallocate(); values.deallocate()
        finderValues.deallocate(); bits.deallocate(); out.deallocate(); leading.free()
        weights211.deallocate(); rowValues.deallocate()
    }

    func decode(_ run: borrowing ElementRun, enabled: Symbology, into sink: inout LinearHitSink) {
        guard enabled.contains(.dataBarExpanded) else { return }
        let n = run.count
        // A symbol whose left guard bar the line's start cut off begins with
        // the check character at element 0, its first width lost in the
        // leading space: it is rebuilt from the character's 17 modules.
        let hitsBefore = sink.hitCount
        if n > 28, let f = finder(run.widths.pointer, 8, step: 1), f.value == 0,
            rebuildCutFirstWidth(run.widths.pointer, count: n, modules: 17, into: &leading)
        {
            _ = decodeAt(run, -1, &sink, widths: leading.pointer)
        }
        // A row that starts with an even pair, its left guard bar cut off
        // by the line's start, when it is not a whole symbol.
        if n > 16, sink.hitCount == hitsBefore, finder(run.widths.pointer, 8, step: 1) != nil,
            rebuildCutFirstWidth(run.widths.pointer, count: n, modules: 17, into: &leading)
        {
            readRow(run, -1, &sink, widths: leading.pointer)
        }
        // A row that starts with an odd pair, cut off the same way: its guard
        // bar and space are lost in the leading space, its first character
        // (bar first) is intact.
        if n > 16 { readRow(run, -1, &sink, widths: run.widths.pointer, oddStart: true) }
        // At each pair position: a symbol or a row beginning with an even
        // pair needs a finder read forwards at b + 9, a row beginning with
        // an odd pair one read backwards from b + 14; most places have
        // neither, and are passed over at the cost of that test.
        let w = UnsafePointer(run.widths.pointer)
        var b = 1
        while b + 30 < n {
            if DataBar.couldBeFinder(w, b + 9, step: 1) {
                let used = decodeAt(run, b, &sink, widths: run.widths.pointer)
                if used > 0 { b += used; continue }
                readRow(run, b, &sink, widths: run.widths.pointer)
            }
            if DataBar.couldBeFinder(w, b + 14, step: -1) {
                readRow(run, b, &sink, widths: run.widths.pointer, oddStart: true)
            }
            b += 2
        }
        // Rows too short to be whole symbols: a single pair, or a pair and a half.
        while b + 14 < n {
            if DataBar.couldBeFinder(w, b + 9, step: 1) { readRow(run, b, &sink, widths: run.widths.pointer) }
            if DataBar.couldBeFinder(w, b + 14, step: -1) {
                readRow(run, b, &sink, widths: run.widths.pointer, oddStart: true)
            }
            b += 2
        }
    }

    /// The right guard after the content's last element `end`: a narrow
    /// bar, after a narrow space when the content ends with a bar. Returns
    /// the index of its last element and where the symbol ends along the
    /// line; nil when there is no such guard.
    ///
    /// A guard bar cut off by the line's end counts. So does one merged
    /// with a dark surround: a DataBar symbol needs no quiet zone (ISO/IEC
    /// 24724, 4.2), so the outer side of a guard bar printed against a dark
    /// edge (a row of a stacked symbol at the label's edge, a picture cut
    /// at the symbol's border) joins it. As the line's last bar it may then
    /// be of any width; where the line ends inside it, a run read backwards
    /// holds that dark part within its last element, after the guard space
    /// (``ElementRun`` keeps a bar cut by the line's start inside its first
    /// space). Inside a line a wide bar is no guard: rows of stacked symbols
    /// would be read at wrong places. (The left guard stays narrow: a line
    /// that starts inside a dark surround has lost it in its first element,
    /// which the readings with a cut left guard handle.)
    func rightGuard(
        _ run: borrowing ElementRun, _ w: UnsafePointer<Float>, after end: Int,
        module m: Float
    ) -> (last: Int, end: Float)? {
        let n = run.count, cut = run.cutBarAtEnd
        let starts = run.starts.pointer
        var guardBar = end + 1
        if guardBar % 2 == 0 {
            guard guardBar < n else { return nil }
            if guardBar == n - 1 && cut > 0 && w[guardBar] >= 2 * m {
                let space = w[guardBar] - cut
                guard space > 0.35 * m, space < 2 * m else { return nil }
                return (guardBar, starts[guardBar] + space + m)
            }
            guard w[guardBar] / m > 0.35, w[guardBar] / m < 2.0 else { return nil }
            guardBar += 1
        }
        if guardBar == n { return (n - 1, starts[n - 1] + w[n - 1]) }
        let g = w[guardBar] / m
        guard g > 0.35, g < 2.0 || guardBar >= n - 2 else { return nil }
        if guardBar + 2 < n { guard w[guardBar + 1] > 0.5 * m else { return nil } }
        return (guardBar, starts[guardBar] + min(w[guardBar], m))
    }

    /// Where a symbol or row whose left guard was lost in the line's first
    /// element begins (within the line): the guard bar's module before the
    /// rebuilt width of element 0, or with `oddStart` the guard bar and
    /// space before element 1.
    func cutStart(
        _ w: UnsafePointer<Float>, _ starts: UnsafePointer<Float>, module m: Float,
        oddStart: Bool = false
    ) -> Float {
        max(starts[0], oddStart ? starts[1] - 2 * m : starts[1] - w[0] - m)
    }

    /// The finder value of five elements from `first` read with `step`, and its error.
    @inline(__always)
    func finder(_ w: UnsafePointer<Float>, _ first: Int, step: Int) -> (value: Int, error: Float)? {
        DataBar.finder(w, first, step: step, patterns: DataBarExpandedReader.finders)
    }

    /// Reads the character of 8 elements from `first` (with `step`) into
    /// `moduleWidths[8 * index...]` and `values[index]`; returns its error.
    func character(_ w: UnsafePointer<Float>, _ first: Int, step: Int, index: Int, module m: Float) -> Float? {
        var total: Float = 0
        for k in 0..<8 { total += w[first + step * k] }
        guard abs(total / m - 17) < 3.4 else { return nil }
        let c = moduleWidths + 8 * index
        let sums: UInt64 = (1 << 4) | (1 << 6) | (1 << 8) | (1 << 10) | (1 << 12)
        guard
            let e = DataBar.quantize(
                w, first: first, step: step, count: 8, modules: 17, oddSums: sums,
                scaled: scaled, out: c), e <= maxCharError
        else { return nil }
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

    /// One row of a DataBar Expanded Stacked symbol (clause "GS1 DataBar
    /// Expanded Stacked"), as a ``LinearFragment``: the left guard bar at
    /// `b` (-1: the line's start cut it off), then pairs, then the right
    /// guard. A row is read the way its pairs run in the symbol (a row
    /// printed right to left is read by the lines running that way); a row
    /// that begins with an odd pair (a bar-first character) has a narrow
    /// space after its guard bar (`oddStart`). The finder of an even pair
    /// has its outer element (a space) on the left, that of an odd pair
    /// (a bar) on the right, so the pairs' positions in the symbol are
    /// known up to their finders' values.
    ///
    /// Values: the first pair's parity (0 even, 1 odd), the pair count, the
    /// character count, then for each pair its finder value, its left
    /// character's value and share of the modulo-211 checksum, its right
    /// character's value (-1 when the pair ends the symbol without one)
    /// and share.
    func readRow(
        _ run: borrowing ElementRun, _ b: Int, _ sink: inout LinearHitSink,
        widths: UnsafeMutablePointer<Float>, oddStart: Bool = false
    ) {
        let w = UnsafePointer(widths)
        let n = run.count
        let s0 = oddStart ? b + 2 : b + 1
        guard s0 >= 0, s0 + 14 < n else { return }
        let firstOdd = s0 & 1 == 1
        guard let f0 = firstOdd ? finder(w, s0 + 12, step: -1) : finder(w, s0 + 8, step: 1),
            f0.error < 0.4
        else { return }
        var fw: Float = 0
        for k in 8...12 { fw += w[s0 + k] }
        var m = fw / 15
        if b >= 0 {
            let g = w[b] / m
            guard g > 0.35, g < 2.0, b == 1 || w[b - 1] > 0.5 * m else { return }
            if oddStart { guard w[b + 1] / m > 0.35, w[b + 1] / m < 2.0 else { return } }
        }
        var count = 0, pairs = 0
        var errorSum: Float = 0
        var end = -1
        rowValues[0] = firstOdd ? 1 : 0
        while pairs < 11 {
            let s = s0 + 21 * pairs
            guard s + 12 < n else { break }
            let odd = s & 1 == 1
            guard let f = odd ? finder(w, s + 12, step: -1) : finder(w, s + 8, step: 1), f.error < 0.4 else { break }
            var thisWidth: Float = 0
            for k in 8...12 { thisWidth += w[s + k] }
            guard thisWidth > 0.75 * 15 * m, thisWidth < 1.33 * 15 * m,
                let el = character(w, s, step: 1, index: count, module: m)
            else { break }
            m = 0.5 * m + 0.5 * thisWidth / 15
            let v = rowValues + 3 + 5 * pairs
            v[0] = Int32(f.value)
            v[1] = Int32(values[count])
            v[2] = Int32(weightedSum(count, finder: f.value, odd: odd, right: false))
            v[3] = -1
            v[4] = 0
            pairs += 1
            count += 1
            errorSum += el + f.error
            end = s + 12
            if s + 20 < n, let er = character(w, s + 20, step: -1, index: count, module: m) {
                v[3] = Int32(values[count])
                v[4] = Int32(weightedSum(count, finder: f.value, odd: odd, right: true))
                count += 1
                errorSum += er
                end = s + 20
            } else {
                break
            }
        }
        guard pairs >= 1, count < 24 else { return }
        // The right guard, as for a whole symbol.
        guard let (_, rowEnd) = rightGuard(run, w, after: end, module: m) else { return }
        // Its finders must occur in one of the standard's sequences, at a
        // position of the first pair's parity.
        var fits = false
        for sequence in DataBarExpandedReader.sequences {
            var at = firstOdd ? 1 : 0
            while at + pairs <= sequence.count && !fits {
                var same = true
                for k in 0..<pairs where sequence[at + k] != Int(rowValues[3 + 5 * k]) { same = false; break }
                if same { fits = true }
                at += 2
            }
            if fits { break }
        }
        guard fits else { return }
        rowValues[1] = Int32(pairs)
        rowValues[2] = Int32(count)
        let starts = run.starts.pointer
        sink.appendFragment(
            .dataBarExpanded, values: UnsafeBufferPointer(start: rowValues, count: 3 + 5 * pairs),
            start: b >= 0 ? starts[b] : cutStart(w, starts, module: m, oddStart: oddStart),
            end: rowEnd, error: min(2, 3 * errorSum / Float(count)))
    }

    /// Character `c`'s share of the modulo-211 checksum: its module widths
    /// weighted by the standard's weights for its finder, the finder's
    /// orientation (`odd` pairs are mirrored) and its side (clause "Check
    /// character calculation"); 0 for the check character itself.
    @inline(__always)
    func weightedSum(_ c: Int, finder: Int, odd: Bool, right: Bool) -> Int {
        let row = 4 * finder + (odd ? 2 : 0) + (right ? 1 : 0) - 1
        guard row >= 0 else { return 0 }
        let cw = moduleWidths + 8 * c
        var sum = 0
        for k in 0..<8 { sum += cw[k] * weights211[8 * row + k] }
        return sum % 211
    }

}
