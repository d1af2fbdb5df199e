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
    public private(set) var lastCandidateCount = 0
    /// What the last frame read of a code wider than the frame (or whose
    /// ends were in view in different frames) while the rest is still
    /// missing: the text so far, `…` first when it is the code's end.
    /// Empty when there is no such part, or once the code is whole. Video
    /// efforts only (``Effort/balanced``, ``Effort/fast``).
    public var partialText: String { partials.partialText }

    private var detector = RegionDetector()
    private let linearReaders: [any LinearReader]
    /// This thread's scan lines: their buffers, readers and readings.
    private let lines: LineWorker
    /// The helper thread's, when it shares the candidates (made with the
    /// helper; none when the scanner was given readers of the caller's).
    private var helperLines: LineWorker?
    /// Whether the linear readers are the scanner's own (then the helper
    /// thread gets a set of its own too).
    private let ownReaders: Bool
    /// The candidates of the frame in the order they are read, and their
    /// turns when two threads share them.
    private var candidateOrder = ScratchBuffer<Int32>(capacity: 64)
    private let candidateTurns = SharedTurns()
    /// The candidates the helper thread reads once its matrix searches are
    /// taken, set between its start and its end.
    private var candidateJob: LinePass?
    /// The bands of cells measured by both threads, set between the
    /// helper's start and its end when it started before stage 1; their
    /// turns; and whether this thread has made the frame's candidates
    /// (``candidateJob`` is set).
    private var measureJob: MeasureJob?
    private let bandTurns = SharedTurns()
    private let stageOneDone = Atomic<Bool>(false)
    /// The sweeps of a still picture, shared by both threads: whether the
    /// helper takes part (set before it starts, as ``candidateJob``),
    /// whether this thread has opened them (``sweepJob`` is set), and the
    /// angles' turns.
    private var sweepJob: SweepJob?
    private var sweepsShared = false
    private let sweepsOpen = Atomic<Bool>(false)
    private let sweepTurns = SharedTurns()
    /// How many sweep angles the helper thread read in the last area
    /// scanned (written by it before its run ends).
    private(set) var sweepsByHelper = 0
    /// How many sweep angles the last area scanned read, by either thread.
    private(set) var sweptAngles = 0
    /// How many of the last area's candidates the helper thread read.
    var lastCandidatesReadByHelper: Int { helperLines?.candidatesRead ?? 0 }
    /// How many of the last area's candidates either thread read.
    var lastCandidatesRead: Int { lines.candidatesRead + lastCandidatesReadByHelper }
    /// The scan lines sampled since the scanner was made, by either thread.
    var linesSampled: Int { lines.lineSerial + (helperLines.map { $0.lineSerial - (1 << 56) } ?? 0) }
    /// The matrix (2D) symbologies' detectors and decoders.
    private let matrix = MatrixReaders()
    /// The areas of 2D texture the last frame's matrix searches left
    /// (``MatrixReaders/searchAreas``).
    var matrixSearchAreas: (frame: [PixelRect], half: [PixelRect], halfRect: PixelRect?) { matrix.searchAreas }
    /// Parts of codes wider than the frame, kept across video frames.
    private let partials = PartialCodes()
    /// The video frame's number (``scan(_:frameNumber:)``): light-on-dark
    /// codes are looked for in every other one (see
    /// ``Plan/bothPolaritiesEveryFrame``); with an active region, the rest
    /// of the frame gets a tile every fourth one.
    private var frameNumber = 0
    /// When this frame's analysis must stop (``MonotonicClock/now``, nanoseconds);
    /// `.max` when ``ScanOptions/timeLimit`` is nil.
    private var deadline: UInt64 = .max
    /// Set once this frame's time limit has passed.
    private var outOfTime: Bool {
        get { lines.outOfTime }
        set { lines.outOfTime = newValue; helperLines?.outOfTime = newValue }
    }
    /// Stops scans in progress from another thread (nil: none can): a
    /// cancelled scan returns what it read so far, as at its time limit.
    public var cancellation: ScanCancellation? {
        didSet { matrix.cancellation = cancellation }
    }
    /// Whether the last ``scan(_:)`` stopped at its ``ScanOptions/timeLimit``
    /// before it had looked everywhere.
    public private(set) var lastScanTimedOut = false
    /// The parts of the frame the last ``scan(_:frameNumber:)`` looked at
    /// (the whole frame; or the active region, and in some video frames
    /// one tile of the rest), for trackers that age a code only in frames
    /// that looked where it was.
    public private(set) var lastScannedArea = ScannedArea()
    /// The readers among them that assemble stacked symbols from rows.
    private let stackedReaders: [any StackedLinearReader]
    /// The DataBar reader among them, whose stacked symbols' rows may need
    /// lines of their own (``seekOtherRows(_:enabled:)``).
    private let dataBarReader: DataBarReader?
    /// Whether ``seekOtherRows(_:enabled:)`` runs (tests compare without it).
    var seeksOtherRows = true
    /// What the readers can read.
    private let readable: Symbology

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

    /// Per-effort settings.
    struct Plan {
        var cellSize: Int
        var minEnergy: Float
        var minCoherence: Float
        var minCells: Int
        var maxCandidates: Int
        var linesPerCandidate: Int
        var thickness: Int
        var relativeEdge: Float
        var floorEdge: Float
        var sweeps: Bool
        var minVotes: Int
        var refine: Bool
        var prune: Float
        var smooth: Bool
        /// Whether lines that read nothing are measured again by bar areas.
        var area: Bool = true
        /// Lines that must read something before a candidate is done.
        var enoughReadings: Int
        /// How many lines of a candidate get the costlier retries (edges at
        /// halfway levels, pruning, bar areas, wider pruning, smoothing)
        /// before it has read anything.
        var retryLines = 4
        /// A candidate whose first lines (from the middle out) read nothing
        /// is given up after this many.
        var giveUpLines = Int.max
        /// The frame's strongest candidates (the first this many in reading
        /// order) get `giveUpLines` lines before they are given up; the
        /// others, `laterGiveUpLines`: in a frame of many candidates most
        /// are text and texture, and a code's middle lines read it.
        var fullLinesCandidates = Int.max
        var laterGiveUpLines = Int.max
        /// A candidate whose first lines all cross fewer than `minLineEdges`
        /// (too few for any symbology) is given up after this many (video
        /// frames: one, the middle line; text and texture make most
        /// candidates).
        var sparseLinesToGiveUp = Int.max
        /// With an orientation hint, read lines only in the hinted direction.
        var hintedDirectionOnly = false
        /// Distance between samples along sweep lines, in pixels.
        var sweepStep: Double = 1
        /// Whether every line is read in both polarities (dark bars on light
        /// and light on dark). Video frames read light-on-dark codes in every
        /// other frame only: they are rare, and a code in view stays there
        /// for many frames.
        var bothPolaritiesEveryFrame = true
        /// Whether light-on-dark linear codes are looked for at all (a
        /// still picture's first look leaves them to the full depth).
        var lightOnDark = true
        /// Whether every matrix search runs whichever frame's turn it is
        /// (``MatrixReaders/prepareSquare(_:bounds:enabled:thorough:everySearch:cells:)``):
        /// the seldom tiles of the rest of a frame with an active region.
        var everySearch = false
        /// Whether parts of codes cut by the frame's border are kept and
        /// joined across frames (video: the camera pans; still pictures
        /// have no other frame).
        var partials = true
        /// Still-picture depth: sweeps, every matrix search at full
        /// resolution, failed symbols sampled again, MicroPDF417.
        var thorough = false
    }

    private func plan(for image: LumaView, effort: Effort) -> Plan {
        let small = min(image.width, image.height) < 400
        switch effort {
        case .fast:
            return Plan(
                cellSize: small ? 8 : 16, minEnergy: 120, minCoherence: 0.7, minCells: 3, maxCandidates: 8,
                linesPerCandidate: 5, thickness: 3, relativeEdge: 0.15, floorEdge: 4, sweeps: false, minVotes: 2,
                refine: false, prune: 0.15, smooth: false, enoughReadings: 3,
                hintedDirectionOnly: true, bothPolaritiesEveryFrame: false)
        case .balanced:
            return Plan(
                cellSize: small ? 8 : 16, minEnergy: 40, minCoherence: 0.55, minCells: 2, maxCandidates: 32,
                linesPerCandidate: 21, thickness: 3, relativeEdge: 0.1, floorEdge: 2, sweeps: false, minVotes: 2,
                refine: true, prune: 0.15, smooth: true, enoughReadings: 4,
                giveUpLines: 5, fullLinesCandidates: 4, laterGiveUpLines: 2, sparseLinesToGiveUp: 1,
                bothPolaritiesEveryFrame: false)
        case .thorough:
            return Plan(
                cellSize: small ? 8 : 16, minEnergy: 25, minCoherence: 0.5, minCells: 2, maxCandidates: 64,
                linesPerCandidate: 15, thickness: 3, relativeEdge: 0.1, floorEdge: 2, sweeps: true, minVotes: 2,
                refine: true, prune: 0.15, smooth: true, enoughReadings: 1000, retryLines: 1000, sweepStep: 0.5,
                partials: false, thorough: true)
        }
    }

    /// The reading direction (left to right on the code) that the
    /// orientation hint expects, in frame coordinates.
    private var expectedReading: (Double, Double)? {
        switch options.orientation {
        case .any: nil
        case .up: (1, 0)
        case .right: (0, 1)
        case .down: (-1, 0)
        case .left: (0, -1)
        }
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

    /// The tile for turn `turn` (0, 1, 2...) of those that cover the frame
    /// outside the active region over several frames; nil when the region
    /// covers the frame. The tiles are a grid of up to 4 columns of 320
    /// pixels or more and up to 3 rows of 180 pixels or more (a 1080p
    /// frame: 12 tiles of 480 by 360); every other round the grid is
    /// shifted by half a tile, with a column and a row more to cover the
    /// frame's edges, so that a code cut by one round's tile edges lies
    /// whole in a tile of the next. Tiles inside the region are left out;
    /// the turns go through the rest, round after round.
    private func tile(_ frame: PixelRect, outside region: PixelRect, turn: Int) -> PixelRect? {
        let columns = min(4, max(1, frame.width / 320)), rows = min(3, max(1, frame.height / 180))
        let (tw, th) = Scanner.tileSize(frame)
        // The k-th tile of both rounds that is not inside the region
        // (k < 0: how many there are).
        func walk(_ k: Int) -> (count: Int, tile: PixelRect?) {
            var count = 0
            for round in 0..<2 {
                let shifted = round == 1
                let ox = shifted && columns > 1 ? tw / 2 : 0, oy = shifted && rows > 1 ? th / 2 : 0
                let across = ox > 0 ? columns + 1 : columns, down = oy > 0 ? rows + 1 : rows
                for t in 0..<(across * down) {
                    let cx = t % across, cy = t / across
                    let tile = PixelRect(
                        x0: max(0, cx * tw - ox), y0: max(0, cy * th - oy),
                        x1: min(frame.x1, (cx + 1) * tw - ox), y1: min(frame.y1, (cy + 1) * th - oy))
                    guard tile.width >= 16, tile.height >= 8 else { continue }
                    let inside =
                        tile.x0 >= region.x0 && tile.x1 <= region.x1
                        && tile.y0 >= region.y0 && tile.y1 <= region.y1
                    if inside { continue }
                    if count == k { return (count, tile) }
                    count += 1
                }
            }
            return (count, nil)
        }
        let total = walk(-1).count
        guard total > 0 else { return nil }
        return walk(((turn % total) + total) % total).tile
    }

    /// The size of the tiles of ``tile(_:outside:turn:)``: the frame in up
    /// to 4 columns of 320 pixels or more and up to 3 rows of 180 or more.
    private static func tileSize(_ frame: PixelRect) -> (width: Int, height: Int) {
        let columns = min(4, max(1, frame.width / 320)), rows = min(3, max(1, frame.height / 180))
        return ((frame.width + columns - 1) / columns, (frame.height + rows - 1) / rows)
    }

    /// What is measured and searched with `tile`: the tile and half a
    /// tile's width and height around it, inside `frame`. Only the linear
    /// candidates centred in the tile are read (each is centred in one
    /// tile of a round), and every code centred in it whose half-length
    /// is under half a tile plus its centre's distance from the tile's
    /// edges lies wholly inside: over the two rounds, whose tiles are half
    /// a tile apart, every code up to one and a half tiles long (480
    /// pixels in a 720p frame, 720 in a 1080p one) is seen whole in one
    /// tile or another.
    private func tileSurroundings(_ tile: PixelRect, in frame: PixelRect) -> PixelRect {
        let (tw, th) = Scanner.tileSize(frame)
        return PixelRect(
            x0: max(frame.x0, tile.x0 - tw / 2), y0: max(frame.y0, tile.y0 - th / 2),
            x1: min(frame.x1, tile.x1 + tw / 2), y1: min(frame.y1, tile.y1 + th / 2))
    }

    /// A still picture (``Effort/thorough``): first a look at the depth of
    /// a video frame's, with every search of a first frame (linear codes
    /// dark on light only); only when that reads nothing, the still-picture depth
    /// (`plan`). Most pictures are read by the first look at a fraction of
    /// the cost; the pictures it reads nothing in pay for both. With
    /// ``ScanOptions/exhaustive``, the still-picture depth alone.
    private func scanStill(
        _ image: LumaView, bounds: PixelRect, wholeFrame: Bool, enabled: Symbology,
        plan: Plan
    ) -> [BarcodeResult] {
        if options.exhaustive {
            return scanArea(image, bounds: bounds, wholeFrame: wholeFrame, enabled: enabled, plan: plan)
        }
        var look = self.plan(for: image, effort: .balanced)
        look.everySearch = true
        look.lightOnDark = false
        look.partials = false
        let first = scanArea(image, bounds: bounds, wholeFrame: wholeFrame, enabled: enabled, plan: look)
        if outOfTime || matrix.timedOut { return first }
        // Done unless nothing was read, or an EAN/UPC code was read
        // without an add-on where bars follow it as an add-on would.
        if !first.isEmpty {
            guard !enabled.isDisjoint(with: [.ean2, .ean5]), let cells = detector.tensors else { return first }
            // Codes read without an add-on where bars follow them: their
            // surroundings at the full depth, EAN/UPC alone.
            // (Every box found before any is scanned: a scan measures the
            // cells again, over its box.)
            let frame = PixelRect(x0: 0, y0: 0, x1: image.width, y1: image.height)
            let boxes = first.map { Scanner.addOnBox($0, cells: cells, frame: frame, plan: look) }
            var out = first
            for k in first.indices {
                guard let box = boxes[k] else { continue }
                let again = scanArea(
                    image, bounds: box, wholeFrame: false, enabled: enabled.intersection(.eanUPC),
                    plan: plan)
                if let better = again.first(where: { !$0.addOn.isEmpty && $0.text == first[k].text }) {
                    out[k] = better
                }
            }
            return out
        }
        let candidates = lastCandidateCount
        var out = scanArea(image, bounds: bounds, wholeFrame: wholeFrame, enabled: enabled, plan: plan)
        lastCandidateCount += candidates
        // What the first look read and the full depth did not (rare: its
        // lines differ), kept.
        for f in first where !out.contains(where: { $0.isSameCode(as: f) }) { out.append(f) }
        return out
    }

    /// The box to search again for the add-on of `code`, an EAN/UPC code
    /// read without one, when cells of bars square to its reading
    /// direction follow it where an add-on would lie (its gap is 7 to 12
    /// modules, read from 5; it is 20 or 47 modules long), at half or
    /// three quarters of its height: the code and that place. Nil when
    /// nothing follows it.
    static func addOnBox(_ code: BarcodeResult, cells: CellTensors, frame: PixelRect, plan: Plan) -> PixelRect? {
        guard code.addOn.isEmpty, code.corners.count == 4 else { return nil }
        let modules: Double
        switch code.symbology {
        case .ean13, .upcA: modules = 95
        case .ean8: modules = 67
        case .upcE: modules = 51
        default: return nil
        }
        let c = code.corners
        for share in [0.5, 0.75] {
            let left = Point(x: c[0].x + share * (c[3].x - c[0].x), y: c[0].y + share * (c[3].y - c[0].y))
            let right = Point(x: c[1].x + share * (c[2].x - c[1].x), y: c[1].y + share * (c[2].y - c[1].y))
            let width = left.distance(to: right)
            guard width >= 16 else { continue }
            let ux = (right.x - left.x) / width, uy = (right.y - left.y) / width
            let module = width / modules
            // From 5 modules past the end to the end of an EAN-5 add-on 12 modules past it.
            let t0 = 5 * module, t1 = 59 * module
            let centre = Point(x: right.x + ux * (t0 + t1) / 2, y: right.y + uy * (t0 + t1) / 2)
            guard
                let line = ScanLine.clipped(
                    center: centre, dx: ux, dy: uy, halfLength: (t1 - t0) / 2,
                    bounds: frame)
            else { continue }
            guard
                cells.barsCrossed(by: line, minEnergy: 0.5 * plan.minEnergy, dominance: Scanner.sweepDominance)
                    .cells >= 2
            else { continue }
            // The code's corners and theirs moved past the add-on.
            let ends = [c[1], c[2]].map { Point(x: $0.x + ux * t1, y: $0.y + uy * t1) }
            let all = c + ends
            let x0 = all.map(\.x).min()!, x1 = all.map(\.x).max()!, y0 = all.map(\.y).min()!, y1 = all.map(\.y).max()!
            let box = PixelRect(
                x0: max(frame.x0, Int(x0) - 8), y0: max(frame.y0, Int(y0) - 8),
                x1: min(frame.x1, Int(x1.rounded(.up)) + 8), y1: min(frame.y1, Int(y1.rounded(.up)) + 8))
            return box.width >= 16 && box.height >= 8 ? box : nil
        }
        return nil
    }

    /// Scans `bounds` (the whole frame when `wholeFrame`); with
    /// `centredIn`, only the linear candidates centred there are read.
    private func scanArea(
        _ image: LumaView, bounds: PixelRect, centredIn core: PixelRect? = nil, wholeFrame: Bool,
        enabled: Symbology, plan: Plan
    ) -> [BarcodeResult] {
        lines.reset()
        helperLines?.reset()
        lastCandidateCount = 0
        // Only matrix codes wanted: no linear stage.
        // (Video frames look for PDF417 only where the linear stage found
        // bars, so that stage runs whenever PDF417 is wanted.)
        let thorough = plan.thorough
        if enabled.isSubset(of: thorough ? MatrixReaders.symbologies : MatrixReaders.symbologies.subtracting(.pdf417)) {
            var out: [BarcodeResult] = []
            matrix.read(
                image, bounds: wholeFrame ? nil : bounds, enabled: enabled,
                thorough: thorough, everySearch: plan.everySearch, into: &out)
            lastCandidateCount = matrix.lastCandidateCount
            return out
        }

        // Candidates are looked for inside `bounds`; the lines that read
        // them run an eighth of its size further (to the frame's edges at
        // most), so that a code reaching a little out of an active region,
        // or its add-on beyond it, is read whole, not in part.
        let reach = max(48, max(bounds.width, bounds.height) / 8)
        let frame =
            wholeFrame
            ? bounds
            : PixelRect(
                x0: max(0, bounds.x0 - reach), y0: max(0, bounds.y0 - reach),
                x1: min(image.width, bounds.x1 + reach), y1: min(image.height, bounds.y1 + reach))

        // The helper thread (see below). Areas of 16 rows of cells or more:
        // it starts at once and measures bands of the cells beside this
        // thread. Smaller ones: it is woken now, so that it is up when the
        // matrix codes' searches are handed to it after stage 1.
        let helper = image.height >= 8 && image.width >= 8 ? squareHelper() : nil
        let flatBelow: Float = plan.cellSize >= 16 ? 0.25 * plan.minEnergy : 0
        let startedEarly = helper != nil && bounds.height >= 16 * plan.cellSize
        measureJob = nil
        if !startedEarly { helper?.prewake() }

        // Stage 1: candidates. (Frames too thin for cells have none.)
        let measurable = image.height >= 8 && image.width >= 8
        if measurable { detector.startMeasure(image, cellSize: plan.cellSize) } else { detector.reset() }
        // The matrix codes' own searches (QR Code, Data Matrix, Aztec Code)
        // need nothing of the linear stage but its cells: with a helper
        // thread they start there meanwhile (once the cells are measured),
        // and this thread joins in when its own work is done.
        let square = SquareJob(
            image: image, bounds: wholeFrame ? nil : bounds, enabled: enabled, thorough: thorough,
            everySearch: plan.everySearch, cells: detector.tensors)
        if let helper, startedEarly {
            let bandRows = 8
            let job = MeasureJob(
                image: image, bounds: bounds, flatBelow: flatBelow, detector: detector,
                bandRows: bandRows, bands: (detector.rows + bandRows - 1) / bandRows)
            measureJob = job
            bandTurns.reset()
            stageOneDone.store(false, ordering: .relaxed)
            openSweeps(plan)
            // The helper prepares the matrix searches while this thread
            // groups the cells into candidates.
            squareJob = square
            candidateJob = nil
            helper.start()
            measureBands(job)
            while bandTurns.finished < job.bands { sched_yield() }
        } else if measurable {
            detector.measureRows(
                image, x0: bounds.x0, y0: bounds.y0, x1: bounds.x1, y1: bounds.y1,
                cellRows: 0..<detector.rows, flatBelow: flatBelow)
        }
        if measurable {
            detector.group(minEnergy: plan.minEnergy, minCoherence: plan.minCoherence, minCells: plan.minCells)
        }
        lastCandidateCount = detector.candidateCount

        // Stage 2's candidates, in the order they are read: with an active
        // region, those inside it first; not single edges (an object's
        // outline is not a row of bars); the plan's most.
        var focus: PixelRect? = nil
        if wholeFrame, let r = options.activeRegion, r.isValid {
            focus = PixelRect(
                x0: Int(r.x * Double(image.width)), y0: Int(r.y * Double(image.height)),
                x1: Int(((r.x + r.width) * Double(image.width)).rounded(.up)),
                y1: Int(((r.y + r.height) * Double(image.height)).rounded(.up)))
        }
        candidateRead.reserve(detector.candidateCount)
        candidateCrossesPDF417.reserve(detector.candidateCount)
        candidateOrder.reserve(max(1, detector.candidateCount))
        for ci in 0..<detector.candidateCount { candidateRead[ci] = false; candidateCrossesPDF417[ci] = false }
        var ordered = 0
        for pass in 0..<(focus == nil ? 1 : 2) {
            for ci in 0..<detector.candidateCount where ordered < plan.maxCandidates {
                let c = detector.candidates[ci]
                if let f = focus, f.contains(c.cx, c.cy) != (pass == 0) { continue }
                if let core, !core.contains(c.cx, c.cy) { continue }
                if c.lengthU < 2.5 * Double(detector.cellSize) { continue }
                candidateOrder[ordered] = Int32(ci)
                ordered += 1
            }
        }
        // Video frames: the lines tell which candidates cross a PDF417
        // start or stop pattern (still pictures search the whole frame).
        let pass = LinePass(
            image: image, plan: plan, enabled: enabled, frame: frame, detector: detector,
            spotsPDF417: !thorough && enabled.contains(.pdf417), frameNumber: frameNumber,
            expectedReading: expectedReading, deadline: deadline, cancellation: cancellation,
            candidateRead: candidateRead.pointer, candidateCrossesPDF417: candidateCrossesPDF417.pointer,
            order: UnsafePointer(candidateOrder.pointer), orderCount: ordered)
        candidateTurns.reset()

        // The helper, once the matrix searches are handed out, reads the
        // candidates this thread has not taken yet, with scratch memory and
        // readers of its own.
        let shared = helper != nil && helperLines != nil && ordered > 1
        if helper != nil, startedEarly {
            candidateJob = shared ? pass : nil
            stageOneDone.store(true, ordering: .releasing)
        } else if let helper {
            squareJob = square
            candidateJob = shared ? pass : nil
            openSweeps(plan)
            helper.start()
        }

        // Stage 2: decode across each candidate's bars, each candidate
        // read whole by one thread.
        readCandidates(lines, pass)
        if shared, let helper, let helperLines {
            // The helper's last candidates: meanwhile, the matrix searches
            // it has not begun.
            while candidateTurns.finished < ordered {
                if !runNextSquareTask(helper) { sched_yield() }
            }
            lines.absorb(helperLines, into: partials)
            helperLines.clearReadings()
        }

        // Frames too thin for cells (a single row, say): read every row or column.
        if image.height < 8 || image.width < 8 {
            let rowsOnly = image.width >= image.height
            for k in 0..<(rowsOnly ? image.height : image.width) {
                let line =
                    rowsOnly
                    ? ScanLine(origin: Point(x: 0, y: Double(k)), dx: 1, dy: 0, length: image.width)
                    : ScanLine(origin: Point(x: Double(k), y: 0), dx: 0, dy: 1, length: image.height)
                lines.scanLine(line, pass, thickness: 1)
            }
            assembleRows(enabled: enabled)
            return lines.votes.results(minVotes: 1)
        }

        // Thorough: sweeps over the whole frame at several angles, unless
        // the candidates read a code and not every code is wanted (the
        // sweeps find the linear codes the candidates miss: in a picture
        // whose first look read nothing, one read is what the full depth
        // was for, as the first look stops at one).
        sweptAngles = 0
        let readByCandidates = plan.sweeps ? lines.votes.results(minVotes: plan.minVotes) : []
        if plan.sweeps && !options.exhaustive && !readByCandidates.isEmpty {
            if sweepsShared {
                // None for the helper, which waits for the sweeps' opening.
                sweepJob = nil
                sweepsOpen.store(true, ordering: .releasing)
            }
        } else if plan.sweeps {
            let step = max(3, min(bounds.width, bounds.height) / 100)
            let cells = detector.tensors
            // The cells of the codes the candidates read: lines whose bars
            // are theirs can only read them again, once is enough.
            var unread: CellTensors? = nil
            if var c = cells, !readByCandidates.isEmpty {
                c.excluded = maskReadCodes(readByCandidates, c)
                unread = c
            }
            let job = SweepJob(pass: pass, step: step, bounds: bounds, cells: cells, unread: unread)
            sweepTurns.reset()
            if let helper, let helperLines, sweepsShared {
                // Shared with the helper, which reads into its own lines
                // (their candidate readings absorbed and cleared above).
                sweepJob = job
                sweepsOpen.store(true, ordering: .releasing)
                runSweeps(lines, job)
                while sweepTurns.finished < Scanner.sweepAngles.count {
                    if !runNextSquareTask(helper) { sched_yield() }
                }
                lines.absorb(helperLines, into: partials)
                helperLines.clearReadings()
            } else {
                runSweeps(lines, job)
            }
            sweptAngles = Scanner.sweepAngles.count
        }
        seekOtherRows(pass, enabled: enabled)
        assembleRows(enabled: enabled)
        var out = lines.votes.results(minVotes: plan.minVotes)
        // Codes wider than the frame, from parts of this frame and earlier ones.
        if plan.partials { partials.assemble(enabled: enabled, into: &out) }
        // Matrix codes: their own detection (finder patterns), then decoding.
        // PDF417 in video frames where the linear stage found bars.
        if !thorough { collectBarAreas(image, centredIn: core) }
        // (Still pictures: among the matrix searches.)
        matrix.readPDF417(
            image, bounds: wholeFrame ? nil : bounds, enabled: enabled, thorough: thorough,
            everySearch: plan.everySearch, barAreas: barAreas, into: &out)
        if let helper {
            while runNextSquareTask(helper) {}
            helper.wait()
            squareJob = nil
            candidateJob = nil
            measureJob = nil
            sweepJob = nil
        } else {
            // One stage after another: the codes read so far are no place
            // for a matrix code (video frames; still pictures read PDF417
            // among the matrix searches).
            prepare(square, read: thorough ? [] : out)
            if thorough {
                for task in MatrixReaders.SquareTask.allCases { matrix.run(task) }
            } else {
                matrix.runInTurn()
            }
        }
        matrix.finishSquare(into: &out)
        lastCandidateCount += matrix.lastCandidateCount
        return out
    }

    /// What the matrix codes' searches (``MatrixReaders/prepareSquare(_:bounds:enabled:thorough:everySearch:cells:)``)
    /// are given.
    private struct SquareJob {
        var image: LumaView
        var bounds: PixelRect?
        var enabled: Symbology
        var thorough: Bool
        var everySearch: Bool
        var cells: CellTensors?
    }

    /// The job handed to the helper thread, set between its start and its end.
    private var squareJob: SquareJob?
    /// The thread that runs the matrix codes' searches beside the linear
    /// stage, made on first use when ``ScanOptions/threads`` allows it.
    private var helper: HelperThread?
    /// Whether making ``helper`` failed (then it is not tried again).
    private var helperFailed = false

    /// Readies the matrix codes' searches of the frame, outside the codes
    /// `read` already.
    private func prepare(_ job: SquareJob, read: [BarcodeResult] = []) {
        matrix.prepareSquare(
            job.image, bounds: job.bounds, enabled: job.enabled, thorough: job.thorough,
            everySearch: job.everySearch, cells: job.cells, read: read)
    }

    /// The helper's part of a frame: readies the matrix codes' searches,
    /// opens them to both threads and takes them in turn until none is left.
    private func helperRun() {
        guard let helper else { return }
        // Started before stage 1: bands of cells first, then (once all are
        // measured) the matrix searches; the candidates once this thread
        // has made them.
        let early = measureJob
        if let early {
            measureBands(early)
            while bandTurns.finished < early.bands { sched_yield() }
        }
        if let job = squareJob {
            prepare(job)
            helper.openTasks(MatrixReaders.SquareTask.allCases.count)
        } else {
            helper.openTasks(0)
        }
        // Video frames: the matrix searches until the candidates are ready,
        // then the candidates, then the searches left (this thread's
        // PDF417 search, which waits for every candidate, runs beside
        // them). Still pictures: every matrix search first (the longest
        // pieces of work, which the sweeps after the candidates even out).
        let stillPicture = squareJob?.thorough ?? false
        while (stillPicture || early == nil || !stageOneDone.load(ordering: .acquiring)) && runNextSquareTask(helper) {}
        if early != nil { while !stageOneDone.load(ordering: .acquiring) { sched_yield() } }
        if let pass = candidateJob, let helperLines { readCandidates(helperLines, pass) }
        while runNextSquareTask(helper) {}
        if sweepsShared, let helperLines {
            // Once this thread's candidate readings are absorbed.
            while !sweepsOpen.load(ordering: .acquiring) { sched_yield() }
            if let job = sweepJob { sweepsByHelper = runSweeps(helperLines, job) }
        }
    }

    /// What both threads need to measure the cells of a frame in bands.
    private struct MeasureJob {
        var image: LumaView
        var bounds: PixelRect
        var flatBelow: Float
        /// A copy of the detector after ``RegionDetector/startMeasure(_:cellSize:)``
        /// (its memory is the detector's).
        var detector: RegionDetector
        /// Rows of cells a band, and how many bands.
        var bandRows: Int
        var bands: Int
    }

    /// Measures bands of the frame's cells, taking the next band no thread
    /// has taken until none is left.
    private func measureBands(_ job: MeasureJob) {
        let b = job.bounds
        while let k = bandTurns.take(below: job.bands) {
            job.detector.measureRows(
                job.image, x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1,
                cellRows: (k * job.bandRows)..<((k + 1) * job.bandRows), flatBelow: job.flatBelow)
            bandTurns.finish()
        }
    }

    /// Runs the next matrix search no thread has taken yet; false when none
    /// is left.
    private func runNextSquareTask(_ helper: HelperThread) -> Bool {
        guard let k = helper.nextTask(), let task = MatrixReaders.SquareTask(rawValue: k) else { return false }
        matrix.run(task)
        return true
    }

    /// Reads the frame's candidates with `worker` (``LinePass/order``),
    /// taking the next one no thread has taken until none is left. Once
    /// its time is up, a worker takes the rest without reading them.
    private func readCandidates(_ worker: LineWorker, _ pass: LinePass) {
        while let k = candidateTurns.take(below: pass.orderCount) {
            if !worker.outOfTime { worker.readCandidate(Int(pass.order[k]), pass, rank: k) }
            candidateTurns.finish()
        }
    }

    /// The helper thread when this scan may use one (made the first time).
    private func squareHelper() -> HelperThread? {
        guard options.threadCount > 1 else { return nil }
        if helper == nil && !helperFailed {
            helper = HelperThread { [unowned(unsafe) self] in self.helperRun() }
            helperFailed = helper == nil
            if helper != nil && ownReaders {
                // Its lines numbered from far above this thread's.
                helperLines = LineWorker(readers: makeLinearReaders(), partials: nil, firstLine: 1 << 56)
            }
        }
        return helper
    }

    /// The boxes around the largest bar regions of the frame (at most
    /// three), where video frames look for PDF417 symbols.
    private var barAreas = [BarArea](
        repeating: BarArea(box: PixelRect(x0: 0, y0: 0, x1: 0, y1: 0), ux: 1, uy: 0), count: 3)

    /// Whether each of the frame's candidates read a linear code (such a
    /// region of bars is not searched for PDF417).
    private var candidateRead = ScratchBuffer<Bool>(capacity: 64)
    /// The cells of the codes read in a still picture (``maskReadCodes(_:_:)``).
    private var readCells = ScratchBuffer<UInt8>(capacity: 64)
    /// Whether a line through each of the frame's candidates crossed a
    /// PDF417 start or stop pattern.
    private var candidateCrossesPDF417 = ScratchBuffer<Bool>(capacity: 64)

    /// Fills ``barAreas`` from the linear stage's candidates that read no
    /// linear code (those centred in `core`, when given): those whose
    /// lines crossed a PDF417 start or stop pattern first, then the largest.
    private func collectBarAreas(_ image: LumaView, centredIn core: PixelRect?) {
        barAreas.removeAll(keepingCapacity: true)
        var picked: (Int, Int, Int) = (-1, -1, -1)
        // A crossed pattern counts for more than any size.
        func cells(_ k: Int) -> Int {
            k < 0 ? -1 : detector.candidates[k].cells + (candidateCrossesPDF417[k] ? 1 << 30 : 0)
        }
        for k in 0..<detector.candidateCount where !candidateRead[k] {
            if let core, !core.contains(detector.candidates[k].cx, detector.candidates[k].cy) { continue }
            let n = cells(k)
            if n > cells(picked.0) {
                picked = (k, picked.0, picked.1)
            } else if n > cells(picked.1) {
                picked = (picked.0, k, picked.1)
            } else if n > cells(picked.2) {
                picked.2 = k
            }
        }
        let margin = Double(detector.cellSize)
        for k in [picked.0, picked.1, picked.2] where k >= 0 {
            let c = detector.candidates[k]
            // Half extents of the region's box, a sixth more for the
            // start and stop patterns at its ends.
            let hx = (abs(c.ux) * c.lengthU + abs(c.uy) * c.lengthV) * 0.58 + margin
            let hy = (abs(c.uy) * c.lengthU + abs(c.ux) * c.lengthV) * 0.58 + margin
            let box = PixelRect(
                x0: max(0, Int(c.cx - hx)), y0: max(0, Int(c.cy - hy)),
                x1: min(image.width, Int(c.cx + hx)), y1: min(image.height, Int(c.cy + hy)))
            if box.width >= 16 && box.height >= 8 {
                barAreas.append(BarArea(box: box, ux: c.ux, uy: c.uy, crossesPattern: candidateCrossesPDF417[k]))
            }
        }
    }

    /// Marks, in `readCells` (one a cell of `cells`), the cells whose
    /// centres lie within the box of a linear code of `codes`, or within
    /// half a cell of it, and returns it.
    private func maskReadCodes(_ codes: [BarcodeResult], _ cells: CellTensors) -> UnsafePointer<UInt8> {
        let n = cells.cols * cells.rows
        readCells.reserve(n)
        let mask = readCells.pointer
        for i in 0..<n { mask[i] = 0 }
        let size = Double(cells.cellSize), margin = size / 2
        for code in codes where code.corners.count == 4 && code.symbology.isDisjoint(with: MatrixReaders.symbologies) {
            let o = code.corners[0], a = code.corners[1], d = code.corners[3]
            let lu = o.distance(to: a), lv = o.distance(to: d)
            guard lu > 0, lv > 0 else { continue }
            let ux = (a.x - o.x) / lu, uy = (a.y - o.y) / lu, vx = (d.x - o.x) / lv, vy = (d.y - o.y) / lv
            let xs = code.corners.map(\.x), ys = code.corners.map(\.y)
            guard xs.allSatisfy(\.isFinite), ys.allSatisfy(\.isFinite) else { continue }
            // The cells the box's bounds reach (clamped before any conversion to Int).
            func cell(_ v: Double, _ count: Int) -> Int { Int(min(max(v / size, 0), Double(count - 1))) }
            let cx0 = cell(xs.min()! - margin, cells.cols), cx1 = cell(xs.max()! + margin, cells.cols)
            let cy0 = cell(ys.min()! - margin, cells.rows), cy1 = cell(ys.max()! + margin, cells.rows)
            guard cx0 <= cx1, cy0 <= cy1 else { continue }
            for cy in cy0...cy1 {
                for cx in cx0...cx1 {
                    let px = (Double(cx) + 0.5) * size - o.x, py = (Double(cy) + 0.5) * size - o.y
                    let pu = px * ux + py * uy, pv = px * vx + py * vy
                    if pu >= -margin, pu <= lu + margin, pv >= -margin, pv <= lv + margin {
                        mask[cy * cells.cols + cx] = 1
                    }
                }
            }
        }
        return UnsafePointer(mask)
    }

    /// DataBar Stacked (ISO/IEC 24724, clause "GS1 DataBar Stacked"): the
    /// upper row is 5 modules high, the separator 1, the lower row 7, so
    /// the upper row (and a small symbol's lower one) may hold too few of
    /// the detection pass's cells to be a candidate of its own, and the
    /// lines across the other row miss it. For each half read alike by two
    /// lines or more that no half of the other side completes: lines
    /// parallel to it, 3 to 11 modules above and below, 1.5 modules apart,
    /// where the other row lies, read for DataBar alone.
    private func seekOtherRows(_ pass: LinePass, enabled: Symbology) {
        guard seeksOtherRows, enabled.contains(.dataBar), let reader = dataBarReader, lines.rows.count > 0 else {
            return
        }
        let lonely = reader.lonelyHalves(lines.rows)
        guard !lonely.isEmpty else { return }
        var sought: [Point] = []
        lines.rowsCrossBars = false
        defer { lines.rowsCrossBars = true }
        for r in lonely.prefix(4) {
            let row = lines.rows[r]
            let len = row.length
            guard len >= 16 else { continue }
            // A half spans 46 modules between its guards.
            let module = len / 46
            let middle = row.middle
            // A half read both ways (as a left half one way, a right half
            // the other) is sought once.
            if sought.contains(where: { $0.distance(to: middle) < 2 * module }) { continue }
            sought.append(middle)
            let ux = (row.p1.x - row.p0.x) / len, uy = (row.p1.y - row.p0.y) / len
            for k in 0..<6 {
                let across = (3 + 1.5 * Double(k)) * module
                for s in 0..<2 {
                    let side = s == 0 ? -1.0 : 1.0
                    let center = Point(x: middle.x - side * across * uy, y: middle.y + side * across * ux)
                    guard
                        let line = ScanLine.clipped(
                            center: center, dx: ux, dy: uy, halfLength: len / 2 + 6 * module,
                            bounds: pass.frame)
                    else { continue }
                    lines.scanLine(line, pass, enabled: .dataBar, retries: false)
                }
            }
        }
    }

    /// Lets the stacked readers assemble the rows read in the frame into
    /// symbols, which join the votes with every row's line.
    private func assembleRows(enabled: Symbology) {
        guard lines.rows.count > 0 else { return }
        for reader in stackedReaders where !reader.symbologies.isDisjoint(with: enabled) {
            lines.sink.reset()
            let made = reader.assemble(lines.rows, enabled: enabled, into: &lines.sink)
            for (h, used) in made.enumerated() where h < lines.sink.hitCount && !used.isEmpty {
                lines.votes.addAssembled(lines.sink.hits[h], from: lines.sink, rows: lines.rows, used: used)
            }
        }
    }

    /// Parallel lines at `angle` across `bounds`, `step` pixels apart:
    /// those that cross bars by the detection pass's `cells` (every line
    /// when nil). `unread`: the same cells with those of the codes read
    /// already excluded, which tell the lines that get retries.
    private func sweep(
        _ worker: LineWorker, _ pass: LinePass, angle: Double, step: Int, bounds: PixelRect,
        cells: CellTensors?, unread: CellTensors?
    ) {
        let plan = pass.plan
        let ux = cos(angle), uy = sin(angle)
        let vx = -uy, vy = ux
        let cx = Double(bounds.x0 + bounds.x1) / 2, cy = Double(bounds.y0 + bounds.y1) / 2
        let halfDiag = (Double(bounds.width * bounds.width + bounds.height * bounds.height)).squareRoot() / 2
        for t in stride(from: -halfDiag + Double(step) / 2, to: halfDiag, by: Double(step)) {
            let center = Point(x: cx + t * vx, y: cy + t * vy)
            if let line = ScanLine.clipped(
                center: center, dx: ux, dy: uy, halfLength: halfDiag, bounds: bounds,
                step: plan.sweepStep)
            {
                // Only lines that cross bars, and only their part over the
                // bars and the quiet zones (``CellTensors/partOverBars(_:minCells:minEnergy:dominance:maxAngle:)``).
                // A line that crosses fewer than two cells of bars holds no
                // code the sweeps could read; one that crosses fewer than
                // six (``sweepRetryCells``), not counting those of codes
                // read already, is read once, without the retries, which pay
                // on codes not read yet, not on the texture and text most
                // lines cross.
                var read = line, retries = true
                if let cells {
                    guard
                        let part = cells.partOverBars(
                            line, minCells: 2, minEnergy: 0.25 * plan.minEnergy,
                            dominance: Scanner.sweepDominance, marginCells: 3,
                            marginShare: 0.5)
                    else { continue }
                    read = part.line
                    retries = part.cells >= Scanner.sweepRetryCells
                    if retries, let unread {
                        retries =
                            unread.barsCrossed(
                                by: read, minEnergy: 0.25 * plan.minEnergy,
                                dominance: Scanner.sweepDominance
                            ).cells >= Scanner.sweepRetryCells
                    }
                }
                worker.scanLine(read, pass, retries: retries)
            }
        }
    }

    /// The cells of bars a sweep line must cross, not counting those of
    /// codes read already, to get the retries: 96 pixels of bars (48 in
    /// pictures under 400 pixels, whose cells are 8 pixels). Shorter runs
    /// of bars are mostly text and texture; a code that short is a
    /// candidate of its own, whose lines get retries.
    static let sweepRetryCells = 6

    /// The sweeps' angles, in 15-degree steps, in the order they are taken:
    /// the two read at the full step (twice the lines) first, so that two
    /// threads end close together.
    static let sweepAngles = [0, 6, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11]

    /// What the sweeps of a still picture need, shared by both threads.
    private struct SweepJob {
        var pass: LinePass
        var step: Int
        var bounds: PixelRect
        var cells: CellTensors?
        var unread: CellTensors?
    }

    /// Sets whether the helper thread, once its candidates are read, waits
    /// for the sweeps (``plan``'s) and shares them; called before it starts.
    private func openSweeps(_ plan: Plan) {
        sweepsShared = plan.sweeps && helperLines != nil
        sweepsOpen.store(false, ordering: .relaxed)
        sweepJob = nil
        sweepsByHelper = 0
    }

    /// Reads the sweeps with `worker`, taking the next angle no thread has
    /// taken until none is left.
    /// - Returns: how many angles it took.
    @discardableResult
    private func runSweeps(_ worker: LineWorker, _ job: SweepJob) -> Int {
        let angles = Scanner.sweepAngles
        var taken = 0
        while let k = sweepTurns.take(below: angles.count) {
            taken += 1
            let a = angles[k]
            sweep(
                worker, job.pass, angle: Double(a) * Double.pi / 12, step: a % 6 == 0 ? job.step : job.step * 2,
                bounds: job.bounds, cells: job.cells, unread: job.unread)
            sweepTurns.finish()
        }
        return taken
    }

    /// How much stronger than across it the gradients along a sweep line
    /// (or a candidate's line, for its retries) must be in a cell for the
    /// line to count as crossing bars there: bars turned up to 19 degrees
    /// from square to the line (the sweeps are 15 degrees apart).
    static let sweepDominance: Float = 8

    /// The fewest edges a scan line must cross to be read: fewer hold no
    /// symbol of the lengths the linear readers accept.
    static let minLineEdges = 20

}

/// The parts of a frame one scan looked at (``Scanner/lastScannedArea``):
/// up to two rectangles, in pixels; none when the scan looked nowhere.
public struct ScannedArea: Sendable, Equatable {
    private var first: PixelRect?
    private var second: PixelRect?

    /// Nowhere.
    public init() {}

    init(_ first: PixelRect?, _ second: PixelRect? = nil) {
        self.first = first
        self.second = second
    }

    /// Whether the scan looked at the point (`x`, `y`), in pixels.
    public func contains(x: Double, y: Double) -> Bool {
        (first?.contains(x, y) ?? false) || (second?.contains(x, y) ?? false)
    }
}
