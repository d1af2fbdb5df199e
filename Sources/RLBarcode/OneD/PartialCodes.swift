/// Codes wider than the frame, read in parts as a camera pans along them.
///
/// A scan line that runs off the frame inside a code gives a part
/// (``LinearPart``): its start and the characters up to the border, or the
/// characters from the border to its stop. Parts are kept across video
/// frames; a leading and a trailing part of one symbology whose ends
/// overlap by a few characters are joined, and the whole is reported only
/// when the symbol's check characters verify it (Code 128: ISO/IEC 15417,
/// "Symbol check character"; Code 93: check characters C and K of
/// ANSI/AIM BC5; Code 39: the modulo-43 check character of ISO/IEC 16388;
/// ITF: the modulo-10 check digit of ISO/IEC 16390. The check characters
/// of Code 39 and ITF are optional: a code without one is not joined). A
/// part alone is never reported; it shows as the scanner's
/// ``Scanner/partialText`` meanwhile. Codabar, which has no check
/// character, is not joined: nothing would verify the whole.
///
/// Owned by a ``Scanner``; not thread-safe.
final class PartialCodes {
    /// One part, as read on one or more lines.
    private struct Part {
        var symbology: Symbology
        var leading: Bool
        var values: [Int32]
        var module: Float
        /// The part's ends in the frame where it was last seen.
        var p0: Point
        var p1: Point
        /// The frame it was last seen in.
        var frame: Int
        /// Lines that read it alike.
        var sightings: Int
        var inverted: Bool
    }

    /// The parts of the last frames, oldest first.
    private var parts: [Part] = []
    /// The current frame.
    private var frame = 0
    /// Frames a part is kept after it was last seen (about 5 s at 30 fps).
    static let keptFrames = 150
    /// The most parts kept.
    static let maxParts = 32
    /// The fewest characters by which a leading and a trailing part must
    /// overlap to be joined.
    static let minOverlap = 3
    /// Lines that must have read a part alike before it is joined.
    static let minSightings = 2
    private let code128 = Code128Reader()
    private let code93 = Code93Reader()
    private let code39 = Code39Reader()
    private let itf = ITFReader()

    /// The symbologies read in parts.
    static let symbologies: Symbology = [.code128, .code93, .code39, .itf]

    /// The fewest characters by which the parts of `symbology` must
    /// overlap: one more for Code 39, whose single check character lets a
    /// wrong join through once in 43; three pairs of digits for ITF, whose
    /// check digit does so once in ten.
    private static func minOverlap(_ symbology: Symbology) -> Int {
        switch symbology {
        case .code39: minOverlap + 1
        case .itf: 6
        default: minOverlap
        }
    }

    /// Values of a part that are not data characters: before them in a
    /// leading part (Code 128's start character; the start characters of
    /// Code 93 and Code 39 are not kept) and after them in a trailing one
    /// (the check characters).
    private static func extraValues(_ symbology: Symbology) -> (leading: Int, trailing: Int) {
        switch symbology {
        case .code128: (1, 1)
        case .code39: (0, 1)
        case .itf: (0, 0)
        default: (0, 2)
        }
    }

    /// The payload and AIM modifier of a whole symbol's values, when its
    /// check characters verify it.
    private func payload(ofSymbol values: [Int32], _ symbology: Symbology) -> (bytes: [UInt8], modifier: UInt8)? {
        if symbology == .code128 { return code128.payload(ofSymbol: values) }
        if symbology == .code39 { return code39.payload(ofSymbol: values) }
        if symbology == .itf { return itf.payload(ofSymbol: values) }
        guard let bytes = code93.payload(ofSymbol: values) else { return nil }
        return (bytes, UInt8(ascii: "0"))
    }

    init() { parts.reserveCapacity(PartialCodes.maxParts) }

    /// What the freshest part of the current frame reads so far: the
    /// payload from a leading part, or `…` and the end of a trailing one;
    /// empty when no part was seen in the frame or it was joined.
    private(set) var partialText = ""

    /// Starts a frame: parts not seen for ``keptFrames`` frames are dropped.
    func startFrame() {
        frame &+= 1
        partialText = ""
        parts.removeAll { frame &- $0.frame > PartialCodes.keptFrames }
    }

    /// Forgets every part.
    func reset() { parts.removeAll(keepingCapacity: true); partialText = "" }

    /// Adds a part read on a line from `p0` to `p1`.
    func add(_ part: LinearPart, values: UnsafeBufferPointer<Int32>, p0: Point, p1: Point, inverted: Bool) {
        for k in parts.indices
        where parts[k].symbology == part.symbology && parts[k].leading == part.leading
            && parts[k].inverted == inverted && parts[k].values.elementsEqual(values)
        {
            parts[k].frame = frame
            parts[k].p0 = p0; parts[k].p1 = p1
            parts[k].module = part.module
            parts[k].sightings += 1
            return
        }
        if parts.count == PartialCodes.maxParts { parts.removeFirst() }
        parts.append(
            Part(
                symbology: part.symbology, leading: part.leading, values: Array(values), module: part.module,
                p0: p0, p1: p1, frame: frame, sightings: 1, inverted: inverted))
    }

