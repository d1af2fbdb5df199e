#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one thread needs to read scan lines: its buffers, its own linear
/// readers, and the readings it gathers (votes for whole codes, rows of
/// stacked symbols, parts of codes cut by the frame's border).
///
/// A ``Scanner`` has one for its own thread and, with a helper thread, a
/// second one, so that both threads can read the candidates of a frame;
/// the second one's readings are then added to the first's
/// (``absorb(_:into:)``).
final class LineWorker {
    /// The edges of the line being read.
    var edges = EdgeExtractor()
    /// Its bars and spaces, as the readers take them.
    var run = ElementRun()
    /// Its samples.
    var profile = ScratchBuffer<Float>(capacity: 4096)
    /// What the readers read on it.
    var sink = LinearHitSink()
    /// The codes read by the lines of the frame so far.
    var votes = VoteTable()
    /// Rows of stacked symbols read during the frame.
    var rows = RowTable()
    /// Numbers the scan lines of a frame, so that votes count lines, not
    /// readings (each worker numbers from its own start, so that no two
    /// workers' lines share a number).
    var lineSerial: Int
    /// The edges the last scan line crossed (its first extraction).
    var lineEdges = 0
    /// How many rows of stacked symbols the lines have read so far.
    var fragmentsRead = 0
    /// How far the bars of the candidate being read reach on either side of
    /// its middle line (0 outside candidates).
    var barReach = 0.0
    /// Whether a row of a stacked symbol is kept only where the detection
    /// pass's cells show bars crossed at a plausible angle (an oblique line
    /// leaving a code through its bars' ends can read a row that is not
    /// there). Off for lines laid parallel to a row already read, beside
    /// it: a row a few modules high fills too little of a cell for its
    /// bars to dominate the cell's gradients.
    var rowsCrossBars = true
    /// The candidate whose lines are read (-1: none), when they look for
    /// PDF417 start and stop patterns.
    var spottingFor = -1
    /// Set once this frame's time limit has passed.
    var outOfTime = false

    /// Whether the frame's time limit has passed or its scan was cancelled
    /// (and ``outOfTime`` is then set).
    @inline(__always)
    private func late(_ pass: LinePass) -> Bool {
        if !outOfTime && pass.cancellation.stops(deadline: pass.deadline) { outOfTime = true }
        return outOfTime
    }
    /// How many candidates this worker read in the frame.
    private(set) var candidatesRead = 0
    /// This worker's own readers (a reader keeps scratch memory).
    let linearReaders: [any LinearReader]
    /// Where parts of codes cut by the frame's border go: the scanner's
    /// table (its own thread's worker), or nil to keep them in
    /// ``heldParts`` until the scanner's thread takes them.
    let partials: PartialCodes?
    /// Parts held for the scanner's thread.
    private(set) var heldParts: [(part: LinearPart, values: [Int32], p0: Point, p1: Point, inverted: Bool)] = []

    init(readers: [any LinearReader], partials: PartialCodes?, firstLine: Int) {
        linearReaders = readers
        self.partials = partials
        lineSerial = firstLine
    }

    deinit { edges.free(); run.free(); profile.free(); sink.free(); votes.free() }

    /// Forgets the readings of the last frame.
    func reset() {
        votes.reset()
        rows.reset()
        heldParts.removeAll(keepingCapacity: true)
        candidatesRead = 0
        barReach = 0
        spottingFor = -1
    }

