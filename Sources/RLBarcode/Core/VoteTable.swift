#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Readings of one code gathered from several scan lines.
struct Vote {
    var symbology: Symbology
    var textOffset: Int
    var textCount: Int
    var extraOffset: Int
    var extraCount: Int
    var addOnOffset: Int
    var addOnCount: Int
    var addOnVotes: Int
    var count: Int
    var inverted: Int
    var errorSum: Float
    /// The AIM identifier's modifier character of the first reading.
    var aimModifier: UInt8
    /// Sum over readings of how well each matched (see ``VoteTable/weight(ofError:)``).
    var weight: Float
    /// The scan line that read the code last, and the weight it gave, so
    /// that one line read several ways counts once.
    var lastLine: Int
    var lastLineWeight: Float
    var length: Double
    /// The reading direction of the shortest reading: the line that crossed
    /// the bars most squarely, which gives the code's axis.
    var axisX: Double
    var axisY: Double
    var shortest: Double
}

/// The ends of one reading, kept to outline its code.
struct VoteEnds {
    var vote: Int
    var p0: Point
    var p1: Point
    /// How far the bars reach on either side of the reading line, in pixels
    /// (from the candidate region the line crossed; 0 when unknown).
    var reach: Double
}

/// Merges the readings of all scan lines of a frame into codes.
///
/// A reading joins a code with the same symbology and text whose readings
/// lie near it (two identical codes side by side stay two codes). A code is
/// reported when enough lines agree.
struct VoteTable {
    private var votes = ScratchBuffer<Vote>(capacity: 32)
    private var count = 0
    private var arena = ScratchBuffer<UInt8>(capacity: 1024)
    private var arenaCount = 0
    private var ends = ScratchBuffer<VoteEnds>(capacity: 256)
    private var endsCount = 0

    mutating func reset() { count = 0; arenaCount = 0; endsCount = 0; lastTouched = -1 }

    /// The code the latest reading joined (-1 when none).
    private var lastTouched = -1

    /// Whether the code the latest reading joined is still undecided about
    /// its add-on: one line saw an add-on, too few to report it, too many
    /// to drop it. More lines settle it.
    var latestWantsMoreLines: Bool {
        guard lastTouched >= 0 else { return false }
        let v = votes[lastTouched]
        return v.addOnVotes == 1 && v.count > 3
    }
    /// Whether the code the latest reading joined, read alike by three
    /// lines or more, is read too weakly so far to be reported: its
    /// readings, each weighed by how well its elements fit whole modules,
    /// sum to less than ``minWeight``, though at a fifth of a clean
    /// reading's weight or more each, so that a few lines more can settle
    /// it. (A stray reading, once or twice, is no reason for more lines.)
    var latestIsWeak: Bool {
        guard lastTouched >= 0 else { return false }
        let v = votes[lastTouched]
        return v.count >= 3 && v.weight < VoteTable.minWeight && v.weight >= 0.2 * Float(v.count)
    }
    func free() { votes.free(); arena.free(); ends.free() }

    private mutating func store(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        arena.reserveKeeping(arenaCount + bytes.count)
        let off = arenaCount
        for (i, b) in bytes.enumerated() { arena[off + i] = b }
        arenaCount += bytes.count
        return off
    }

    /// Opens a vote for the code that `hit` (of `text`) reads, whose
    /// reading runs `length` pixels along (`axisX`, `axisY`); returns its index.
    private mutating func newVote(
        _ hit: LinearHit, text: UnsafeBufferPointer<UInt8>, sink: LinearHitSink,
        length: Double, axisX: Double, axisY: Double
    ) -> Int {
        votes.reserveKeeping(count + 1)
        let t = store(text)
        let e = store(sink.extra(of: hit))
        votes[count] = Vote(
            symbology: hit.symbology, textOffset: t, textCount: hit.textCount,
            extraOffset: e, extraCount: hit.extraCount, addOnOffset: 0, addOnCount: 0,
            addOnVotes: 0, count: 0, inverted: 0, errorSum: 0, aimModifier: hit.aimModifier,
            weight: 0, lastLine: -1, lastLineWeight: 0, length: length, axisX: axisX, axisY: axisY,
            shortest: length)
        count += 1
        return count - 1
    }

