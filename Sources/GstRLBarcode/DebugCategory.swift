import CGStreamer

/// The element's debug category, `rlbarcode` (`GST_DEBUG=rlbarcode:5`).
///
/// Created once, when the plugin is loaded (a global `let` is initialised
/// exactly once, thread-safely).
nonisolated(unsafe) let debugCategory: UnsafeMutablePointer<GstDebugCategory> =
    _gst_debug_category_new("rlbarcode", 0, "rlbarcode barcode reader")

/// Logs `message()` on the `rlbarcode` category at `level`, for `object`
/// (or no object), only when the category's threshold lets it through: the
/// message is not even built otherwise.
@inline(__always)
func log(
    _ level: GstDebugLevel, _ object: UnsafeMutableRawPointer?, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
) {
    guard gst_debug_category_get_threshold(debugCategory).rawValue >= level.rawValue else { return }
    let text = message()
    gst_debug_log_literal(
        debugCategory, level, "\(file)", "\(function)", gint(truncatingIfNeeded: line),
        object.map { UnsafeMutablePointer<GObject>(OpaquePointer($0)) }, text)
}
