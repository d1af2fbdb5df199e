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
    private let moduleWidths = UnsafeMutablePointer<Int>.allocate(capacity: 24 * 8)
    private let split = UnsafeMutablePointer<Int>.allocate(capacity: 8)
    private let scaled = UnsafeMutablePointer<Float>.allocate(capacity: 8)
    private let values = UnsafeMutablePointer<Int>.allocate(capacity: 24)
    private let finderValues = UnsafeMutablePointer<Int>.allocate(capacity: 12)
    private let bits = UnsafeMutablePointer<UInt8>.allocate(capacity: 24 * 12)
    /// 3^k modulo 211 for the 23 weight rows of 8 elements.
    private let weights211 = UnsafeMutablePointer<Int>.allocate(capacity: 23 * 8)
    /// The values of a row's fragment.
    private let rowValues = UnsafeMutablePointer<Int32>.allocate(capacity: 3 + 5 * 11)
    private let out = UnsafeMutablePointer<UInt8>.allocate(capacity: 512)
    private var bitCount = 0
    /// The run's widths with a rebuilt first width (left guard cut off).
    private var leading = ScratchBuffer<Float>(capacity: 128)
    /// How many more whole chains of rows the assembly may check.
    private var checksLeft = 0
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
        rowValues.initialize(repeating: 0, count: 3 + 5 * 11)
        var p = 1
        for k in 0..<(23 * 8) { weights211[k] = p; p = p * 3 % 211 }
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
    private func rightGuard(
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
    private func cutStart(
        _ w: UnsafePointer<Float>, _ starts: UnsafePointer<Float>, module m: Float,
        oddStart: Bool = false
    ) -> Float {
        max(starts[0], oddStart ? starts[1] - 2 * m : starts[1] - w[0] - m)
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
            let e =
                abs(n0 - p.0) + abs(n1 - p.1) + abs(n2 - p.2) + abs(n3 - p.3) + abs(n4 - p.4)
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
    private func readRow(
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
    private func weightedSum(_ c: Int, finder: Int, odd: Bool, right: Bool) -> Int {
        let row = 4 * finder + (odd ? 2 : 0) + (right ? 1 : 0) - 1
        guard row >= 0 else { return 0 }
        let cw = moduleWidths + 8 * c
        var sum = 0
        for k in 0..<8 { sum += cw[k] * weights211[8 * row + k] }
        return sum % 211
    }

    /// Assembles the rows of DataBar Expanded Stacked symbols: from a row
    /// that begins with the check character, the rows below it (parallel,
    /// overlapping along the row, each a little below the previous) whose
    /// pairs continue one of the standard's finder sequences, every row
    /// but the last full and as long as the first, until a sequence is
    /// complete and the modulo-211 check character agrees; then the
    /// characters' bit stream is decoded as for a single row.
    func assemble(_ rows: borrowing RowTable, enabled: Symbology, into sink: inout LinearHitSink) -> [[Int]] {
        guard enabled.contains(.dataBarExpanded) else { return [] }
        var all: [Int] = []
        // Rows one line read alone may be misread: each row of a symbol must
        // be read alike by two lines at least, and not be outvoted by another
        // reading of the same row (within a few modules of it).
        for r in 0..<rows.count
        where rows[r].symbology == .dataBarExpanded && rows[r].valueCount >= 8
            && rows[r].support >= 2
        {
            let v = rows.values(of: r)
            let module = rows[r].length / Double(17 * Int(v[2]) + 15 * Int(v[1]) + 2)
            if !rows.isOutvoted(r, along: 0.2 * rows[r].length, across: 4 * module, kindValues: 3) { all.append(r) }
        }
        guard all.count >= 2 else { return [] }
        var starts = all.filter {
            let v = rows.values(of: $0)
            return v[0] == 0 && v[3] == 0
        }
        starts.sort { rows[$0].support > rows[$1].support }
        var taken = Set<Int>()
        var made: [[Int]] = []
        var madeStarts: [Int] = []
        for st in starts where !taken.contains(st) {
            // Another reading of a first row already assembled.
            var again = false
            for o in madeStarts where abs(rows.parallelism(o, st)) > 0.9 {
                let d = rows.offset(of: st, from: o)
                if abs(d.along) < 0.3 * rows[o].length && abs(d.across) < 0.5 * rows[o].length { again = true }
            }
            if again { continue }
            var chain = [st]
            var budget = 40
            checksLeft = 4
            if extend(rows, all, &chain, taken: taken, budget: &budget, into: &sink) {
                for r in chain { taken.insert(r) }
                made.append(chain)
                madeStarts.append(st)
            }
        }
        return made
    }

    /// Extends `chain` (rows top to bottom) by rows of `all` below its last
    /// one until it makes a symbol; true when it did (the hit is appended).
    private func extend(
        _ rows: borrowing RowTable, _ all: [Int], _ chain: inout [Int], taken: Set<Int>,
        budget: inout Int, into sink: inout LinearHitSink
    ) -> Bool {
        budget -= 1
        guard budget > 0 else { return false }
        let top = chain[0], last = chain[chain.count - 1]
        let tv = rows.values(of: top)
        let rowPairs = Int(tv[1])
        var pairsSoFar = 0
        for r in chain { pairsSoFar += Int(rows.values(of: r)[1]) }
        let topRow = rows[top]
        let topLength = topRow.length
        guard topLength > 0 else { return false }
        let module = topLength / Double(17 * Int(tv[2]) + 15 * rowPairs + 2)
        let ux = (topRow.p1.x - topRow.p0.x) / topLength, uy = (topRow.p1.y - topRow.p0.y) / topLength
        func span(_ r: Int) -> (Double, Double) {
            let row = rows[r]
            let a = (row.p0.x - topRow.p0.x) * ux + (row.p0.y - topRow.p0.y) * uy
            let b = (row.p1.x - topRow.p0.x) * ux + (row.p1.y - topRow.p0.y) * uy
            return (min(a, b), max(a, b))
        }
        let lastAcross = rows.offset(of: last, from: top).across
        let (l0, l1) = span(last)
        var total = 0
        for r in chain { total += Int(rows.values(of: r)[2]) }
        // Candidates: the next row's first pair continues the count's parity
        // and the finder sequence; the best supported first (the finder
        // sequence keeps rows in order), then the nearest.
        var next: [(Int, Double)] = []
        for c in all where !taken.contains(c) && !chain.contains(c) {
            let row = rows[c]
            guard row.inverted == topRow.inverted, abs(rows.parallelism(top, c)) > 0.94 else { continue }
            let cv = rows.values(of: c)
            guard Int(cv[0]) == pairsSoFar % 2, Int(cv[1]) <= rowPairs,
                pairsSoFar + Int(cv[1]) <= 11, total + Int(cv[2]) < 24
            else { continue }
            let across = rows.offset(of: c, from: top).across - lastAcross
            guard across > 3 * module, across < 120 * module else { continue }
            let (c0, c1) = span(c)
            let overlap = min(l1, c1) - max(l0, c0)
            guard overlap > 0.5 * min(l1 - l0, c1 - c0) else { continue }
            var seqOK = false
            for sequence in DataBarExpandedReader.sequences where sequence.count >= pairsSoFar + Int(cv[1]) {
                var same = true
                var k = 0
                for r in chain + [c] {
                    let v = rows.values(of: r)
                    for p in 0..<Int(v[1]) {
                        if sequence[k] != Int(v[3 + 5 * p]) { same = false }
                        k += 1
                    }
                }
                if same { seqOK = true; break }
            }
            if seqOK { next.append((c, across)) }
        }
        next.sort {
            rows[$0.0].support > rows[$1.0].support || (rows[$0.0].support == rows[$1.0].support && $0.1 < $1.1)
        }
        // One row read alike at several heights is one candidate.
        var distinct: [Int] = []
        for (c, _) in next where distinct.count < 3 {
            let cv = rows.values(of: c)
            if !distinct.contains(where: { rows.values(of: $0).elementsEqual(cv) }) { distinct.append(c) }
        }
        for c in distinct {
            let cv = rows.values(of: c)
            let cPairs = Int(cv[1]), cChars = Int(cv[2])
            let finders = pairsSoFar + cPairs
            let characters = total + cChars
            chain.append(c)
            // Complete: a sequence of exactly this many finders, and the check.
            if finders >= 2, finders - 2 < DataBarExpandedReader.sequences.count,
                characters >= 4, symbol(rows, chain, finders: finders, characters: characters, into: &sink)
            {
                return true
            }
            let full = cChars == 2 * cPairs && cPairs == rowPairs
            if full, extend(rows, all, &chain, taken: taken, budget: &budget, into: &sink) { return true }
            chain.removeLast()
            if budget <= 0 { return false }
        }
        return false
    }

    /// Whether the rows of `chain` make a whole symbol: their finders are
    /// the sequence for `finders` finders and the check character agrees;
    /// if so its element string is appended to `sink`.
    private func symbol(
        _ rows: borrowing RowTable, _ chain: [Int], finders: Int, characters: Int,
        into sink: inout LinearHitSink
    ) -> Bool {
        let sequence = DataBarExpandedReader.sequences[finders - 2]
        // Each whole chain tried is a chance for misread rows to pass the
        // check character: few are tried from one first row.
        guard checksLeft > 0 else { return false }
        var k = 0, c = 0, sum = 0
        var errorSum: Float = 0
        for r in chain {
            let v = rows.values(of: r)
            errorSum += rows[r].error
            for p in 0..<Int(v[1]) {
                let pv = UnsafeBufferPointer(rebasing: v[(3 + 5 * p)...])
                guard sequence[k] == Int(pv[0]) else { return false }
                k += 1
                values[c] = Int(pv[1]); c += 1
                sum += Int(pv[2])
                if pv[3] >= 0 {
                    values[c] = Int(pv[3]); c += 1
                    sum += Int(pv[4])
                }
            }
        }
        guard k == finders, c == characters else { return false }
        checksLeft -= 1
        guard values[0] == 211 * (c - 4) + sum % 211 else { return false }
        return appendElementString(
            count: c, firstElement: 0, lastElement: 0, start: 0, end: 0,
            error: min(2, errorSum / Float(chain.count)), strict: true, into: &sink)
    }

    /// A symbol whose left guard bar is element `b` (-1: cut off by the
    /// line's start). Returns the elements used, 0 when none.
    private func decodeAt(
        _ run: borrowing ElementRun, _ b: Int, _ sink: inout LinearHitSink,
        widths: UnsafeMutablePointer<Float>
    ) -> Int {
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
                let el = character(w, s, step: 1, index: count, module: m)
            else { break }
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
        guard let (guardBar, symbolEnd) = rightGuard(run, w, after: end, module: m) else { return 0 }
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
        let starts = run.starts.pointer
        let error = min(2, 3 * errorSum / Float(count))
        guard
            appendElementString(
                count: count, firstElement: max(b, 0), lastElement: guardBar,
                start: b >= 0 ? starts[b] : cutStart(w, starts, module: m),
                end: symbolEnd, error: error, into: &sink)
        else { return 0 }
        return guardBar - b
    }

    /// Decodes the data characters `values[1..<count]` (clause "Encodation")
    /// and appends the element string as a hit; false when the bit stream
    /// is not valid.
    /// With `strict` the data must also parse as GS1 element strings (the
    /// symbols assembled from rows, where several readings of each row
    /// may be tried).
    private func appendElementString(
        count: Int, firstElement: Int, lastElement: Int, start: Float, end: Float,
        error: Float, strict: Bool = false, into sink: inout LinearHitSink
    ) -> Bool {
        // The bit stream: 12 bits per data character.
        bitCount = 0
        for c in 1..<count {
            let v = values[c]
            for k in (0..<12).reversed() { bits[bitCount] = UInt8((v >> k) & 1); bitCount += 1 }
        }
        lenientLatch = false
        guard decodeBits(), outCount > 0 else { return false }
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
                guard decodeBits(), outCount > 0 else { return false }
            }
        }
        if strict && readable == nil { return false }
        let raw = UnsafeBufferPointer(start: out, count: outCount)
        let textOffset = sink.store(raw)
        var extraOffset = 0, extraCount = 0
        if let readable {
            var bytes = Array(readable.utf8)
            extraCount = bytes.count
            extraOffset = bytes.withUnsafeMutableBufferPointer { sink.store(UnsafeBufferPointer($0)) }
            bytes.removeAll()
        }
        sink.append(
            LinearHit(
                symbology: .dataBarExpanded, textOffset: textOffset, textCount: outCount,
                addOnOffset: textOffset, addOnCount: 0, extraOffset: extraOffset, extraCount: extraCount,
                firstElement: firstElement, lastElement: lastElement, start: start,
                end: end, error: error, aimModifier: 48))
        return true
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
    private func fnc1() {
        if outCount > 0 { put(GS1.groupSeparator) }
    }
}
