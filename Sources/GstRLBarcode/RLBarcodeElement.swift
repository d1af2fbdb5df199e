import CGStreamer
import RLBarcode
import Synchronization

/// The implementation of the `rlbarcode` element.
///
/// ```
/// gst-launch-1.0 v4l2src ! videoconvert ! rlbarcode draw=true ! videoconvert ! autovideosink
/// ```
///
/// Threads: properties and action signals arrive on application threads and
/// only touch ``settings`` (behind a mutex). Everything else belongs to the
/// streaming thread: GstBaseTransform serialises `start`, `set_info`, the
/// frame functions, sink events and `stop`, so ``state`` needs no lock. Each
/// frame copies the settings once and never holds the lock while scanning.
final class RLBarcodeElement {
    /// What exists while streaming: built in `set_info` (again on every caps
    /// change), dropped in `stop`.
    final class State {
        /// The decoder; reuses its memory from frame to frame.
        let scanner: Scanner
        /// The negotiated caps (a reference we own), for `attach-frame` samples.
        let caps: UnsafeMutablePointer<GstCaps>
        /// Frame width from the caps.
        let width: Int
        /// Frame height from the caps.
        let height: Int
        /// Whether the stream is a still picture (framerate 0/1, as image
        /// decoders produce): it gets still-picture depth.
        var isStillPicture = false
        /// The negotiated video info, for mapping frames analysed ahead.
        var info = GstVideoInfo()
        /// Whether frames may be analysed ahead (``FramePipeline``): video
        /// from a source that is not live.
        var aheadAllowed = false
        /// Whether upstream is live: frames are paced by the time left
        /// before they are due (``LivePacing``).
        var isLive = false
        /// The live stream's pacing.
        var pacing = LivePacing()
        /// The session's codes; carried over from the previous state on caps changes.
        var tracker: CodeTracker
        /// Everything the session saw, and its status; carried over like the tracker.
        var session: ScanSession
        /// The `clear-results` generation the tracker has seen.
        var clearGeneration: UInt64
        /// The last frame's running time (or its stand-in when frames carry no timestamps).
        var lastNow: UInt64?
        /// Video frames given to analysis so far (the last one's number).
        var framesAnalysed = 0
        /// Codes of the current frame, reused from frame to frame.
        var pending: [PendingCode] = []
        /// The current frame's copy for `attach-frame`, when it is not the
        /// frame itself (``FrameSnapshot``).
        var snapshot: FrameSnapshot?
        /// Settings copied at the start of the current frame.
        var frameSettings = Settings()
        /// PTS of the current frame (or `GST_CLOCK_TIME_NONE`).
        var pts = clockTimeNone
        /// Duration of the current frame (or `GST_CLOCK_TIME_NONE`).
        var duration = clockTimeNone
        /// The tracking clock for the current frame (running time, or its stand-in).
        var now: UInt64 = 0

        /// Creates the state; `caps` is a reference the state now owns.
        init(
            scanner: Scanner, caps: UnsafeMutablePointer<GstCaps>, width: Int, height: Int,
            tracker: CodeTracker, session: ScanSession, clearGeneration: UInt64
        ) {
            self.scanner = scanner
            self.caps = caps
            self.width = width
            self.height = height
            self.tracker = tracker
            self.session = session
            self.clearGeneration = clearGeneration
            pending.reserveCapacity(16)
        }

        deinit { gst_caps_unref(caps) }
    }

    /// A code found in the current frame, waiting for its metadata and message.
    struct PendingCode {
        /// What the engine read.
        var result: BarcodeResult
        /// What tracking made of it.
        var sighting: CodeTracker.Sighting
        /// Post a message for it.
        var report: Bool
        /// Marked with `report-unwanted`.
        var unwanted: Bool
        /// Bounding box clamped to the frame (x, y, width, height), or nil
        /// when the code lies outside.
        var box: (x: Int, y: Int, width: Int, height: Int)?
        /// Of a symbology left out of `symbologies`: drawn as unwanted only.
        var disabled: Bool
    }

    /// The GObject instance (not retained: it owns us).
    let instance: UnsafeMutableRawPointer
    /// What the properties set.
    let settings = Mutex(Settings())
    /// Streaming-thread state; see the type's notes on threads.
    private var state: State?
    /// Whether the "buffer not writable" warning was given (it is given once).
    private var warnedUnwritable = false
    /// Whether this stream's first buffer with planes outside its memory
    /// was warned about (``acceptsPlanes(_:)``).
    var warnedRejected = false
    /// The read-only counters.
    let counters = FrameCounters()
    /// Stops scans in progress on a stop or flush (every scanner of the element has it).
    let cancellation = ScanCancellation()
    /// The frames alive in `barcode` messages, and their limits.
    let attachedFrames = AttachedFrames()
    /// Messages posted without their frame because of those limits (for the log).
    private var framesNotAttached = 0
    /// The pipeline's latency (ns), from the latency event, for
    /// ``timeLeft(runningTime:)``; nil until one comes (0 when no sink
    /// syncs to the clock: no frame is late for them).
    let pipelineLatency = Mutex<UInt64?>(nil)
    /// The running time before which frames are late, from the last QoS
    /// event from downstream (`nil`: none, or not late); see ``srcEvent(_:)``.
    let qosEarliest = Mutex<UInt64?>(nil)
    /// Frames whose analysis stopped at its time limit (for the log).
    private var timedOutFrames = 0
    /// The limits are for an optimised build; an unoptimised (debug) build
    /// runs the engine about ten times slower and gets ten times the time.
    #if DEBUG
        static let timeLimitScale = 10.0
    #else
        static let timeLimitScale = 1.0
    #endif

