import CGStreamer
import Foundation

/// How playing a video file ended.
enum VideoOutcome {
    /// It played to its end; `warnings` are what the decoders said about
    /// damaged data on the way.
    case played(warnings: [String])
    /// It stopped with an error after part of it was played (what was
    /// reported until then stands).
    case stopped(String)
    /// It could not be played at all.
    case failed(String)
}

/// Plays video files through the `rlbarcode` element and turns its `barcode`
/// bus messages into reports.
struct VideoScanner {
    /// The element's factory name.
    static let elementName = "rlbarcode"
    /// The plugin file loaded from the executable's directory when needed.
    static let pluginFile = "libgstrlbarcode.so"

    /// Element properties as name/value strings.
    var properties: [(String, String)]
    /// Draw a progress bar on standard error.
    var progress: Bool

    /// Scans `path`, calling `report` for each code as it is reported, with
    /// the message's structure (for fields such as `frame`); the reports
    /// and the progress bar name the file `name`.
    func scan(path: String, name: String, report: (Report, UnsafePointer<GstStructure>) -> Void) -> VideoOutcome {
        if let problem = Gst.ensureElement(named: Self.elementName, pluginFile: Self.pluginFile) {
            return .failed(problem)
        }
        let description =
            "filesrc name=src ! decodebin ! videoconvert ! \(Self.elementName) name=scan "
            + "! fakesink sync=false"
        let pipeline: Pipeline
        switch Gst.parse(description) {
        case .success(let element): pipeline = Pipeline(element)
        case .failure(let error): return .failed("cannot build the video pipeline: \(error.message)")
        }
        guard let src = Gst.child(pipeline.element, "src"), let scan = Gst.child(pipeline.element, "scan") else {
            return .failed("cannot build the video pipeline")
        }
        defer { gst_object_unref(src); gst_object_unref(scan) }
        Gst.setString(src, "location", path)
        for (name, value) in properties {
            guard Gst.hasProperty(scan, name) else {
                return .failed("the \(Self.elementName) element has no property '\(name)'")
            }
            Gst.set(scan, name, value)
        }

        if !pipeline.setState(GST_STATE_PLAYING) {
            return .failed(pipeline.pendingError() ?? "cannot start playing")
        }
        return play(pipeline, scan: scan, name: name, report: report)
    }

    /// Runs a playing pipeline to its end or its first error, reporting
    /// each `barcode` message of the element `scan`.
    private func play(
        _ pipeline: Pipeline, scan: UnsafeMutablePointer<GstElement>, name: String,
        report: (Report, UnsafePointer<GstStructure>) -> Void
    ) -> VideoOutcome {
        var frameRate: (n: Int32, d: Int32)? = nil
        var warnings: [String] = []
        var drops = DroppedFrames()
        var reported = false
        let bar = progress ? ProgressBar(label: printable(name)) : nil
        defer { bar?.finish() }
        let wanted = GstMessageType(
            rawValue: GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_EOS.rawValue
                | GST_MESSAGE_ELEMENT.rawValue | GST_MESSAGE_WARNING.rawValue
                | GST_MESSAGE_QOS.rawValue)
        while true {
            guard let msg = gst_bus_timed_pop_filtered(pipeline.bus, Gst.second / 10, wanted) else {
                if let bar { bar.update(pipeline: pipeline.element) }
                continue
            }
            defer { gst_message_unref(msg) }
            let type = msg.pointee.type
            if type == GST_MESSAGE_EOS { return .played(warnings: warnings + drops.warnings) }
            if type == GST_MESSAGE_ERROR {
                let why = Gst.errorText(msg)
                var position: gint64 = -1
                let played =
                    gst_element_query_position(pipeline.element, GST_FORMAT_TIME, &position) != 0 && position > 0
                return played || reported || drops.total > 0
                    ? .stopped("playback stopped at \(formatTime(UInt64(max(0, position)))): \(why)") : .failed(why)
            }
            if type == GST_MESSAGE_QOS {
                // the decoders' reports of frames they dropped (this
                // pipeline never drops frames for lateness: it does not sync)
                if UnsafeMutableRawPointer(msg.pointee.src) != UnsafeMutableRawPointer(scan) { drops.add(msg) }
                continue
            }
            if type == GST_MESSAGE_WARNING {
                let text = Gst.warningText(msg)
                if !warnings.contains(text) { warnings.append(text) }
                continue
            }
            guard let structure = gst_message_get_structure(msg),
                gst_structure_has_name(structure, "barcode") != 0
            else { continue }
            if frameRate == nil { frameRate = Self.frameRate(of: scan) }
            bar?.clear()
            report(Self.report(file: name, from: structure, frameRate: frameRate), structure)
            reported = true
            bar?.update(pipeline: pipeline.element)
        }
    }