    /// How far the lines of candidate `c` reach either side of their
    /// middle (`half`), and how far that middle lies ahead of the
    /// candidate's centre along its reading axis (`shift`).
    @inline(__always)
    private func span(of c: LinearCandidate, _ pass: LinePass) -> (half: Double, shift: Double) {
        let plan = pass.plan
        // Long enough for quiet zones and an add-on on either side (an EAN-5
        // add-on with its gap reaches 0.62 of the main code beyond its end).
        var half = c.lengthU * 1.1 + Double(pass.detector.cellSize) + 12
        // Bars beyond the candidate's ends: the flat insides of wide
        // bars and of DataBar's finder patterns split a large code's
        // cells into several candidates, each covering part of it.
        // The lines reach to where bars parallel to the candidate's
        // end (up to six cells without any between), and a quiet
        // zone beyond; they are shifted along the reading axis to
        // stay centred on them.
        var shift = 0.0
        if let cells = pass.detector.tensors {
            let middle = Point(x: c.cx, y: c.cy)
            let limit = Double(max(pass.image.width, pass.image.height))
            let from = 0.5 * c.lengthU
            let ahead = cells.barsReach(
                from: middle, ux: c.ux, uy: c.uy, start: from,
                minEnergy: 0.25 * plan.minEnergy, dominance: 16, maxAngle: 0.2,
                maxGap: 6, limit: limit)
            let behind = cells.barsReach(
                from: middle, ux: -c.ux, uy: -c.uy, start: from,
                minEnergy: 0.25 * plan.minEnergy, dominance: 16, maxAngle: 0.2,
                maxGap: 6, limit: limit)
            if ahead > from || behind > from {
                let quiet = max(3 * Double(pass.detector.cellSize), 0.15 * (ahead + behind))
                let toEnd = max(half, ahead + quiet), toStart = max(half, behind + quiet)
                shift = (toEnd - toStart) / 2
                half = (toEnd + toStart) / 2
            }
        }
        return (half, shift)
    }

    /// The lines between those of ``readCandidate(_:_:rank:)`` that
    /// read the rows of a stacked symbol, when its lines read rows.
    @inline(__always)
    private func readRowsBetween(
        _ c: LinearCandidate, _ pass: LinePass, lines: Int, spread: Double, half: Double, shift: Double,
        reading: Int, rowsBefore: Int, fragmentsBefore: Int
    ) {
        let plan = pass.plan
        let vx = -c.uy, vy = c.ux
        // Rows of a stacked symbol (a row read alike by two lines,
        // not stray readings): each row must be read alike by two lines
        // at least, so lines halfway between the first ones; rows a
        // few modules high are read only by lines running along
        // them, so these lines also turn a little either way from
        // the candidate's direction.
        // Not when lines read the candidate's code whole often enough:
        // no row of a stacked symbol reads as a whole symbol.
        // Only when a row was read alike twice, or rows were read on
        // more than half of the lines: the rows of a stacked symbol
        // meet most lines across it, whereas a pair read by chance
        // in text or other bars (common, and these lines are
        // costly) meets a few. And not when one row was read alike
        // by (nearly) every line: the candidate is that row alone
        // (a one-row symbol cut short by the frame or the active
        // region, or one tall row of a stacked symbol), which more
        // lines would only read again.
        let fragments = fragmentsRead - fragmentsBefore
        let support = fragments >= 2 ? rows.mostSupport(since: rowsBefore) : 0
        let repeated = support >= 2
        if fragments >= 2 && reading < plan.enoughReadings && (repeated || 2 * fragments > lines)
            && support < lines - 1
        {
            // Turned lines only once a row was read alike twice:
            // stray fragments of other codes or text are common. And not
            // once a row was read alike four times or more: the rows lie
            // along the candidate's lines, which read them straight
            // (turned lines are for rows that straight lines cross at an
            // angle and seldom read whole).
            let variants = repeated && support < 4 ? 5 : 1
            let stackedEnabled = pass.enabled.intersection([.dataBar, .dataBarExpanded])
            // Still pictures, the seldom tiles of a frame's rest and a
            // scanner's first frame: a line halfway between each two;
            // later video frames every other one of them, the others in
            // the next frame (the symbol stays in view).
            let everyLine = plan.thorough || plan.everySearch || pass.frameNumber <= 1
            for k in 0..<(lines - 1) where everyLine || k % 2 == pass.frameNumber % 2 {
                let t = (Double(k + 1) / Double(lines) - 0.5) * spread
                barReach = max(0, spread / 2 - abs(t))
                let center = Point(x: c.cx + t * vx + shift * c.ux, y: c.cy + t * vy + shift * c.uy)
                for variant in 0..<variants {
                    // 0, then about 2.3 and 4.6 degrees either way.
                    let turn = Double((variant + 1) / 2) * (variant % 2 == 0 ? 0.04 : -0.04)
                    let dx = c.ux - turn * c.uy, dy = c.uy + turn * c.ux
                    let norm = (dx * dx + dy * dy).squareRoot()
                    guard
                        let line = ScanLine.clipped(
                            center: center, dx: dx / norm, dy: dy / norm,
                            halfLength: half, bounds: pass.frame)
                    else { continue }
                    // Only the stacked symbologies read these lines,
                    // each once: up to five times as many lines as the
                    // candidate's own, whose retries found the rows.
                    scanLine(line, pass, enabled: stackedEnabled, retries: false)
                }
            }
        }
    }

