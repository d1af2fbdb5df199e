#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// The helper thread: the jobs it shares with the calling thread.
extension Scanner {
    /// What the matrix codes' searches (``MatrixReaders/prepareSquare(_:bounds:enabled:thorough:everySearch:cells:)``)
    /// are given.
    struct SquareJob {
        var image: LumaView
        var bounds: PixelRect?
        var enabled: Symbology
        var thorough: Bool
        var everySearch: Bool
        var cells: CellTensors?
    }

    /// Readies the matrix codes' searches of the frame, outside the codes
    /// `read` already.
    func prepare(_ job: SquareJob, read: [BarcodeResult] = []) {
        matrix.prepareSquare(
            job.image, bounds: job.bounds, enabled: job.enabled, thorough: job.thorough,
            everySearch: job.everySearch, cells: job.cells, read: read)
    }

    /// The helper's part of a frame: readies the matrix codes' searches,
    /// opens them to both threads and takes them in turn until none is left.
    func helperRun() {
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
    struct MeasureJob {
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
    func measureBands(_ job: MeasureJob) {
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
    func runNextSquareTask(_ helper: HelperThread) -> Bool {
        guard let k = helper.nextTask(), let task = MatrixReaders.SquareTask(rawValue: k) else { return false }
        matrix.run(task)
        return true
    }

    /// Reads the frame's candidates with `worker` (``LinePass/order``),
    /// taking the next one no thread has taken until none is left. Once
    /// its time is up, a worker takes the rest without reading them.
    func readCandidates(_ worker: LineWorker, _ pass: LinePass) {
        while let k = candidateTurns.take(below: pass.orderCount) {
            if !worker.outOfTime { worker.readCandidate(Int(pass.order[k]), pass, rank: k) }
            candidateTurns.finish()
        }
    }

    /// The helper thread when this scan may use one (made the first time).
    func squareHelper() -> HelperThread? {
        guard options.threadCount > 1 else { return nil }
        if helper == nil && !helperFailed {
            helper = HelperThread(pool: analysisPool) { [unowned(unsafe) self] in self.helperRun() }
            helperFailed = helper == nil
            if helper != nil && ownReaders {
                // Its lines numbered from far above this thread's.
                helperLines = LineWorker(readers: makeLinearReaders(), partials: nil, firstLine: 1 << 56)
            }
        }
        // A pool's thread for this frame, or this frame on one thread.
        guard let helper, helper.reserve() else { return nil }
        return helper
    }
}
