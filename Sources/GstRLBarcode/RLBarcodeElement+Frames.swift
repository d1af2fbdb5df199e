import CGStreamer
import RLBarcode

// One frame: what its analysis is given, the scan, and what follows in
// frame order (tracking, session, drawing, the copy for messages).
//
// Who scans: a live stream (or one that does not say) scans each frame in
// ``transformFrame(_:)`` on the streaming thread, in a turn of the
// process's ``AnalysisPool`` (``takeTurn(_:_:)``), with a ``Scanner`` of
// up to two threads: a pool thread, lent for the frame when a turn is
// free, runs the matrix searches while the streaming thread reads the
// linear candidates, then both take the candidates left (the engine's
// `HelperThread` and `SharedTurns`); the frame leaves when both are
// done, so no frame waits for another. A
// stream that is not live hands frames to ``FramePipeline`` instead
// (``generateOutput(_:_:parent:)``): ``transformFrame(_:)`` then only
// prepares the frame, and ``deliver(_:push:)`` concludes it.
extension RLBarcodeElement {
    /// What a frame's analysis is given, worked out on the streaming thread
    /// as the frame arrives (so that settings, time and QoS apply to the
    /// frames in the order they come, whichever thread scans them).
    struct FramePrep {
        /// Settings copied as the frame arrived.
        var settings: Settings
        /// The scan's options (effort, time limit, symbologies).
        var options: ScanOptions
        /// PTS and duration of the frame (or `GST_CLOCK_TIME_NONE`).
        var pts: GstClockTime
        var duration: GstClockTime
        /// The tracking clock for the frame.
        var now: UInt64
        /// False when the frame passes unanalysed (paused, no luma plane, late).
        var analyse: Bool
        /// The frame's number among those analysed, from 1: what alternates
        /// between frames follows it, whichever scanner reads the frame
        /// (``Scanner/scan(_:frameNumber:)``).
        var frameNumber = 0
        /// Whether the streaming thread holds a turn of the analysis pool
        /// for the frame (given back once it is scanned).
        var holdsTurn = false
    }

    /// What a scan gave, for ``conclude(_:_:frame:drawable:)``.
    struct FrameScan {
        var results: [BarcodeResult] = []
        var timedOut = false
        var candidates = 0
        var partial = ""
        /// Where the scan looked, for tracking.
        var scanned = ScannedArea()
    }

    /// `transform_ip`: maps the frame for reading only, so that a frame
    /// whose memory is shared (a `tee`, an application keeping the buffer)
    /// is scanned where it is rather than copied; ``transformFrame(_:)``
    /// maps it for writing only to draw on it. A buffer that cannot be
    /// mapped passes on unread, counted as rejected.
    func transformBuffer(_ buffer: UnsafeMutablePointer<GstBuffer>) -> GstFlowReturn {
        let filter = instance.assumingMemoryBound(to: GstVideoFilter.self)
        guard filter.pointee.negotiated != 0 else {
            log(GST_LEVEL_WARNING, instance, "buffer before the caps were set")
            return GST_FLOW_NOT_NEGOTIATED
        }
        var frame = GstVideoFrame()
        guard gst_video_frame_map(&frame, &filter.pointee.in_info, buffer, GST_MAP_READ) != 0 else {
            reject("the buffer cannot be mapped as a frame of the caps")
            return GST_FLOW_OK
        }
        defer { if frame.buffer != nil { gst_video_frame_unmap(&frame) } }
        return transformFrame(&frame)
    }

    /// Maps `frame`, mapped for reading, for writing as well, to draw on it:
    /// only then is a frame whose memory is shared copied. False when the
    /// buffer cannot be written (it stays mapped for reading; if even that
    /// fails, `frame` is left unmapped and zeroed).
    private func remapForDrawing(_ frame: UnsafeMutablePointer<GstVideoFrame>) -> Bool {
        guard let buffer = frame.pointee.buffer else { return false }
        var info = frame.pointee.info
        gst_video_frame_unmap(frame)
        let readWrite = GstMapFlags(rawValue: GST_MAP_READ.rawValue | GST_MAP_WRITE.rawValue)
        if gst_mini_object_is_writable(UnsafePointer(OpaquePointer(buffer))) != 0
            && gst_video_frame_map(frame, &info, buffer, readWrite) != 0
        {
            return true
        }
        if gst_video_frame_map(frame, &info, buffer, GST_MAP_READ) == 0 { frame.pointee = GstVideoFrame() }
        return false
    }