    /// Creates the Swift side of a new GObject instance.
    init(instance: UnsafeMutableRawPointer) {
        self.instance = instance
    }

    /// The instance as a `GstElement`.
    var element: UnsafeMutablePointer<GstElement> { instance.assumingMemoryBound(to: GstElement.self) }

    // MARK: Properties

    /// Applies a property value from `g_object_set_property`. Invalid values
    /// are refused with a warning; the old value stays.
    func setProperty(_ property: Property, _ value: UnsafePointer<GValue>) {
        switch property {
        case .symbologies:
            let raw = UInt32(truncatingIfNeeded: g_value_get_flags(value))
            guard raw & ~Symbology.all.rawValue == 0 else {
                warn("symbologies: unknown flag bits 0x\(String(raw, radix: 16)); keeping the old value")
                return
            }
            update(property, \.symbologies, Symbology(rawValue: raw)) { describe($0) }
        case .activeRegion:
            let text = g_value_get_string(value).map { String(cString: $0) } ?? ""
            switch NormalizedRect.parse(text) {
            case .success(let rect):
                let new = rect == nil ? "" : text
                let old = settings.withLock { s -> String in
                    let old = s.activeRegionText
                    s.activeRegionText = new
                    s.activeRegion = rect
                    return old
                }
                log(GST_LEVEL_DEBUG, instance, "active-region: \"\(old)\" -> \"\(new)\"")
                if old != new { notify(property) }
            case .failure(let error):
                warn("active-region: \(error.message); keeping the old value")
            }
        case .regionOnly: update(property, \.regionOnly, g_value_get_boolean(value) != 0) { "\($0)" }
        case .orientation:
            guard let o = Orientation(rawValue: Int(g_value_get_enum(value))) else {
                warn("orientation: invalid value \(g_value_get_enum(value)); keeping the old value"); return
            }
            update(property, \.orientation, o) { $0.nick }
        case .effort:
            guard let e = Effort(rawValue: Int(g_value_get_enum(value))) else {
                warn("effort: invalid value \(g_value_get_enum(value)); keeping the old value"); return
            }
            update(property, \.effort, e) { $0.nick }
        case .message: update(property, \.postMessages, g_value_get_boolean(value) != 0) { "\($0)" }
        case .report:
            guard let r = ReportMode(rawValue: Int(g_value_get_enum(value))) else {
                warn("report: invalid value \(g_value_get_enum(value)); keeping the old value"); return
            }
            update(property, \.report, r) { $0.nick }
        case .lostAfter: update(property, \.lostAfter, UInt64(g_value_get_uint64(value))) { "\($0) ns" }
        case .attachMeta: update(property, \.attachMeta, g_value_get_boolean(value) != 0) { "\($0)" }
        case .attachFrame: update(property, \.attachFrame, g_value_get_boolean(value) != 0) { "\($0)" }
        case .frameClean: update(property, \.frameClean, g_value_get_boolean(value) != 0) { "\($0)" }
        case .frameMaxSize: update(property, \.frameMaxSize, Int(g_value_get_uint(value))) { "\($0)" }
        case .draw: update(property, \.draw, g_value_get_boolean(value) != 0) { "\($0)" }
        case .drawLabels: update(property, \.drawLabels, g_value_get_boolean(value) != 0) { "\($0)" }
        case .outlineColor: update(property, \.outlineColor, UInt32(g_value_get_uint(value))) { hex($0) }
        case .unwantedColor: update(property, \.unwantedColor, UInt32(g_value_get_uint(value))) { hex($0) }
        case .paused: update(property, \.paused, g_value_get_boolean(value) != 0) { "\($0)" }
        case .nThreads: update(property, \.threads, Int(g_value_get_uint(value))) { "\($0)" }
        case .framesAnalysed, .framesSkipped, .framesRejected: return
        }
    }

    /// Fills `value` for `g_object_get_property`.
    func getProperty(_ property: Property, _ value: UnsafeMutablePointer<GValue>) {
        let s = settings.withLock { $0 }
        switch property {
        case .symbologies: g_value_set_flags(value, guint(s.symbologies.rawValue))
        case .activeRegion: g_value_set_string(value, s.activeRegionText)
        case .regionOnly: g_value_set_boolean(value, s.regionOnly ? 1 : 0)
        case .orientation: g_value_set_enum(value, gint(s.orientation.rawValue))
        case .effort: g_value_set_enum(value, gint(s.effort.rawValue))
        case .message: g_value_set_boolean(value, s.postMessages ? 1 : 0)
        case .report: g_value_set_enum(value, gint(s.report.rawValue))
        case .lostAfter: g_value_set_uint64(value, UInt(s.lostAfter))
        case .attachMeta: g_value_set_boolean(value, s.attachMeta ? 1 : 0)
        case .attachFrame: g_value_set_boolean(value, s.attachFrame ? 1 : 0)
        case .frameClean: g_value_set_boolean(value, s.frameClean ? 1 : 0)
        case .frameMaxSize: g_value_set_uint(value, guint(s.frameMaxSize))
        case .draw: g_value_set_boolean(value, s.draw ? 1 : 0)
        case .drawLabels: g_value_set_boolean(value, s.drawLabels ? 1 : 0)
        case .outlineColor: g_value_set_uint(value, s.outlineColor)
        case .unwantedColor: g_value_set_uint(value, s.unwantedColor)
        case .paused: g_value_set_boolean(value, s.paused ? 1 : 0)
        case .nThreads: g_value_set_uint(value, guint(s.threads))
        case .framesAnalysed: g_value_set_uint64(value, UInt(counters.analysed.load(ordering: .relaxed)))
        case .framesSkipped: g_value_set_uint64(value, UInt(counters.skipped.load(ordering: .relaxed)))
        case .framesRejected: g_value_set_uint64(value, UInt(counters.rejected.load(ordering: .relaxed)))
        }
    }

