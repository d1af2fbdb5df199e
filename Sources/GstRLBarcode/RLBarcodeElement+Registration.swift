import CGStreamer
import RLBarcode

// The GObject side of `rlbarcode`: type, class, properties, signals, pad
// templates and the virtual functions, which forward to `RLBarcodeElement`.

/// The formats accepted on both pads: every raw format whose first plane is
/// full-resolution 8-bit luma.
let supportedFormats = "NV12, NV21, I420, YV12, GRAY8, Y42B, Y444, NV16, NV24"

/// The GType of the element, registered on first use.
let rlbarcodeElementType: GType = g_type_register_static_simple(
    gst_video_filter_get_type(), "GstRLBarcode",
    guint(MemoryLayout<GstVideoFilterClass>.size), elementClassInit,
    guint(MemoryLayout<GstVideoFilter>.stride + MemoryLayout<UnsafeMutableRawPointer>.stride),
    elementInstanceInit, GTypeFlags(rawValue: 0))

/// Byte offset of the slot holding the Swift object in each instance.
private let swiftSlotOffset = MemoryLayout<GstVideoFilter>.stride

/// The base class's `generate_output` (the buffer made writable, then
/// `transform_ip`), which ours wraps to analyse frames ahead.
nonisolated(unsafe) private var parentGenerateOutput:
    (
        @convention(c) (
            UnsafeMutablePointer<GstBaseTransform>?,
            UnsafeMutablePointer<UnsafeMutablePointer<GstBuffer>?>?
        ) -> GstFlowReturn
    )?

/// The base class's `submit_input_buffer`, whose QoS check (with the
/// `qos` property on) ours keeps from segments without running time.
nonisolated(unsafe) private var parentSubmitInputBuffer:
    (
        @convention(c) (UnsafeMutablePointer<GstBaseTransform>?, gboolean, UnsafeMutablePointer<GstBuffer>?)
            -> GstFlowReturn
    )?

/// `GstElement`'s `change_state` as the base class has it, which ours
/// wraps to stop scans in progress before a stop waits for them.
nonisolated(unsafe) private var parentChangeState:
    (@convention(c) (UnsafeMutablePointer<GstElement>?, GstStateChange) -> GstStateChangeReturn)?

/// The base class's `query`, which ours wraps to let held frames leave
/// before a serialized sink query.
nonisolated(unsafe) private var parentQuery:
    (
        @convention(c) (
            UnsafeMutablePointer<GstBaseTransform>?, GstPadDirection,
            UnsafeMutablePointer<GstQuery>?
        ) -> gboolean
    )?

// MARK: GType registration of the property value types

/// Builds a permanent, terminated `GEnumValue` table.
private func enumValues(_ items: [(Int32, String, String)]) -> UnsafeMutablePointer<GEnumValue> {
    let p = UnsafeMutablePointer<GEnumValue>.allocate(capacity: items.count + 1)
    for (i, item) in items.enumerated() {
        p[i] = GEnumValue(
            value: item.0, value_name: UnsafePointer(g_strdup(item.1)),
            value_nick: UnsafePointer(g_strdup(item.2)))
    }
    p[items.count] = GEnumValue(value: 0, value_name: nil, value_nick: nil)
    return p
}

/// `GstRLBarcodeSymbologies`: the flags of the `symbologies` property; the
/// bits are those of `Symbology`.
let symbologiesFlagsType: GType = {
    let all = Symbology.allCases
    let p = UnsafeMutablePointer<GFlagsValue>.allocate(capacity: all.count + 1)
    for (i, s) in all.enumerated() {
        p[i] = GFlagsValue(
            value: guint(s.rawValue), value_name: UnsafePointer(g_strdup(s.name ?? "?")),
            value_nick: UnsafePointer(g_strdup(s.nick ?? "?")))
    }
    p[all.count] = GFlagsValue(value: 0, value_name: nil, value_nick: nil)
    return g_flags_register_static("GstRLBarcodeSymbologies", p)
}()

