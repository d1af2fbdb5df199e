import CGStreamer
import RLBarcode

// What leaves with a frame: region-of-interest metadata and the `barcode`,
// `barcode-status` and `barcode-session` messages (streaming thread, or an
// analysis thread holding the stream lock).
extension RLBarcodeElement {
    /// The corners as `x0,y0,...,x3,y3` in whole pixels.
    private func cornerInts(_ corners: [Point]) -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(corners.count * 2)
        for p in corners { out.append(clampedInt32(p.x)); out.append(clampedInt32(p.y)) }
        return out
    }

    /// Adds the code's `GstVideoRegionOfInterestMeta` (type `barcode`,
    /// id = tracking id) with its `barcode` params structure.
    func attachMeta(_ code: PendingCode, to buffer: UnsafeMutablePointer<GstBuffer>) {
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
    func postMessage(
        _ code: PendingCode, buffer: UnsafeMutablePointer<GstBuffer>, state: State,
        attachFrame: Bool
    ) {
        guard let st = gst_structure_new_empty("barcode") else { return }
        var segment = transform.pointee.segment
        let pts = state.pts
        var streamTime = clockTimeNone, runningTime = clockTimeNone
        if pts != clockTimeNone && segment.format == GST_FORMAT_TIME {
            streamTime = gst_segment_to_stream_time(&segment, GST_FORMAT_TIME, pts)
            runningTime = segmentRunningTime(pts, in: &segment)
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
                state.stream.framesNotAttached += 1
                let count = state.stream.framesNotAttached
                if count == 1 || count % 100 == 0 {
                    log(
                        GST_LEVEL_INFO, instance,
                        "\(attachedFrames.count) frames of messages not yet read: "
                            + "message posted without its frame (\(count) so far)")
                }
            }
        }
        post(st)
    }

    /// Posts a `barcode-status` element message.
    func postStatus(_ status: ScanSession.Status, state: State) {
        guard let st = gst_structure_new_empty("barcode-status") else { return }
        st.set("timestamp", uint64: UInt64(state.pts))
        st.set("running-time", uint64: state.now)
        st.set("in-range", bool: status.inRange)
        st.set("guidance", int: status.guidance)
        st.set("partial", string: status.partial)
        st.set("found", uint: status.found)
        st.set("new-found", uint: status.newFound)
        post(st)
        log(
            GST_LEVEL_DEBUG, instance,
            "status: in-range=\(status.inRange) guidance=\(status.guidance) "
                + "found=\(status.found) new-found=\(status.newFound)")
    }

    /// Posts the `barcode-session` element message: every code of the
    /// session with its counts and times. `reason` is `eos`, `clear-results`
    /// or `stop`.
    func postSession(_ state: State, reason: String) {
        guard settings.withLock({ $0.postMessages }), let st = gst_structure_new_empty("barcode-session") else {
            return
        }
        var codes: [UnsafeMutablePointer<GstStructure>] = []
        codes.reserveCapacity(state.stream.session.codes.count)
        for c in state.stream.session.codes {
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
        post(st)
        log(GST_LEVEL_DEBUG, instance, "session (\(reason)): \(codes.count) code(s)")
    }

    /// Applies a `clear-results` the streaming thread has not seen yet: the
    /// session's message goes out, and every code is new again.
    func applyClear(_ state: State, generation: UInt64) {
        guard state.stream.clearGeneration != generation else { return }
        postSession(state, reason: "clear-results")
        state.stream.tracker.clear()
        state.stream.session = ScanSession()
        state.stream.clearGeneration = generation
        log(GST_LEVEL_DEBUG, instance, "session cleared")
    }
}
