import CGStreamer

// Small bridges for GLib/GStreamer macros that do not import into Swift.

/// Fundamental GTypes (the C `G_TYPE_*` macros are not importable).
enum GTypes {
    /// `G_TYPE_FUNDAMENTAL_SHIFT` from gtype.h.
    private static let shift = 2
    /// `G_TYPE_NONE`.
    static let none = GType(1 << shift)
    /// `G_TYPE_BOOLEAN`.
    static let boolean = GType(5 << shift)
    /// `G_TYPE_INT`.
    static let int = GType(6 << shift)
    /// `G_TYPE_UINT`.
    static let uint = GType(7 << shift)
    /// `G_TYPE_UINT64`.
    static let uint64 = GType(11 << shift)
    /// `G_TYPE_STRING`.
    static let string = GType(16 << shift)
}

/// `GST_PARAM_MUTABLE_PLAYING` (`1 << (G_PARAM_USER_SHIFT + 4)`).
let gstParamMutablePlaying: Int32 = 1 << (8 + 4)

/// The flags of every property of the element: readable, writable,
/// changeable while PLAYING.
/// Notification is explicit: only a value that really changed notifies.
let elementParamFlags = GParamFlags(
    rawValue: G_PARAM_READWRITE.rawValue | G_PARAM_EXPLICIT_NOTIFY.rawValue
        | gstParamMutablePlaying)

/// `GST_CLOCK_TIME_NONE`.
let clockTimeNone = UInt(UInt64.max)

/// Casts a GObject-family pointer to another struct type of the same
/// instance (the C cast macros such as `G_OBJECT()`).
@inline(__always)
func gcast<T, U>(_ pointer: UnsafeMutablePointer<T>, to _: U.Type = U.self) -> UnsafeMutablePointer<U> {
    UnsafeMutablePointer<U>(OpaquePointer(pointer))
}

/// Setters that fill a `GstStructure` field by field without the variadic
/// C API.
extension UnsafeMutablePointer where Pointee == GstStructure {
    /// Sets a string field (copied).
    func set(_ name: String, string: String) {
        var v = GValue()
        g_value_init(&v, GTypes.string)
        g_value_set_string(&v, string)
        gst_structure_take_value(self, name, &v)
    }

    /// Sets a `gint` field.
    func set(_ name: String, int: Int32) {
        var v = GValue()
        g_value_init(&v, GTypes.int)
        g_value_set_int(&v, int)
        gst_structure_take_value(self, name, &v)
    }

    /// Sets a `guint` field.
    func set(_ name: String, uint: UInt32) {
        var v = GValue()
        g_value_init(&v, GTypes.uint)
        g_value_set_uint(&v, uint)
        gst_structure_take_value(self, name, &v)
    }

    /// Sets a `guint64` field.
    func set(_ name: String, uint64: UInt64) {
        var v = GValue()
        g_value_init(&v, GTypes.uint64)
        g_value_set_uint64(&v, UInt(uint64))
        gst_structure_take_value(self, name, &v)
    }

    /// Sets a `gboolean` field.
    func set(_ name: String, bool: Bool) {
        var v = GValue()
        g_value_init(&v, GTypes.boolean)
        g_value_set_boolean(&v, bool ? 1 : 0)
        gst_structure_take_value(self, name, &v)
    }

    /// Sets a `GBytes` field holding a copy of `bytes`.
    func set(_ name: String, bytes: [UInt8]) {
        var v = GValue()
        g_value_init(&v, g_bytes_get_type())
        let gbytes = bytes.withUnsafeBufferPointer { g_bytes_new($0.baseAddress, gsize($0.count)) }
        g_value_take_boxed(&v, gbytes.map { UnsafeRawPointer($0) })
        gst_structure_take_value(self, name, &v)
    }

    /// Sets a `GstValueArray` of `gint` field.
    func set(_ name: String, intArray: some Sequence<Int32>) {
        var array = GValue()
        g_value_init(&array, gst_value_array_get_type())
        for x in intArray {
            var item = GValue()
            g_value_init(&item, GTypes.int)
            g_value_set_int(&item, x)
            gst_value_array_append_and_take_value(&array, &item)
        }
        gst_structure_take_value(self, name, &array)
    }

    /// Sets a `GstValueArray` of `GstStructure` field, taking ownership of
    /// the structures.
    func set(_ name: String, takingStructures structures: [UnsafeMutablePointer<GstStructure>]) {
        var array = GValue()
        g_value_init(&array, gst_value_array_get_type())
        for st in structures {
            var item = GValue()
            g_value_init(&item, gst_structure_get_type())
            g_value_take_boxed(&item, UnsafeRawPointer(st))
            gst_value_array_append_and_take_value(&array, &item)
        }
        gst_structure_take_value(self, name, &array)
    }

    /// Sets a field holding a boxed value, taking ownership of `boxed`.
    func set(_ name: String, takingBoxed boxed: UnsafeMutableRawPointer, type: GType) {
        var v = GValue()
        g_value_init(&v, type)
        g_value_take_boxed(&v, boxed)
        gst_structure_take_value(self, name, &v)
    }
}

/// Converts a pixel coordinate to a `gint`, mapping NaN to 0 and clamping
/// to the `gint` range.
@inline(__always)
func clampedInt32(_ x: Double) -> Int32 {
    guard x.isFinite else { return x.isNaN ? 0 : (x > 0 ? Int32.max : Int32.min) }
    let r = x.rounded()
    if r >= Double(Int32.max) { return Int32.max }
    if r <= Double(Int32.min) { return Int32.min }
    return Int32(r)
}

/// Whether GStreamer can tell running time in `segment`: not in reverse
/// playback (rate below 0) without a stop (it asserts instead).
func hasRunningTime(_ segment: GstSegment) -> Bool {
    segment.rate > 0 || segment.stop != clockTimeNone
}

/// `pts` as running time in `segment`, or `GST_CLOCK_TIME_NONE`: no time
/// segment, or reverse playback (rate below 0) in a segment without a stop,
/// from which GStreamer cannot tell running time (it asserts instead).
func segmentRunningTime(_ pts: GstClockTime, in segment: inout GstSegment) -> GstClockTime {
    guard pts != clockTimeNone, segment.format == GST_FORMAT_TIME, hasRunningTime(segment) else { return clockTimeNone }
    return gst_segment_to_running_time(&segment, GST_FORMAT_TIME, pts)
}
