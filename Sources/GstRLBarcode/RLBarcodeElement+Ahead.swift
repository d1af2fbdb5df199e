import CGStreamer
import RLBarcode

// Frames analysed ahead (streams that are not live): the streaming
// thread's side of ``FramePipeline``.
extension RLBarcodeElement {
    /// Whether this frame goes to the analysis threads (made here on first use).
    private func analysisAhead(_ state: State) -> FramePipeline? {
        guard state.aheadAllowed else { return nil }
        let threads = settings.withLock { $0.threads }
        let processors = Int(g_get_num_processors())
        guard threads != 1, processors >= 2 else { return nil }
        let stream = state.stream
        if stream.pipeline == nil && !stream.pipelineFailed {
            let pipeline = FramePipeline(element: self)
            stream.pipeline = pipeline
            stream.pipelineFailed = pipeline == nil
            flushTarget.withLock { $0 = pipeline }
            if pipeline != nil {
                log(
                    GST_LEVEL_DEBUG, instance,
                    "stream not live: frames analysed ahead on "
                        + "\(FramePipeline.workerCount) threads, up to \(FramePipeline.maxInFlight) held")
            }
        }
        return stream.pipeline
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
        let stream = state.stream
        let pipeline: FramePipeline
        if trans.pointee.queued_buf != nil {
            guard let p = analysisAhead(state) else {
                // One frame at a time (again): the frames held leave first.
                drain()
                return parent(trans, out)
            }
            pipeline = p
        } else {
            guard let p = stream.pipeline else { return parent(trans, out) }
            pipeline = p
        }
        pipeline.enter()
        if trans.pointee.queued_buf != nil {
            stream.tookOne = false
            var buffer: UnsafeMutablePointer<GstBuffer>? = nil
            stream.handingOff = true
            stream.handoff = nil
            let flow = parent(trans, &buffer)
            stream.handingOff = false
            if flow != GST_FLOW_OK {
                if let buffer { gst_buffer_unref(buffer) }
                drain()
                out.pointee = nil
                return flow
            }
            if let buffer {
                let prep =
                    stream.handoff
                    ?? FramePrep(
                        settings: settings.withLock { $0 }, options: ScanOptions(),
                        pts: clockTimeNone, duration: clockTimeNone,
                        now: state.lastNow ?? 0, analyse: false)
                pipeline.submit(buffer, info: state.info, prep: prep)
            }
            stream.handoff = nil
        }
        if let job = pipeline.next(tookOne: stream.tookOne) {
            _ = deliver(job, push: false)
            out.pointee = job.buffer
            pipeline.recycle(job)
            stream.tookOne = true
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
        guard let pipeline = state?.stream.pipeline else { return }
        pipeline.enter()
        while let job = pipeline.next(all: true) {
            _ = deliver(job, push: true)
            pipeline.recycle(job)
        }
    }

    /// A frame whose analysis is done, in frame order (the streaming
    /// thread, or an analysis thread holding the stream lock): its
    /// conclusion (tracking, drawing, metadata, messages), then, with
    /// `push`, onto the source pad (the buffer's reference goes with it).
    func deliver(_ job: FramePipeline.Job, push: Bool) -> GstFlowReturn {
        guard let buffer = job.buffer else { return GST_FLOW_OK }
        if let prep = job.prep {
            state?.pending.removeAll(keepingCapacity: true)
            // Mapped when it is drawn on, or may be copied for a message.
            let found = prep.analyse && !job.scan.results.isEmpty
            let drawable =
                found && prep.settings.draw && gst_mini_object_is_writable(UnsafePointer(OpaquePointer(buffer))) != 0
            var frame = GstVideoFrame()
            let flags = drawable ? GstMapFlags(rawValue: GST_MAP_READ.rawValue | GST_MAP_WRITE.rawValue) : GST_MAP_READ
            let mapped =
                found && (drawable || prep.settings.attachFrame)
                && gst_video_frame_map(&frame, &job.info, buffer, flags) != 0
            if mapped {
                withUnsafeMutablePointer(to: &frame) { conclude(prep, job.scan, frame: $0, drawable: drawable) }
                gst_video_frame_unmap(&frame)
            } else {
                conclude(prep, job.scan, frame: nil, drawable: false)
            }
            finishFrame(buffer: buffer, flow: GST_FLOW_OK)
        }
        guard push else { return GST_FLOW_OK }
        job.buffer = nil
        return gst_pad_push(transform.pointee.srcpad, buffer)
    }
}