/// `GstRLBarcodeOrientation`: the `orientation` property's values.
let orientationEnumType: GType = g_enum_register_static(
    "GstRLBarcodeOrientation",
    enumValues([
        (Int32(Orientation.any.rawValue), "Any orientation", Orientation.any.nick),
        (Int32(Orientation.up.rawValue), "Top edge up", Orientation.up.nick),
        (Int32(Orientation.right.rawValue), "Top edge right (turned clockwise)", Orientation.right.nick),
        (Int32(Orientation.down.rawValue), "Top edge down (upside down)", Orientation.down.nick),
        (Int32(Orientation.left.rawValue), "Top edge left (turned counter-clockwise)", Orientation.left.nick)
    ]))

/// `GstRLBarcodeEffort`: the `effort` property's values.
let effortEnumType: GType = g_enum_register_static(
    "GstRLBarcodeEffort",
    enumValues([
        (Int32(Effort.fast.rawValue), "Fast: candidate regions, few scan lines", Effort.fast.nick),
        (Int32(Effort.balanced.rawValue), "Balanced: enough for camera frames", Effort.balanced.nick),
        (Int32(Effort.thorough.rawValue), "Thorough: still-picture depth", Effort.thorough.nick)
    ]))

/// `GstRLBarcodeReport`: the `report` property's values.
let reportEnumType: GType = g_enum_register_static(
    "GstRLBarcodeReport",
    enumValues([
        (Int32(ReportMode.new.rawValue), "When first seen and after it was lost", ReportMode.new.nick),
        (Int32(ReportMode.everyFrame.rawValue), "Every code in every frame", ReportMode.everyFrame.nick)
    ]))

// MARK: Class and instance

/// Finds the Swift object of an instance.
@inline(__always)
func swiftElement(_ instance: UnsafeMutableRawPointer) -> RLBarcodeElement {
    let raw = instance.load(fromByteOffset: swiftSlotOffset, as: UnsafeMutableRawPointer.self)
    return Unmanaged<RLBarcodeElement>.fromOpaque(raw).takeUnretainedValue()
}

private func elementInstanceInit(_ instance: UnsafeMutablePointer<GTypeInstance>?, _ klass: gpointer?) {
    guard let instance else { return }
    let raw = UnsafeMutableRawPointer(instance)
    let object = RLBarcodeElement(instance: raw)
    raw.storeBytes(
        of: Unmanaged.passRetained(object).toOpaque(), toByteOffset: swiftSlotOffset,
        as: UnsafeMutableRawPointer.self)
    // Late frames are not dropped by the base class (its QoS handling):
    // they pass through, unanalysed (RLBarcodeElement.srcEvent). The `qos`
    // property turns dropping back on for pipelines that prefer it.
    gst_base_transform_set_qos_enabled(raw.assumingMemoryBound(to: GstBaseTransform.self), 0)
}

private func elementFinalize(_ object: UnsafeMutablePointer<GObject>?) {
    guard let object else { return }
    let raw = UnsafeMutableRawPointer(object)
    let slot = raw.load(fromByteOffset: swiftSlotOffset, as: UnsafeMutableRawPointer.self)
    Unmanaged<RLBarcodeElement>.fromOpaque(slot).release()
    if let parent = g_type_class_peek(gst_video_filter_get_type()) {
        parent.assumingMemoryBound(to: GObjectClass.self).pointee.finalize?(object)
    }
}

