import CGStreamer
import Foundation
import XCTest

// Drives the built plugin in real pipelines: appsrc ! rlbarcode ! appsink.

/// `G_TYPE_*` fundamental numbers (the C macros do not import).
enum TestGTypes {
    static let boolean = GType(5 << 2)
    static let int = GType(6 << 2)
    static let uint = GType(7 << 2)
    static let uint64 = GType(11 << 2)
    static let string = GType(16 << 2)
}

/// The package's root (`Tests/ElementTests/Support/` is three levels below it).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// Where the plugin under test was built: `RLBARCODE_PLUGIN_DIR`, else the
/// directory of the test bundle, else the package's known scratch folders.
func pluginDirectory() -> String? {
    let fm = FileManager.default
    var candidates: [String] = []
    if let dir = ProcessInfo.processInfo.environment["RLBARCODE_PLUGIN_DIR"] { candidates.append(dir) }
    let exe = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
    candidates.append(exe.path)
    candidates.append(Bundle.main.bundleURL.path)
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().path)
    for bundle in Bundle.allBundles { candidates.append(bundle.bundleURL.deletingLastPathComponent().path) }
    let root = packageRoot
    for scratch in [".build-elem", ".build"] {
        for config in ["debug", "release"] {
            candidates.append(root.appendingPathComponent("\(scratch)/\(config)").path)
        }
    }
    return candidates.first { fm.fileExists(atPath: $0 + "/libgstrlbarcode.so") }
}

/// GStreamer, initialised once with the plugin directory on the plugin path.
let gstreamerReady: Result<String, Error> = {
    struct NotFound: Error, CustomStringConvertible {
        var description: String {
            "libgstrlbarcode.so not found: build it (swift build --build-tests) or set RLBARCODE_PLUGIN_DIR"
        }
    }
    guard let dir = pluginDirectory() else { return .failure(NotFound()) }
    g_setenv("GST_PLUGIN_PATH", dir, 1)
    gst_init(nil, nil)
    return .success(dir)
}()

/// A value read from a message or structure field.
enum FieldValue: Equatable {
    case string(String)
    case int(Int)
    case uint(UInt64)
    case uint64(UInt64)
    case bool(Bool)
    case bytes([UInt8])
    case intArray([Int])
    case sample(hasBuffer: Bool, caps: String)
    case structures([Fields])
    case other(typeName: String)

    var string: String? { if case .string(let s) = self { s } else { nil } }
    var int: Int? { if case .int(let x) = self { x } else { nil } }
    var uint: UInt64? { if case .uint(let x) = self { x } else { nil } }
    var uint64: UInt64? { if case .uint64(let x) = self { x } else { nil } }
    var bool: Bool? { if case .bool(let x) = self { x } else { nil } }
    var intArray: [Int]? { if case .intArray(let x) = self { x } else { nil } }
    var structures: [Fields]? { if case .structures(let x) = self { x } else { nil } }
}

/// The fields of a structure, converted.
struct Fields: Equatable {
    var name: String
    var values: [String: FieldValue]
    /// GType names of the fields, for type checks.
    var typeNames: [String: String]
    /// The bytes of the buffers of GstSample fields.
    var sampleBytes: [String: [UInt8]] = [:]
    subscript(_ key: String) -> FieldValue? { values[key] }
}

/// Reads every field of `structure`.
func readStructure(_ structure: UnsafePointer<GstStructure>) -> Fields {
    var fields = Fields(name: String(cString: gst_structure_get_name(structure)), values: [:], typeNames: [:])
    let n = gst_structure_n_fields(structure)
    for i in 0..<n {
        guard let cname = gst_structure_nth_field_name(structure, guint(i)),
            let value = gst_structure_get_value(structure, cname)
        else { continue }
        let name = String(cString: cname)
        let type = value.pointee.g_type
        fields.typeNames[name] = String(cString: g_type_name(type))
        fields.values[name] = convert(value)
        if type == gst_sample_get_type(), let boxed = g_value_get_boxed(value),
            let buffer = gst_sample_get_buffer(OpaquePointer(boxed))
        {
            var map = GstMapInfo()
            if gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 {
                fields.sampleBytes[name] = Array(UnsafeBufferPointer(start: map.data, count: Int(map.size)))
                gst_buffer_unmap(buffer, &map)
            }
        }
    }
    return fields
}

