/// Symbols from rows: pairs of characters joined in finder order, then decoded.
extension DataBarExpandedReader {
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
    func extend(
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
    func symbol(
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
    func decodeAt(
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
    func appendElementString(
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
}
