import CGStreamer
import RLBarcode
import Synchronization

/// What the element counts, for the read-only properties `frames-analysed`,
/// `frames-skipped` and `frames-rejected` (since the element last started).
final class FrameCounters: Sendable {
    /// Frames given to analysis.
    let analysed = Atomic<Int>(0)
    /// Frames passed on unanalysed because they were late (QoS events, or
    /// the element's own measure on live streams).
    let skipped = Atomic<Int>(0)
    /// Buffers passed on unread because their planes do not fit their memory.
    let rejected = Atomic<Int>(0)

    /// The counts.
    enum Counter { case analysed, skipped, rejected }

    /// Adds one to `counter`; the new value.
    @discardableResult
    func bump(_ counter: Counter) -> Int {
        switch counter {
        case .analysed: analysed.wrappingAdd(1, ordering: .relaxed).newValue
        case .skipped: skipped.wrappingAdd(1, ordering: .relaxed).newValue
        case .rejected: rejected.wrappingAdd(1, ordering: .relaxed).newValue
        }
    }

    /// Starts every count over.
    func reset() {
        analysed.store(0, ordering: .relaxed)
        skipped.store(0, ordering: .relaxed)
        rejected.store(0, ordering: .relaxed)
    }
}

// The element's limits: buffers whose planes do not fit, the time a live
// frame may take, scans stopped at once on a stop or flush.
extension RLBarcodeElement {
    /// Whether `buffer`'s planes fit the memory they are read from
    /// (``PlaneCheck``); a buffer that does not is counted, passed on as
    /// it is, and the first one of a stream posts a warning on the bus.
    func acceptsPlanes(_ buffer: UnsafeMutablePointer<GstBuffer>) -> Bool {
        let filter = instance.assumingMemoryBound(to: GstVideoFilter.self)
        let problem = withUnsafePointer(to: &filter.pointee.in_info) { PlaneCheck.problem(buffer, info: $0) }
        guard let problem else { return true }
        reject(problem)
        return false
    }

    /// Counts a buffer passed on unread for `problem`; the first one of a
    /// stream posts a warning on the bus (every one when no caps are set yet).
    func reject(_ problem: String) {
        let count = counters.bump(.rejected)
        log(GST_LEVEL_DEBUG, instance, "buffer passed on unread (\(count) so far): \(problem)")
        if state?.stream.warnedRejected != true {
            state?.stream.warnedRejected = true
            postWarning(
                "Buffer layout does not fit its memory: frames passed on unanalysed",
                debug: "\(problem) (warned once per stream; the property frames-rejected counts them)")
        }
    }

    /// Posts a `GST_ELEMENT_WARNING` (stream domain, format code).
    func postWarning(_ text: String, debug: String, function: StaticString = #function, line: Int32 = #line) {
        log(GST_LEVEL_WARNING, instance, "\(text): \(debug)")
        gst_element_message_full(
            element, GST_MESSAGE_WARNING, gst_stream_error_quark(),
            gint(GST_STREAM_ERROR_FORMAT.rawValue), g_strdup(text), g_strdup(debug),
            "RLBarcodeElement+Limits.swift", "\(function)", line)
    }

    /// Nanoseconds left before a frame at `runningTime` is due at the sink
    /// of a live pipeline (negative: late), or nil when that cannot be
    /// told: no clock, or no latency yet (it comes once the sinks have
    /// their first frame), or a latency of 0 (no sink syncs to the clock:
    /// those that do add their processing deadline, 20 ms by default).
    func timeLeft(runningTime: GstClockTime) -> Int64? {
        guard runningTime != clockTimeNone, let latency = pipelineLatency.withLock({ $0 }), latency > 0,
            let clock = gst_element_get_clock(element)
        else { return nil }
        defer { gst_object_unref(clock) }
        let due = UInt64(gst_element_get_base_time(element)) &+ UInt64(runningTime) &+ latency
        return Int64(bitPattern: due &- UInt64(gst_clock_get_time(clock)))
    }

    /// The time limit of a live frame's analysis (`options` carries the
    /// effort's own), or nil when the frame passes unanalysed; see
    /// ``LivePacing``.
    func paceLiveFrame(_ state: State, runningTime: GstClockTime, effortLimit: Double) -> Double? {
        guard let left = timeLeft(runningTime: runningTime) else { return effortLimit }
        switch state.stream.pacing.decide(timeLeft: left, runningTime: UInt64(runningTime), effortLimit: effortLimit) {
        case .analyse(let limit):
            return limit
        case .look(let limit):
            log(
                GST_LEVEL_DEBUG, instance,
                "live frame \(Double(-left) / 1e6) ms late: analysed anyway "
                    + "(none for \(LivePacing.lookEvery / 1_000_000) ms), limit \(Int(limit * 1000)) ms")
            return limit
        case .skip:
            countSkipped { "live frames late (this one by \(Double(-left) / 1e6) ms)" }
            return nil
        }
    }

    /// Counts a frame passed on unanalysed (`frames-skipped`) and logs the
    /// first and every 100th with `why`.
    func countSkipped(_ why: () -> String) {
        let count = counters.bump(.skipped)
        guard count == 1 || count % 100 == 0 else { return }
        log(GST_LEVEL_INFO, instance, "\(why()): analysis skipped for \(count) so far")
    }

    /// A stop (PAUSED to READY) or a flush: the scans in progress end at
    /// their next time-limit check, and none runs until ``allowScans()``.
    func cancelScans() {
        cancellation.cancel()
        log(GST_LEVEL_DEBUG, instance, "scans cancelled")
    }

    /// After a flush, or when the element starts: scans run again.
    func allowScans() { cancellation.reset() }
}