private func elementClassInit(_ klass: gpointer?, _ data: gpointer?) {
    guard let klass else { return }
    let objectClass = klass.assumingMemoryBound(to: GObjectClass.self)
    objectClass.pointee.set_property = { object, id, value, _ in
        guard let object, let value, let property = Property(rawValue: id) else { return }
        swiftElement(UnsafeMutableRawPointer(object)).setProperty(property, value)
    }
    objectClass.pointee.get_property = { object, id, value, _ in
        guard let object, let value, let property = Property(rawValue: id) else { return }
        swiftElement(UnsafeMutableRawPointer(object)).getProperty(property, value)
    }
    objectClass.pointee.finalize = elementFinalize
    installProperties(objectClass)

    let elementClass = klass.assumingMemoryBound(to: GstElementClass.self)
    parentChangeState = elementClass.pointee.change_state
    elementClass.pointee.change_state = { element, transition in
        guard let element else { return GST_STATE_CHANGE_FAILURE }
        // Deactivating the pads waits for the streaming thread: its scan stops first.
        if transition == GST_STATE_CHANGE_PAUSED_TO_READY {
            swiftElement(UnsafeMutableRawPointer(element)).cancelScans()
        }
        return parentChangeState?(element, transition) ?? GST_STATE_CHANGE_FAILURE
    }
    gst_element_class_set_metadata(
        elementClass, "Barcode reader", "Filter/Analyzer/Video",
        """
        Finds and decodes barcodes in raw video, in place: EAN-13, UPC-A, UPC-E \
        and EAN-8 with EAN-2/EAN-5 add-ons, Code 128, Code 39, Code 93, ITF, \
        Codabar, GS1 DataBar (and Expanded), QR Code and Micro QR, Data Matrix, \
        PDF417 and MicroPDF417, and Aztec Code. Posts a \
        "barcode" element message per reported code (the fields of zbar's, \
        plus position, add-on, raw bytes and a tracking id), attaches a \
        GstVideoRegionOfInterestMeta of type "barcode" per code and frame, and \
        can draw outlines and labels into the frames. \
        Example: gst-launch-1.0 -m v4l2src ! videoconvert ! rlbarcode draw=true ! \
        videoconvert ! autovideosink
        """,
        "The rlbarcode authors")
    for (name, direction) in [("sink", GST_PAD_SINK), ("src", GST_PAD_SRC)] {
        let caps = gst_caps_from_string(
            "video/x-raw, format=(string){ \(supportedFormats) }, width=(int)[ 1, 2147483647 ], "
                + "height=(int)[ 1, 2147483647 ], framerate=(fraction)[ 0/1, 2147483647/1 ]")
        let template = gst_pad_template_new(name, direction, GST_PAD_ALWAYS, caps)
        gst_element_class_add_pad_template(elementClass, template)
        gst_caps_unref(caps)
    }

    let transformClass = klass.assumingMemoryBound(to: GstBaseTransformClass.self)
    transformClass.pointee.start = { trans in
        guard let trans else { return 0 }
        return swiftElement(UnsafeMutableRawPointer(trans)).start() ? 1 : 0
    }
    transformClass.pointee.stop = { trans in
        guard let trans else { return 0 }
        return swiftElement(UnsafeMutableRawPointer(trans)).stop() ? 1 : 0
    }
    transformClass.pointee.transform_ip = { trans, buffer in
        guard let trans, let buffer else { return GST_FLOW_ERROR }
        let element = swiftElement(UnsafeMutableRawPointer(trans))
        // Planes outside their memory: passed on untouched, never mapped.
        guard element.acceptsPlanes(buffer) else { return GST_FLOW_OK }
        // Ours rather than GstVideoFilter's, which maps every frame for
        // writing: a frame whose memory is shared would be copied whole.
        let result = element.transformBuffer(buffer)
        // The frame is unmapped again here, so the buffer is writable for metadata.
        element.finishFrame(buffer: buffer, flow: result)
        return result
    }
    parentGenerateOutput = transformClass.pointee.generate_output
    transformClass.pointee.generate_output = { trans, out in
        guard let trans, let out else { return GST_FLOW_ERROR }
        return swiftElement(UnsafeMutableRawPointer(trans)).generateOutput(trans, out) { t, o in
            parentGenerateOutput?(t, o) ?? GST_FLOW_ERROR
        }
    }
    parentSubmitInputBuffer = transformClass.pointee.submit_input_buffer
    transformClass.pointee.submit_input_buffer = { trans, discont, input in
        guard let trans else { return GST_FLOW_ERROR }
        // Reverse playback in a time segment without a stop has no running
        // time (GStreamer asserts when asked for one): the base class's QoS
        // check is held off for such buffers, which pass on as any other.
        let segment = trans.pointee.segment
        let noRunningTime = segment.format == GST_FORMAT_TIME && !hasRunningTime(segment)
        guard noRunningTime, gst_base_transform_is_qos_enabled(trans) != 0 else {
            return parentSubmitInputBuffer?(trans, discont, input) ?? GST_FLOW_ERROR
        }
        swiftElement(UnsafeMutableRawPointer(trans)).warnNoRunningTime()
        gst_base_transform_set_qos_enabled(trans, 0)
        defer { gst_base_transform_set_qos_enabled(trans, 1) }
        return parentSubmitInputBuffer?(trans, discont, input) ?? GST_FLOW_ERROR
    }
    parentQuery = transformClass.pointee.query
    transformClass.pointee.query = { trans, direction, query in
        guard let trans, let query else { return 0 }
        if direction == GST_PAD_SINK { swiftElement(UnsafeMutableRawPointer(trans)).sinkQuery(query) }
        return parentQuery?(trans, direction, query) ?? 0
    }
    transformClass.pointee.src_event = { trans, event in
        guard let trans, let event else { return 0 }
        swiftElement(UnsafeMutableRawPointer(trans)).srcEvent(event)
        guard let parent = g_type_class_peek(gst_video_filter_get_type()) else { return 0 }
        return parent.assumingMemoryBound(to: GstBaseTransformClass.self).pointee.src_event?(trans, event) ?? 0
    }
    transformClass.pointee.sink_event = { trans, event in
        guard let trans, let event else { return 0 }
        swiftElement(UnsafeMutableRawPointer(trans)).sinkEvent(event)
        guard let parent = g_type_class_peek(gst_video_filter_get_type()) else { return 0 }
        return parent.assumingMemoryBound(to: GstBaseTransformClass.self).pointee.sink_event?(trans, event) ?? 0
    }

    let filterClass = klass.assumingMemoryBound(to: GstVideoFilterClass.self)
    filterClass.pointee.set_info = { filter, incaps, inInfo, _, _ in
        guard let filter, let incaps, let inInfo else { return 0 }
        return swiftElement(UnsafeMutableRawPointer(filter)).setInfo(caps: incaps, info: inInfo) ? 1 : 0
    }

    installSignals(rlbarcodeType: G_TYPE_FROM_CLASS_(klass))
}