    private func equal(_ off: Int, _ len: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard len == bytes.count else { return false }
        for i in 0..<len where arena[off + i] != bytes[i] { return false }
        return true
    }

    mutating func add(
        _ hit: LinearHit, from sink: LinearHitSink, p0: Point, p1: Point, inverted: Bool, line: Int,
        barReach: Double = 0
    ) {
        let text = sink.text(of: hit)
        let mx = (p0.x + p1.x) / 2, my = (p0.y + p1.y) / 2
        let dx = p1.x - p0.x, dy = p1.y - p0.y
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else { return }
        var index = -1
        // A reading belongs to a code with the same content when it lies
        // close to one of that code's readings: readings of one code are
        // chained by the dense scan lines, while two identical codes leave
        // a gap without readings between them.
        let reach = max(16, 0.2 * length)
        for i in 0..<count {
            let v = votes[i]
            guard v.symbology == hit.symbology, equal(v.textOffset, v.textCount, text) else { continue }
            if hasReading(of: i, near: Point(x: mx, y: my), within: reach) { index = i; break }
        }
        if index < 0 {
            index = newVote(hit, text: text, sink: sink, length: length, axisX: dx / length, axisY: dy / length)
        }
        var v = votes[index]
        lastTouched = index
        let w = VoteTable.weight(ofError: hit.error, hit.symbology)
        if v.lastLine == line {
            // The same line again (another edge variant): keep its best weight only.
            if w > v.lastLineWeight { v.weight += w - v.lastLineWeight; v.lastLineWeight = w }
            votes[index] = v
            return
        }
        v.lastLine = line
        v.lastLineWeight = w
        v.count += 1
        v.inverted += inverted ? 1 : 0
        v.errorSum += hit.error
        v.weight += w
        v.length = max(v.length, length)
        if length < v.shortest { v.shortest = length; v.axisX = dx / length; v.axisY = dy / length }
        ends.reserveKeeping(endsCount + 1)
        // The bars reach no further than about half the symbol's length.
        ends[endsCount] = VoteEnds(vote: index, p0: p0, p1: p1, reach: min(barReach, 0.35 * length))
        endsCount += 1
        if hit.addOnCount > 0 {
            let addOn = sink.addOn(of: hit)
            if v.addOnCount > 0 && equal(v.addOnOffset, v.addOnCount, addOn) {
                v.addOnVotes += 1
            } else if v.addOnVotes <= 1 {
                v.addOnOffset = store(addOn); v.addOnCount = addOn.count; v.addOnVotes = 1
            } else {
                v.addOnVotes -= 1
            }
        }
        votes[index] = v
    }

    /// Whether one of code `i`'s readings has its middle within `reach`
    /// pixels of `p`.
    private func hasReading(of i: Int, near p: Point, within reach: Double) -> Bool {
        for k in 0..<endsCount where ends[k].vote == i {
            let e = ends[k]
            let dx = (e.p0.x + e.p1.x) / 2 - p.x, dy = (e.p0.y + e.p1.y) / 2 - p.y
            if dx * dx + dy * dy < reach * reach { return true }
        }
        return false
    }

    /// Adds the readings of `other` (another thread's scan lines of the
    /// same frame): each of its codes joins a code of this table with the
    /// same content one of whose readings lies near one of its own, as
    /// ``add(_:from:p0:p1:inverted:line:barReach:)`` joins a reading, or
    /// opens a code of its own. (Their lines are numbered apart, so none
    /// counts twice.)
    mutating func absorb(_ other: VoteTable) {
        for j in 0..<other.count where other.votes[j].count > 0 {
            let b = other.votes[j]
            let text = UnsafeBufferPointer(start: other.arena.pointer + b.textOffset, count: b.textCount)
            var index = -1
            search: for i in 0..<count
            where votes[i].count > 0 && votes[i].symbology == b.symbology
                && equal(votes[i].textOffset, votes[i].textCount, text)
            {
                for k in 0..<other.endsCount where other.ends[k].vote == j {
                    let e = other.ends[k]
                    let middle = Point(x: (e.p0.x + e.p1.x) / 2, y: (e.p0.y + e.p1.y) / 2)
                    if hasReading(of: i, near: middle, within: max(16, 0.2 * e.p0.distance(to: e.p1))) {
                        index = i
                        break search
                    }
                }
            }
            let addOn = UnsafeBufferPointer(start: other.arena.pointer + b.addOnOffset, count: b.addOnCount)
            if index < 0 {
                var v = b
                votes.reserveKeeping(count + 1)
                v.textOffset = store(text)
                v.extraOffset = store(
                    UnsafeBufferPointer(start: other.arena.pointer + b.extraOffset, count: b.extraCount))
                v.addOnOffset = b.addOnCount > 0 ? store(addOn) : 0
                votes[count] = v
                index = count
                count += 1
            } else {
                var v = VoteTable.adding(b, to: votes[index])
                if b.addOnCount > 0 && v.addOnCount > 0 && equal(v.addOnOffset, v.addOnCount, addOn) {
                    v.addOnVotes += b.addOnVotes
                } else if b.addOnVotes > v.addOnVotes {
                    v.addOnOffset = store(addOn); v.addOnCount = b.addOnCount; v.addOnVotes = b.addOnVotes
                }
                votes[index] = v
            }
            for k in 0..<other.endsCount where other.ends[k].vote == j {
                ends.reserveKeeping(endsCount + 1)
                var e = other.ends[k]
                e.vote = index
                ends[endsCount] = e
                endsCount += 1
            }
        }
    }