    /// Scans the mapped frame, tracks the codes and draws; metadata and
    /// messages follow in ``finishFrame(buffer:flow:)`` once the frame is
    /// unmapped. When frames are analysed ahead on the analysis threads
    /// (``FramePipeline``), it only prepares the frame.
    func transformFrame(_ frame: UnsafeMutablePointer<GstVideoFrame>) -> GstFlowReturn {
        guard let state else { return GST_FLOW_OK }
        state.pending.removeAll(keepingCapacity: true)
        let prep = prepare(frame, state)
        if state.stream.handingOff {
            state.stream.handoff = prep
            return GST_FLOW_OK
        }
        state.frameSettings = prep.settings
        guard prep.analyse else { return GST_FLOW_OK }
        defer { if prep.holdsTurn { AnalysisPool.shared.release() } }
        let started = g_get_monotonic_time()
        let scan = Self.scan(frame, with: state.scanner, options: prep.options, frameNumber: prep.frameNumber)
        if state.isLive, let limit = prep.options.timeLimit {
            state.stream.pacing.finished(elapsed: Int64(g_get_monotonic_time() - started) * 1000, limit: limit)
        }
        let drawable = !scan.results.isEmpty && prep.settings.draw && remapForDrawing(frame)
        conclude(prep, scan, frame: frame.pointee.buffer != nil ? frame : nil, drawable: drawable)
        return GST_FLOW_OK
    }

    /// Scans the luma plane of a mapped frame, zero-copy (one frame at a
    /// time, or on an analysis thread); nothing for a frame without a
    /// usable luma plane.
    static func scan(
        _ frame: UnsafePointer<GstVideoFrame>, with scanner: Scanner,
        options: ScanOptions, frameNumber: Int
    ) -> FrameScan {
        let info = frame.pointee.info
        let width = Int(info.width), height = Int(info.height), stride = Int(info.stride.0)
        guard width > 0, height > 0, stride >= width, let data = frame.pointee.data.0 else { return FrameScan() }
        let luma = LumaView(
            base: UnsafePointer(data.assumingMemoryBound(to: UInt8.self)),
            width: width, height: height, stride: stride)
        if scanner.options != options { scanner.options = options }
        var scan = FrameScan()
        scan.results = scanner.scan(luma, frameNumber: frameNumber)
        scan.timedOut = scanner.lastScanTimedOut
        scan.candidates = scanner.lastCandidateCount
        scan.partial = scanner.partialText
        scan.scanned = scanner.lastScannedArea
        return scan
    }

    /// Works out what a frame's analysis is given (streaming thread).
    private func prepare(_ frame: UnsafeMutablePointer<GstVideoFrame>, _ state: State) -> FramePrep {
        let s = settings.withLock { $0 }
        var prep = FramePrep(
            settings: s, options: s.scanOptions, pts: clockTimeNone, duration: clockTimeNone,
            now: state.lastNow ?? 0, analyse: false)
        if s.paused { return prep }

        // Luma plane, zero-copy.
        let info = frame.pointee.info
        let width = Int(info.width), height = Int(info.height), stride = Int(info.stride.0)
        guard width > 0, height > 0, stride >= width, frame.pointee.data.0 != nil else {
            log(GST_LEVEL_LOG, instance, "frame without usable luma plane skipped")
            return prep
        }

        // Time: running time when the frame has a timestamp, else a stand-in
        // that advances by the frame duration (or 1/30 s).
        let buffer = frame.pointee.buffer
        prep.pts = buffer?.pointee.pts ?? clockTimeNone
        prep.duration = buffer?.pointee.duration ?? clockTimeNone
        var segment = transform.pointee.segment
        let runningTime = segmentRunningTime(prep.pts, in: &segment)
        if runningTime != clockTimeNone {
            prep.now = UInt64(runningTime)
        } else {
            let step = prep.duration != clockTimeNone ? UInt64(prep.duration) : 33_333_333
            prep.now = state.lastNow.map { $0 &+ step } ?? 0
        }
        state.lastNow = prep.now

        if isLateDownstream(runningTime: runningTime, duration: prep.duration) { return prep }
        guard var options = options(for: s, state, runningTime: runningTime, duration: prep.duration) else {
            return prep
        }
        // Scanned here (not ahead): a turn of the shared pool first.
        if !state.stream.handingOff {
            guard takeTurn(state, &options) else { return prep }
            prep.holdsTurn = true
        }
        prep.options = options
        prep.analyse = true
        state.framesAnalysed &+= 1
        counters.bump(.analysed)
        prep.frameNumber = state.framesAnalysed
        return prep
    }