private func convert(_ value: UnsafePointer<GValue>) -> FieldValue {
    let type = value.pointee.g_type
    switch type {
    case TestGTypes.string: return .string(g_value_get_string(value).map { String(cString: $0) } ?? "")
    case TestGTypes.int: return .int(Int(g_value_get_int(value)))
    case TestGTypes.uint: return .uint(UInt64(g_value_get_uint(value)))
    case TestGTypes.uint64: return .uint64(UInt64(g_value_get_uint64(value)))
    case TestGTypes.boolean: return .bool(g_value_get_boolean(value) != 0)
    default: break
    }
    if type == g_bytes_get_type() {
        guard let boxed = g_value_get_boxed(value) else { return .bytes([]) }
        var size: gsize = 0
        let bytes = OpaquePointer(boxed)
        guard let data = g_bytes_get_data(bytes, &size) else { return .bytes([]) }
        return .bytes(Array(UnsafeRawBufferPointer(start: data, count: Int(size))))
    }
    if type == gst_value_array_get_type() {
        var out: [Int] = []
        if gst_value_array_get_size(value) > 0, let first = gst_value_array_get_value(value, 0),
            first.pointee.g_type == gst_structure_get_type()
        {
            var list: [Fields] = []
            for i in 0..<gst_value_array_get_size(value) {
                guard let item = gst_value_array_get_value(value, i),
                    let st = g_value_get_boxed(item)
                else { return .other(typeName: "array of mixed") }
                list.append(readStructure(st.assumingMemoryBound(to: GstStructure.self)))
            }
            return .structures(list)
        }
        for i in 0..<gst_value_array_get_size(value) {
            guard let item = gst_value_array_get_value(value, i) else { continue }
            guard item.pointee.g_type == TestGTypes.int else { return .other(typeName: "array of non-int") }
            out.append(Int(g_value_get_int(item)))
        }
        return .intArray(out)
    }
    if type == gst_sample_get_type() {
        guard let boxed = g_value_get_boxed(value) else { return .sample(hasBuffer: false, caps: "") }
        let sample = OpaquePointer(boxed)
        let caps = gst_sample_get_caps(sample).flatMap { gst_caps_to_string($0) }
        defer { g_free(caps) }
        return .sample(hasBuffer: gst_sample_get_buffer(sample) != nil, caps: caps.map { String(cString: $0) } ?? "")
    }
    return .other(typeName: String(cString: g_type_name(type)))
}

/// A region-of-interest meta read from an output buffer.
struct RegionOfInterest {
    var type: String
    var x: Int, y: Int, width: Int, height: Int
    var id: Int
    var params: Fields?
}

/// One raw frame to push: its format, size and luma pixels (row-major,
/// `width` bytes per row). Chroma is neutral grey.
struct TestFrame {
    var format: String
    var width: Int
    var height: Int
    var luma: [UInt8]
    /// Extra bytes at the end of every row of every plane, carried by a
    /// GstVideoMeta (0: the format's default layout).
    var rowPadding = 0

    var caps: String { "video/x-raw,format=\(format),width=\(width),height=\(height),framerate=30/1" }
}

/// The memory layout of a frame as pushed.
struct FrameLayout {
    var offsets: [Int]
    var strides: [Int]
    var planeHeights: [Int]
    var size: Int
    var hasMeta: Bool

    /// The luma sample at (x, y) in `bytes`.
    func luma(_ bytes: [UInt8], _ x: Int, _ y: Int) -> UInt8 { bytes[offsets[0] + y * strides[0] + x] }
}

