#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Aztec Code reader of the matrix stage (ISO/IEC 24778:2008): finds,
/// samples and decodes Aztec Code symbols and Aztec Runes and turns them
/// into results. Owned by ``MatrixReaders`` and reused from frame to frame.
final class AztecReader {
    private let detector = AztecDetector()
    /// The frame's time limit and stop (``AztecDetector/stop``).
    var stop: ScanStop {
        get { detector.stop }
        set { detector.stop = newValue }
    }
    /// The symbols of the current frame, reused.
    private var symbols: [AztecSymbol] = []

    init() { symbols.reserveCapacity(8) }

    /// How many bull's-eye candidates the last ``read(_:bounds:thorough:into:)`` examined.
    var lastCandidateCount: Int { detector.lastCentreCount }

    /// Finds and decodes the symbols inside `bounds` and appends them to
    /// `out`. With `thorough` (still pictures) every row of the textured
    /// areas is searched, and bull's-eyes whose centre blurred away too.
    /// - Parameters:
    ///   - regions: the frame's 2D-texture regions when the caller found
    ///     them already; nil to find them here.
    ///   - prepared: their block thresholds, when the caller prepared them
    ///     for several readers.
    func read(
        _ image: LumaView, bounds: PixelRect?, thorough: Bool, regions: MatrixRegionDetector? = nil,
        prepared: AreaThresholds? = nil, into out: inout [BarcodeResult]
    ) {
        guard image.width >= 11, image.height >= 11 else { return }
        symbols.removeAll(keepingCapacity: true)
        detector.scan(image, in: bounds, thorough: thorough, regions: regions, prepared: prepared, into: &symbols)
        for s in symbols { out.append(AztecReader.result(s)) }
    }

    /// The result of a decoded symbol.
    static func result(_ s: AztecSymbol) -> BarcodeResult {
        let d = s.decoded, corners = s.corners
        let deg = BarcodeResult.degrees(dx: corners[1].x - corners[0].x, dy: corners[1].y - corners[0].y)
        var r = BarcodeResult(
            symbology: .aztec, text: d.text, bytes: d.bytes,
            symbologyIdentifier: d.symbologyIdentifier,
            extendedText: d.gs1HumanReadable ?? "", corners: corners, orientation: deg,
            isInverted: s.isInverted, isMirrored: d.mirrored,
            quality: max(0, 100 - 5 * d.correctedErrors))
        if let sa = d.structuredAppend {
            r.structuredAppend = StructuredAppend(index: sa.index, total: sa.total, id: sa.id)
        }
        return r
    }
}

extension AztecReader: MatrixReader {
    /// ``read(_:bounds:thorough:regions:prepared:into:)`` of the search.
    func read(_ search: MatrixSearch, into out: inout [BarcodeResult]) {
        read(
            search.image, bounds: search.bounds, thorough: search.thorough, regions: search.regions,
            prepared: search.prepared, into: &out)
    }
}