    /// The negotiated frame rate at the element's sink pad.
    static func frameRate(of element: UnsafeMutablePointer<GstElement>) -> (n: Int32, d: Int32)? {
        guard let pad = gst_element_get_static_pad(element, "sink") else { return nil }
        defer { gst_object_unref(pad) }
        guard let caps = gst_pad_get_current_caps(pad) else { return nil }
        defer { gst_caps_unref(caps) }
        guard let s = gst_caps_get_structure(caps, 0) else { return nil }
        var n: gint = 0, d: gint = 0
        guard gst_structure_get_fraction(s, "framerate", &n, &d) != 0, n > 0, d > 0 else { return nil }
        return (n, d)
    }

    /// A report from the fields of a `barcode` message.
    static func report(file: String, from s: UnsafePointer<GstStructure>, frameRate: (n: Int32, d: Int32)?) -> Report {
        var r = Report(file: file, symbology: string(s, "type") ?? "unknown", text: string(s, "symbol") ?? "")
        r.bytes = bytes(s, "symbol-bytes")
        r.addon = string(s, "addon") ?? ""
        r.extended = string(s, "extended") ?? ""
        r.corners = integers(s, "corners")
        r.orientation = int(s, "orientation")
        if let index = int(s, "sequence-index"), let total = int(s, "sequence-total") {
            r.sequence = (index, total, string(s, "sequence-id") ?? "")
        }
        if let pts = time(s, "timestamp") {
            r.pts = pts
            if let rate = frameRate {
                let frame = (Double(pts) * Double(rate.n) / (Double(rate.d) * Double(Gst.second))).rounded()
                if frame.isFinite && frame >= 0 && frame < Double(Int.max) { r.frame = Int(frame) }
            }
        }
        if let id = uint64(s, "id") { r.id = UInt32(truncatingIfNeeded: id) }
        r.firstSeen = uint64(s, "first-seen")
        r.lastSeen = uint64(s, "last-seen")
        r.streamTime = time(s, "stream-time")
        r.runningTime = time(s, "running-time")
        r.duration = time(s, "duration")
        r.symbologyID = string(s, "symbology-id")
        r.quality = int(s, "quality")
        r.inverted = bool(s, "inverted")
        r.mirrored = bool(s, "mirrored")
        r.isNew = bool(s, "new")
        return r
    }

    /// A time field (ns); nil when absent or GST_CLOCK_TIME_NONE.
    static func time(_ s: UnsafePointer<GstStructure>, _ name: String) -> UInt64? {
        guard let t = uint64(s, name), t != Gst.clockTimeNone else { return nil }
        return t
    }

    /// A boolean field.
    static func bool(_ s: UnsafePointer<GstStructure>, _ name: String) -> Bool? {
        var value: gboolean = 0
        guard gst_structure_get_boolean(s, name, &value) != 0 else { return nil }
        return value != 0
    }

    /// A string field.
    static func string(_ s: UnsafePointer<GstStructure>, _ name: String) -> String? {
        guard let text = gst_structure_get_string(s, name) else { return nil }
        return String(cString: text)
    }

    /// An integer field of any integer type, as Int.
    static func int(_ s: UnsafePointer<GstStructure>, _ name: String) -> Int? {
        guard let v = gst_structure_get_value(s, name) else { return nil }
        return integer(v)
    }

    /// An unsigned 64-bit (or smaller, non-negative) integer field.
    static func uint64(_ s: UnsafePointer<GstStructure>, _ name: String) -> UInt64? {
        guard let v = gst_structure_get_value(s, name) else { return nil }
        if v.pointee.g_type == Gst.typeUInt64 { return UInt64(g_value_get_uint64(v)) }
        guard let i = integer(v), i >= 0 else { return nil }
        return UInt64(i)
    }

    /// The integer in a GValue of an integer or floating-point type.
    static func integer(_ v: UnsafePointer<GValue>) -> Int? {
        switch v.pointee.g_type {
        case Gst.typeInt: return Int(g_value_get_int(v))
        case Gst.typeUInt: return Int(g_value_get_uint(v))
        case Gst.typeInt64: return Int(g_value_get_int64(v))
        case Gst.typeUInt64:
            let u = UInt64(g_value_get_uint64(v))
            return u <= UInt64(Int.max) ? Int(u) : nil
        case Gst.typeDouble:
            let d = g_value_get_double(v)
            return d.isFinite && abs(d) < 1e15 ? Int(d.rounded()) : nil
        case Gst.typeFloat:
            let f = Double(g_value_get_float(v))
            return f.isFinite && abs(f) < 1e15 ? Int(f.rounded()) : nil
        default: return nil
        }
    }

