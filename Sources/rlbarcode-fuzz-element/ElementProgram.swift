import CGStreamer

#if canImport(Glibc)
    import Glibc
#endif

/// One operation of an input's program.
enum Operation: CaseIterable {
    /// New caps (``Caps/read(_:)``).
    case caps
    /// A buffer (``FuzzBuffer``).
    case buffer
    /// An event: flush, EOS, segment, gap, upstream QoS, latency, reconfigure, custom.
    case event
    /// A query: caps, accept-caps, allocation, drain, latency.
    case query
    /// A property set to a value of its type.
    case property
    /// A property read back.
    case readBack
    /// A state change.
    case state
    /// An action signal: `clear-results` or `report-unwanted`.
    case signal
}

/// The element targets: each reads an input as a program of up to
/// ``maxOperations`` operations (a byte picks the next one from the
/// target's table, then the operation reads its own bytes) and runs it on
/// the one element, reset before each input.
enum ElementTarget: String, CaseIterable {
    /// Caps, strides, offsets, metas and sizes per buffer through the transform.
    case frames = "element-frames"
    /// Property values, signals and state changes with frames flowing.
    case props = "element-props"

    /// The operations a byte picks from (some twice, to run more often).
    var table: [Operation] {
        switch self {
        case .frames: [.caps, .buffer, .buffer, .buffer, .event, .query, .buffer, .caps]
        case .props: [.property, .property, .buffer, .state, .signal, .readBack, .event, .buffer, .caps, .property]
        }
    }

    /// The most operations one input runs.
    static let maxOperations = 32
    /// The most buffers one input pushes.
    static let maxBuffers = 8
    /// The most CPU time one input may take, seconds
    /// (`RLBARCODE_FUZZ_BUDGET_MS`, default 5000); past it the input counts
    /// as a hang. CPU time, not time on the clock: a fuzzer at low priority
    /// beside other work waits for a core for seconds. An input that waits
    /// on a lock for good is stopped by libFuzzer's own `-timeout`.
    static let budget: Double = {
        guard let raw = getenv("RLBARCODE_FUZZ_BUDGET_MS"), let ms = Double(String(cString: raw)) else { return 5 }
        return ms / 1000
    }()

    /// Whether each operation is written to standard error (`RLBARCODE_FUZZ_TRACE=1`).
    static let trace = getenv("RLBARCODE_FUZZ_TRACE").map { String(cString: $0) == "1" } ?? false

    /// Runs `data` on `harness`; returns what the element's counters say.
    func run(_ data: UnsafeBufferPointer<UInt8>, on harness: ElementHarness) -> String {
        let start = processCPUSeconds()
        harness.reset()
        var r = ByteReader(data: data)
        var operations = 0, buffers = 0
        while !r.atEnd && operations < Self.maxOperations {
            operations += 1
            let op = table[r.byte() % table.count]
            if op == .buffer {
                buffers += 1
                if buffers > Self.maxBuffers { break }
            }
            let before = r.offset
            harness.perform(op, &r)
            if Self.trace { harness.trace(op, bytes: r.offset - before) }
        }
        harness.checkBuffersPassed()
        let took = processCPUSeconds() - start
        if took > Self.budget {
            fuzzFail(
                "one input took \(Int(took * 1000)) ms of CPU time, over the budget of \(Int(Self.budget * 1000))",
                status: 3)
        }
        return "\(operations) operations, \(buffers) buffers, \(receivedBuffers.load(ordering: .relaxed)) passed,"
            + " \(harness.counter("frames-analysed")) analysed, \(harness.counter("frames-rejected")) rejected"
    }
}