    /// Whether the frame ends before the earliest time of downstream's
    /// last QoS event: it passes unanalysed, counted as skipped.
    private func isLateDownstream(runningTime: GstClockTime, duration: GstClockTime) -> Bool {
        guard runningTime != clockTimeNone, let earliest = qosEarliest.withLock({ $0 }) else { return false }
        let end = UInt64(runningTime) &+ (duration != clockTimeNone ? UInt64(duration) : 0)
        guard end <= earliest else { return false }
        countSkipped { "frames arrive late downstream" }
        return true
    }

    /// Waits for a turn of ``AnalysisPool/shared`` for a frame scanned on
    /// the streaming thread: a live frame at most until its time limit,
    /// less ``LivePacing/minimumBudget``, and the wait comes off its limit;
    /// a frame that gets none in time passes unanalysed (counted as
    /// skipped), so that a stream the pool cannot serve stays on time.
    /// Other frames wait as long as it takes. False: no turn.
    private func takeTurn(_ state: State, _ options: inout ScanOptions) -> Bool {
        let pool = AnalysisPool.shared
        guard state.isLive, let limit = options.timeLimit else { return pool.acquire(lane) }
        let started = g_get_monotonic_time()
        // A free turn is taken at once, however little time is left.
        let wait = max(0, limit - Double(LivePacing.minimumBudget) / 1e9)
        guard pool.acquire(lane, within: wait) else {
            countSkipped { "no analysis turn free within \(Int(limit * 1000)) ms (pool of \(pool.size))" }
            return false
        }
        options.timeLimit = limit - Double(g_get_monotonic_time() - started) / 1e6
        return true
    }

    /// The frame's scan options: effort and time limit from the settings,
    /// the stream and, when live, the time left (nil: the frame passes
    /// unanalysed).
    private func options(
        for s: Settings, _ state: State, runningTime: GstClockTime, duration: GstClockTime
    ) -> ScanOptions? {
        var options = s.scanOptions
        if state.isStillPicture && options.effort == .balanced { options.effort = .thorough }
        // Video: one frame's analysis may take four frame intervals (0.1 to
        // 0.5 s), 1 s with effort=thorough; a frame of noise or dense
        // texture cannot hold the stream up for longer. Still pictures have
        // no limit.
        if !state.isStillPicture {
            let interval = duration != clockTimeNone && duration > 0 ? Double(UInt64(duration)) / 1e9 : 1.0 / 30
            options.timeLimit =
                (options.effort == .thorough ? 1.0 : min(0.5, max(0.1, 4 * interval))) * Self.timeLimitScale
            // Live: no later than the frame is due at the sink.
            if state.isLive, let limit = options.timeLimit {
                guard let paced = paceLiveFrame(state, runningTime: runningTime, effortLimit: limit) else {
                    return nil
                }
                options.timeLimit = paced
            }
        }
        // With drawing on, codes of symbologies left out are read too, to be
        // drawn as unwanted (never reported).
        if s.draw { options.symbologies = .all }
        return options
    }

    /// After a frame's scan, in frame order (the streaming thread, or an
    /// analysis thread holding the stream lock): tracking, the session,
    /// the status message, drawing into `frame` when `drawable` (mapped
    /// writable) and the frame's copy for messages. Metadata and messages
    /// follow in ``finishFrame(buffer:flow:)``.
    func conclude(
        _ prep: FramePrep, _ scan: FrameScan, frame: UnsafeMutablePointer<GstVideoFrame>?, drawable: Bool
    ) {
        guard let state else { return }
        let s = prep.settings
        state.frameSettings = s
        state.pts = prep.pts
        state.duration = prep.duration
        state.now = prep.now
        guard prep.analyse else { return }
        applyClear(state, generation: s.clearGeneration)
        if scan.timedOut { logTimeOut(state.stream, limit: prep.options.timeLimit) }
        state.stream.tracker.beginFrame(now: state.now, lostAfter: s.lostAfter, scanned: scan.scanned)
        var read = 0, new = 0
        defer {
            if s.postMessages {
                let status = state.stream.session.status(
                    now: state.now, read: read, new: new,
                    candidates: scan.candidates, partial: scan.partial,
                    lostAfter: s.lostAfter)
                if status.differs(from: state.stream.session.posted) {
                    postStatus(status, state: state)
                    state.stream.session.didPost(status)
                }
            }
        }
        if scan.results.isEmpty { return }
        (read, new) = track(scan.results, state, settings: s)
        state.stream.tracker.endFrame()
        log(GST_LEVEL_LOG, instance, "\(scan.results.count) code(s) at \(state.now) ns")
        guard let frame else { return }
        let copied = s.attachFrame && state.pending.contains(where: { $0.report })
        if drawable, s.draw, let canvas = FrameCanvas(frame: frame) {
            // `frame-clean`: the copy before the outlines.
            if copied && s.frameClean { state.snapshot = FrameSnapshot(of: frame, maxSize: s.frameMaxSize) }
            draw(state.pending, on: canvas, settings: s)
        }
        // A frame larger than `frame-max-size` is copied scaled down;
        // otherwise the message holds the buffer itself.
        if copied, state.snapshot == nil, s.frameMaxSize > 0, max(state.width, state.height) > s.frameMaxSize {
            state.snapshot = FrameSnapshot(of: frame, maxSize: s.frameMaxSize)
        }
    }

