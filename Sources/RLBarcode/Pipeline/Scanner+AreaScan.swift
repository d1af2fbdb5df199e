#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// One area of a frame, stage after stage.
extension Scanner {
    /// Scans `bounds` (the whole frame when `wholeFrame`); with
    /// `centredIn`, only the linear candidates centred there are read.
    ///
    /// The stages in turn: the detection pass (``findCandidates(_:bounds:wholeFrame:enabled:plan:helper:startedEarly:)``),
    /// the candidates in reading order (``orderCandidates(_:centredIn:wholeFrame:frame:enabled:plan:)``),
    /// their lines (``shareCandidates(_:square:helper:startedEarly:plan:)``), the
    /// sweeps of still pictures (``sweepStill(_:bounds:plan:helper:)``), then
    /// the rows of stacked symbols and the matrix codes (``finishArea(_:_:bounds:centredIn:wholeFrame:enabled:plan:square:helper:)``).
    func scanArea(
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

        // The helper thread (see ``findCandidates(_:bounds:wholeFrame:enabled:plan:helper:startedEarly:)``).
        let helper = image.height >= 8 && image.width >= 8 ? squareHelper() : nil
        let startedEarly = helper != nil && bounds.height >= 16 * plan.cellSize
        let square = findCandidates(
            image, bounds: bounds, wholeFrame: wholeFrame, enabled: enabled, plan: plan, helper: helper,
            startedEarly: startedEarly)
        let pass = orderCandidates(
            image, centredIn: core, wholeFrame: wholeFrame, frame: frame, enabled: enabled, plan: plan)
        shareCandidates(pass, square: square, helper: helper, startedEarly: startedEarly, plan: plan)

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

        sweepStill(pass, bounds: bounds, plan: plan, helper: helper)
        return finishArea(
            image, pass, bounds: bounds, centredIn: core, wholeFrame: wholeFrame, enabled: enabled, plan: plan,
            square: square, helper: helper)
    }

    /// Stage 1: measures the cells of `bounds` and groups them into
    /// candidates, with `helper` measuring bands beside this thread when it
    /// `startedEarly`. Returns what the matrix codes' searches are given.
    private func findCandidates(
        _ image: LumaView, bounds: PixelRect, wholeFrame: Bool, enabled: Symbology, plan: Plan,
        helper: HelperThread?, startedEarly: Bool
    ) -> SquareJob {
        let thorough = plan.thorough
        // The helper thread: in areas of 16 rows of cells or more:
        // it starts at once and measures bands of the cells beside this
        // thread. Smaller ones: it is woken now, so that it is up when the
        // matrix codes' searches are handed to it after stage 1.
        let flatBelow: Float = plan.cellSize >= 16 ? 0.25 * plan.minEnergy : 0
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
        return square
    }

    /// Stage 2's candidates in the order they are read, and the pass their
    /// lines share.
    private func orderCandidates(
        _ image: LumaView, centredIn core: PixelRect?, wholeFrame: Bool, frame: PixelRect, enabled: Symbology,
        plan: Plan
    ) -> LinePass {
        let thorough = plan.thorough
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
        return pass
    }

    /// Stage 2: hands the helper its part, then reads the candidates on
    /// both threads, each candidate whole by one.
    private func shareCandidates(
        _ pass: LinePass, square: SquareJob, helper: HelperThread?, startedEarly: Bool, plan: Plan
    ) {
        let ordered = pass.orderCount
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
    }

    /// Thorough: the sweeps, shared with the helper thread when it takes part.
    private func sweepStill(_ pass: LinePass, bounds: PixelRect, plan: Plan, helper: HelperThread?) {
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
    }

    /// The end of an area: the rows of stacked symbols, the votes, the
    /// parts of codes wider than the frame, then the matrix codes.
    private func finishArea(
        _ image: LumaView, _ pass: LinePass, bounds: PixelRect, centredIn core: PixelRect?, wholeFrame: Bool,
        enabled: Symbology, plan: Plan, square: SquareJob, helper: HelperThread?
    ) -> [BarcodeResult] {
        let thorough = plan.thorough
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
}