/// Builds the layout of `frame` (the default one, or padded rows).
func layout(of frame: TestFrame) -> FrameLayout? {
    var info = GstVideoInfo()
    let format = gst_video_format_from_string(frame.format)
    guard gst_video_info_set_format(&info, format, guint(frame.width), guint(frame.height)) != 0,
        let finfo = info.finfo
    else { return nil }
    let nPlanes = Int(finfo.pointee.n_planes)
    let defOffsets = withUnsafeBytes(of: info.offset) { Array($0.bindMemory(to: Int.self)) }
    let defStrides = withUnsafeBytes(of: info.stride) { Array($0.bindMemory(to: Int32.self)).map(Int.init) }
    let planeOf = withUnsafeBytes(of: finfo.pointee.plane) { Array($0.bindMemory(to: UInt32.self)) }
    let hSub = withUnsafeBytes(of: finfo.pointee.h_sub) { Array($0.bindMemory(to: UInt32.self)) }
    var heights: [Int] = []
    for p in 0..<nPlanes {
        let comp = (0..<Int(finfo.pointee.n_components)).first { Int(planeOf[$0]) == p } ?? 0
        let sub = Int(hSub[comp])
        heights.append((frame.height + (1 << sub) - 1) >> sub)
    }
    if frame.rowPadding == 0 {
        return FrameLayout(
            offsets: Array(defOffsets.prefix(nPlanes)), strides: Array(defStrides.prefix(nPlanes)),
            planeHeights: heights, size: Int(info.size), hasMeta: false)
    }
    var offsets: [Int] = [], strides: [Int] = []
    var offset = 0
    for p in 0..<nPlanes {
        offsets.append(offset)
        strides.append(defStrides[p] + frame.rowPadding)
        offset += strides[p] * heights[p]
    }
    return FrameLayout(offsets: offsets, strides: strides, planeHeights: heights, size: offset, hasMeta: true)
}

/// The bytes of `frame` in `layout`: neutral chroma, padding 0x55.
func frameBytes(_ frame: TestFrame, _ layout: FrameLayout) -> [UInt8] {
    var bytes = [UInt8](repeating: 0x55, count: layout.size)
    for p in 1..<max(1, layout.offsets.count) {
        for i in 0..<layout.strides[p] * layout.planeHeights[p] where layout.offsets[p] + i < bytes.count {
            bytes[layout.offsets[p] + i] = 128
        }
    }
    for y in 0..<frame.height {
        for x in 0..<frame.width {
            bytes[layout.offsets[0] + y * layout.strides[0] + x] = frame.luma[y * frame.width + x]
        }
    }
    return bytes
}

/// What came out of a run.
struct RunOutput {
    /// The `barcode` messages, in order.
    var messages: [Fields] = []
    /// Every element message.
    var allElementMessages: [Fields] = []
    /// Bytes pushed per frame.
    var inputs: [[UInt8]] = []
    /// Bytes received per frame.
    var outputs: [[UInt8]] = []
    /// Layout per frame.
    var layouts: [FrameLayout] = []
    /// Region metas per output frame.
    var regions: [[RegionOfInterest]] = []
    /// Errors or warnings posted on the bus.
    var busErrors: [String] = []
}

/// Unchecked wrapper to hand a GStreamer pointer to another thread.
struct SendablePointer<T>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<T>
}

/// The type of a GObject instance.
func typeOf(_ instance: UnsafeMutableRawPointer) -> GType {
    instance.assumingMemoryBound(to: GTypeInstance.self).pointee.g_class.pointee.g_type
}

/// Emits an action signal with `args` (the instance is prepended) and
/// returns the GstFlowReturn, when the signal returns one.
@discardableResult
func emit(
    _ instance: UnsafeMutablePointer<GstElement>, _ signal: String, strings: [String] = [],
    buffer: UnsafeMutablePointer<GstBuffer>? = nil, returnsFlow: Bool = false
) -> GstFlowReturn {
    let id = g_signal_lookup(signal, typeOf(instance))
    precondition(id != 0, "no signal \(signal)")
    var params = [GValue](repeating: GValue(), count: 1 + strings.count + (buffer == nil ? 0 : 1))
    var ret = GValue()
    params.withUnsafeMutableBufferPointer { p in
        g_value_init(&p[0], typeOf(instance))
        g_value_set_object(&p[0], instance)
        var i = 1
        if let buffer {
            g_value_init(&p[i], gst_buffer_get_type())
            g_value_set_boxed(&p[i], buffer)
            i += 1
        }
        for s in strings {
            g_value_init(&p[i], TestGTypes.string)
            g_value_set_string(&p[i], s)
            i += 1
        }
        if returnsFlow {
            g_value_init(&ret, gst_flow_return_get_type())
            g_signal_emitv(p.baseAddress, id, 0, &ret)
        } else {
            g_signal_emitv(p.baseAddress, id, 0, nil)
        }
        for j in 0..<p.count { g_value_unset(&p[j]) }
    }
    guard returnsFlow else { return GST_FLOW_OK }
    let flow = GstFlowReturn(rawValue: g_value_get_enum(&ret))
    g_value_unset(&ret)
    return flow
}