    /// Forgets the readings of this frame (after ``absorb(_:into:)`` took
    /// them), keeping the count of candidates read.
    func clearReadings() {
        votes.reset()
        rows.reset()
        heldParts.removeAll(keepingCapacity: true)
    }

    /// Adds `other`'s readings of this frame to this worker's (its votes,
    /// rows, and the parts it held, into `partials`).
    func absorb(_ other: LineWorker, into partials: PartialCodes) {
        votes.absorb(other.votes)
        rows.absorb(other.rows)
        for p in other.heldParts {
            p.values.withUnsafeBufferPointer {
                partials.add(p.part, values: $0, p0: p.p0, p1: p.p1, inverted: p.inverted)
            }
        }
        outOfTime = outOfTime || other.outOfTime
    }

    /// Keeps a part of a code cut by the frame's border: in ``partials``,
    /// or held for the scanner's thread.
    private func keepPart(_ part: LinearPart, values: UnsafeBufferPointer<Int32>, p0: Point, p1: Point, inverted: Bool)
    {
        if let partials {
            partials.add(part, values: values, p0: p0, p1: p1, inverted: inverted)
        } else {
            heldParts.append((part, Array(values), p0, p1, inverted))
        }
    }

    /// Reads candidate `ci` of the pass's detector: lines across its bars
    /// from the middle outwards, until enough of them agree or the middle
    /// ones read nothing; then, where rows of a stacked symbol showed,
    /// lines between and turned a little from the first ones. `rank` is
    /// the candidate's place in the pass's reading order (0 the strongest):
    /// past the plan's ``Scanner/Plan/fullLinesCandidates``, fewer middle
    /// lines that read nothing give it up.
    func readCandidate(_ ci: Int, _ pass: LinePass, rank: Int = 0) {
        let c = pass.detector.candidates[ci]
        let plan = pass.plan
        // The frame's strongest candidates get more lines before they are
        // given up than the rest (the same whichever thread reads them).
        let giveUpLines =
            rank < plan.fullLinesCandidates ? plan.giveUpLines : min(plan.giveUpLines, plan.laterGiveUpLines)
        candidatesRead += 1
        let lines = max(3, min(plan.linesPerCandidate, Int(c.lengthV / 4)))
        let (half, shift) = span(of: c, pass)
        let vx = -c.uy, vy = c.ux
        barReach = 0
        let spread = max(c.lengthV - Double(pass.detector.cellSize), 0)
        // From the middle outwards; a candidate whose code several lines
        // have read needs no more.
        var reading = 0
        // Lines so far that crossed fewer than minLineEdges edges.
        var sparseLines = 0
        spottingFor = pass.spotsPDF417 ? ci : -1
        let rowsBefore = rows.count
        let fragmentsBefore = fragmentsRead
        for j in 0..<lines {
            let k = lines / 2 + (j % 2 == 0 ? j / 2 : -(j + 1) / 2)
            let f = (Double(k) + 0.5) / Double(lines) - 0.5
            let t = f * spread
            // The bars around this line: to the candidate's ends.
            barReach = max(0, spread / 2 - abs(t))
            let center = Point(x: c.cx + t * vx + shift * c.ux, y: c.cy + t * vy + shift * c.uy)
            guard
                let line = ScanLine.clipped(
                    center: center, dx: c.ux, dy: c.uy, halfLength: half,
                    bounds: pass.frame)
            else { continue }
            // The costlier retries only on the middle lines, or once the
            // candidate has proven to hold a code; on a middle line
            // only where it crosses four cells of bars or more, as
            // the sweeps' lines (text and texture, which most
            // candidates that read nothing hold, seldom are).
            var retries = j < plan.retryLines || reading > 0
            if retries && reading == 0, let cells = pass.detector.tensors {
                retries =
                    cells.barsCrossed(
                        by: line, minEnergy: 0.25 * plan.minEnergy,
                        dominance: Scanner.sweepDominance
                    ).cells >= 4
            }
            lineEdges = 0
            if scanLine(line, pass, retries: retries) > 0 {
                reading += 1
                pass.candidateRead[ci] = true
                // Enough lines read the code, unless they leave its add-on
                // undecided, or read it too weakly to report (then up to
                // twice as many lines in all).
                if reading >= plan.enoughReadings && !votes.latestWantsMoreLines
                    && !(votes.latestIsWeak && j + 1 < 2 * plan.enoughReadings)
                {
                    break
                }
            } else {
                if lineEdges < Scanner.minLineEdges { sparseLines += 1 }
                if reading == 0 && rows.count == rowsBefore
                    && (j + 1 >= giveUpLines
                        || (sparseLines == j + 1 && sparseLines >= plan.sparseLinesToGiveUp))
                {
                    // The middle lines read nothing, not even a row of a
                    // stacked symbol: not a code we can read. Lines that
                    // cross fewer than minLineEdges edges, too few for any
                    // symbology, tell it sooner.
                    break
                }
                if reading == 0 && plan.giveUpLines < lines && j + 1 >= 2 * plan.giveUpLines && rows.count != rowsBefore
                    && rows.mostSupport(since: rowsBefore) < 2 && 2 * (fragmentsRead - fragmentsBefore) <= j + 1
                {
                    // Rows of a stacked symbol only by chance: none read
                    // alike by two lines, and on half of the lines or
                    // fewer (the codewords of PDF417 and the characters of
                    // DataBar Expanded are alike; so are some stretches of
                    // text). A stacked symbol's lines meet its rows again.
                    // Twice the lines of a candidate that read nothing at
                    // all, not every line.
                    break
                }
            }
        }
        readRowsBetween(
            c, pass, lines: lines, spread: spread, half: half, shift: shift, reading: reading,
            rowsBefore: rowsBefore, fragmentsBefore: fragmentsBefore)
        barReach = 0
        spottingFor = -1
    }

