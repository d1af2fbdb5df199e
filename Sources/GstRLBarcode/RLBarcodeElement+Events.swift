import CGStreamer
import RLBarcode

// The stream's life: start, caps, events and queries, stop (the streaming
// thread, except a flush's start and the source pad's events).
extension RLBarcodeElement {
    /// `start`: a new session begins.
    func start() -> Bool {
        state = nil
        counters.reset()
        pipelineLatency.withLock { $0 = nil }
        allowScans()
        return true
    }

    /// `stop`: stops the analysis threads, ends the session (unless EOS
    /// ended it) and drops the streaming state.
    func stop() -> Bool {
        flushTarget.withLock { $0 = nil }
        if let state {
            state.stream.pipeline?.shutDown()
            state.stream.pipeline = nil
            if !state.stream.session.ended {
                applyClear(state, generation: settings.withLock { $0.clearGeneration })
                postSession(state, reason: "stop")
            }
        }
        state = nil
        return true
    }

    /// `set_info`: (re)builds the state for new caps; the session, pacing
    /// and analysis threads carry over (``Stream``).
    func setInfo(caps: UnsafeMutablePointer<GstCaps>, info: UnsafeMutablePointer<GstVideoInfo>) -> Bool {
        let width = Int(info.pointee.width), height = Int(info.pointee.height)
        guard width > 0, height > 0, let finfo = info.pointee.finfo, finfo.pointee.bits == 8 else {
            warn("unsupported video info \(width)x\(height)")
            return false
        }
        let s = settings.withLock { $0 }
        let new = State(
            stream: state?.stream ?? Stream(clearGeneration: s.clearGeneration),
            scanner: Scanner(options: s.scanOptions), caps: gst_caps_ref(caps), width: width, height: height)
        new.isStillPicture = info.pointee.fps_n == 0
        new.info = info.pointee
        let live = upstreamIsLive()
        new.scanner.cancellation = cancellation
        new.scanner.analysisPool = AnalysisPool.shared
        new.aheadAllowed = info.pointee.fps_n != 0 && live == false
        new.isLive = live == true
        state = new
        log(
            GST_LEVEL_DEBUG, instance,
            "streaming \(width)x\(height) in \(String(cString: finfo.pointee.name))"
                + (info.pointee.fps_n == 0 ? " (still picture: thorough scan unless effort=fast)" : ""))
        return true
    }

    /// Whether upstream says the stream is live (nil: no answer). A source
    /// that is not live (a file, a test source) gets frames analysed ahead;
    /// a live source, or one that does not answer, one frame at a time: no
    /// frame waits for another.
    private func upstreamIsLive() -> Bool? {
        guard let pad = transform.pointee.sinkpad, let query = gst_query_new_latency() else { return nil }
        defer { gst_query_unref(query) }
        guard gst_pad_peer_query(pad, query) != 0 else { return nil }
        var live: gboolean = 1
        gst_query_parse_latency(query, &live, nil, nil)
        return live != 0
    }

    /// Source-pad events (from downstream, any thread; only the
    /// cross-thread values are touched).
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

    /// Sink events, before the base class handles them: a flush or a new
    /// stream starts time over, so the clock stand-in restarts. Frames
    /// analysed ahead: a flush drops them; any other event in the stream
    /// waits until they have left.
    /// Warns, once a stream, that the segment has no running time (reverse
    /// playback without a stop), so that the base class's QoS check, with
    /// the `qos` property on, is held off for its buffers.
    func warnNoRunningTime() {
        guard let state, !state.stream.warnedNoRunningTime else { return }
        state.stream.warnedNoRunningTime = true
        warn("reverse playback in a segment without a stop has no running time: no QoS dropping for its buffers")
    }

    func sinkEvent(_ event: UnsafeMutablePointer<GstEvent>) {
        if event.pointee.type == GST_EVENT_FLUSH_START {
            // Not on the streaming thread: only the cross-thread values.
            cancelScans()
            flushTarget.withLock { $0?.setFlushing(true) }
            return
        }
        if let pipeline = state?.stream.pipeline {
            if event.pointee.type == GST_EVENT_FLUSH_STOP {
                pipeline.discard()
            } else if event.pointee.type.rawValue & GST_EVENT_TYPE_SERIALIZED.rawValue != 0 {
                drain()
            }
        }
        if event.pointee.type == GST_EVENT_FLUSH_STOP || event.pointee.type == GST_EVENT_STREAM_START {
            state?.lastNow = nil
            state?.stream.pacing.reset()
            qosEarliest.withLock { $0 = nil }
            if event.pointee.type == GST_EVENT_FLUSH_STOP {
                allowScans()
            } else {
                state?.stream.warnedRejected = false
                state?.stream.warnedNoRunningTime = false
            }
        }
        if event.pointee.type == GST_EVENT_EOS, let state {
            // The session ends: a clear-results not yet applied ends its own first.
            applyClear(state, generation: settings.withLock { $0.clearGeneration })
            postSession(state, reason: "eos")
            state.stream.session = ScanSession()
            state.stream.session.end()
        }
    }

    /// Sink queries, before the base class answers: a serialized one (a
    /// drain or allocation query) waits until the frames held have left.
    func sinkQuery(_ query: UnsafeMutablePointer<GstQuery>) {
        if state?.stream.pipeline != nil, query.pointee.type.rawValue & GST_QUERY_TYPE_SERIALIZED.rawValue != 0 {
            drain()
        }
    }
}