    /// Logs the frames stopped at their time limit (the first, then every 100th).
    private func logTimeOut(_ stream: Stream, limit: Double?) {
        stream.timedOutFrames += 1
        let count = stream.timedOutFrames
        guard count == 1 || count % 100 == 0 else { return }
        log(
            GST_LEVEL_INFO, instance,
            "analysis stopped at its time limit of \(Int((limit ?? 0) * 1000)) ms in \(count) frames so far")
    }

    /// Tracks the frame's codes into ``State/pending``: ids, what is new,
    /// what is reported; the counts read and new for the status.
    private func track(_ results: [BarcodeResult], _ state: State, settings s: Settings) -> (read: Int, new: Int) {
        var read = 0, new = 0
        let width = state.width, height = state.height
        for result in results {
            guard s.symbologies.contains(result.symbology.flag) else {
                // Read only to be drawn as unwanted: no tracking, no metadata, no message.
                state.pending.append(
                    PendingCode(
                        result: result,
                        sighting: CodeTracker.Sighting(
                            id: 0, firstSeen: state.now,
                            lastSeen: state.now, isNew: false),
                        report: false, unwanted: true, box: nil, disabled: true))
                continue
            }
            let box = result.boundingBox(clippedTo: width, height)
            var cx = Double(width) / 2, cy = Double(height) / 2, w = 0.0, h = 0.0
            if let b = box {
                cx = Double(b.x) + Double(b.width) / 2
                cy = Double(b.y) + Double(b.height) / 2
                w = Double(b.width)
                h = Double(b.height)
            }
            let sighting = state.stream.tracker.observe(
                symbology: result.symbology, text: result.text,
                centerX: cx, centerY: cy, width: w, height: h, now: state.now)
            let unwanted =
                !s.unwanted.isEmpty
                && s.unwanted.contains(UnwantedCode(symbology: result.symbology, text: result.text))
            let report = !unwanted && s.postMessages && (s.report == .everyFrame || sighting.isNew)
            state.pending.append(
                PendingCode(
                    result: result, sighting: sighting, report: report,
                    unwanted: unwanted, box: box, disabled: false))
            if !unwanted {
                state.stream.session.record(result, sighting)
                read += 1
                if sighting.isNew { new += 1 }
            }
        }
        return (read, new)
    }

    /// After the frame is unmapped: attaches metadata, then posts messages
    /// (a message's `frame` sample holds a reference to the buffer, so
    /// metadata goes first, while the buffer is still writable).
    func finishFrame(buffer: UnsafeMutablePointer<GstBuffer>, flow: GstFlowReturn) {
        guard let state, !state.pending.isEmpty else { return }
        defer {
            state.pending.removeAll(keepingCapacity: true)
            state.snapshot?.release()
            state.snapshot = nil
        }
        guard flow == GST_FLOW_OK else { return }
        let s = state.frameSettings
        if s.attachMeta {
            if gst_mini_object_is_writable(UnsafePointer(OpaquePointer(buffer))) != 0 {
                for code in state.pending where !code.disabled { attachMeta(code, to: buffer) }
            } else if !state.stream.warnedUnwritable {
                state.stream.warnedUnwritable = true
                warn("buffer not writable: region metadata not attached")
            }
        }
        for code in state.pending where code.report {
            postMessage(code, buffer: buffer, state: state, attachFrame: s.attachFrame)
        }
    }
}