    /// Samples one line and runs the readers on it; with `retries`, again
    /// on its edges found or measured other ways.
    /// - Returns: how many readings the line gave.
    @discardableResult
    func scanLine(
        _ line: ScanLine, _ pass: LinePass, enabled: Symbology? = nil, thickness: Int? = nil,
        retries: Bool = true
    ) -> Int {
        let image = pass.image, plan = pass.plan, enabled = enabled ?? pass.enabled
        let n = line.length
        guard n >= 16 else { return 0 }
        lineSerial &+= 1
        // The time limit and a cancellation, every line (a line of an 8K
        // frame's bars, with its retries, holds milliseconds of work).
        if late(pass) { return 0 }
        profile.reserve(n)
        image.sample(line, thickness: thickness ?? plan.thickness, into: profile.pointer)
        edges.extract(profile.pointer, count: n, relative: plan.relativeEdge, floor: plan.floorEdge)
        lineEdges = edges.edgeCount
        if edges.edgeCount < Scanner.minLineEdges { return 0 }
        // Whether the elements are wide: fewer than a quarter of them under
        // 4.5 samples, so that halos are told from narrow elements (see the
        // retry on steep edges below).
        var narrow = 0
        let edgePos = edges.edgePos.pointer
        for k in 1..<edges.edgeCount where edgePos[k] - edgePos[k - 1] < 4.5 { narrow += 1 }
        let wide = 4 * narrow < edges.edgeCount - 1
        var hits = readRuns(line, pass, enabled: enabled)
        // The edges read again in other ways (below) only on lines that
        // get retries: the middle lines of a candidate, and every line of
        // one that has proven to hold a code. The candidate's other lines
        // (most of them cross text or texture) are read once.
        if plan.refine && retries {
            // The same edges at local halfway levels: they read other blurred codes.
            edges.refine(profile.pointer, count: n)
            hits += readRuns(line, pass, enabled: enabled)
        }
        if plan.prune > 0 && retries {
            // Without the weak bumps that texture leaves inside wide elements.
            let before = edges.edgeCount
            edges.prune(profile.pointer, count: n, fraction: plan.prune)
            if edges.edgeCount != before && edges.edgeCount >= Scanner.minLineEdges {
                hits += readRuns(line, pass, enabled: enabled)
            }
        }
        if !retries { return hits }
        if plan.area && hits == 0 && edges.edgeCount >= Scanner.minLineEdges {
            // Bars measured by their area, for blur and blooming.
            edges.areaEdges(profile.pointer, count: n)
            hits += readRuns(line, pass, enabled: enabled)
        }
        if plan.prune > 0 && hits == 0 {
            // Broad, shallow dips (uneven print or light) inside wide spaces.
            let before = edges.edgeCount
            edges.prune(profile.pointer, count: n, fraction: 2 * plan.prune)
            if edges.edgeCount != before && edges.edgeCount >= Scanner.minLineEdges {
                hits += readRuns(line, pass, enabled: enabled)
            }
        }
        if wide && hits == 0 {
            // Wide elements with ripples beside their edges (the halos of
            // sharpening, the ringing of upscaled video): the ripples' slopes
            // pass a tenth of the strongest edge's nearby, the real edges'
            // most of it. Last but for the smoothed profile, which finds
            // its edges afresh: the retries before work on the first
            // edges, not these.
            edges.extract(profile.pointer, count: n, relative: 0.3, floor: plan.floorEdge)
            if edges.edgeCount >= Scanner.minLineEdges {
                hits += readRuns(line, pass, enabled: enabled)
            }
        }
        if plan.smooth && hits == 0 {
            // Nothing read: try again on a smoothed profile, for sensor noise.
            let p = profile.pointer
            EdgeExtractor.smooth(p, count: n)
            edges.extract(p, count: n, relative: plan.relativeEdge, floor: plan.floorEdge)
            if edges.edgeCount < Scanner.minLineEdges { return 0 }
            edges.prune(p, count: n, fraction: plan.prune)
            if edges.edgeCount >= Scanner.minLineEdges { hits += readRuns(line, pass, enabled: enabled) }
        }
        return hits
    }

