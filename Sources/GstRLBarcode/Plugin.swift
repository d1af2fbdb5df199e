import CGStreamer

// The plugin's entry point. GStreamer derives the symbol name from the file
// name libgstrlbarcode.so and calls it when it loads or scans the plugin.

/// Registers the plugin's only element, `rlbarcode`.
private func pluginInit(_ plugin: OpaquePointer?) -> gboolean {
    _ = debugCategory
    return gst_element_register(plugin, "rlbarcode", guint(GST_RANK_NONE.rawValue), rlbarcodeElementType)
}

/// The entry point GStreamer looks up in `libgstrlbarcode.so`: the plugin's
/// description (``rlbarcode_plugin_desc``). A build for a newer x86-64 level
/// than this CPU's (see scripts/swift-flags.sh) says so on stderr and gives
/// a plugin whose init fails, before any of its code of that level runs.
@_cdecl("gst_plugin_rlbarcode_get_desc")
public func gst_plugin_rlbarcode_get_desc() -> UnsafeRawPointer {
    UnsafeRawPointer(rlbarcode_plugin_desc(pluginInit))
}
