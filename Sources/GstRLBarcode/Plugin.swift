import CGStreamer

// The plugin's entry point. GStreamer derives the symbol name from the file
// name libgstrlbarcode.so and calls it when it loads or scans the plugin.

/// Registers the plugin's only element, `rlbarcode`.
private func pluginInit(_ plugin: OpaquePointer?) -> gboolean {
    _ = debugCategory
    return gst_element_register(plugin, "rlbarcode", guint(GST_RANK_NONE.rawValue), rlbarcodeElementType)
}

/// The plugin description, built once; its strings are owned by GLib and
/// live as long as the process.
nonisolated(unsafe) private let pluginDesc: UnsafeMutablePointer<GstPluginDesc> = {
    let desc = UnsafeMutablePointer<GstPluginDesc>.allocate(capacity: 1)
    desc.initialize(to: GstPluginDesc())
    desc.pointee.major_version = 1
    desc.pointee.minor_version = 22
    desc.pointee.name = UnsafePointer(g_strdup("rlbarcode"))
    desc.pointee.description = UnsafePointer(g_strdup("Finds and decodes barcodes in live video"))
    desc.pointee.plugin_init = pluginInit
    desc.pointee.version = UnsafePointer(g_strdup("0.1.0"))
    desc.pointee.license = UnsafePointer(g_strdup("MIT/X11"))
    desc.pointee.source = UnsafePointer(g_strdup("rlbarcode"))
    desc.pointee.package = UnsafePointer(g_strdup("rlbarcode"))
    desc.pointee.origin = UnsafePointer(g_strdup("rlbarcode"))
    desc.pointee.release_datetime = nil
    return desc
}()

/// The entry point GStreamer looks up in `libgstrlbarcode.so`. A build for
/// a newer x86-64 level than this CPU's (see scripts/swift-flags.sh) says so
/// on stderr and gives a plugin whose init fails, before any of its code
/// of that level runs.
@_cdecl("gst_plugin_rlbarcode_get_desc")
public func gst_plugin_rlbarcode_get_desc() -> UnsafeRawPointer {
    guard rlbarcode_cpu_check("rlbarcode") != 0 else { return UnsafeRawPointer(rlbarcode_refusing_desc()) }
    return UnsafeRawPointer(pluginDesc)
}
