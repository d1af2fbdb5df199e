import CGStreamer
import FuzzDriver
import GstRLBarcode
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Buffers that came out of the element's source pad.
let receivedBuffers = Atomic<Int>(0)

/// GLib criticals logged (a failed `g_return_if_fail` in GStreamer: an
/// argument GStreamer refuses), each one a finding.
let criticals = Atomic<Int>(0)

/// The default log handler: counts criticals, then logs as GLib does.
private let countingLogHandler: GLogFunc = { domain, level, message, data in
    if level.rawValue & G_LOG_LEVEL_CRITICAL.rawValue != 0 { criticals.add(1, ordering: .relaxed) }
    g_log_default_handler(domain, level, message, data)
}

/// One `rlbarcode` element, registered statically in this process, between
/// a source pad and a sink pad of the harness: a buffer pushed on the
/// source pad goes through the element's transform on the calling thread.
/// The element lives across inputs; ``reset()`` brings it back to the same
/// state before each.
final class ElementHarness {
    /// The element under test.
    let element: UnsafeMutablePointer<GstElement>
    /// The pad the harness pushes from, linked to the element's sink pad.
    let src: UnsafeMutablePointer<GstPad>
    /// The pad the element pushes to.
    let sink: UnsafeMutablePointer<GstPad>
    /// The element's source pad (for upstream events).
    let elementSrc: UnsafeMutablePointer<GstPad>
    /// The writable properties, with their specs.
    let properties: [UnsafeMutablePointer<GParamSpec>]
    /// Every readable property.
    let readable: [UnsafeMutablePointer<GParamSpec>]
    /// The caps of the stream now.
    var caps: Caps = .initial
    /// The state the element was set to last.
    var state = GST_STATE_PLAYING
    /// Properties an input changed, restored by ``reset()``.
    var touched: Set<Int> = []
    /// Buffers pushed whose push returned OK during this input.
    var pushedOK = 0
    /// Whether this input did something after which held frames may be dropped.
    var mayDrop = false
    /// Whether this input sent a QoS event (the base class then drops late
    /// frames while the `qos` property is on, as it documents).
    var qosSent = false

    /// Sets up GStreamer, registers `rlbarcode` from the linked-in plugin
    /// code and builds the element between the harness's pads, playing.
    init() {
        // A registry of its own: none that knows a loadable rlbarcode plugin.
        unsetenv("GST_PLUGIN_PATH")
        setenv("GST_REGISTRY", "/tmp/rlbarcode-fuzz-element-\(getuid()).registry", 0)
        gst_init(nil, nil)
        _ = g_log_set_default_handler(countingLogHandler, nil)
        if let existing = gst_element_factory_find("rlbarcode") {
            gst_object_unref(UnsafeMutableRawPointer(existing))
            fuzzFail("an rlbarcode plugin is already registered; the harness needs its own", status: 2)
        }
        let desc = UnsafePointer<GstPluginDesc>(OpaquePointer(gst_plugin_rlbarcode_get_desc())).pointee
        guard
            gst_plugin_register_static(
                desc.major_version, desc.minor_version, desc.name, desc.description, desc.plugin_init,
                desc.version, desc.license, desc.source, desc.package, desc.origin) != 0,
            let element = gst_element_factory_make("rlbarcode", "under-test")
        else { fuzzFail("cannot register or make rlbarcode", status: 2) }
        self.element = element
        src = gst_pad_new("fuzz-src", GST_PAD_SRC)
        // A template of ANY caps: the pad then takes whatever the element offers.
        let any = gst_pad_template_new("sink", GST_PAD_SINK, GST_PAD_ALWAYS, gst_caps_new_any())
        sink = gst_pad_new_from_template(any, "fuzz-sink")
        gst_pad_set_chain_function_full(sink, harnessChain, nil, nil)
        gst_pad_set_event_function_full(sink, harnessEvent, nil, nil)
        let elementSink = gst_element_get_static_pad(element, "sink")!
        elementSrc = gst_element_get_static_pad(element, "src")!
        _ = gst_pad_set_active(src, 1)
        _ = gst_pad_set_active(sink, 1)
        guard gst_pad_link(src, elementSink) == GST_PAD_LINK_OK, gst_pad_link(elementSrc, sink) == GST_PAD_LINK_OK
        else { fuzzFail("cannot link the harness's pads", status: 2) }
        gst_object_unref(elementSink)
        (properties, readable) = Self.propertySpecs(element)
        // No pipeline, so no bus: the element's messages are dropped as they are posted.
        _ = gst_element_set_state(element, GST_STATE_PLAYING)
        startStream()
    }