    /// Stores a new value and logs old -> new at debug level.
    private func update<T: Equatable & Sendable>(
        _ property: Property, _ keyPath: WritableKeyPath<Settings, T>,
        _ new: T, _ text: (T) -> String
    ) {
        let old = settings.withLock { s -> T in
            let old = s[keyPath: keyPath]
            s[keyPath: keyPath] = new
            return old
        }
        log(GST_LEVEL_DEBUG, instance, "\(property.name): \(text(old)) -> \(text(new))")
        if old != new { notify(property) }
    }

    /// Emits `notify::<property>` (properties use explicit notification, so
    /// refused or unchanged values stay silent).
    private func notify(_ property: Property) {
        g_object_notify(instance.assumingMemoryBound(to: GObject.self), property.name)
    }

    /// A symbology set as users type it (`ean-13+qr-code`, `all`).
    private func describe(_ s: Symbology) -> String {
        if s == .all { return "all" }
        let nicks = s.members.compactMap(\.nick)
        return nicks.isEmpty ? "(none)" : nicks.joined(separator: "+")
    }

    /// A colour as `0xAARRGGBB`.
    private func hex(_ x: UInt32) -> String {
        let digits = String(x, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// Logs a warning on the `rlbarcode` category (never `g_warning`).
    private func warn(_ message: String, function: StaticString = #function, line: UInt = #line) {
        log(GST_LEVEL_WARNING, instance, message, function: function, line: line)
    }

    // MARK: Action signals

    /// `clear-results`: forget the session; every code is new again and no
    /// code stays marked with `report-unwanted`.
    func clearResults() {
        let generation = settings.withLock { s -> UInt64 in
            s.unwanted.removeAll()
            s.clearGeneration &+= 1
            return s.clearGeneration
        }
        log(GST_LEVEL_DEBUG, instance, "clear-results (generation \(generation))")
    }

    /// `report-unwanted`: stop reporting the code with this symbology and
    /// text, and draw it crossed out in `unwanted-color`.
    func reportUnwanted(symbology: String?, text: String?) {
        guard let symbology, let text else {
            warn("report-unwanted: symbology and text are required"); return
        }
        guard let set = Symbology(parsing: symbology), set.members.count == 1 else {
            warn("report-unwanted: \"\(symbology)\" does not name one symbology"); return
        }
        let code = UnwantedCode(symbology: set, text: text)
        settings.withLock { _ = $0.unwanted.insert(code) }
        log(GST_LEVEL_DEBUG, instance, "report-unwanted: \(set.name ?? symbology) \"\(text)\"")
    }

    // MARK: Streaming

    /// `start`: a new session begins.
    func start() -> Bool {
        state = nil
        warnedRejected = false
        counters.reset()
        pipelineLatency.withLock { $0 = nil }
        allowScans()
        return true
    }

    /// `stop`: stops the analysis threads, ends the session (unless EOS
    /// ended it) and drops the streaming state.
    func stop() -> Bool {
        flushTarget.withLock { $0 = nil }
        pipeline?.shutDown()
        pipeline = nil
        pipelineFailed = false
        if let state, !state.session.ended {
            applyClear(state, generation: settings.withLock { $0.clearGeneration })
            postSession(state, reason: "stop")
        }
        state = nil
        return true
    }

    /// `set_info`: (re)builds the state for new caps.
    func setInfo(caps: UnsafeMutablePointer<GstCaps>, info: UnsafeMutablePointer<GstVideoInfo>) -> Bool {
        let width = Int(info.pointee.width), height = Int(info.pointee.height)
        guard width > 0, height > 0, let finfo = info.pointee.finfo, finfo.pointee.bits == 8 else {
            warn("unsupported video info \(width)x\(height)")
            return false
        }
        let s = settings.withLock { $0 }
        let previous = state
        state = State(
            scanner: Scanner(options: s.scanOptions), caps: gst_caps_ref(caps), width: width, height: height,
            tracker: previous?.tracker ?? CodeTracker(), session: previous?.session ?? ScanSession(),
            clearGeneration: previous?.clearGeneration ?? s.clearGeneration)
        state?.isStillPicture = info.pointee.fps_n == 0
        state?.info = info.pointee
        let live = upstreamIsLive()
        state?.scanner.cancellation = cancellation
        state?.aheadAllowed = info.pointee.fps_n != 0 && live == false
        state?.isLive = live == true
        if let previous { state?.pacing = previous.pacing }
        log(
            GST_LEVEL_DEBUG, instance,
            "streaming \(width)x\(height) in \(String(cString: finfo.pointee.name))"
                + (info.pointee.fps_n == 0 ? " (still picture: thorough scan unless effort=fast)" : ""))
        return true
    }

    /// Sink events, before the base class handles them: a flush or a new
    /// stream starts time over, so the clock stand-in restarts.
    /// Quality of service: a QoS event from downstream says how late frames
    /// arrive there. While frames are late (their running time before
    /// timestamp + jitter of the last event), they pass through unanalysed
    /// so that the pipeline catches up; frames are never dropped here.
    /// The latency event gives the pipeline's latency (``LivePacing``).
    func srcEvent(_ event: UnsafeMutablePointer<GstEvent>) {
        if event.pointee.type == GST_EVENT_LATENCY {
            var latency: GstClockTime = 0
            gst_event_parse_latency(event, &latency)
            if latency != clockTimeNone { pipelineLatency.withLock { $0 = UInt64(latency) } }
            return
        }
        guard event.pointee.type == GST_EVENT_QOS else { return }
        var type = GST_QOS_TYPE_OVERFLOW
        var proportion = 1.0
        var diff: GstClockTimeDiff = 0
        var timestamp: GstClockTime = 0
        gst_event_parse_qos(event, &type, &proportion, &diff, &timestamp)
        let earliest: UInt64? = diff > 0 && timestamp != clockTimeNone ? UInt64(timestamp) &+ UInt64(diff) : nil
        qosEarliest.withLock { $0 = earliest }
    }

    func sinkEvent(_ event: UnsafeMutablePointer<GstEvent>) {
        // Frames analysed ahead: a flush drops them; any other event in the
        // stream waits until they have left.
        if event.pointee.type == GST_EVENT_FLUSH_START {
            // Not on the streaming thread: only the locked reference.
            cancelScans()
            flushTarget.withLock { $0?.setFlushing(true) }
            return
        }
        if let pipeline {
            if event.pointee.type == GST_EVENT_FLUSH_STOP {
                pipeline.discard()
            } else if event.pointee.type.rawValue & GST_EVENT_TYPE_SERIALIZED.rawValue != 0 {
                drain()
            }
        }
        if event.pointee.type == GST_EVENT_FLUSH_STOP || event.pointee.type == GST_EVENT_STREAM_START {
            state?.lastNow = nil
            state?.pacing.reset()
            qosEarliest.withLock { $0 = nil }
            if event.pointee.type == GST_EVENT_FLUSH_STOP { allowScans() } else { warnedRejected = false }
        }
        if event.pointee.type == GST_EVENT_EOS, let state {
            // The session ends: a clear-results not yet applied ends its own first.
            applyClear(state, generation: settings.withLock { $0.clearGeneration })
            postSession(state, reason: "eos")
            state.session = ScanSession()
            state.session.end()
        }
    }

    // MARK: Frames analysed ahead

    /// The analysis threads of non-live streams (made on first use,
    /// stopped in `stop`); see ``FramePipeline``.
    private var pipeline: FramePipeline?
    /// ``pipeline`` for a flush's start, which comes from any thread.
    private let flushTarget = Mutex<FramePipeline?>(nil)
    /// Whether making ``pipeline`` failed (then frames are analysed one at a time).
    private var pipelineFailed = false
    /// Whether the frame that came in last has had a frame go out for it.
    private var tookOne = false

    /// The sink pad's stream lock, which the streaming thread holds while
    /// it is inside the element.
    var streamLock: UnsafeMutablePointer<GRecMutex> {
        let pad = instance.assumingMemoryBound(to: GstBaseTransform.self).pointee.sinkpad!
        return UnsafeMutableRawPointer(pad)
            .advanced(by: MemoryLayout<GstPad>.offset(of: \GstPad.stream_rec_lock)!)
            .assumingMemoryBound(to: GRecMutex.self)
    }

    /// Whether upstream says the stream is live (nil: no answer). A source
    /// that is not live (a file, a test source) gets frames analysed ahead;
    /// a live source, or one that does not answer, one frame at a time: no
    /// frame waits for another.
    private func upstreamIsLive() -> Bool? {
        guard let pad = instance.assumingMemoryBound(to: GstBaseTransform.self).pointee.sinkpad,
            let query = gst_query_new_latency()
        else { return nil }
        defer { gst_query_unref(query) }
        guard gst_pad_peer_query(pad, query) != 0 else { return nil }
        var live: gboolean = 1
        gst_query_parse_latency(query, &live, nil, nil)
        return live != 0
    }

    /// Whether this frame goes to the analysis threads (made here on first use).
    private func analysisAhead(_ state: State) -> FramePipeline? {
        guard state.aheadAllowed else { return nil }
        let threads = settings.withLock { $0.threads }
        let processors = Int(g_get_num_processors())
        guard threads != 1, processors >= 2 else { return nil }
        if pipeline == nil && !pipelineFailed {
            pipeline = FramePipeline(element: self)
            pipelineFailed = pipeline == nil
            flushTarget.withLock { $0 = pipeline }
            if pipeline != nil {
                log(
                    GST_LEVEL_DEBUG, instance,
                    "stream not live: frames analysed ahead on "
                        + "\(FramePipeline.workerCount) threads, up to \(FramePipeline.maxInFlight) held")
            }
        }
        return pipeline
    }

    /// `generate_output`: with frames analysed ahead, the base class's
    /// step (`parent`: the buffer made writable, ``transformFrame(_:)``
    /// preparing it) hands the frame to the analysis threads; what leaves is
    /// the oldest frame once it is done. Otherwise the base class's step alone.
    func generateOutput(
        _ trans: UnsafeMutablePointer<GstBaseTransform>,
        _ out: UnsafeMutablePointer<UnsafeMutablePointer<GstBuffer>?>,
        parent: (
            UnsafeMutablePointer<GstBaseTransform>,
            UnsafeMutablePointer<UnsafeMutablePointer<GstBuffer>?>
        ) -> GstFlowReturn
    )
        -> GstFlowReturn
    {
        guard let state else { return parent(trans, out) }
        let pipeline: FramePipeline
        if trans.pointee.queued_buf != nil {
            guard let p = analysisAhead(state) else {
                // One frame at a time (again): the frames held leave first.
                drain()
                return parent(trans, out)
            }
            pipeline = p
        } else {
            guard let p = self.pipeline else { return parent(trans, out) }
            pipeline = p
        }
        pipeline.enter()
        if trans.pointee.queued_buf != nil {
            tookOne = false
            var buffer: UnsafeMutablePointer<GstBuffer>? = nil
            handingOff = true
            handoff = nil
            let flow = parent(trans, &buffer)
            handingOff = false
            if flow != GST_FLOW_OK {
                if let buffer { gst_buffer_unref(buffer) }
                drain()
                out.pointee = nil
                return flow
            }
            if let buffer {
                let prep =
                    handoff
                    ?? FramePrep(
                        settings: settings.withLock { $0 }, options: ScanOptions(),
                        pts: clockTimeNone, duration: clockTimeNone,
                        now: state.lastNow ?? 0, analyse: false)
                pipeline.submit(buffer, info: state.info, prep: prep)
            }
            handoff = nil
        }
        if let job = pipeline.next(tookOne: tookOne) {
            _ = deliver(job, push: false)
            out.pointee = job.buffer
            pipeline.recycle(job)
            tookOne = true
        } else {
            out.pointee = nil
        }
        let flow = pipeline.takeWorkerFlow()
        return flow == GST_FLOW_FLUSHING ? GST_FLOW_OK : flow
    }

    /// Lets every frame held leave, in order (streaming thread, holding
    /// the stream lock): before a serialized event or query, or when
    /// frames stop being analysed ahead.
    func drain() {
        guard let pipeline else { return }
        pipeline.enter()
        while let job = pipeline.next(all: true) {
            _ = deliver(job, push: true)
            pipeline.recycle(job)
        }
    }

    /// A frame whose analysis is done, in frame order: its conclusion
    /// (tracking, drawing, metadata, messages), then, with `push`, onto
    /// the source pad (the buffer's reference goes with it).
    func deliver(_ job: FramePipeline.Job, push: Bool) -> GstFlowReturn {
        guard let buffer = job.buffer else { return GST_FLOW_OK }
        if let prep = job.prep {
            state?.pending.removeAll(keepingCapacity: true)
            var frame = GstVideoFrame()
            let draws =
                prep.analyse && prep.settings.draw && !job.scan.results.isEmpty
                && gst_mini_object_is_writable(UnsafePointer(OpaquePointer(buffer))) != 0
                && gst_video_frame_map(
                    &frame, &job.info, buffer,
                    GstMapFlags(rawValue: GST_MAP_READ.rawValue | GST_MAP_WRITE.rawValue)) != 0
            if draws {
                withUnsafeMutablePointer(to: &frame) { conclude(prep, job.scan, frame: $0) }
                gst_video_frame_unmap(&frame)
            } else {
                conclude(prep, job.scan, frame: nil)
            }
            finishFrame(buffer: buffer, flow: GST_FLOW_OK)
        }
        guard push else { return GST_FLOW_OK }
        job.buffer = nil
        let pad = instance.assumingMemoryBound(to: GstBaseTransform.self).pointee.srcpad
        return gst_pad_push(pad, buffer)
    }

    /// Sink queries, before the base class answers: a serialized one (a
    /// drain or allocation query) waits until the frames held have left.
    func sinkQuery(_ query: UnsafeMutablePointer<GstQuery>) {
        if pipeline != nil, query.pointee.type.rawValue & GST_QUERY_TYPE_SERIALIZED.rawValue != 0 { drain() }
    }

    /// Applies a `clear-results` the streaming thread has not seen yet: the
    /// session's message goes out, and every code is new again.
    private func applyClear(_ state: State, generation: UInt64) {
        guard state.clearGeneration != generation else { return }
        postSession(state, reason: "clear-results")
        state.tracker.clear()
        state.session = ScanSession()
        state.clearGeneration = generation
        log(GST_LEVEL_DEBUG, instance, "session cleared")
    }

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
    }

    /// What a scan gave, for ``conclude(_:_:frame:)``.
    struct FrameScan {
        var results: [BarcodeResult] = []
        var timedOut = false
        var candidates = 0
        var partial = ""
        /// Where the scan looked, for tracking.
        var scanned = ScannedArea()
    }

    /// `transform_frame_ip`: scans the mapped frame, tracks the codes and
    /// draws; metadata and messages follow in ``finishFrame(buffer:flow:)``
    /// once the frame is unmapped. When frames are analysed ahead on the
    /// analysis threads (``FramePipeline``), it only prepares the frame.
    func transformFrame(_ frame: UnsafeMutablePointer<GstVideoFrame>) -> GstFlowReturn {
        guard let state else { return GST_FLOW_OK }
        state.pending.removeAll(keepingCapacity: true)
        let prep = prepare(frame, state)
        if handingOff {
            handoff = prep
            return GST_FLOW_OK
        }
        state.frameSettings = prep.settings
        guard prep.analyse else { return GST_FLOW_OK }
        let started = g_get_monotonic_time()
        let scan = Self.scan(frame, with: state.scanner, options: prep.options, frameNumber: prep.frameNumber)
        if state.isLive, let limit = prep.options.timeLimit {
            state.pacing.finished(elapsed: Int64(g_get_monotonic_time() - started) * 1000, limit: limit)
        }
        conclude(prep, scan, frame: frame)
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

    /// Set around the base class's output step while frames are analysed
    /// ahead: ``transformFrame(_:)`` then leaves the frame's ``FramePrep``
    /// in ``handoff`` instead of scanning.
    private var handingOff = false
    /// See ``handingOff``.
    private var handoff: FramePrep?

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
        var runningTime = clockTimeNone
        if prep.pts != clockTimeNone {
            var segment = instance.assumingMemoryBound(to: GstBaseTransform.self).pointee.segment
            if segment.format == GST_FORMAT_TIME {
                runningTime = gst_segment_to_running_time(&segment, GST_FORMAT_TIME, prep.pts)
            }
        }
        if runningTime != clockTimeNone {
            prep.now = UInt64(runningTime)
        } else {
            let step = prep.duration != clockTimeNone ? UInt64(prep.duration) : 33_333_333
            prep.now = state.lastNow.map { $0 &+ step } ?? 0
        }
        state.lastNow = prep.now

        // Late downstream (QoS): this frame passes unanalysed.
        if runningTime != clockTimeNone, let earliest = qosEarliest.withLock({ $0 }) {
            let end = UInt64(runningTime) &+ (prep.duration != clockTimeNone ? UInt64(prep.duration) : 0)
            if end <= earliest {
                let count = counters.bump(.skipped)
                if count == 1 || count % 100 == 0 {
                    log(GST_LEVEL_INFO, instance, "frames arrive late downstream: analysis skipped for \(count) so far")
                }
                return prep
            }
        }

        var options = s.scanOptions
        if state.isStillPicture && options.effort == .balanced { options.effort = .thorough }
        // Video: one frame's analysis may take four frame intervals (0.1 to
        // 0.5 s), 1 s with effort=thorough; a frame of noise or dense
        // texture cannot hold the stream up for longer. Still pictures have
        // no limit.
        if !state.isStillPicture {
            let interval =
                prep.duration != clockTimeNone && prep.duration > 0
                ? Double(UInt64(prep.duration)) / 1e9 : 1.0 / 30
            options.timeLimit =
                (options.effort == .thorough ? 1.0 : min(0.5, max(0.1, 4 * interval)))
                * Self.timeLimitScale
            // Live: no later than the frame is due at the sink.
            if state.isLive, let limit = options.timeLimit {
                guard let paced = paceLiveFrame(state, runningTime: runningTime, effortLimit: limit) else {
                    return prep
                }
                options.timeLimit = paced
            }
        }
        // With drawing on, codes of symbologies left out are read too, to be
        // drawn as unwanted (never reported).
        if s.draw { options.symbologies = .all }
        prep.options = options
        prep.analyse = true
        state.framesAnalysed &+= 1
        counters.bump(.analysed)
        prep.frameNumber = state.framesAnalysed
        return prep
    }

    /// After a frame's scan, in frame order (the streaming thread, or an
    /// analysis thread holding the stream lock): tracking, the session,
    /// the status message and drawing into `frame` (mapped writable, or nil
    /// for no drawing). Metadata and messages follow in
    /// ``finishFrame(buffer:flow:)``.
    func conclude(_ prep: FramePrep, _ scan: FrameScan, frame: UnsafeMutablePointer<GstVideoFrame>?) {
        guard let state else { return }
        let s = prep.settings
        state.frameSettings = s
        state.pts = prep.pts
        state.duration = prep.duration
        state.now = prep.now
        guard prep.analyse else { return }
        applyClear(state, generation: s.clearGeneration)
        let results = scan.results
        if scan.timedOut {
            timedOutFrames += 1
            if timedOutFrames == 1 || timedOutFrames % 100 == 0 {
                log(
                    GST_LEVEL_INFO, instance,
                    "analysis stopped at its time limit of "
                        + "\(Int((prep.options.timeLimit ?? 0) * 1000)) ms in \(timedOutFrames) frames so far")
            }
        }
        state.tracker.beginFrame(now: state.now, lostAfter: s.lostAfter, scanned: scan.scanned)
        var read = 0, new = 0
        defer {
            if s.postMessages {
                let status = state.session.status(
                    now: state.now, read: read, new: new,
                    candidates: scan.candidates, partial: scan.partial,
                    lostAfter: s.lostAfter)
                if status.differs(from: state.session.posted) {
                    postStatus(status, state: state)
                    state.session.didPost(status)
                }
            }
        }
        if results.isEmpty { return }
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
            let sighting = state.tracker.observe(
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
                state.session.record(result, sighting)
                read += 1
                if sighting.isNew { new += 1 }
            }
        }
        state.tracker.endFrame()
        log(GST_LEVEL_LOG, instance, "\(results.count) code(s) at \(state.now) ns")

        if s.draw, !state.pending.isEmpty, let frame, let canvas = FrameCanvas(frame: frame) {
            if s.attachFrame && s.frameClean && state.pending.contains(where: { $0.report }) {
                state.snapshot = FrameSnapshot(of: frame, maxSize: s.frameMaxSize)
            }
            draw(state.pending, on: canvas, settings: s)
        }
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
            } else if !warnedUnwritable {
                warnedUnwritable = true
                warn("buffer not writable: region metadata not attached")
            }
        }
        if s.attachFrame, s.frameMaxSize > 0, state.snapshot == nil, state.pending.contains(where: { $0.report }) {
            state.snapshot = scaledSnapshot(of: buffer, state: state, maxSize: s.frameMaxSize)
        }
        for code in state.pending where code.report {
            postMessage(code, buffer: buffer, state: state, attachFrame: s.attachFrame)
        }
    }

    // MARK: Output

    /// A copy of `buffer` scaled down to `maxSize` for `attach-frame`; nil
    /// when it is small enough already (the buffer itself is attached) or
    /// cannot be mapped.
    private func scaledSnapshot(
        of buffer: UnsafeMutablePointer<GstBuffer>, state: State,
        maxSize: Int
    ) -> FrameSnapshot? {
        guard max(state.width, state.height) > maxSize else { return nil }
        var frame = GstVideoFrame()
        guard gst_video_frame_map(&frame, &state.info, buffer, GST_MAP_READ) != 0 else { return nil }
        defer { gst_video_frame_unmap(&frame) }
        return FrameSnapshot(of: &frame, maxSize: maxSize)
    }

    /// The corners as `x0,y0,...,x3,y3` in whole pixels.
    private func cornerInts(_ corners: [Point]) -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(corners.count * 2)
        for p in corners { out.append(clampedInt32(p.x)); out.append(clampedInt32(p.y)) }
        return out
    }

    /// Adds the code's `GstVideoRegionOfInterestMeta` (type `barcode`,
    /// id = tracking id) with its `barcode` params structure.
    private func attachMeta(_ code: PendingCode, to buffer: UnsafeMutablePointer<GstBuffer>) {
        guard let box = code.box,
            let meta = gst_buffer_add_video_region_of_interest_meta(
                buffer, "barcode", guint(box.x), guint(box.y), guint(box.width), guint(box.height))
        else { return }
        meta.pointee.id = gint(truncatingIfNeeded: code.sighting.id)
        let r = code.result
        guard let params = gst_structure_new_empty("barcode") else { return }
        params.set("type", string: r.symbology.name ?? "")
        params.set("symbol", string: r.text)
        params.set("id", uint: code.sighting.id)
        params.set("corners", intArray: cornerInts(r.corners))
        params.set("orientation", int: gint(truncatingIfNeeded: r.orientation))
        params.set("symbology-id", string: r.symbologyIdentifier)
        if !r.addOn.isEmpty { params.set("addon", string: r.addOn) }
        if code.unwanted { params.set("unwanted", bool: true) }
        gst_video_region_of_interest_meta_add_param(meta, params)
    }

    /// Posts the code's `barcode` element message (fields as in the element spec).
    private func postMessage(
        _ code: PendingCode, buffer: UnsafeMutablePointer<GstBuffer>, state: State,
        attachFrame: Bool
    ) {
        guard let st = gst_structure_new_empty("barcode") else { return }
        var segment = instance.assumingMemoryBound(to: GstBaseTransform.self).pointee.segment
        let pts = state.pts
        var streamTime = clockTimeNone, runningTime = clockTimeNone
        if pts != clockTimeNone && segment.format == GST_FORMAT_TIME {
            streamTime = gst_segment_to_stream_time(&segment, GST_FORMAT_TIME, pts)
            runningTime = gst_segment_to_running_time(&segment, GST_FORMAT_TIME, pts)
        }
        let r = code.result
        st.set("timestamp", uint64: UInt64(pts))
        st.set("stream-time", uint64: UInt64(streamTime))
        st.set("running-time", uint64: UInt64(runningTime))
        if state.duration != clockTimeNone { st.set("duration", uint64: UInt64(state.duration)) }
        st.set("type", string: r.symbology.name ?? "")
        st.set("symbol", string: r.text)
        st.set("quality", int: gint(truncatingIfNeeded: r.quality))
        st.set("symbol-bytes", bytes: r.bytes)
        st.set("symbology-id", string: r.symbologyIdentifier)
        st.set("extended", string: r.extendedText)
        st.set("addon", string: r.addOn)
        st.set("corners", intArray: cornerInts(r.corners))
        st.set("orientation", int: gint(truncatingIfNeeded: r.orientation))
        st.set("id", uint: code.sighting.id)
        st.set("first-seen", uint64: code.sighting.firstSeen)
        st.set("last-seen", uint64: code.sighting.lastSeen)
        st.set("new", bool: code.sighting.isNew)
        st.set("inverted", bool: r.isInverted)
        st.set("mirrored", bool: r.isMirrored)
        if let sa = r.structuredAppend {
            st.set("sequence-index", int: gint(truncatingIfNeeded: sa.index))
            st.set("sequence-total", int: gint(truncatingIfNeeded: sa.total))
            st.set("sequence-id", string: sa.id)
        }
        if attachFrame {
            if let sample = attachedFrames.sample(
                state.snapshot?.buffer ?? buffer, caps: state.snapshot?.caps ?? state.caps,
                segment: &segment)
            {
                st.set("frame", takingBoxed: UnsafeMutableRawPointer(sample), type: gst_sample_get_type())
            } else {
                framesNotAttached += 1
                if framesNotAttached == 1 || framesNotAttached % 100 == 0 {
                    log(
                        GST_LEVEL_INFO, instance,
                        "\(attachedFrames.count) frames of messages not yet read: "
                            + "message posted without its frame (\(framesNotAttached) so far)")
                }
            }
        }
        let message = gst_message_new_element(instance.assumingMemoryBound(to: GstObject.self), st)
        _ = gst_element_post_message(element, message)
    }

    /// Posts a `barcode-status` element message.
    private func postStatus(_ status: ScanSession.Status, state: State) {
        guard let st = gst_structure_new_empty("barcode-status") else { return }
        st.set("timestamp", uint64: UInt64(state.pts))
        st.set("running-time", uint64: state.now)
        st.set("in-range", bool: status.inRange)
        st.set("guidance", int: status.guidance)
        st.set("partial", string: status.partial)
        st.set("found", uint: status.found)
        st.set("new-found", uint: status.newFound)
        let message = gst_message_new_element(instance.assumingMemoryBound(to: GstObject.self), st)
        _ = gst_element_post_message(element, message)
        log(
            GST_LEVEL_DEBUG, instance,
            "status: in-range=\(status.inRange) guidance=\(status.guidance) "
                + "found=\(status.found) new-found=\(status.newFound)")
    }

    /// Posts the `barcode-session` element message: every code of the
    /// session with its counts and times. `reason` is `eos`, `clear-results`
    /// or `stop`.
    private func postSession(_ state: State, reason: String) {
        guard settings.withLock({ $0.postMessages }), let st = gst_structure_new_empty("barcode-session") else {
            return
        }
        var codes: [UnsafeMutablePointer<GstStructure>] = []
        codes.reserveCapacity(state.session.codes.count)
        for c in state.session.codes {
            guard let cs = gst_structure_new_empty("barcode-session-code") else { continue }
            cs.set("type", string: c.symbology.name ?? "")
            cs.set("symbol", string: c.text)
            cs.set("symbology-id", string: c.symbologyIdentifier)
            cs.set("id", uint: c.lastID)
            cs.set("appearances", uint: c.appearances)
            cs.set("frames", uint64: c.frames)
            cs.set("first-seen", uint64: c.firstSeen)
            cs.set("last-seen", uint64: c.lastSeen)
            codes.append(cs)
        }
        st.set("reason", string: reason)
        st.set("count", uint: UInt32(clamping: codes.count))
        st.set("codes", takingStructures: codes)
        let message = gst_message_new_element(instance.assumingMemoryBound(to: GstObject.self), st)
        _ = gst_element_post_message(element, message)
        log(GST_LEVEL_DEBUG, instance, "session (\(reason)): \(codes.count) code(s)")
    }

    /// Draws outlines (and labels) of the frame's codes.
    private func draw(_ codes: [PendingCode], on canvas: FrameCanvas, settings s: Settings) {
        let outline = YUVColor(argb: s.outlineColor)
        let unwantedColor = YUVColor(argb: s.unwantedColor)
        let shortSide = min(canvas.width, canvas.height)
        let thickness = shortSide >= 480 ? 3 : 2
        let scale = shortSide >= 720 ? 2 : 1
        for code in codes {
            let color = code.unwanted ? unwantedColor : outline
            let c = code.result.corners
            canvas.polygon(c, thickness: thickness, color)
            if code.unwanted && c.count == 4 {
                canvas.line(c[0].x, c[0].y, c[2].x, c[2].y, thickness: thickness, color)
                canvas.line(c[1].x, c[1].y, c[3].x, c[3].y, thickness: thickness, color)
            }
            guard s.drawLabels, !code.disabled, let box = code.box else { continue }
            var label = code.result.text
            if !code.result.addOn.isEmpty { label += " " + code.result.addOn }
            let maxChars = max(1, (canvas.width / scale - 1) / BitmapFont.advance)
            let shown = label.utf8.prefix(maxChars)
            let size = FrameCanvas.textSize(byteCount: shown.count, scale: scale)
            var y = box.y - size.height - thickness
            if y < 0 { y = box.y + box.height + thickness }
            let x = max(0, min(box.x, canvas.width - size.width))
            canvas.text(shown, x: x, y: y, scale: scale, color: color, background: .black)
        }
    }
}
