#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Data Matrix stage of ``MatrixReaders``: finds, samples and decodes
/// Data Matrix ECC 200 symbols (ISO/IEC 16022, with the DMRE sizes of
/// ISO/IEC 21471) and turns them into results. Owned by a scanner and
/// reused from frame to frame.
final class DataMatrixReader {
    private let detector = DMDetector()
    /// The frame's time limit and stop (``DMDetector/stop``).
    var stop: ScanStop {
        get { detector.stop }
        set { detector.stop = newValue }
    }
    /// The symbols of the current frame, reused.
    private var candidates: [DMCandidate] = []

    init() { candidates.reserveCapacity(8) }

    /// How many symbols the last ``read(_:bounds:thorough:into:)`` decoded.
    private(set) var lastCandidateCount = 0

    /// Finds and decodes the symbols inside `bounds` and appends them to
    /// `out`. With `thorough` (still pictures), symbols whose first reading
    /// fails are sampled at more sizes and as mirror images.
    /// - Parameters:
    ///   - regions: the 2D-texture regions of this frame when another
    ///     reader found them already (``MatrixRegionDetector`` with the same
    ///     settings); nil to find them here.
    ///   - prepared: the block thresholds of `regions`' areas, when the
    ///     caller prepared them for several readers.
    ///   - examineBudget: without `thorough`, how many components to
    ///     examine as finders (see ``DMDetector/Options/examineBudget``).
    ///   - avoiding: the insides of codes read already, carved out of
    ///     `regions` (their edges left around them are not examined).
    func read(
        _ image: LumaView, bounds: PixelRect?, thorough: Bool, regions: MatrixRegionDetector? = nil,
        prepared: AreaThresholds? = nil, examineBudget: Int = DMDetector.Options().examineBudget,
        avoiding: [PixelRect] = [], into out: inout [BarcodeResult]
    ) {
        lastCandidateCount = 0
        guard image.width >= 10, image.height >= 10 else { return }
        detector.options.thorough = thorough
        detector.options.examineBudget = examineBudget
        candidates.removeAll(keepingCapacity: true)
        detector.scan(image, in: bounds, regions: regions, prepared: prepared, avoiding: avoiding, into: &candidates)
        lastCandidateCount = candidates.count
        let first = out.count
        for c in candidates {
            let centre = Point(x: (c.corners[0].x + c.corners[2].x) / 2, y: (c.corners[0].y + c.corners[2].y) / 2)
            var duplicate = false
            for k in first..<out.count where out[k].symbology == .dataMatrix && out[k].bytes == c.decoded.bytes {
                let o = out[k].corners
                let oc = Point(x: (o[0].x + o[2].x) / 2, y: (o[0].y + o[2].y) / 2)
                if oc.distance(to: centre) < 4 * max(c.moduleSize, 1) { duplicate = true; break }
            }
            if duplicate { continue }
            out.append(DataMatrixReader.result(c))
        }
    }

    /// The result of a decoded symbol.
    static func result(_ c: DMCandidate) -> BarcodeResult {
        let d = c.decoded
        let deg = BarcodeResult.degrees(dx: c.corners[1].x - c.corners[0].x, dy: c.corners[1].y - c.corners[0].y)
        var r = BarcodeResult(
            symbology: .dataMatrix, text: d.text, bytes: d.bytes,
            symbologyIdentifier: d.symbologyIdentifier,
            extendedText: d.gs1HumanReadable ?? "", corners: c.corners, orientation: deg,
            isInverted: c.isInverted, isMirrored: d.mirrored,
            quality: max(0, 100 - 5 * d.correctedErrors))
        r.structuredAppend = d.structuredAppend
        return r
    }
}

extension DataMatrixReader: MatrixReader {
    /// ``read(_:bounds:thorough:regions:prepared:examineBudget:avoiding:into:)`` of the search.
    func read(_ search: MatrixSearch, into out: inout [BarcodeResult]) {
        read(
            search.image, bounds: search.bounds, thorough: search.thorough, regions: search.regions,
            prepared: search.prepared, examineBudget: search.examineBudget, avoiding: search.avoiding,
            into: &out)
    }
}