/// Runs `appsrc ! rlbarcode <properties> ! appsink` over `frames` and
/// collects what comes out.
///
/// - Parameters:
///   - properties: extra text after `rlbarcode name=bc` in the launch line.
///   - timestamps: give frames PTS and duration (30 fps) or none at all.
///   - beforeFrame: called with the element before each frame is pushed
///     (frame index), on the test's thread, once the frames before it have
///     come out of the element (so that what it does applies from that
///     frame on, not to frames still queued in the source).
///   - whilePlaying: called once on another thread while frames flow.
///   - live: the source says it is live (a camera), so frames are analysed
///     one at a time; otherwise the element analyses frames ahead.
///   - frameDuration: the frames' duration and PTS step (ns), 30 fps unless told.
///   - endOfStream: end the stream with EOS; otherwise the pipeline is
///     stopped (to READY) once the frames came out.
/// The bus is read after the pipeline went to READY, so that what the
/// element posts when it stops is collected too.
func runPipeline(
    _ frames: [TestFrame], properties: String = "", timestamps: Bool = true, live: Bool = false,
    frameDuration: UInt64 = 33_333_333, endOfStream: Bool = true,
    beforeFrame: ((UnsafeMutablePointer<GstElement>, Int) -> Void)? = nil,
    whilePlaying: (@Sendable (SendablePointer<GstElement>) -> Void)? = nil
) throws -> RunOutput {
    _ = try gstreamerReady.get()
    var output = RunOutput()
    var error: UnsafeMutablePointer<GError>?
    let line =
        "appsrc name=src format=time is-live=\(live) ! rlbarcode name=bc \(properties) ! appsink name=sink sync=false"
    guard let pipeline = gst_parse_launch(line, &error) else {
        let message = error.map { String(cString: $0.pointee.message) } ?? "?"
        throw NSError(domain: "pipeline", code: 1, userInfo: [NSLocalizedDescriptionKey: message])
    }
    defer { gst_object_unref(pipeline) }
    let bin = UnsafeMutablePointer<GstBin>(OpaquePointer(pipeline))
    guard let src = gst_bin_get_by_name(bin, "src"), let element = gst_bin_get_by_name(bin, "bc"),
        let sinkElement = gst_bin_get_by_name(bin, "sink")
    else {
        throw NSError(domain: "pipeline", code: 2)
    }
    defer { gst_object_unref(src); gst_object_unref(element); gst_object_unref(sinkElement) }
    let sink = UnsafeMutablePointer<GstAppSink>(OpaquePointer(sinkElement))

    _ = gst_element_set_state(pipeline, GST_STATE_PLAYING)
    var otherThread: Thread?
    let done = DispatchSemaphore(value: 0)
    if let whilePlaying {
        let p = SendablePointer(pointer: element)
        let t = Thread {
            whilePlaying(p); done.signal()
        }
        t.start()
        otherThread = t
    }

    // Keeps one output buffer: its bytes and its region metadata.
    func collect(_ sample: OpaquePointer) {
        guard let buffer = gst_sample_get_buffer(sample) else { return }
        var map = GstMapInfo()
        if gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 {
            output.outputs.append(Array(UnsafeBufferPointer(start: map.data, count: Int(map.size))))
            gst_buffer_unmap(buffer, &map)
        }
        var rois: [RegionOfInterest] = []
        var iter: gpointer?
        while let meta = gst_buffer_iterate_meta_filtered(
            buffer, &iter,
            gst_video_region_of_interest_meta_api_get_type())
        {
            let roi = UnsafeMutablePointer<GstVideoRegionOfInterestMeta>(OpaquePointer(meta))
            let params = gst_video_region_of_interest_meta_get_param(roi, "barcode").map { readStructure($0) }
            rois.append(
                RegionOfInterest(
                    type: String(cString: g_quark_to_string(roi.pointee.roi_type)),
                    x: Int(roi.pointee.x), y: Int(roi.pointee.y),
                    width: Int(roi.pointee.w), height: Int(roi.pointee.h),
                    id: Int(roi.pointee.id), params: params))
        }
        output.regions.append(rois)
    }

    var lastCaps = ""
    for (i, frame) in frames.enumerated() {
        guard let l = layout(of: frame) else { throw NSError(domain: "layout", code: 3) }
        if frame.caps != lastCaps {
            gst_util_set_object_arg(UnsafeMutablePointer<GObject>(OpaquePointer(src)), "caps", frame.caps)
            lastCaps = frame.caps
        }
        let bytes = frameBytes(frame, l)
        output.inputs.append(bytes)
        output.layouts.append(l)
        guard let buffer = gst_buffer_new_allocate(nil, gsize(bytes.count), nil) else { continue }
        _ = bytes.withUnsafeBytes { gst_buffer_fill(buffer, 0, $0.baseAddress, gsize($0.count)) }
        if timestamps {
            buffer.pointee.pts = UInt(i) * UInt(frameDuration)
            buffer.pointee.duration = UInt(frameDuration)
        } else {
            buffer.pointee.pts = UInt(UInt64.max)
            buffer.pointee.duration = UInt(UInt64.max)
        }
        if l.hasMeta {
            var offsets = [gsize](repeating: 0, count: 4), strides = [gint](repeating: 0, count: 4)
            for p in 0..<l.offsets.count { offsets[p] = gsize(l.offsets[p]); strides[p] = gint(l.strides[p]) }
            _ = offsets.withUnsafeMutableBufferPointer { o in
                strides.withUnsafeMutableBufferPointer { s in
                    gst_buffer_add_video_meta_full(
                        buffer, GST_VIDEO_FRAME_FLAG_NONE,
                        gst_video_format_from_string(frame.format),
                        guint(frame.width), guint(frame.height),
                        guint(l.offsets.count), o.baseAddress, s.baseAddress)
                }
            }
        }
        if let beforeFrame {
            // The previous frame's output first.
            if i > 0, let sample = gst_app_sink_try_pull_sample(sink, 10 * 1_000_000_000) {
                collect(sample)
                gst_sample_unref(sample)
            }
            beforeFrame(element, i)
        }
        _ = emit(src, "push-buffer", buffer: buffer, returnsFlow: true)
        gst_buffer_unref(buffer)
    }
    if endOfStream {
        _ = emit(src, "end-of-stream", returnsFlow: true)
        // Pull everything until EOS (or an error stops the flow).
        while let sample = gst_app_sink_try_pull_sample(sink, 60 * 1_000_000_000) {
            collect(sample)
            gst_sample_unref(sample)
        }
    } else {
        while output.outputs.count < frames.count, let sample = gst_app_sink_try_pull_sample(sink, 10 * 1_000_000_000) {
            collect(sample)
            gst_sample_unref(sample)
        }
    }
    if otherThread != nil { done.wait() }
    _ = gst_element_set_state(pipeline, GST_STATE_READY)
    // Read the bus before going to NULL, which flushes it.
    let bus = gst_element_get_bus(pipeline)
    defer { gst_object_unref(bus) }
    while let message = gst_bus_pop(bus) {
        defer { gst_message_unref(message) }
        switch message.pointee.type {
        case GST_MESSAGE_ELEMENT:
            guard let st = gst_message_get_structure(message) else { continue }
            let fields = readStructure(st)
            output.allElementMessages.append(fields)
            if fields.name == "barcode" { output.messages.append(fields) }
        case GST_MESSAGE_ERROR, GST_MESSAGE_WARNING:
            output.busErrors.append(problemText(message))
        default: break
        }
    }
    _ = gst_element_set_state(pipeline, GST_STATE_NULL)
    return output
}