    /// Runs the linear readers on the current edges, both polarities and
    /// directions, and returns how many readings they made.
    @discardableResult
    private func readRuns(_ line: ScanLine, _ pass: LinePass, enabled: Symbology) -> Int {
        let plan = pass.plan
        let n = line.length
        var total = 0
        // Whether the line's ends lie on the frame's border (the picture
        // stops there) or inside it (cut short: what lies beyond is known).
        let first = line.point(at: 0), last = line.point(at: Double(n - 1))
        let startsAtBorder = pass.isOnFrameBorder(first), endsAtBorder = pass.isOnFrameBorder(last)
        for polarity in 0..<2 {
            // The time limit again for each polarity of each way of reading
            // the edges: a line across thousands of bars holds milliseconds
            // of decoding.
            if late(pass) { return total }
            let inverted = polarity == 1
            if inverted && (!plan.lightOnDark || (!plan.bothPolaritiesEveryFrame && pass.frameNumber % 2 == 0)) {
                continue
            }
            run.fill(
                from: edges, lineLength: n, inverted: inverted,
                startsAtFrameBorder: startsAtBorder, endsAtFrameBorder: endsAtBorder)
            run.profile = UnsafePointer(profile.pointer)
            for direction in 0..<2 {
                let reverse = direction == 1
                if reverse { run.reverse() }
                // With an orientation hint, fast scans read only the hinted way.
                if plan.hintedDirectionOnly, let (ex, ey) = pass.expectedReading {
                    let sign: Double = reverse ? -1 : 1
                    if sign * (line.dx * ex + line.dy * ey) < -0.3 { continue }
                }
                if run.count < Scanner.minLineEdges { continue }
                if spottingFor >= 0 && !pass.candidateCrossesPDF417[spottingFor] && PDF417Detector.crossesPattern(run) {
                    pass.candidateCrossesPDF417[spottingFor] = true
                }
                sink.reset()
                for reader in linearReaders where !reader.symbologies.isDisjoint(with: enabled) {
                    reader.decode(run, enabled: enabled, into: &sink)
                }
                for h in 0..<sink.hitCount {
                    let hit = sink.hits[h]
                    let a = reverse ? Double(run.lineLength - hit.start) : Double(hit.start)
                    let b = reverse ? Double(run.lineLength - hit.end) : Double(hit.end)
                    let p0 = line.point(at: a), p1 = line.point(at: b)
                    // An oblique line can leave a code through its bars' ends
                    // where what it read so far looks like a complete shorter
                    // symbol: UPC-E inside EAN-13, ITF inside a longer ITF
                    // (whose stop pattern also occurs as data). Those must
                    // be crossed nearly square.
                    let maxAngle = hit.symbology == .upcE || hit.symbology == .itf ? 0.2 : 0.45
                    guard
                        pass.detector.crossesBars(
                            x: (p0.x + p1.x) / 2, y: (p0.y + p1.y) / 2,
                            dx: line.dx, dy: line.dy, maxAngle: maxAngle)
                    else { continue }
                    votes.add(
                        hit, from: sink, p0: p0, p1: p1, inverted: inverted, line: lineSerial,
                        barReach: barReach)
                    total += 1
                }
                // Parts of codes cut by the frame's border, for later frames.
                if plan.partials {
                    for k in 0..<sink.partCount {
                        let part = sink.parts[k]
                        let a = reverse ? Double(run.lineLength - part.start) : Double(part.start)
                        let b = reverse ? Double(run.lineLength - part.end) : Double(part.end)
                        keepPart(
                            part, values: sink.values(of: part), p0: line.point(at: a), p1: line.point(at: b),
                            inverted: inverted)
                    }
                }
                // Rows of stacked symbols wait for the end of the frame.
                for k in 0..<sink.fragmentCount {
                    let f = sink.fragments[k]
                    let a = reverse ? Double(run.lineLength - f.start) : Double(f.start)
                    let b = reverse ? Double(run.lineLength - f.end) : Double(f.end)
                    let p0 = line.point(at: a), p1 = line.point(at: b)
                    guard
                        !rowsCrossBars
                            || pass.detector.crossesBars(
                                x: (p0.x + p1.x) / 2, y: (p0.y + p1.y) / 2,
                                dx: line.dx, dy: line.dy, maxAngle: 0.45)
                    else { continue }
                    rows.add(f, values: sink.values(of: f), p0: p0, p1: p1, inverted: inverted, line: lineSerial)
                    fragmentsRead += 1
                }
            }
        }
        return total
    }
}