    /// `a` with the readings of `b` (of the same code) added: their lines,
    /// weights and errors; the longer length; the axis of the shorter
    /// shortest reading. Add-ons are the caller's.
    private static func adding(_ b: Vote, to a: Vote) -> Vote {
        var v = a
        v.count += b.count
        v.inverted += b.inverted
        v.errorSum += b.errorSum
        v.weight += b.weight
        v.length = max(v.length, b.length)
        if b.shortest < v.shortest { v.shortest = b.shortest; v.axisX = b.axisX; v.axisY = b.axisY }
        return v
    }

    /// Adds a stacked symbol assembled from `used` rows of `rows`: every
    /// line that read one of its rows counts as a reading, and the outline
    /// spans all the rows. The same symbol assembled again from other
    /// readings of its rows, or read whole by single lines, is one code:
    /// a code with the same content whose readings lie on the rows joins.
    mutating func addAssembled(_ hit: LinearHit, from sink: LinearHitSink, rows: borrowing RowTable, used: [Int]) {
        let first = rows[used[0]]
        let length = first.length
        guard length > 0 else { return }
        let ux = (first.p1.x - first.p0.x) / length, uy = (first.p1.y - first.p0.y) / length
        // Half the distance between neighbouring rows: how far each row's bars reach.
        var minAcross = 0.0, maxAcross = 0.0
        for r in used {
            let across = rows.offset(of: r, from: used[0]).across
            minAcross = min(minAcross, across); maxAcross = max(maxAcross, across)
        }
        let reach = used.count > 1 ? 0.5 * (maxAcross - minAcross) / Double(used.count - 1) : 0
        let text = sink.text(of: hit)
        var index = -1
        // A reading of the same code overlaps one of the rows: their bars
        // (each reaching across as far as its reading says) meet.
        search: for i in 0..<count
        where votes[i].symbology == hit.symbology
            && equal(votes[i].textOffset, votes[i].textCount, text)
        {
            for k in 0..<endsCount where ends[k].vote == i {
                let e = ends[k]
                let ex = (e.p0.x + e.p1.x) / 2, ey = (e.p0.y + e.p1.y) / 2
                for r in used {
                    let m = rows[r].middle
                    let dx = ex - m.x, dy = ey - m.y
                    let along = dx * ux + dy * uy, across = -dx * uy + dy * ux
                    if abs(along) < 0.6 * length, abs(across) < e.reach + reach + 0.5 * length {
                        index = i
                        break search
                    }
                }
            }
        }
        if index < 0 { index = newVote(hit, text: text, sink: sink, length: length, axisX: ux, axisY: uy) }
        var v = votes[index]
        for r in used {
            let row = rows[r]
            v.count += row.support
            v.inverted += row.inverted ? row.support : 0
            v.errorSum += row.error * Float(row.support)
            v.weight += VoteTable.weight(ofError: row.error, hit.symbology)
            v.length = max(v.length, row.length)
            ends.reserveKeeping(endsCount + 1)
            ends[endsCount] = VoteEnds(vote: index, p0: row.p0, p1: row.p1, reach: reach)
            endsCount += 1
        }
        votes[index] = v
    }