/// Reads a property of `object` as text (`gst_value_serialize`).
func propertyText(_ object: UnsafeMutablePointer<GstElement>, _ name: String) -> String {
    let gobject = UnsafeMutablePointer<GObject>(OpaquePointer(object))
    guard
        let spec = g_object_class_find_property(
            UnsafeMutablePointer<GObjectClass>(OpaquePointer(gobject.pointee.g_type_instance.g_class)), name)
    else {
        return "<no property>"
    }
    var value = GValue()
    g_value_init(&value, spec.pointee.value_type)
    g_object_get_property(gobject, name, &value)
    defer { g_value_unset(&value) }
    if spec.pointee.value_type == TestGTypes.string {
        return g_value_get_string(&value).map { String(cString: $0) } ?? ""
    }
    if g_type_is_a(spec.pointee.value_type, GType(13 << 2)) != 0 {
        // Flags: the nicks joined by "+", in bit order.
        guard let flagsClass = g_type_class_ref(spec.pointee.value_type) else { return "" }
        defer { g_type_class_unref(flagsClass) }
        let fc = flagsClass.assumingMemoryBound(to: GFlagsClass.self)
        let bits = g_value_get_flags(&value)
        var nicks: [String] = []
        for i in 0..<Int(fc.pointee.n_values) {
            let v = fc.pointee.values[i]
            if v.value != 0 && bits & v.value == v.value { nicks.append(String(cString: v.value_nick)) }
        }
        return nicks.joined(separator: "+")
    }
    guard let text = gst_value_serialize(&value) else { return "" }
    defer { g_free(text) }
    return String(cString: text)
}

