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
    private let qrReader = QRReader()
    /// Data Matrix ECC 200 (ISO/IEC 16022, DMRE of ISO/IEC 21471).
    private let dataMatrixReader = DataMatrixReader()

    /// Aztec Code and Aztec Runes (ISO/IEC 24778).
    private let aztecReader = AztecReader()
    /// PDF417 (ISO/IEC 15438).
    private let pdf417Reader = PDF417Reader()
    /// MicroPDF417 (ISO/IEC 24728), enabled with PDF417.
    private let microPDF417Reader = MicroPDF417Reader()
    /// The frame's areas with 2D texture, which every matrix reader searches.
    private var regionFinder = MatrixRegionDetector()
    /// The half-size copy of a video frame (or of the part being scanned)
    /// where HD frames look for Data Matrix and Aztec symbols.
    private var halfPixels = ScratchBuffer<UInt8>(capacity: 1)
    /// The areas with 2D texture in the half-size copy.
    private var halfRegions = MatrixRegionDetector()
    /// The insides of the codes taken out of `regionFinder`'s and
    /// `halfRegions`' areas in this frame (``carve(_:frame:halfRect:)``).
    private var carved: [PixelRect] = []
    private var halfCarved: [PixelRect] = []
    /// The block thresholds of the areas in the frame and in the half-size
    /// copy, measured once for the readers that search the same areas
    /// (empty when one reader or none does).
    private let regionThresholds = AreaThresholds()
    private let halfThresholds = AreaThresholds()
    /// The frame's turn among four video frames, to share the searches out among them.
    private var videoTurn = 0

    init() {}

    /// Starts frame `number` of its stream (from 1; ``Scanner/scan(_:frameNumber:)``):
    /// the searches shared out among video frames take their turns by it
    /// (a frame read in parts, an active region and a tile of the rest, is
    /// one turn), so that scanners sharing a stream, each a frame of its
    /// own, share the turns out as one scanner given every frame would.
    func startFrame(number: Int) {
        videoTurn = (number % 4 + 4) % 4
        firstFrame = number <= 1
    }

    /// Whether this is the first frame of its stream, which gets every
    /// search, so that a single picture scanned at video settings is read
    /// whole.
    private var firstFrame = false

    deinit { regionFinder.free(); halfRegions.free(); halfPixels.free() }

    /// What the matrix readers can read.
    static let symbologies: Symbology = [.qrCode, .dataMatrix, .aztec, .pdf417]

    /// How many symbol-like places (finder patterns grouped into symbols)
    /// the last read saw, read or not (its parts together when they were
    /// called apart).
    var lastCandidateCount: Int { tasks.candidateCount }
    /// Each search's candidates, deadline and results: each written by
    /// the thread that ran it.
    private let tasks = MatrixTaskTable()
    /// When the frame's analysis must stop (``MonotonicClock/now``); `.max`: never.
    /// Checked before each symbology's search, and inside its loops.
    var deadline: UInt64 = .max {
        didSet { shareStop() }
    }
    /// Stops the searches from another thread, checked with the deadline.
    var cancellation: ScanCancellation? = nil {
        didSet { shareStop() }
    }
    /// Gives every reader the deadline and the cancellation for its loops.
    private func shareStop() {
        let stop = ScanStop(deadline: deadline, cancellation: cancellation)
        qrReader.detector.stop = stop
        regionFinder.stop = stop
        dataMatrixReader.stop = stop
        aztecReader.stop = stop
        pdf417Reader.stop = stop
        microPDF417Reader.stop = stop
    }
    /// The deadline passed before the searches were prepared.
    private var prepareTimedOut = false
    /// Whether the last read left out a search because the deadline had passed.
    var timedOut: Bool { tasks.timedOut || prepareTimedOut }
    /// True (and the search's ``MatrixTaskState/timedOut`` set) once the
    /// deadline has passed.
    private func late(_ task: MatrixTaskState) -> Bool {
        if !task.timedOut && cancellation.stops(deadline: deadline) { task.timedOut = true }
        return task.timedOut
    }

    /// Finds and decodes the enabled matrix codes inside `bounds` and
    /// appends them to `out`, every step on the calling thread:
    /// ``readPDF417(_:bounds:enabled:thorough:everySearch:barAreas:into:)``, then
    /// ``prepareSquare(_:bounds:enabled:thorough:everySearch:cells:)``, every
    /// ``SquareTask`` and ``finishSquare(into:)``.
    func read(
        _ image: LumaView, bounds: PixelRect?, enabled: Symbology, thorough: Bool = true,
        everySearch: Bool = false, cells: CellTensors? = nil, barAreas: [BarArea] = [],
        into out: inout [BarcodeResult]
    ) {
        readPDF417(
            image, bounds: bounds, enabled: enabled, thorough: thorough, everySearch: everySearch,
            barAreas: barAreas, into: &out)
        prepareSquare(
            image, bounds: bounds, enabled: enabled, thorough: thorough, everySearch: everySearch,
            cells: cells)
        for task in SquareTask.allCases { run(task) }
        finishSquare(into: &out)
    }

    /// PDF417 in video frames: its own search for start and stop
    /// patterns. Touches none of the state of the ``SquareTask``s, so it
    /// may run at the same time as one of them. Still pictures
    /// (`thorough`) search for PDF417 and MicroPDF417 among the
    /// ``SquareTask``s instead: nothing here.
    ///
    /// `barAreas` are where video frames look for PDF417 (the largest
    /// regions of bars the linear stage found). Video frames search the
    /// regions of bars whose lines crossed a start or stop pattern in every
    /// frame, the others in one frame of four and with a third of the
    /// lines (a code in view stays there for many frames); a scanner's
    /// first frame, and with `everySearch` (the seldom tiles of the rest of
    /// a frame with an active region), every time.
    func readPDF417(
        _ image: LumaView, bounds: PixelRect?, enabled: Symbology, thorough: Bool,
        everySearch: Bool = false, barAreas: [BarArea], into out: inout [BarcodeResult]
    ) {
        guard !thorough else { return }
        let task = tasks[.videoPDF417]
        task.candidateCount = 0
        task.timedOut = false
        guard enabled.contains(.pdf417), image.width >= 10, image.height >= 10 else { return }
        let pdf417Turn = firstFrame || everySearch || videoTurn == 2
        guard pdf417Turn || barAreas.contains(where: \.crossesPattern), !late(task) else { return }
        // PDF417 only. The MicroPDF417 search (row address patterns along
        // lines at many angles) would cost about as much as every other
        // search of an HD frame together; MicroPDF417 is read in still
        // pictures. After a scanner's first frame, a region whose lines
        // crossed no start or stop pattern (most often a linear code) gets
        // a third of the search lines.
        let frame = bounds ?? PixelRect(x0: 0, y0: 0, x1: image.width, y1: image.height)
        for area in barAreas where pdf417Turn || area.crossesPattern {
            let lines = area.crossesPattern || firstFrame ? 24 : 8
            let before = out.count
            pdf417Reader.read(
                image, bounds: area.box, thorough: false, across: (area.ux, area.uy), lines: lines, into: &out)
            task.candidateCount += pdf417Reader.lastCandidateCount
            if late(task) { return }
            // A start or stop pattern but no symbol: the region may hold a
            // part of one only (the linear stage split the symbol, at a
            // change of texture or where the frame's halves meet). Again
            // over its box widened along its rows by twice its width and
            // height, with search lines as close as before.
            if out.count == before, pdf417Reader.lastPatternCount > 0,
                let wider = area.alongRows(by: 2 * Double(area.box.width + area.box.height), within: frame),
                wider != area.box
            {
                pdf417Reader.read(
                    image, bounds: wider, thorough: false, across: (area.ux, area.uy),
                    step: pdf417Reader.lastStep, into: &out)
                task.candidateCount += pdf417Reader.lastCandidateCount
                if late(task) { return }
            }
        }
    }

    /// The searches for QR Code, Data Matrix and Aztec Code, after
    /// ``prepareSquare(_:bounds:enabled:thorough:everySearch:cells:)``. Each touches
    /// a reader and memory of its own (what the preparation made they only
    /// read), so two threads may run one each at the same time; their
    /// results wait for ``finishSquare(into:)``. Handed out in this order,
    /// the costliest first, so that the two threads end close together.
    /// Still pictures' MicroPDF417 search is one of them too, so that it
    /// runs beside the PDF417 search.
    enum SquareTask: Int, CaseIterable {
        /// Data Matrix: in the frame itself in the frames whose turn it is,
        /// and in the half-size copy of HD video frames.
        case dataMatrix
        /// PDF417 in still pictures (video frames: ``readPDF417(_:bounds:enabled:thorough:everySearch:barAreas:into:)``).
        case pdf417
        /// MicroPDF417, in still pictures only (row address patterns along
        /// lines at many angles: as costly as every other search of an HD
        /// video frame together).
        case microPDF417
        /// QR Code (and Micro QR).
        case qr
        /// Aztec Code, as Data Matrix.
        case aztec
    }

    /// What ``prepareSquare(_:bounds:enabled:thorough:everySearch:cells:)`` set for the
    /// tasks of the frame.
    private struct SquarePlan {
        var image: LumaView
        var bounds: PixelRect?
        var wanted: Symbology
        var thorough: Bool
        var aztecTurn: Bool
        var dataMatrixTurn: Bool
        /// Data Matrix components examined in video frames: a whole
        /// frame's four shared out by area, so that an active region and a
        /// tile of the rest of the frame cost no more than the frame, at
        /// least one each.
        var dataMatrixBudget: Int
        /// The half-size copy of `half`'s rectangle of the frame, which HD
        /// video frames search for Data Matrix and Aztec Code (nil: none).
        var half: (view: LumaView, rect: PixelRect)?
        /// The detection pass's cells, along which MicroPDF417 is looked for.
        var cells: CellTensors?
    }
    private var squarePlan: SquarePlan?

    /// Readies the searches for QR Code, Data Matrix and Aztec Code inside
    /// `bounds` (the whole frame when nil): finds the frame's areas with 2D
    /// texture, which every one of them searches, and decides which
    /// searches this frame gets.
    /// With `thorough` (still pictures), symbols that fail to decode are
    /// sampled again in other ways; video frames skip that cost.
    /// With `everySearch` (the seldom tiles of the rest of a frame with an
    /// active region) the full-size Data Matrix and Aztec searches run
    /// whichever frame's turn it is.
    /// `cells`, when given, are the frame's gradient cells as the linear
    /// stage measured them: the search for matrix-code regions reuses them
    /// (they must stay unchanged until the tasks are done).
    ///
    /// `read`: codes this frame read already (video frames searched one
    /// stage after another): their insides are taken out of the areas
    /// searched (``MatrixRegionDetector/carve(_:)``), as no other code can
    /// lie there (a PDF417 symbol's codewords look like 2D texture).
    func prepareSquare(
        _ image: LumaView, bounds: PixelRect?, enabled: Symbology, thorough: Bool,
        everySearch: Bool = false, cells: CellTensors?, read: [BarcodeResult] = []
    ) {
        for search in MatrixTaskTable.Search.allCases where search != .videoPDF417 { tasks[search].reset() }
        prepareTimedOut = false
        squarePlan = nil
        let wanted = enabled.intersection(
            thorough ? [.qrCode, .dataMatrix, .aztec, .pdf417] : [.qrCode, .dataMatrix, .aztec])
        guard !wanted.isEmpty, image.width >= 10, image.height >= 10 else { return }
        qrReader.detector.options.rescueFailedSymbols = thorough
        // Video frames: every third row (every fourth in HD frames, whose
        // codes are rarely under 2 pixels a module), which still crosses the
        // centre of a finder pattern of 2-pixel modules (6 pixels tall).
        qrReader.detector.options.rowStep = thorough ? 2 : min(image.width, image.height) >= 720 ? 4 : 3
        // The areas with 2D texture, once for every matrix reader.
        regionFinder.findAll(image, bounds: bounds, cells: cells)
        if cancellation.stops(deadline: deadline) {
            prepareTimedOut = true
            return
        }
        carved.removeAll(keepingCapacity: true)
        halfCarved.removeAll(keepingCapacity: true)
        carve(read, halfRect: nil)
        // Video frames share out the costlier searches: Aztec Code in one
        // frame of four, Data Matrix in the next (a code in view stays
        // there for many frames: each is looked for seven times a second at
        // 30 fps); still pictures, a scanner's first frame and the seldom
        // tiles of a frame's rest get every one. HD video frames (720
        // lines or more) look for Aztec Code and Data Matrix in every frame
        // in a half-size copy too (``halve(_:bounds:wanted:)``), where most
        // of their modules are 2 pixels or more; the turns of the frame
        // itself read the symbols whose modules the copy blurs together.
        let halfScale = !thorough && min(image.width, image.height) >= 720
        let everything = thorough || firstFrame || everySearch
        let plan = SquarePlan(
            image: image, bounds: bounds, wanted: wanted, thorough: thorough,
            aztecTurn: everything || videoTurn == 0,
            dataMatrixTurn: everything || videoTurn == 1,
            dataMatrixBudget: MatrixReaders.dataMatrixBudget(bounds, of: image),
            half: halfScale ? halve(image, bounds: bounds, wanted: wanted) : nil, cells: cells)
        // The areas' thresholds, once, where two readers or more search them.
        let fullReaders =
            (wanted.contains(.qrCode) && image.width >= 21 && image.height >= 21 ? 1 : 0)
            + (plan.dataMatrixTurn && wanted.contains(.dataMatrix) ? 1 : 0)
            + (plan.aztecTurn && wanted.contains(.aztec) && image.width >= 11 && image.height >= 11 ? 1 : 0)
        // The half-size copy's areas are the frame's, halved and merged
        // again: the codes read are taken out of them too.
        carve(read, frame: false, halfRect: plan.half?.rect)
        regionThresholds.clear()
        halfThresholds.clear()
        if fullReaders >= 2 {
            regionThresholds.prepare(image, regions: regionFinder, minContrast: AreaThresholds.minContrast)
        }
        if let half = plan.half, wanted.isSuperset(of: [.dataMatrix, .aztec]) {
            halfThresholds.prepare(half.view, regions: halfRegions, minContrast: AreaThresholds.minContrast)
        }
        squarePlan = plan
    }

    /// The box inside a code's four corners (a convex quadrilateral): its
    /// second and third smallest x and y, a pixel in from each side; nil
    /// when that leaves nothing (a code turned near 45 degrees).
    static func inside(_ corners: [Point]) -> PixelRect? {
        guard corners.count == 4 else { return nil }
        /// The second and third smallest of four numbers.
        func middle(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> (Double, Double) {
            // The larger of the pairs' smaller ones and the smaller of their larger ones.
            let lows = max(min(a, b), min(c, d)), highs = min(max(a, b), max(c, d))
            return (min(lows, highs), max(lows, highs))
        }
        let (x0, x1) = middle(corners[0].x, corners[1].x, corners[2].x, corners[3].x)
        let (y0, y1) = middle(corners[0].y, corners[1].y, corners[2].y, corners[3].y)
        guard x0.isFinite, x1.isFinite, y0.isFinite, y1.isFinite, x1 - x0 > 2, y1 - y0 > 2,
            abs(x0) < 1e9, abs(x1) < 1e9, abs(y0) < 1e9, abs(y1) < 1e9
        else { return nil }
        let box = PixelRect(
            x0: Int(x0.rounded(.up)) + 1, y0: Int(y0.rounded(.up)) + 1,
            x1: Int(x1.rounded(.down)) - 1, y1: Int(y1.rounded(.down)) - 1)
        return box.width > 0 && box.height > 0 ? box : nil
    }

    /// Runs one search of the frame (nothing when the frame wants none).
    func run(_ task: SquareTask) {
        guard let plan = squarePlan else { return }
        switch task {
        case .dataMatrix: readDataMatrix(plan, into: &tasks[.dataMatrix].results)
        case .qr: readQR(plan, into: &tasks[.qr].results)
        case .aztec: readAztec(plan, into: &tasks[.aztec].results)
        case .microPDF417: readMicroPDF417(plan, into: &tasks[.microPDF417].results)
        case .pdf417: readStillPDF417(plan, into: &tasks[.stillPDF417].results)
        }
    }

    /// Runs every search of a video frame on the calling thread, one after
    /// another, each outside the codes the ones before it read: QR Code
    /// first (the commonest), then Data Matrix, then Aztec Code. No code
    /// can lie inside another, and a symbol's modules look like 2D texture
    /// to every search. (The same results as ``run(_:)`` for every task,
    /// at less cost where a code is read.)
    func runInTurn() {
        let halfRect = squarePlan?.half?.rect
        run(.qr)
        MatrixReaders.dropRepeats(&tasks[.qr].results)
        carve(tasks[.qr].results, halfRect: halfRect)
        run(.dataMatrix)
        MatrixReaders.dropRepeats(&tasks[.dataMatrix].results)
        carve(tasks[.dataMatrix].results, halfRect: halfRect)
        run(.aztec)
        MatrixReaders.dropRepeats(&tasks[.aztec].results)
        run(.pdf417)
        run(.microPDF417)
    }

    /// Keeps the first of each code read more than once (in two parts of a
    /// carved area, which overlap in its corners).
    private static func dropRepeats(_ results: inout [BarcodeResult]) {
        var k = 1
        while k < results.count {
            if results[..<k].contains(where: { $0.isSameCode(as: results[k]) }) {
                results.remove(at: k)
            } else {
                k += 1
            }
        }
    }

    /// The areas of 2D texture as the last frame's searches left them (in
    /// the frame, and in its half-size copy with that copy's rectangle of
    /// the frame).
    var searchAreas: (frame: [PixelRect], half: [PixelRect], halfRect: PixelRect?) {
        (
            (0..<regionFinder.regionCount).map { regionFinder.regions[$0] },
            (0..<halfRegions.regionCount).map { halfRegions.regions[$0] }, squarePlan?.half?.rect
        )
    }

    /// Takes the insides of `codes` (read in this frame, corners in frame
    /// pixels) out of the areas the searches to come look through: the
    /// frame's (with `frame`) and those of the half-size copy of the
    /// frame's `halfRect` (when given; there, the copy's pixels wholly
    /// inside a code).
    private func carve(_ codes: [BarcodeResult], frame: Bool = true, halfRect r: PixelRect?) {
        for code in codes {
            if cancellation.stops(deadline: deadline) { return }
            guard let inside = MatrixReaders.inside(code.corners) else { continue }
            if frame {
                regionFinder.carve(inside)
                carved.append(inside)
            }
            if let r {
                // The copy's pixel k covers the frame's 2k and 2k + 1 from the rectangle's corner.
                let box = PixelRect(
                    x0: (inside.x0 - r.x0 + 1) >> 1, y0: (inside.y0 - r.y0 + 1) >> 1,
                    x1: (inside.x1 - r.x0) >> 1, y1: (inside.y1 - r.y0) >> 1)
                halfRegions.carve(box)
                halfCarved.append(box)
            }
        }
    }

    /// Appends the results of the frame's tasks to `out`, in the same
    /// order whichever thread ran them: Aztec Code, Data Matrix, QR Code.
    func finishSquare(into out: inout [BarcodeResult]) {
        for search in [MatrixTaskTable.Search.aztec, .dataMatrix, .qr, .stillPDF417, .microPDF417] {
            out.append(contentsOf: tasks[search].results)
        }
    }

    /// PDF417 in still pictures (``SquareTask/pdf417``).
    private func readStillPDF417(_ plan: SquarePlan, into out: inout [BarcodeResult]) {
        let task = tasks[.stillPDF417]
        guard plan.thorough, plan.wanted.contains(.pdf417), !late(task) else { return }
        pdf417Reader.read(
            MatrixSearch(image: plan.image, bounds: plan.bounds, thorough: true, cells: plan.cells), into: &out)
        task.candidateCount += pdf417Reader.lastCandidateCount
        _ = late(task)
    }

    /// MicroPDF417 (``SquareTask/microPDF417``): still pictures only.
    private func readMicroPDF417(_ plan: SquarePlan, into out: inout [BarcodeResult]) {
        let task = tasks[.microPDF417]
        guard plan.thorough, plan.wanted.contains(.pdf417), !late(task) else { return }
        microPDF417Reader.read(
            MatrixSearch(image: plan.image, bounds: plan.bounds, thorough: true, cells: plan.cells), into: &out)
        task.candidateCount += microPDF417Reader.lastCandidateCount
        _ = late(task)
    }

    /// Aztec Code (``SquareTask/aztec``).
    private func readAztec(_ plan: SquarePlan, into out: inout [BarcodeResult]) {
        guard plan.wanted.contains(.aztec) else { return }
        readFullAndHalf(aztecReader, plan, turn: plan.aztecTurn, task: tasks[.aztec], into: &out)
    }

    /// Data Matrix (``SquareTask/dataMatrix``).
    private func readDataMatrix(_ plan: SquarePlan, into out: inout [BarcodeResult]) {
        guard plan.wanted.contains(.dataMatrix) else { return }
        readFullAndHalf(dataMatrixReader, plan, turn: plan.dataMatrixTurn, task: tasks[.dataMatrix], into: &out)
    }

    /// The Data Matrix components a video frame's search of `bounds` (the
    /// whole frame when nil) examines: the whole frame's budget times the
    /// share of the frame, rounded up, one at least.
    static func dataMatrixBudget(_ bounds: PixelRect?, of image: LumaView) -> Int {
        let whole = DMDetector.Options().examineBudget
        guard let b = bounds, image.width > 0, image.height > 0 else { return whole }
        let share = Double(max(0, b.width) * max(0, b.height)) / (Double(image.width) * Double(image.height))
        return min(whole, max(1, Int((Double(whole) * share).rounded(.up))))
    }

    /// One of Aztec Code and Data Matrix: `reader` searches the frame
    /// itself when it is the frame's `turn`, and the half-size copy of HD
    /// video frames (each with its areas, their thresholds and the insides
    /// of the codes carved out of them); its candidates count for `task`.
    private func readFullAndHalf<Reader: MatrixReader>(
        _ reader: Reader, _ plan: SquarePlan, turn: Bool, task: MatrixTaskState, into out: inout [BarcodeResult]
    ) {
        if turn && !late(task) {
            let search = MatrixSearch(
                image: plan.image, bounds: plan.bounds, thorough: plan.thorough, regions: regionFinder,
                prepared: regionThresholds, avoiding: carved, examineBudget: plan.dataMatrixBudget)
            reader.read(search, into: &out)
            task.candidateCount += reader.lastCandidateCount
        }
        if let half = plan.half, !late(task) {
            let first = out.count
            let search = MatrixSearch(
                image: half.view, bounds: nil, thorough: false, regions: halfRegions, prepared: halfThresholds,
                avoiding: halfCarved, examineBudget: plan.dataMatrixBudget)
            reader.read(search, into: &out)
            task.candidateCount += reader.lastCandidateCount
            MatrixReaders.fromHalf(&out, from: first, rect: half.rect)
        }
        _ = late(task)
    }

    /// Maps the results `out[first...]`, read in the half-size copy of
    /// `rect`, to frame coordinates, and drops those that the search of
    /// the frame itself read too (`out[..<first]`).
    private static func fromHalf(_ out: inout [BarcodeResult], from first: Int, rect: PixelRect) {
        var k = first
        while k < out.count {
            out[k].corners = out[k].corners.map { LumaView.fromHalf($0, of: rect) }
            if out[..<first].contains(where: { $0.isSameCode(as: out[k]) }) { out.remove(at: k) } else { k += 1 }
        }
    }

    /// QR Code and Micro QR (``SquareTask/qr``).
    private func readQR(_ plan: SquarePlan, into out: inout [BarcodeResult]) {
        let image = plan.image, task = tasks[.qr]
        guard plan.wanted.contains(.qrCode), image.width >= 21, image.height >= 21, !late(task) else { return }
        let search = MatrixSearch(
            image: image, bounds: plan.bounds, thorough: plan.thorough, regions: regionFinder,
            prepared: regionThresholds)
        qrReader.read(search, into: &out)
        task.candidateCount += qrReader.lastCandidateCount
        _ = late(task)
    }

    /// The half-size copy of `bounds` (the whole frame when nil) where HD
    /// video frames look for Data Matrix and Aztec symbols in every frame,
    /// at a quarter of the cost of a search of the frame itself, with its
    /// areas of 2D texture found (``halfRegions``); nil when there is
    /// nothing to search.
    ///
    /// Only where the frame has 2D texture (the box around the areas that
    /// the frame's own search found, which include a coarse pass for large
    /// modules), so that the cost follows what is in view.
    private func halve(_ image: LumaView, bounds: PixelRect?, wanted: Symbology) -> (view: LumaView, rect: PixelRect)? {
        guard !wanted.isDisjoint(with: [.dataMatrix, .aztec]), let box = regionFinder.extent else { return nil }
        let limit = bounds ?? PixelRect(x0: 0, y0: 0, x1: image.width, y1: image.height)
        let rect = PixelRect(
            x0: max(limit.x0, box.x0 - 16) & ~1, y0: max(limit.y0, box.y0 - 16) & ~1,
            x1: min(limit.x1, box.x1 + 16), y1: min(limit.y1, box.y1 + 16))
        guard rect.width >= 40, rect.height >= 40 else { return nil }
        let half = image.halved(rect, into: &halfPixels)
        halfRegions.halve(regionFinder, rect: rect, width: half.width, height: half.height)
        return (half, rect)
    }
}
