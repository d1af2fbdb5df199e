import CGStreamer
import Foundation

/// Small wrappers around GStreamer's C API, for what the tool needs.
enum Gst {
    /// `GST_CLOCK_TIME_NONE`.
    static let clockTimeNone = GstClockTime.max
    /// One second in nanoseconds.
    static let second: GstClockTime = 1_000_000_000

    /// Fundamental GTypes (the C macros do not import).
    static let typeBoolean = GType(5 << G_TYPE_FUNDAMENTAL_SHIFT)
    /// `G_TYPE_INT`.
    static let typeInt = GType(6 << G_TYPE_FUNDAMENTAL_SHIFT)
    /// `G_TYPE_UINT`.
    static let typeUInt = GType(7 << G_TYPE_FUNDAMENTAL_SHIFT)
    /// `G_TYPE_INT64`.
    static let typeInt64 = GType(10 << G_TYPE_FUNDAMENTAL_SHIFT)
    /// `G_TYPE_UINT64`.
    static let typeUInt64 = GType(11 << G_TYPE_FUNDAMENTAL_SHIFT)
    /// `G_TYPE_FLOAT`.
    static let typeFloat = GType(14 << G_TYPE_FUNDAMENTAL_SHIFT)
    /// `G_TYPE_DOUBLE`.
    static let typeDouble = GType(15 << G_TYPE_FUNDAMENTAL_SHIFT)
    /// `G_TYPE_STRING`.
    static let typeString = GType(16 << G_TYPE_FUNDAMENTAL_SHIFT)

    /// Initializes GStreamer once; returns an error message on failure.
    static func initialize() -> String? {
        var error: UnsafeMutablePointer<GError>? = nil
        if gst_init_check(nil, nil, &error) == 0 {
            let message = takeMessage(error) ?? "unknown error"
            return "cannot initialize GStreamer: \(message)"
        }
        return nil
    }

    /// The message of a `GError`, freeing it.
    static func takeMessage(_ error: UnsafeMutablePointer<GError>?) -> String? {
        guard let error else { return nil }
        defer { g_error_free(error) }
        guard let text = error.pointee.message else { return nil }
        return String(cString: text)
    }