extension ElementHarness {
    /// Writes what `op` did to standard error.
    func trace(_ op: Operation, bytes: Int) {
        let line =
            "\(op) (\(bytes) bytes): caps \(caps.text), state \(state.rawValue), pushed \(pushedOK),"
            + " out \(receivedBuffers.load(ordering: .relaxed))\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }

    /// Runs one operation, reading its bytes from `r`.
    func perform(_ op: Operation, _ r: inout ByteReader) {
        switch op {
        case .caps:
            caps = Caps.read(&r)
            pushCaps()
        case .buffer:
            if ElementTarget.trace {
                let line = "  buffer layout \(r.byte()) flags \(r.byte())\n"
                r.offset -= 2
                _ = line.withCString { write(2, $0, strlen($0)) }
            }
            push(&r)
        case .event: sendEvent(&r)
        case .query: sendQuery(&r)
        case .property: setProperty(&r)
        case .readBack: readProperty(&r)
        case .state:
            let states = [GST_STATE_NULL, GST_STATE_READY, GST_STATE_PAUSED, GST_STATE_PLAYING]
            setState(states[r.byte() % states.count])
        case .signal: emitSignal(&r)
        }
    }

    /// Pushes a buffer read from `r`, with a reference held when it is to be read-only.
    func push(_ r: inout ByteReader) {
        let (buffer, readOnly) = FuzzBuffer.make(&r, caps: caps)
        let object = UnsafeMutablePointer<GstMiniObject>(OpaquePointer(buffer))
        if readOnly { _ = gst_mini_object_ref(object) }
        if qosSent && flag("qos") { mayDrop = true }
        if gst_pad_push(src, buffer) == GST_FLOW_OK { pushedOK += 1 }
        if readOnly { gst_mini_object_unref(object) }
    }

    /// Sends an event read from `r`, downstream into the sink pad or upstream into the source pad.
    func sendEvent(_ r: inout ByteReader) {
        switch r.byte() % 8 {
        case 0:
            _ = gst_pad_push_event(src, gst_event_new_flush_start())
            _ = gst_pad_push_event(src, gst_event_new_flush_stop(1))
            pushSegment()
            mayDrop = true
        case 1:
            _ = gst_pad_push_event(src, gst_event_new_eos())
            _ = gst_pad_push_event(src, gst_event_new_flush_start())
            _ = gst_pad_push_event(src, gst_event_new_flush_stop(1))
            pushSegment()
        case 2: pushSegment(rate: [1, 0.5, 2, -1][r.byte() % 4])
        case 3: _ = gst_pad_push_event(src, gst_event_new_gap(UInt(r.long()) * 1000, UInt(r.word()) * 1_000_000))
        case 4:
            let types = [GST_QOS_TYPE_OVERFLOW, GST_QOS_TYPE_UNDERFLOW, GST_QOS_TYPE_THROTTLE]
            let type = types[r.byte() % 3], proportion = Double(r.byte()) / 32
            let diff = Int(Int32(bitPattern: r.long())) * 1000, timestamp = UInt(r.long()) * 1000
            // GStreamer refuses a QoS event whose timestamp minus diff is negative.
            let event = gst_event_new_qos(type, proportion, max(diff, -Int(timestamp)), timestamp)
            _ = gst_pad_send_event(elementSrc, event)
            qosSent = true
        case 5: _ = gst_pad_send_event(elementSrc, gst_event_new_latency(UInt(r.long()) * 1000))
        case 6: _ = gst_pad_send_event(elementSrc, gst_event_new_reconfigure())
        default:
            _ = gst_pad_push_event(
                src, gst_event_new_custom(GST_EVENT_CUSTOM_DOWNSTREAM, gst_structure_new_empty("fuzz")))
        }
    }

    /// Sends a query read from `r` to the element.
    func sendQuery(_ r: inout ByteReader) {
        let c = gst_caps_from_string(caps.text)
        defer { if let c { gst_caps_unref(c) } }
        let query: UnsafeMutablePointer<GstQuery>?
        var upstream = false
        switch r.byte() % 5 {
        case 0: query = gst_query_new_caps(nil)
        case 1: query = c.map { gst_query_new_accept_caps($0) }
        case 2: query = gst_query_new_allocation(c, 1)
        case 3: query = gst_query_new_drain()
        default:
            query = gst_query_new_latency()
            upstream = true
        }
        guard let query else { return }
        _ = upstream ? gst_pad_query(elementSrc, query) : gst_pad_peer_query(src, query)
        gst_query_unref(query)
    }

    /// Emits `clear-results` or `report-unwanted` with texts from `r`.
    func emitSignal(_ r: inout ByteReader) {
        let instance = UnsafeMutableRawPointer(element)
        let type = instance.assumingMemoryBound(to: GTypeInstance.self).pointee.g_class.pointee.g_type
        let which = r.byte()
        let unwanted = which & 1 == 1
        let id = g_signal_lookup(unwanted ? "report-unwanted" : "clear-results", type)
        guard id != 0 else { return }
        let names = ["ean-13", "qr-code", "code-128", "", "garbage", "data-matrix"]
        let texts = [names[which >> 1 % names.count], text(&r)]
        var params = [GValue](repeating: GValue(), count: unwanted ? 3 : 1)
        params.withUnsafeMutableBufferPointer { p in
            g_value_init(&p[0], type)
            g_value_set_object(&p[0], instance)
            for i in 1..<p.count {
                g_value_init(&p[i], GType(16 << 2))
                g_value_set_string(&p[i], texts[i - 1])
            }
            g_signal_emitv(p.baseAddress, id, 0, nil)
            for i in 0..<p.count { g_value_unset(&p[i]) }
        }
    }

    /// A text from `r`: printable bytes, digits and commas (for regions), or any UTF-8.
    func text(_ r: inout ByteReader) -> String {
        let kind = r.byte()
        let bytes = r.bytes(kind >> 2 % 40)
        switch kind & 3 {
        case 0:
            return (0..<4).map { i in "\(i < bytes.count ? Double(Int(bytes[i]) - 40) / 100 : 0.5)" }
                .joined(separator: ",")
        case 1: return String(decoding: bytes.map { 32 + $0 % 95 }, as: UTF8.self)
        default: return String(decoding: bytes, as: UTF8.self)
        }
    }
}

/// The CPU time of the process, every thread's, seconds.
func processCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}