/// Sets a property from text, as gst-launch does.
func setProperty(_ object: UnsafeMutablePointer<GstElement>, _ name: String, _ text: String) {
    gst_util_set_object_arg(UnsafeMutablePointer<GObject>(OpaquePointer(object)), name, text)
}

/// The text of an error or warning message.
func problemText(_ message: UnsafeMutablePointer<GstMessage>) -> String {
    var err: UnsafeMutablePointer<GError>?
    var debug: UnsafeMutablePointer<gchar>?
    if message.pointee.type == GST_MESSAGE_ERROR {
        gst_message_parse_error(message, &err, &debug)
    } else {
        gst_message_parse_warning(message, &err, &debug)
    }
    defer { g_error_free(err); g_free(debug) }
    return err.map { String(cString: $0.pointee.message) } ?? "?"
}

/// A launch line as a pipeline, or a thrown error with GStreamer's text.
func launchPipeline(_ line: String) throws -> UnsafeMutablePointer<GstElement> {
    var error: UnsafeMutablePointer<GError>?
    guard let pipeline = gst_parse_launch(line, &error) else {
        let message = error.map { String(cString: $0.pointee.message) } ?? "?"
        throw NSError(domain: "pipeline", code: 1, userInfo: [NSLocalizedDescriptionKey: message])
    }
    return pipeline
}

/// The layout a `GstVideoMeta` claims: format, size, and per plane offset and stride.
struct ClaimedLayout {
    var format: String
    var width: Int
    var height: Int
    var offsets: [Int]
    var strides: [Int]
}

/// A buffer holding `bytes`, with a video meta claiming `meta` when one is
/// given (whatever it claims: up to 4 planes, strides truncated to `gint`).
func makeBuffer(
    _ bytes: [UInt8], meta: ClaimedLayout? = nil, pts: UInt = clockTimeNoneForTests,
    duration: UInt = clockTimeNoneForTests
) -> UnsafeMutablePointer<GstBuffer>? {
    guard let buffer = gst_buffer_new_allocate(nil, gsize(bytes.count), nil) else { return nil }
    _ = bytes.withUnsafeBytes { gst_buffer_fill(buffer, 0, $0.baseAddress, gsize($0.count)) }
    buffer.pointee.pts = pts
    buffer.pointee.duration = duration
    if let meta {
        var o = [gsize](repeating: 0, count: 4), s = [gint](repeating: 0, count: 4)
        for p in 0..<min(4, meta.offsets.count) { o[p] = gsize(meta.offsets[p]) }
        for p in 0..<min(4, meta.strides.count) { s[p] = gint(truncatingIfNeeded: meta.strides[p]) }
        _ = o.withUnsafeMutableBufferPointer { op in
            s.withUnsafeMutableBufferPointer { sp in
                gst_buffer_add_video_meta_full(
                    buffer, GST_VIDEO_FRAME_FLAG_NONE,
                    gst_video_format_from_string(meta.format), guint(meta.width),
                    guint(meta.height), guint(min(4, meta.offsets.count)),
                    op.baseAddress, sp.baseAddress)
            }
        }
    }
    return buffer
}

/// `GST_CLOCK_TIME_NONE` for the tests.
let clockTimeNoneForTests = UInt(UInt64.max)
