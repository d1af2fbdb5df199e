#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// Still pictures' sweeps: parallel lines at twelve angles over the frame.
extension Scanner {
    /// Marks, in `readCells` (one a cell of `cells`), the cells whose
    /// centres lie within the box of a linear code of `codes`, or within
    /// half a cell of it, and returns it.
    func maskReadCodes(_ codes: [BarcodeResult], _ cells: CellTensors) -> UnsafePointer<UInt8> {
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

    /// Parallel lines at `angle` across `bounds`, `step` pixels apart:
    /// those that cross bars by the detection pass's `cells` (every line
    /// when nil). `unread`: the same cells with those of the codes read
    /// already excluded, which tell the lines that get retries.
    func sweep(
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
    struct SweepJob {
        var pass: LinePass
        var step: Int
        var bounds: PixelRect
        var cells: CellTensors?
        var unread: CellTensors?
    }

    /// Sets whether the helper thread, once its candidates are read, waits
    /// for the sweeps (``plan``'s) and shares them; called before it starts.
    func openSweeps(_ plan: Plan) {
        sweepsShared = plan.sweeps && helperLines != nil
        sweepsOpen.store(false, ordering: .relaxed)
        sweepJob = nil
        sweepsByHelper = 0
    }

    /// Reads the sweeps with `worker`, taking the next angle no thread has
    /// taken until none is left.
    /// - Returns: how many angles it took.
    @discardableResult
    func runSweeps(_ worker: LineWorker, _ job: SweepJob) -> Int {
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
}
