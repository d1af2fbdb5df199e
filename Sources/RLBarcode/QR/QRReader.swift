/// QR Code and Micro QR (ISO/IEC 18004): finder patterns (1:1:3:1:1,
/// 6.3.3) grouped into symbols, each sampled through its grid and decoded
/// (``QRDetector``, ``QRDecoder``); in still pictures, a picture that is one
/// symbol and nothing else too (``QRPureSymbol``).
final class QRReader: MatrixReader {
    /// The finder pattern search and sampling, whose options the frame's
    /// plan sets.
    let detector = QRDetector()
    /// The candidates of the current frame, reused.
    private var candidates: [QRCandidate] = []
    private(set) var lastCandidateCount = 0

    init() { candidates.reserveCapacity(16) }

    /// Finds and decodes the symbols inside the search's bounds (images
    /// under 21 pixels a side hold none) and appends them to `out`, each
    /// symbol once.
    func read(_ search: MatrixSearch, into out: inout [BarcodeResult]) {
        lastCandidateCount = 0
        let image = search.image, bounds = search.bounds
        guard image.width >= 21, image.height >= 21 else { return }
        candidates.removeAll(keepingCapacity: true)
        detector.scan(image, in: bounds, regions: search.regions, prepared: search.prepared, into: &candidates)
        lastCandidateCount = candidates.count
        for c in candidates {
            if !c.decodeTried && detector.stop.now { continue }
            let decoded = c.decodeTried ? c.decoded : QRDetector.decodeFirst(c)
            guard let d = decoded else { continue }
            // The same symbol found twice (both polarities, two finder triples).
            let centre = Point(x: (c.topLeft.x + c.bottomRight.x) / 2, y: (c.topLeft.y + c.bottomRight.y) / 2)
            var duplicate = false
            for k in out.indices where out[k].bytes == d.bytes {
                let o = out[k].corners
                let oc = Point(x: (o[0].x + o[2].x) / 2, y: (o[0].y + o[2].y) / 2)
                if oc.distance(to: centre) < 4 * max(c.moduleSize, 1) { duplicate = true; break }
            }
            if duplicate { continue }
            out.append(QRReader.result(d, c))
        }
        // A still picture that is one symbol and nothing else, which the
        // finder pattern search can miss (no quiet zone, 1-pixel modules).
        if search.thorough && out.isEmpty && bounds == nil, !detector.stop.now,
            let c = QRPureSymbol.read(image, stop: detector.stop),
            let d = c.decoded
        {
            out.append(QRReader.result(d, c))
        }
    }

    /// The result of a decoded QR candidate.
    static func result(_ d: QRDecodeResult, _ c: QRCandidate) -> BarcodeResult {
        // A mirror image reads with rows and columns swapped: its own
        // top-right is the sampled bottom-left.
        let corners = d.mirrored ? [c.topLeft, c.bottomLeft, c.bottomRight, c.topRight] : c.corners
        let deg = BarcodeResult.degrees(dx: corners[1].x - corners[0].x, dy: corners[1].y - corners[0].y)
        var r = BarcodeResult(
            symbology: .qrCode, text: d.text, bytes: d.bytes,
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
