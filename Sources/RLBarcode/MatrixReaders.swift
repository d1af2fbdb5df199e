#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The matrix (2D) symbologies of a scanner: each finds its symbols in the
/// frame, samples them into module grids and decodes those. Owned by a
/// ``Scanner`` and reused from frame to frame.
final class MatrixReaders {
    /// QR Code and Micro QR (ISO/IEC 18004).
    private let qrDetector = QRDetector()
    /// The QR candidates of the current frame, reused.
    private var qrCandidates: [QRCandidate] = []

    /// Aztec Code and Aztec Runes (ISO/IEC 24778).
    private let aztecReader = AztecReader()

    init() { qrCandidates.reserveCapacity(16) }

    /// What the matrix readers can read.
    static let symbologies: Symbology = [.qrCode, .aztec]

    /// How many symbol-like places (finder patterns grouped into symbols)
    /// the last ``read(_:bounds:enabled:into:)`` saw, read or not.
    private(set) var lastCandidateCount = 0

    /// Finds and decodes the enabled matrix codes inside `bounds` and
    /// appends them to `out`.
    /// With `thorough` (still pictures), symbols that fail to decode are
    /// sampled again in other ways; video frames skip that cost.
    func read(_ image: LumaView, bounds: PixelRect?, enabled: Symbology, thorough: Bool = true,
              into out: inout [BarcodeResult]) {
        qrDetector.options.rescueFailedSymbols = thorough
        lastCandidateCount = 0
        if enabled.contains(.aztec) {
            aztecReader.read(image, bounds: bounds, thorough: thorough, into: &out)
        }
        guard enabled.contains(.qrCode), image.width >= 21, image.height >= 21 else { return }
        qrCandidates.removeAll(keepingCapacity: true)
        qrDetector.scan(image, in: bounds, into: &qrCandidates)
        lastCandidateCount = qrCandidates.count
        let first = out.count
        for c in qrCandidates {
            let decoded = c.decodeTried ? c.decoded : QRDetector.decodeFirst(c)
            guard let d = decoded else { continue }
            // The same symbol found twice (both polarities, two finder triples).
            let centre = Point(x: (c.topLeft.x + c.bottomRight.x) / 2, y: (c.topLeft.y + c.bottomRight.y) / 2)
            var duplicate = false
            for k in first..<out.count where out[k].symbology == .qrCode && out[k].bytes == d.bytes {
                let o = out[k].corners
                let oc = Point(x: (o[0].x + o[2].x) / 2, y: (o[0].y + o[2].y) / 2)
                if oc.distance(to: centre) < 4 * max(c.moduleSize, 1) { duplicate = true; break }
            }
            if duplicate { continue }
            out.append(MatrixReaders.result(d, c))
        }
    }

    /// The result of a decoded QR candidate.
    static func result(_ d: QRDecodeResult, _ c: QRCandidate) -> BarcodeResult {
        // A mirror image reads with rows and columns swapped: its own
        // top-right is the sampled bottom-left.
        let corners = d.mirrored ? [c.topLeft, c.bottomLeft, c.bottomRight, c.topRight] : c.corners
        var deg = Int((atan2(corners[1].y - corners[0].y, corners[1].x - corners[0].x) * 180 / Double.pi).rounded())
        deg = ((deg % 360) + 360) % 360
        var r = BarcodeResult(symbology: .qrCode, text: d.text, bytes: d.bytes,
                              symbologyIdentifier: d.symbologyIdentifier,
                              extendedText: d.gs1HumanReadable ?? "", corners: corners, orientation: deg,
                              isInverted: c.isInverted, isMirrored: d.mirrored,
                              quality: max(0, 100 - 5 * d.correctedErrors))
        if let sa = d.structuredAppend {
            r.structuredAppend = StructuredAppend(index: sa.index, total: sa.total, id: String(sa.parity))
        }
        return r
    }
}