    private func string(_ off: Int, _ len: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: arena.pointer + off, count: len), as: UTF8.self)
    }

    /// How much one reading counts: clean readings (mean character error
    /// near 0) count almost twice, readings at the edge of tolerance
    /// hardly at all, so several poor readings cannot outvote the need
    /// for a good one.
    /// UPC-E, short and with a parity-coded check, needs cleaner readings.
    static func weight(ofError e: Float, _ symbology: Symbology) -> Float {
        max(0, (symbology == .upcE ? 1.5 : 1.8) - e)
    }

    /// Whether a reading carries a check character that verified it:
    /// Codabar never, ITF and Code 39 only when their AIM modifier says a
    /// check digit was verified (`]I1`; `]A1`, `]A3`, `]A5`, `]A7`:
    /// ISO/IEC 15424).
    static func hasCheck(_ s: Symbology, aimModifier: UInt8) -> Bool {
        switch s {
        case .codabar: false
        case .itf: aimModifier == UInt8(ascii: "1")
        case .code39: aimModifier & 1 == 1
        default: true
        }
    }

    /// The summed weight a code needs to be reported.
    static let minWeight: Float = 1.4

    /// The text of a payload: Code 128's extended characters are ISO-8859-1
    /// (ISO/IEC 15417, FNC4); other payloads are UTF-8 when valid, else
    /// ISO-8859-1.
    static func text(of bytes: [UInt8], _ symbology: Symbology) -> String {
        if symbology != .code128, let s = String(validating: bytes, as: UTF8.self) { return s }
        return Code128Reader.latin1String(bytes)
    }

    /// The letter of a symbology's AIM identifier (ISO/IEC 15424).
    static func aimLetter(_ s: Symbology) -> String {
        switch s {
        case .code128: "C"
        case .code39: "A"
        case .code93: "G"
        case .itf: "I"
        case .codabar: "F"
        case .dataBar, .dataBarExpanded: "e"
        case .qrCode: "Q"
        case .dataMatrix: "d"
        case .pdf417: "L"
        case .aztec: "z"
        default: "E"
        }
    }

    /// The codes read by at least `minVotes` lines with enough summed weight.
    /// The outline of code `i`'s readings in the frame of the axis
    /// (`ux`, `uy`): along the axis (u) and across it (v).
    private func box(of i: Int, ux: Double, uy: Double) -> (minU: Double, maxU: Double, minV: Double, maxV: Double) {
        var minU = Double.infinity, maxU = -Double.infinity, minV = Double.infinity, maxV = -Double.infinity
        for k in 0..<endsCount where ends[k].vote == i {
            let e = ends[k]
            for p in [e.p0, e.p1] {
                let pu = p.x * ux + p.y * uy, pv = -p.x * uy + p.y * ux
                minU = min(minU, pu); maxU = max(maxU, pu)
                minV = min(minV, pv - e.reach); maxV = max(maxV, pv + e.reach)
            }
        }
        return (minU, maxU, minV, maxV)
    }

    /// Joins codes of the same content whose readings overlap. Readings are
    /// chained by position as they come, so a code whose first readings lie
    /// far apart (the two ends of its bars) can start two chains that never
    /// meet; two identical codes side by side do not overlap and stay two.
    private mutating func mergeOverlapping() {
        guard count > 1 else { return }
        for i in 0..<count where votes[i].count > 0 {
            for j in (i + 1)..<count where votes[j].count > 0 {
                let a = votes[i], b = votes[j]
                guard a.symbology == b.symbology, a.textCount == b.textCount,
                    equal(
                        a.textOffset, a.textCount,
                        UnsafeBufferPointer(
                            start: arena.pointer + b.textOffset,
                            count: b.textCount))
                else { continue }
                let bi = box(of: i, ux: a.axisX, uy: a.axisY), bj = box(of: j, ux: a.axisX, uy: a.axisY)
                guard bi.minU < bj.maxU, bj.minU < bi.maxU, bi.minV <= bj.maxV, bj.minV <= bi.maxV else { continue }
                var v = VoteTable.adding(b, to: a)
                if b.addOnVotes > v.addOnVotes {
                    v.addOnOffset = b.addOnOffset; v.addOnCount = b.addOnCount; v.addOnVotes = b.addOnVotes
                } else if b.addOnCount > 0 && v.addOnCount > 0
                    && equal(
                        v.addOnOffset, v.addOnCount,
                        UnsafeBufferPointer(start: arena.pointer + b.addOnOffset, count: b.addOnCount))
                {
                    v.addOnVotes += b.addOnVotes
                }
                votes[i] = v
                votes[j].count = 0
                for k in 0..<endsCount where ends[k].vote == j { ends[k].vote = i }
            }
        }
    }

    mutating func results(minVotes: Int) -> [BarcodeResult] {
        mergeOverlapping()
        var out: [BarcodeResult] = []
        for i in 0..<count {
            let v = votes[i]
            // Symbologies without a check character need two lines at least,
            // whatever the caller allows.
            let least =
                VoteTable.hasCheck(v.symbology, aimModifier: v.aimModifier) ? max(1, minVotes) : max(2, minVotes)
            guard v.count >= least, v.weight >= VoteTable.minWeight else { continue }
            let bytes = Array(UnsafeBufferPointer(start: arena.pointer + v.textOffset, count: v.textCount))
            let addOn =
                v.addOnVotes >= 2 || (v.addOnVotes >= 1 && v.count <= 3) ? string(v.addOnOffset, v.addOnCount) : ""
            // Corners: the box around every reading's ends, in the frame of
            // the code's axis (x along the reading, y down the bars).
            let ux = v.axisX, uy = v.axisY, downX = -uy, downY = ux
            var minU = Double.infinity, maxU = -Double.infinity, minV = Double.infinity, maxV = -Double.infinity
            for k in 0..<endsCount where ends[k].vote == i {
                let e = ends[k]
                for j in 0..<2 {
                    let p = j == 0 ? e.p0 : e.p1
                    let pu = p.x * ux + p.y * uy, pv = p.x * downX + p.y * downY
                    minU = min(minU, pu); maxU = max(maxU, pu)
                    minV = min(minV, pv - e.reach); maxV = max(maxV, pv + e.reach)
                }
            }
            // Readings close together give a thin box: give it a tenth of its length.
            let minHeight = 0.1 * (maxU - minU)
            if maxV - minV < minHeight {
                let pad = (minHeight - (maxV - minV)) / 2
                minV -= pad; maxV += pad
            }
            func corner(_ pu: Double, _ pv: Double) -> Point {
                Point(x: pu * ux + pv * downX, y: pu * uy + pv * downY)
            }
            let deg = BarcodeResult.degrees(dx: ux, dy: uy)
            let aim: String
            switch v.symbology {
            case .ean8: aim = addOn.isEmpty ? "]E4" : "]E3"
            case .ean13, .upcA, .upcE: aim = addOn.isEmpty ? "]E0" : "]E3"
            default: aim = "]" + VoteTable.aimLetter(v.symbology) + String(UnicodeScalar(v.aimModifier))
            }
            out.append(
                BarcodeResult(
                    symbology: v.symbology, text: VoteTable.text(of: bytes, v.symbology), bytes: bytes,
                    symbologyIdentifier: aim,
                    // GS1-128 (FNC1 first) carries element strings: their human-readable form.
                    extendedText: aim == "]C1" ? GS1.humanReadable(bytes) ?? "" : string(v.extraOffset, v.extraCount),
                    addOn: addOn,
                    corners: [corner(minU, minV), corner(maxU, minV), corner(maxU, maxV), corner(minU, maxV)],
                    orientation: deg, isInverted: v.inverted * 2 > v.count,
                    quality: min(100, Int(v.weight * 20))))
        }
        // In an order that does not depend on the order the readings came
        // in (with two threads, which thread read which candidate varies
        // from run to run): by symbology, then content, then place (to the
        // pixel, top to bottom, then left to right).
        out.sort { a, b in
            if a.symbology != b.symbology { return a.symbology.rawValue < b.symbology.rawValue }
            if a.bytes != b.bytes { return a.bytes.lexicographicallyPrecedes(b.bytes) }
            let ca = a.centre, cb = b.centre
            if ca.y.rounded() != cb.y.rounded() { return ca.y.rounded() < cb.y.rounded() }
            return ca.x.rounded() < cb.x.rounded()
        }
        return out
    }
}