    /// The element's writable properties (but `name` and `parent`) and its readable ones.
    private static func propertySpecs(_ element: UnsafeMutablePointer<GstElement>)
        -> ([UnsafeMutablePointer<GParamSpec>], [UnsafeMutablePointer<GParamSpec>])
    {
        let klass = UnsafeMutablePointer<GObjectClass>(
            OpaquePointer(element.withMemoryRebound(to: GTypeInstance.self, capacity: 1) { $0.pointee.g_class }))
        var count: guint = 0
        guard let specs = g_object_class_list_properties(klass, &count) else { return ([], []) }
        defer { g_free(specs) }
        var writable: [UnsafeMutablePointer<GParamSpec>] = []
        var readable: [UnsafeMutablePointer<GParamSpec>] = []
        for i in 0..<Int(count) {
            guard let spec = specs[i] else { continue }
            let name = String(cString: spec.pointee.name)
            if spec.pointee.flags.rawValue & G_PARAM_READABLE.rawValue != 0 { readable.append(spec) }
            if spec.pointee.flags.rawValue & G_PARAM_WRITABLE.rawValue != 0 && name != "name" && name != "parent" {
                writable.append(spec)
            }
        }
        return (writable, readable)
    }

    /// Sends what a stream starts with: stream-start, the caps, a time segment.
    func startStream() {
        _ = gst_pad_push_event(src, gst_event_new_stream_start("fuzz"))
        pushCaps()
        pushSegment()
    }

    /// Sends the caps of ``caps``.
    func pushCaps() {
        guard let c = gst_caps_from_string(caps.text) else { return }
        _ = gst_pad_push_event(src, gst_event_new_caps(c))
        gst_caps_unref(c)
    }

    /// Sends a time segment of `rate`.
    func pushSegment(rate: Double = 1) {
        var segment = GstSegment()
        gst_segment_init(&segment, GST_FORMAT_TIME)
        segment.rate = rate
        _ = gst_pad_push_event(src, gst_event_new_segment(&segment))
    }

    /// Sets the element's state; from PAUSED up the stream starts again
    /// (the element's pads lost their events when they were deactivated).
    func setState(_ target: GstState) {
        _ = gst_element_set_state(element, target)
        if target.rawValue < GST_STATE_PAUSED.rawValue { mayDrop = true }
        if target.rawValue >= GST_STATE_PAUSED.rawValue && state.rawValue < GST_STATE_PAUSED.rawValue {
            startStream()
        }
        state = target
    }

    /// Brings the element back to the state every input starts from:
    /// playing, every property at its default, the initial caps, nothing held.
    func reset() {
        for i in touched {
            var value = GValue()
            g_value_init(&value, properties[i].pointee.value_type)
            g_param_value_set_default(properties[i], &value)
            g_object_set_property(
                UnsafeMutablePointer<GObject>(OpaquePointer(element)), properties[i].pointee.name, &value)
            g_value_unset(&value)
        }
        touched = []
        _ = gst_element_set_state(element, GST_STATE_READY)
        _ = gst_element_set_state(element, GST_STATE_PLAYING)
        state = GST_STATE_PLAYING
        caps = .initial
        startStream()
        pushedOK = 0
        mayDrop = false
        qosSent = false
        FuzzBuffer.nextPTS = 0
        receivedBuffers.store(0, ordering: .relaxed)
    }

    /// Lets every held frame leave (a drain query), then checks that no
    /// GLib critical was logged and no buffer lost or made up: every buffer
    /// the element took is pushed on.
    func checkBuffersPassed() {
        let query = gst_query_new_drain()!
        _ = gst_pad_peer_query(src, query)
        gst_query_unref(query)
        let logged = criticals.exchange(0, ordering: .relaxed)
        if logged > 0 { fuzzFail("\(logged) GLib critical(s) logged during the input", status: 3) }
        let received = receivedBuffers.load(ordering: .relaxed)
        if received > pushedOK || (!mayDrop && received != pushedOK) {
            fuzzFail(
                "the element pushed \(received) buffers of the \(pushedOK) it took (analysed"
                    + " \(counter("frames-analysed")), skipped \(counter("frames-skipped")),"
                    + " rejected \(counter("frames-rejected")))", status: 3)
        }
    }
}

/// The harness sink pad's chain function: counts the buffer and drops it.
private let harnessChain: GstPadChainFunction = { _, _, buffer in
    receivedBuffers.add(1, ordering: .relaxed)
    if let buffer { gst_mini_object_unref(UnsafeMutablePointer<GstMiniObject>(OpaquePointer(buffer))) }
    return GST_FLOW_OK
}

/// The harness sink pad's event function: takes every event.
private let harnessEvent: GstPadEventFunction = { _, _, event in
    if let event { gst_mini_object_unref(UnsafeMutablePointer<GstMiniObject>(OpaquePointer(event))) }
    return 1
}

/// Writes `message` to standard error and stops with `status`.
func fuzzFail(_ message: String, status: Int32) -> Never {
    FuzzDriver.printError("rlbarcode-fuzz-element: \(message)")
    if status == 3 { abort() }
    exit(status)
}
