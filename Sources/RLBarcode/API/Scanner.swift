#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// Finds and decodes barcodes in luma frames.
///
/// The work runs in two stages. A detection pass (``RegionDetector``)
/// measures the gradient structure of the frame in cells and groups cells
/// with strong one-directional gradients into candidate regions, with the
/// direction across their bars. Decoding then runs only there: scan lines
/// laid across the bars at that angle, sampled with sub-pixel interpolation,
/// turned into bar and space widths, read by every enabled reader in both
/// directions and both polarities. Readings of one code by several lines
/// are merged and must agree before a code is reported. With
/// ``Effort/thorough`` (still pictures) dense sweeps of lines at several
/// angles over the whole frame follow the candidates. Rows of stacked
/// symbols read by single lines are assembled at the end of the frame
/// (``StackedLinearReader``). Matrix codes (``MatrixReaders``) have their
/// own detection: textured areas, then finder patterns, grids and decoding.
///
/// A scanner owns all its scratch memory, sized for the largest frame seen
/// and reused for every frame, so scanning a stream allocates nothing per
/// frame except the results themselves. A scanner is not thread-safe: use
/// one per streaming thread. With ``ScanOptions/threads`` above 1 it runs
/// the searches for QR Code, Data Matrix and Aztec Code on a helper thread
/// of its own, started beside the linear stage once the detection pass is
/// done; the helper then reads the linear candidates the calling thread
/// has not taken yet (each candidate is read whole by one thread, with
/// scratch memory and readers of that thread's own, and the readings of
/// both are joined), and the calling thread takes the searches the
/// helper has not begun when its own work is done. ``scan(_:)`` returns
/// once both are finished, with the same codes as on one thread.
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
    public internal(set) var lastCandidateCount = 0
    /// What the last frame read of a code wider than the frame (or whose
    /// ends were in view in different frames) while the rest is still
    /// missing: the text so far, `…` first when it is the code's end.
    /// Empty when there is no such part, or once the code is whole. Video
    /// efforts only (``Effort/balanced``, ``Effort/fast``).
    public var partialText: String { partials.partialText }

    var detector = RegionDetector()
    let linearReaders: [any LinearReader]
    /// This thread's scan lines: their buffers, readers and readings.
    let lines: LineWorker
    /// The helper thread's, when it shares the candidates (made with the
    /// helper; none when the scanner was given readers of the caller's).
    var helperLines: LineWorker?
    /// Whether the linear readers are the scanner's own (then the helper
    /// thread gets a set of its own too).
    let ownReaders: Bool
    /// The candidates of the frame in the order they are read, and their
    /// turns when two threads share them.
    var candidateOrder = ScratchBuffer<Int32>(capacity: 64)
    let candidateTurns = SharedTurns()
    /// The candidates the helper thread reads once its matrix searches are
    /// taken, set between its start and its end.
    var candidateJob: LinePass?
    /// The bands of cells measured by both threads, set between the
    /// helper's start and its end when it started before stage 1; their
    /// turns; and whether this thread has made the frame's candidates
    /// (``candidateJob`` is set).
    var measureJob: MeasureJob?
    let bandTurns = SharedTurns()
    let stageOneDone = Atomic<Bool>(false)
    /// The sweeps of a still picture, shared by both threads: whether the
    /// helper takes part (set before it starts, as ``candidateJob``),
    /// whether this thread has opened them (``sweepJob`` is set), and the
    /// angles' turns.
    var sweepJob: SweepJob?
    var sweepsShared = false
    let sweepsOpen = Atomic<Bool>(false)
    let sweepTurns = SharedTurns()
    /// How many sweep angles the helper thread read in the last area
    /// scanned (written by it before its run ends).
    var sweepsByHelper = 0
    /// How many sweep angles the last area scanned read, by either thread.
    var sweptAngles = 0
    /// How many of the last area's candidates the helper thread read.
    var lastCandidatesReadByHelper: Int { helperLines?.candidatesRead ?? 0 }
    /// How many of the last area's candidates either thread read.
    var lastCandidatesRead: Int { lines.candidatesRead + lastCandidatesReadByHelper }
    /// The scan lines sampled since the scanner was made, by either thread.
    var linesSampled: Int { lines.lineSerial + (helperLines.map { $0.lineSerial - (1 << 56) } ?? 0) }
    /// The matrix (2D) symbologies' detectors and decoders.
    let matrix = MatrixReaders()
    /// The areas of 2D texture the last frame's matrix searches left
    /// (``MatrixReaders/searchAreas``).
    var matrixSearchAreas: (frame: [PixelRect], half: [PixelRect], halfRect: PixelRect?) { matrix.searchAreas }
    /// Parts of codes wider than the frame, kept across video frames.
    let partials = PartialCodes()
    /// The video frame's number (``scan(_:frameNumber:)``): light-on-dark
    /// codes are looked for in every other one (see
    /// ``Plan/bothPolaritiesEveryFrame``); with an active region, the rest
    /// of the frame gets a tile every fourth one.
    var frameNumber = 0
    /// When this frame's analysis must stop (``MonotonicClock/now``, nanoseconds);
    /// `.max` when ``ScanOptions/timeLimit`` is nil.
    var deadline: UInt64 = .max
    /// Set once this frame's time limit has passed.
    var outOfTime: Bool {
        get { lines.outOfTime }
        set { lines.outOfTime = newValue; helperLines?.outOfTime = newValue }
    }
    /// The pool that lends the second thread of a two-thread scan, frame
    /// by frame, when it has one free (nil: a thread of the scanner's
    /// own). Set before the first scan.
    public var analysisPool: AnalysisPool?
    /// Stops scans in progress from another thread (nil: none can): a
    /// cancelled scan returns what it read so far, as at its time limit.
    public var cancellation: ScanCancellation? {
        didSet { matrix.cancellation = cancellation }
    }
    /// Whether the last ``scan(_:)`` stopped at its ``ScanOptions/timeLimit``
    /// before it had looked everywhere.
    public internal(set) var lastScanTimedOut = false
    /// The parts of the frame the last ``scan(_:frameNumber:)`` looked at
    /// (the whole frame; or the active region, and in some video frames
    /// one tile of the rest), for trackers that age a code only in frames
    /// that looked where it was.
    public internal(set) var lastScannedArea = ScannedArea()
    /// The readers among them that assemble stacked symbols from rows.
    let stackedReaders: [any StackedLinearReader]
    /// The DataBar reader among them, whose stacked symbols' rows may need
    /// lines of their own (``seekOtherRows(_:enabled:)``).
    let dataBarReader: DataBarReader?
    /// Whether ``seekOtherRows(_:enabled:)`` runs (tests compare without it).
    var seeksOtherRows = true
    /// What the readers can read.
    let readable: Symbology

    /// Creates a scanner.
    public init(options: ScanOptions = ScanOptions()) {
        self.options = options
        linearReaders = makeLinearReaders()
        ownReaders = true
        lines = LineWorker(readers: linearReaders, partials: partials, firstLine: 0)
        stackedReaders = linearReaders.compactMap { $0 as? any StackedLinearReader }
        dataBarReader = linearReaders.lazy.compactMap { $0 as? DataBarReader }.first
        readable = linearReaders.reduce(MatrixReaders.symbologies) { $0.union($1.symbologies) }
    }

    /// Creates a scanner with the given readers (tests use it to run a
    /// reader that ``makeLinearReaders()`` does not list yet).
    init(options: ScanOptions, linearReaders: [any LinearReader]) {
        self.options = options
        self.linearReaders = linearReaders
        ownReaders = false
        lines = LineWorker(readers: linearReaders, partials: partials, firstLine: 0)
        stackedReaders = linearReaders.compactMap { $0 as? any StackedLinearReader }
        dataBarReader = linearReaders.lazy.compactMap { $0 as? DataBarReader }.first
        readable = linearReaders.reduce(MatrixReaders.symbologies) { $0.union($1.symbologies) }
    }

    deinit {
        helper?.stop()
        detector.free(); candidateRead.free(); readCells.free(); candidateCrossesPDF417.free(); candidateOrder.free()
    }

    /// Scans one frame.
    ///
    /// With an ``ScanOptions/activeRegion``: `regionOnly` scans the region
    /// alone; otherwise still pictures (``Effort/thorough``) are scanned
    /// whole with the region's candidates first, and video frames get the
    /// region in full, and every fourth frame one tile of the rest of the
    /// frame, the next tile the next time (see ``tile(_:outside:turn:)``), so
    /// that a frame costs little more than its region and every part of
    /// the frame is still looked at every few dozen frames.
    ///
    /// - Returns: every code found, one result per code (readings of one
    ///   code by several scan lines are merged): the linear codes by
    ///   symbology, content and place, then the matrix codes, in an order
    ///   that is the same whatever the number of threads.
    /// - Complexity: the detection pass reads a quarter of the frame's
    ///   pixels; decoding work scales with the candidates found.
    public func scan(_ image: LumaView) -> [BarcodeResult] {
        scan(image, frameNumber: self.frameNumber &+ 1)
    }

    /// Finds and decodes every code in `image`, frame `frameNumber` of a
    /// video (counted from 1), as ``scan(_:)`` does.
    ///
    /// What alternates between video frames (the light-on-dark codes, the
    /// lines between a stacked symbol's rows, the tiles of the frame
    /// outside the active region) follows `frameNumber` rather than the
    /// number of frames this scanner has seen, so that scanners sharing a
    /// stream (each a frame of its own, in whatever order) read every
    /// frame as one scanner given every frame in turn would. ``scan(_:)``
    /// numbers the frames this scanner sees 1, 2, 3...
    ///
    /// - Parameters:
    ///   - image: the frame's luma.
    ///   - frameNumber: the frame's place in its stream, from 1.
    /// - Returns: every code found, as ``scan(_:)``.
    public func scan(_ image: LumaView, frameNumber: Int) -> [BarcodeResult] {
        self.frameNumber = frameNumber
        lastCandidateCount = 0
        outOfTime = false
        deadline = options.timeLimit.map { MonotonicClock.now &+ UInt64(max(0, min($0, 1e6)) * 1e9) } ?? .max
        matrix.deadline = deadline
        detector.stop = ScanStop(deadline: deadline, cancellation: cancellation)
        defer { lastScanTimedOut = outOfTime || matrix.timedOut }
        lastScannedArea = ScannedArea()
        if cancellation.stops(deadline: .max) { outOfTime = true; return [] }
        guard image.width >= 16 || image.height >= 16, image.width >= 1, image.height >= 1 else { return [] }
        let enabled = options.symbologies.intersection(readable)
        guard !enabled.isEmpty else { return [] }
        let plan = plan(for: image, effort: options.effort)
        matrix.startFrame(number: frameNumber)
        partials.startFrame()
        let frame = PixelRect(x0: 0, y0: 0, x1: image.width, y1: image.height)
        lastScannedArea = ScannedArea(frame)
        guard let r = options.activeRegion, r.isValid else {
            return plan.thorough
                ? scanStill(image, bounds: frame, wholeFrame: true, enabled: enabled, plan: plan)
                : scanArea(image, bounds: frame, wholeFrame: true, enabled: enabled, plan: plan)
        }
        let region = PixelRect(
            x0: max(0, Int(r.x * Double(image.width))), y0: max(0, Int(r.y * Double(image.height))),
            x1: min(image.width, Int(((r.x + r.width) * Double(image.width)).rounded(.up))),
            y1: min(image.height, Int(((r.y + r.height) * Double(image.height)).rounded(.up))))
        let usable = region.width >= 16 && region.height >= 4
        if options.regionOnly {
            lastScannedArea = ScannedArea(usable ? region : nil)
            guard usable else { return [] }
            return plan.thorough
                ? scanStill(image, bounds: region, wholeFrame: false, enabled: enabled, plan: plan)
                : scanArea(image, bounds: region, wholeFrame: false, enabled: enabled, plan: plan)
        }
        // Still pictures: the whole frame, the region's candidates first.
        if plan.thorough {
            return scanStill(image, bounds: frame, wholeFrame: true, enabled: enabled, plan: plan)
        }
        if !usable {
            return scanArea(image, bounds: frame, wholeFrame: true, enabled: enabled, plan: plan)
        }
        // Video: the region in full, and every fourth frame one tile of the
        // rest of the frame in turn, so that the whole frame is covered over
        // a few dozen frames (a 1080p frame with its top-left quarter for
        // its region: 10 tiles, a round in 40 frames, then 16 smaller ones
        // in the shifted round). A tile is looked at seldom, so it gets
        // every search: both polarities, PDF417 in every area of bars, the
        // full-size Data Matrix and Aztec searches, whichever frame's turn
        // it is. Its surroundings are measured and searched with it (see
        // ``tileSurroundings(_:in:)``): a code centred in the tile is seen
        // whole however far it reaches out of it.
        var out = scanArea(image, bounds: region, wholeFrame: false, enabled: enabled, plan: plan)
        let candidates = lastCandidateCount
        lastScannedArea = ScannedArea(region)
        if frameNumber % 4 == 0, let tile = tile(frame, outside: region, turn: frameNumber / 4 - 1) {
            lastScannedArea = ScannedArea(region, tile)
            var complete = plan
            complete.bothPolaritiesEveryFrame = true
            complete.everySearch = true
            let more = scanArea(
                image, bounds: tileSurroundings(tile, in: frame), centredIn: tile, wholeFrame: false,
                enabled: enabled, plan: complete)
            for m in more where !out.contains(where: { $0.isSameCode(as: m) }) { out.append(m) }
            lastCandidateCount += candidates
        }
        return out
    }

    /// The job handed to the helper thread, set between its start and its end.
    var squareJob: SquareJob?
    /// The thread that runs the matrix codes' searches beside the linear
    /// stage, made on first use when ``ScanOptions/threads`` allows it.
    var helper: HelperThread?
    /// Whether making ``helper`` failed (then it is not tried again).
    var helperFailed = false

    /// The boxes around the largest bar regions of the frame (at most
    /// three), where video frames look for PDF417 symbols.
    var barAreas = [BarArea](
        repeating: BarArea(box: PixelRect(x0: 0, y0: 0, x1: 0, y1: 0), ux: 1, uy: 0), count: 3)

    /// Whether each of the frame's candidates read a linear code (such a
    /// region of bars is not searched for PDF417).
    var candidateRead = ScratchBuffer<Bool>(capacity: 64)
    /// The cells of the codes read in a still picture (``maskReadCodes(_:_:)``).
    var readCells = ScratchBuffer<UInt8>(capacity: 64)
    /// Whether a line through each of the frame's candidates crossed a
    /// PDF417 start or stop pattern.
    var candidateCrossesPDF417 = ScratchBuffer<Bool>(capacity: 64)
}