    /// The integers of an array or list field (`<1, 2>` or `{1, 2}`).
    static func integers(_ s: UnsafePointer<GstStructure>, _ name: String) -> [Int] {
        guard let v = gst_structure_get_value(s, name) else { return [] }
        var out: [Int] = []
        if v.pointee.g_type == gst_value_array_get_type() {
            for i in 0..<gst_value_array_get_size(v) {
                if let item = gst_value_array_get_value(v, i), let n = integer(item) { out.append(n) }
            }
        } else if v.pointee.g_type == gst_value_list_get_type() {
            for i in 0..<gst_value_list_get_size(v) {
                if let item = gst_value_list_get_value(v, i), let n = integer(item) { out.append(n) }
            }
        }
        return out
    }

    /// The `GstSample` of a message's `frame` field (borrowed from the
    /// structure), present with `attach-frame=true`.
    static func frameSample(_ s: UnsafePointer<GstStructure>) -> OpaquePointer? {
        guard let v = gst_structure_get_value(s, "frame"), v.pointee.g_type == gst_sample_get_type(),
            let boxed = g_value_get_boxed(v)
        else { return nil }
        return OpaquePointer(boxed)
    }

    /// The bytes of a `GBytes` field.
    static func bytes(_ s: UnsafePointer<GstStructure>, _ name: String) -> [UInt8]? {
        guard let v = gst_structure_get_value(s, name), v.pointee.g_type == g_bytes_get_type(),
            let boxed = g_value_get_boxed(v)
        else { return nil }
        var size: gsize = 0
        guard let data = g_bytes_get_data(OpaquePointer(boxed), &size) else { return [] }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
    }
}

/// The frames that the decoders of a video dropped as undecodable, from
/// their QoS messages (each gives its element's running count).
struct DroppedFrames {
    /// The latest count per element.
    private var counts: [UnsafeMutableRawPointer: UInt64] = [:]
    /// The stream time of the first drop reported.
    private var first: UInt64? = nil

    /// How many frames were dropped in all.
    var total: UInt64 { counts.values.reduce(0, +) }

    /// Takes in one QoS message.
    mutating func add(_ msg: UnsafeMutablePointer<GstMessage>) {
        var format = GST_FORMAT_UNDEFINED
        var processed: guint64 = 0, dropped: guint64 = 0
        gst_message_parse_qos_stats(msg, &format, &processed, &dropped)
        guard format == GST_FORMAT_BUFFERS || format == GST_FORMAT_DEFAULT, dropped > 0, dropped != UInt64.max,
            let source = UnsafeMutableRawPointer(msg.pointee.src)
        else { return }
        counts[source] = max(counts[source] ?? 0, UInt64(dropped))
        if first == nil {
            var live: gboolean = 0
            var running: guint64 = 0, stream: guint64 = 0, timestamp: guint64 = 0, duration: guint64 = 0
            gst_message_parse_qos(msg, &live, &running, &stream, &timestamp, &duration)
            if stream != Gst.clockTimeNone { first = UInt64(stream) }
        }
    }

    /// The warning to give, if frames were dropped.
    var warnings: [String] {
        guard total > 0 else { return [] }
        let at = first.map { " (the first at \(formatTime($0)))" } ?? ""
        return [
            "\(total) frame\(total == 1 ? "" : "s") could not be decoded and \(total == 1 ? "was" : "were") skipped\(at)"
        ]
    }
}

/// A one-line progress bar on standard error, drawn only on a terminal.
final class ProgressBar {
    /// What is being played.
    let label: String
    /// Whether anything is drawn at all.
    let enabled: Bool
    /// Whether the line currently holds a bar.
    private var drawn = false

    /// A bar for `label`; silent unless standard error is a terminal.
    init(label: String) {
        self.label = label
        self.enabled = isatty(2) != 0
    }

    /// Redraws the bar from the pipeline's position and duration.
    func update(pipeline: UnsafeMutablePointer<GstElement>) {
        guard enabled else { return }
        var position: gint64 = -1, duration: gint64 = -1
        guard gst_element_query_position(pipeline, GST_FORMAT_TIME, &position) != 0, position >= 0 else { return }
        let width = 30
        var line = "\r\(label) " + formatTime(UInt64(position))
        if gst_element_query_duration(pipeline, GST_FORMAT_TIME, &duration) != 0, duration > 0 {
            let fraction = min(1, Double(position) / Double(duration))
            let filled = Int(fraction * Double(width))
            line +=
                " [" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
                + "] \(Int(fraction * 100))%"
        }
        Console.rawErr(line + "\u{1B}[K")
        drawn = true
    }

    /// Erases the bar so that a line can be printed.
    func clear() {
        guard enabled, drawn else { return }
        Console.rawErr("\r\u{1B}[K")
        drawn = false
    }

    /// Erases the bar at the end.
    func finish() { clear() }
}