/// `G_TYPE_FROM_CLASS`: the first field of every class struct is its GType.
private func G_TYPE_FROM_CLASS_(_ klass: gpointer) -> GType {
    klass.assumingMemoryBound(to: GTypeClass.self).pointee.g_type
}

// MARK: Properties

/// Installs every property from its ``PropertyDeclaration``.
private func installProperties(_ objectClass: UnsafeMutablePointer<GObjectClass>) {
    for property in Property.allCases {
        if let spec = property.declaration.paramSpec(name: property.name) {
            g_object_class_install_property(objectClass, property.rawValue, spec)
        }
    }
}

// MARK: Action signals

/// Registers `clear-results` and `report-unwanted`.
private func installSignals(rlbarcodeType: GType) {
    let actionFlags = GSignalFlags(rawValue: G_SIGNAL_RUN_LAST.rawValue | G_SIGNAL_ACTION.rawValue)

    let clear: @convention(c) (gpointer?, gpointer?) -> Void = { instance, _ in
        guard let instance else { return }
        swiftElement(instance).clearResults()
    }
    let clearClosure = g_cclosure_new(unsafeBitCast(clear, to: GCallback.self), nil, nil)
    _ = g_signal_newv(
        "clear-results", rlbarcodeType, actionFlags, clearClosure, nil, nil, nil,
        GTypes.none, 0, nil)

    let unwanted: @convention(c) (gpointer?, UnsafePointer<gchar>?, UnsafePointer<gchar>?, gpointer?) -> Void = {
        instance, symbology, text, _ in
        guard let instance else { return }
        swiftElement(instance).reportUnwanted(
            symbology: symbology.map { String(cString: $0) },
            text: text.map { String(cString: $0) })
    }
    let unwantedClosure = g_cclosure_new(unsafeBitCast(unwanted, to: GCallback.self), nil, nil)
    var params: [GType] = [GTypes.string, GTypes.string]
    _ = params.withUnsafeMutableBufferPointer { p in
        g_signal_newv(
            "report-unwanted", rlbarcodeType, actionFlags, unwantedClosure, nil, nil, nil,
            GTypes.none, 2, p.baseAddress)
    }
}
