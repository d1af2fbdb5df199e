#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a frame's scan lines need to know of the frame, the same for every
/// thread that reads them: set once a frame, before its lines are read,
/// and only read while they are.
struct LinePass {
    var image: LumaView
    var plan: Scanner.Plan
    var enabled: Symbology
    /// Where the lines may run (the scanned area and a margin, or the frame).
    var frame: PixelRect
    /// The detection pass: its candidates and cells.
    var detector: RegionDetector
    /// Whether lines look for PDF417 start and stop patterns.
    var spotsPDF417: Bool
    /// The video frame's number, from 1 (``Scanner/scan(_:frameNumber:)``):
    /// what alternates between video frames follows it.
    var frameNumber: Int
    /// The reading direction the orientation hint expects.
    var expectedReading: (Double, Double)?
    /// When the frame's analysis must stop (`.max`: never).
    var deadline: UInt64
    /// Stops the frame's analysis from another thread (``ScanCancellation``).
    var cancellation: ScanCancellation? = nil
    /// One flag a candidate: whether its lines read a linear code, and
    /// whether they crossed a PDF417 start or stop pattern. Each candidate
    /// is read by one thread, which alone writes its flags.
    var candidateRead: UnsafeMutablePointer<Bool>
    var candidateCrossesPDF417: UnsafeMutablePointer<Bool>
    /// The candidates to read, in order (indices into the detector's).
    var order: UnsafePointer<Int32>
    var orderCount: Int

    /// Whether `p` lies within the margin that scan lines keep from the
    /// frame's edges.
    func isOnFrameBorder(_ p: Point) -> Bool {
        p.x < 3 || p.y < 3 || p.x > Double(image.width) - 4 || p.y > Double(image.height) - 4
    }
}