    /// Joins the parts of which one at least was seen in this frame and
    /// appends each code they make whole to `out`, unless `out` has it
    /// already; sets ``partialText``.
    func assemble(enabled: Symbology, into out: inout [BarcodeResult]) {
        var freshest: Int? = nil
        for i in parts.indices where parts[i].frame == frame && parts[i].sightings >= PartialCodes.minSightings {
            if freshest == nil || parts[i].values.count > parts[freshest!].values.count { freshest = i }
        }
        guard let f = freshest else { return }
        var joined = false
        for t in parts.indices where !parts[t].leading && parts[t].sightings >= PartialCodes.minSightings {
            for l in parts.indices where parts[l].leading && parts[l].sightings >= PartialCodes.minSightings {
                let lead = parts[l], trail = parts[t]
                guard lead.symbology == trail.symbology, enabled.contains(lead.symbology),
                    lead.inverted == trail.inverted,
                    lead.frame == frame || trail.frame == frame,
                    // One code, seen at one scale.
                    lead.module < 1.6 * trail.module, trail.module < 1.6 * lead.module,
                    let values = join(lead.values, trail.values, lead.symbology),
                    let (bytes, modifier) = payload(ofSymbol: values, lead.symbology)
                else { continue }
                joined = true
                let seen = lead.frame == frame ? lead : trail
                let r = result(bytes: bytes, modifier: modifier, seen: seen)
                if !out.contains(where: { $0.symbology == r.symbology && $0.bytes == r.bytes }) { out.append(r) }
            }
        }
        if joined { return }
        let p = parts[f]
        var bytes: [UInt8]
        if p.symbology == .code39 {
            bytes = code39.payload(ofPart: p.values)
        } else if p.symbology == .itf {
            bytes = itf.payload(ofPart: p.values)
        } else if p.symbology == .code93 {
            bytes = code93.payload(ofPart: p.leading ? p.values : Array(p.values.dropLast(2)))
        } else if p.leading {
            bytes = code128.payload(ofLeadingPart: p.values)
        } else {
            // The code set in force before the part is unknown: set B, else set C.
            let data = p.values.dropLast()
            bytes = code128.payload(ofLeadingPart: [Int32(Code128Reader.startB)] + data)
            if bytes.isEmpty { bytes = code128.payload(ofLeadingPart: [Int32(Code128Reader.startC)] + data) }
        }
        partialText = bytes.isEmpty ? "" : (p.leading ? "" : "…") + VoteTable.text(of: bytes, p.symbology)
    }

    /// The whole symbol's values when the end of `lead` overlaps the start
    /// of `trail` by ``minOverlap`` characters or more, in one way only.
    private func join(_ lead: [Int32], _ trail: [Int32], _ symbology: Symbology) -> [Int32]? {
        // Data characters of the leading part (after its start character)
        // and of the trailing one (before its check characters).
        let extra = PartialCodes.extraValues(symbology)
        let leadData = lead.count - extra.leading, trailData = trail.count - extra.trailing
        var found: [Int32]? = nil
        let most = min(leadData, trailData), least = PartialCodes.minOverlap(symbology)
        guard most >= least else { return nil }
        for overlap in stride(from: most, through: least, by: -1) {
            // ITF's digits come in pairs from either end of an even count.
            if symbology == .itf && overlap % 2 == 1 { continue }
            var same = true
            for k in 0..<overlap where lead[lead.count - overlap + k] != trail[k] { same = false; break }
            guard same else { continue }
            let whole = lead + trail[overlap...]
            guard payload(ofSymbol: whole, symbology) != nil else { continue }
            // Two overlaps that both verify: the code is not known for sure.
            if found != nil { return nil }
            found = whole
        }
        return found
    }

    /// The result of a joined code, placed where its part was seen in this frame.
    private func result(bytes: [UInt8], modifier: UInt8, seen: Part) -> BarcodeResult {
        let dx = seen.p1.x - seen.p0.x, dy = seen.p1.y - seen.p0.y
        let length = (dx * dx + dy * dy).squareRoot()
        // Bars about a tenth of the visible part tall, as the reading gives no height.
        let h = max(0.1 * length, 4)
        let nx = length > 0 ? -dy / length * h / 2 : 0, ny = length > 0 ? dx / length * h / 2 : 0
        let corners = [
            Point(x: seen.p0.x - nx, y: seen.p0.y - ny), Point(x: seen.p1.x - nx, y: seen.p1.y - ny),
            Point(x: seen.p1.x + nx, y: seen.p1.y + ny), Point(x: seen.p0.x + nx, y: seen.p0.y + ny)
        ]
        let deg = BarcodeResult.degrees(dx: dx, dy: dy)
        let aim = "]" + VoteTable.aimLetter(seen.symbology) + String(UnicodeScalar(modifier))
        return BarcodeResult(
            symbology: seen.symbology, text: VoteTable.text(of: bytes, seen.symbology), bytes: bytes,
            symbologyIdentifier: aim, extendedText: aim == "]C1" ? GS1.humanReadable(bytes) ?? "" : "",
            corners: corners, orientation: deg, isInverted: seen.inverted, quality: 50)
    }
}
