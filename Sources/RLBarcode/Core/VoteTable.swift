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
    /// Sum over readings of how well each matched (see ``VoteTable/weight(ofError:)``).
    var weight: Float
    /// The scan line that read the code last, and the weight it gave, so
    /// that one line read several ways counts once.
    var lastLine: Int
    var lastLineWeight: Float
    /// Sum of line midpoints, for matching readings by position.
    var sumX: Double
    var sumY: Double
    var length: Double
    /// The readings lying furthest towards the code's top and bottom edges.
    var top0: Point, top1: Point, topProj: Double
    var bottom0: Point, bottom1: Point, bottomProj: Double
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

    mutating func reset() { count = 0; arenaCount = 0 }
    func free() { votes.free(); arena.free() }

    private mutating func store(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        arena.reserveKeeping(arenaCount + bytes.count)
        let off = arenaCount
        for (i, b) in bytes.enumerated() { arena[off + i] = b }
        arenaCount += bytes.count
        return off
    }

    private func equal(_ off: Int, _ len: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard len == bytes.count else { return false }
        for i in 0..<len where arena[off + i] != bytes[i] { return false }
        return true
    }

    mutating func add(_ hit: LinearHit, from sink: LinearHitSink, p0: Point, p1: Point, inverted: Bool, line: Int) {
        let text = sink.text(of: hit)
        let mx = (p0.x + p1.x) / 2, my = (p0.y + p1.y) / 2
        let dx = p1.x - p0.x, dy = p1.y - p0.y
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else { return }
        // The code's downward axis: the reading direction turned 90 degrees clockwise.
        let downX = -dy / length, downY = dx / length
        let proj = mx * downX + my * downY
        var index = -1
        for i in 0..<count {
            let v = votes[i]
            guard v.symbology == hit.symbology, equal(v.textOffset, v.textCount, text) else { continue }
            let cx = v.sumX / Double(v.count), cy = v.sumY / Double(v.count)
            let d = ((cx - mx) * (cx - mx) + (cy - my) * (cy - my)).squareRoot()
            if d < max(v.length, length) { index = i; break }
        }
        if index < 0 {
            votes.reserveKeeping(count + 1)
            let t = store(text)
            let e = store(sink.extra(of: hit))
            votes[count] = Vote(symbology: hit.symbology, textOffset: t, textCount: hit.textCount,
                                extraOffset: e, extraCount: hit.extraCount, addOnOffset: 0, addOnCount: 0,
                                addOnVotes: 0, count: 0, inverted: 0, errorSum: 0, weight: 0, lastLine: -1, lastLineWeight: 0, sumX: 0, sumY: 0, length: length,
                                top0: p0, top1: p1, topProj: proj, bottom0: p0, bottom1: p1, bottomProj: proj)
            index = count
            count += 1
        }
        var v = votes[index]
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
        v.sumX += mx; v.sumY += my
        v.length = max(v.length, length)
        // Top and bottom readings, measured along the code's own down axis
        // (readings in the other direction are turned around first).
        let vdx = v.top1.x - v.top0.x, vdy = v.top1.y - v.top0.y
        var q0 = p0, q1 = p1, qproj = proj
        if vdx * dx + vdy * dy < 0 {
            q0 = p1; q1 = p0; qproj = -proj
        }
        if qproj < v.topProj { v.top0 = q0; v.top1 = q1; v.topProj = qproj }
        if qproj > v.bottomProj { v.bottom0 = q0; v.bottom1 = q1; v.bottomProj = qproj }
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

    /// The summed weight a code needs to be reported.
    static let minWeight: Float = 1.1

    /// The codes read by at least `minVotes` lines with enough summed weight.
    func results(minVotes: Int) -> [BarcodeResult] {
        var out: [BarcodeResult] = []
        for i in 0..<count {
            let v = votes[i]
            guard v.count >= minVotes, v.weight >= VoteTable.minWeight else { continue }
            let bytes = Array(UnsafeBufferPointer(start: arena.pointer + v.textOffset, count: v.textCount))
            let addOn = v.addOnVotes >= 2 || (v.addOnVotes >= 1 && v.count <= 3) ? string(v.addOnOffset, v.addOnCount) : ""
            // Corners: the top reading's ends and the bottom reading's ends,
            // pushed half a reading apart when the lines were close together.
            var t0 = v.top0, t1 = v.top1, b0 = v.bottom0, b1 = v.bottom1
            let dx = t1.x - t0.x, dy = t1.y - t0.y
            let len = max(1, (dx * dx + dy * dy).squareRoot())
            let downX = -dy / len, downY = dx / len
            let minHeight = 0.1 * len
            let height = v.bottomProj - v.topProj
            if height < minHeight {
                let pad = (minHeight - height) / 2
                t0 = Point(x: t0.x - pad * downX, y: t0.y - pad * downY)
                t1 = Point(x: t1.x - pad * downX, y: t1.y - pad * downY)
                b0 = Point(x: b0.x + pad * downX, y: b0.y + pad * downY)
                b1 = Point(x: b1.x + pad * downX, y: b1.y + pad * downY)
            }
            var deg = Int((atan2(dy, dx) * 180 / Double.pi).rounded())
            deg = ((deg % 360) + 360) % 360
            let aim: String
            switch v.symbology {
            case .ean8: aim = addOn.isEmpty ? "]E4" : "]E3"
            default: aim = addOn.isEmpty ? "]E0" : "]E3"
            }
            out.append(BarcodeResult(
                symbology: v.symbology, text: string(v.textOffset, v.textCount), bytes: bytes,
                symbologyIdentifier: aim, extendedText: string(v.extraOffset, v.extraCount), addOn: addOn,
                corners: [t0, t1, b1, b0], orientation: deg, isInverted: v.inverted * 2 > v.count,
                quality: Int(v.errorSum / Float(v.count) * 100)))
        }
        return out
    }
}