    /// A `GObject` pointer for any GObject-derived C struct pointer.
    static func object<T>(_ p: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<GObject> {
        UnsafeMutablePointer<GObject>(OpaquePointer(p))
    }

    /// Whether `object` has a property called `name`.
    static func hasProperty<T>(_ p: UnsafeMutablePointer<T>, _ name: String) -> Bool {
        let obj = object(p)
        guard let cls = obj.pointee.g_type_instance.g_class else { return false }
        return g_object_class_find_property(UnsafeMutablePointer<GObjectClass>(OpaquePointer(cls)), name) != nil
    }

    /// Sets a property from its string form (as gst-launch does).
    static func set<T>(_ p: UnsafeMutablePointer<T>, _ name: String, _ value: String) {
        gst_util_set_object_arg(object(p), name, value)
    }

    /// Sets a string property verbatim (a file name is never parsed, so
    /// quotes or the word NULL in it stay as they are).
    static func setString<T>(_ p: UnsafeMutablePointer<T>, _ name: String, _ value: String) {
        var v = GValue()
        g_value_init(&v, typeString)
        g_value_set_string(&v, value)
        g_object_set_property(object(p), name, &v)
        g_value_unset(&v)
    }

    /// Builds a pipeline from a gst-launch description.
    static func parse(_ description: String) -> Result<UnsafeMutablePointer<GstElement>, PipelineError> {
        var error: UnsafeMutablePointer<GError>? = nil
        let element = gst_parse_launch(description, &error)
        if let message = takeMessage(error) {
            if let element { gst_object_unref(element) }
            return .failure(PipelineError(message: message))
        }
        guard let element else { return .failure(PipelineError(message: "cannot build the pipeline")) }
        return .success(element)
    }

    /// A named element of a bin (a new reference).
    static func child(_ bin: UnsafeMutablePointer<GstElement>, _ name: String) -> UnsafeMutablePointer<GstElement>? {
        gst_bin_get_by_name(UnsafeMutablePointer<GstBin>(OpaquePointer(bin)), name)
    }

    /// The text of an error message (its GError message).
    static func errorText(_ message: UnsafeMutablePointer<GstMessage>) -> String {
        text(of: message, gst_message_parse_error) ?? "unknown error"
    }

    /// The text of a warning message (its GError message).
    static func warningText(_ message: UnsafeMutablePointer<GstMessage>) -> String {
        text(of: message, gst_message_parse_warning) ?? "unknown warning"
    }

    /// The GError message of an error or warning message, parsed by `parse`
    /// (`gst_message_parse_error` or `gst_message_parse_warning`).
    private static func text(
        of message: UnsafeMutablePointer<GstMessage>,
        _ parse: (
            UnsafeMutablePointer<GstMessage>?, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?,
            UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?
        ) -> Void
    ) -> String? {
        var error: UnsafeMutablePointer<GError>? = nil
        var debug: UnsafeMutablePointer<gchar>? = nil
        parse(message, &error, &debug)
        if let debug { g_free(debug) }
        return takeMessage(error)
    }

    /// Makes sure the `rlbarcode` element can be created: when no plugin on
    /// GStreamer's path provides it, loads `libgstrlbarcode.so` from the
    /// directory of this executable.
    ///
    /// - Returns: nil when the element is available, else why not.
    static func ensureElement(named name: String, pluginFile: String) -> String? {
        if let factory = gst_element_factory_find(name) {
            gst_object_unref(UnsafeMutableRawPointer(factory))
            return nil
        }
        var tried: [String] = []
        for dir in executableDirectories() {
            let path = (dir as NSString).appendingPathComponent(pluginFile)
            guard FileManager.default.fileExists(atPath: path) else { continue }
            tried.append(path)
            var error: UnsafeMutablePointer<GError>? = nil
            if let plugin = gst_plugin_load_file(path, &error) {
                gst_object_unref(UnsafeMutableRawPointer(plugin))
            } else if let message = takeMessage(error) {
                return "cannot load \(path): \(message)"
            }
            if let factory = gst_element_factory_find(name) {
                gst_object_unref(UnsafeMutableRawPointer(factory))
                return nil
            }
        }
        let hint = tried.isEmpty ? "no \(pluginFile) next to this program" : "loaded \(tried.joined(separator: ", "))"
        return "the GStreamer element '\(name)' is not available (GST_PLUGIN_PATH has no such plugin; \(hint))"
    }

    /// The directory of the running executable (resolved) and, if different,
    /// the directory of argv[0].
    static func executableDirectories() -> [String] {
        var dirs: [String] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            dirs.append((exe as NSString).deletingLastPathComponent)
        }
        if let arg0 = CommandLine.arguments.first, arg0.contains("/") {
            let dir = ((arg0 as NSString).deletingLastPathComponent as NSString).standardizingPath
            if !dirs.contains(dir) { dirs.append(dir) }
        }
        return dirs
    }
}

/// A pipeline that could not be built or run.
struct PipelineError: Error {
    /// What went wrong, fit for a message that names the file.
    var message: String
}

/// A pipeline that stops and unreferences itself when released.
final class Pipeline {
    /// The top-level element.
    let element: UnsafeMutablePointer<GstElement>
    /// Its bus (a reference owned here).
    let bus: UnsafeMutablePointer<GstBus>

    /// Takes ownership of a pipeline element.
    init(_ element: UnsafeMutablePointer<GstElement>) {
        self.element = element
        self.bus = gst_element_get_bus(element)
    }

    /// Stops the pipeline and drops the references.
    deinit {
        gst_element_set_state(element, GST_STATE_NULL)
        gst_object_unref(bus)
        gst_object_unref(element)
    }

    /// Sets the state; returns false on an immediate failure.
    @discardableResult
    func setState(_ state: GstState) -> Bool {
        gst_element_set_state(element, state) != GST_STATE_CHANGE_FAILURE
    }

    /// The first error message on the bus, if any (without waiting).
    func pendingError() -> String? {
        guard let msg = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR) else { return nil }
        defer { gst_message_unref(msg) }
        return Gst.errorText(msg)
    }

    /// The warning messages on the bus so far (without waiting), each once.
    func pendingWarnings() -> [String] {
        var texts: [String] = []
        while let msg = gst_bus_pop_filtered(bus, GST_MESSAGE_WARNING) {
            let text = Gst.warningText(msg)
            gst_message_unref(msg)
            if !texts.contains(text) { texts.append(text) }
        }
        return texts
    }
}
