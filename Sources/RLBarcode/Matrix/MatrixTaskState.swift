/// What one matrix search left of the frame: written only by the thread
/// that runs it, read once every search is done.
final class MatrixTaskState {
    /// Symbol-like places seen, read or not.
    var candidateCount = 0
    /// Whether the search was left out or cut short because the frame's
    /// deadline had passed (or the scan was cancelled).
    var timedOut = false
    /// The codes read, reused from frame to frame (the video PDF417
    /// search appends to the frame's results instead).
    var results: [BarcodeResult] = []

    /// Clears the state for a new frame, keeping the results' memory.
    func reset() {
        candidateCount = 0
        timedOut = false
        results.removeAll(keepingCapacity: true)
    }
}

/// The state of every matrix search of a frame, one ``MatrixTaskState``
/// each, by ``MatrixTaskTable/Search``.
struct MatrixTaskTable {
    /// The searches of a frame.
    enum Search: Int, CaseIterable {
        /// QR Code and Micro QR (ISO/IEC 18004).
        case qr
        /// Aztec Code and Aztec Runes (ISO/IEC 24778).
        case aztec
        /// Data Matrix ECC 200 (ISO/IEC 16022, DMRE of ISO/IEC 21471).
        case dataMatrix
        /// PDF417 (ISO/IEC 15438) in video frames, in the regions of bars.
        case videoPDF417
        /// PDF417 in still pictures, over the whole frame.
        case stillPDF417
        /// MicroPDF417 (ISO/IEC 24728), in still pictures.
        case microPDF417
    }

    private let states: [MatrixTaskState] = Search.allCases.map { _ in MatrixTaskState() }

    /// The state of `search`.
    subscript(_ search: Search) -> MatrixTaskState { states[search.rawValue] }

    /// Candidates of every search together.
    var candidateCount: Int { states.reduce(0) { $0 + $1.candidateCount } }

    /// Whether any search was cut by the deadline.
    var timedOut: Bool { states.contains { $0.timedOut } }
}
