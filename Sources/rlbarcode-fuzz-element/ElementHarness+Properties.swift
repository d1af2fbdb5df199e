import CGStreamer

#if canImport(Glibc)
    import Glibc
#endif

/// The fundamental GTypes the element's properties have (`G_TYPE_*` are macros).
enum FundamentalType {
    static let boolean = GType(5 << 2)
    static let int = GType(6 << 2)
    static let uint = GType(7 << 2)
    static let uint64 = GType(11 << 2)
    static let enumeration = GType(12 << 2)
    static let flags = GType(13 << 2)
    static let string = GType(16 << 2)
}

extension ElementHarness {
    /// The element as a GObject.
    var object: UnsafeMutablePointer<GObject> { UnsafeMutablePointer<GObject>(OpaquePointer(element)) }

    /// Sets a writable property picked by `r` to a value of its type read
    /// from `r` (edge values often), made valid for its spec as
    /// `g_object_set` requires.
    func setProperty(_ r: inout ByteReader) {
        guard !properties.isEmpty else { return }
        let index = r.byte() % properties.count
        let spec = properties[index]
        var value = GValue()
        g_value_init(&value, spec.pointee.value_type)
        defer { g_value_unset(&value) }
        let pick = r.byte()
        switch g_type_fundamental(spec.pointee.value_type) {
        case FundamentalType.boolean: g_value_set_boolean(&value, gboolean(pick & 1))
        case FundamentalType.int: g_value_set_int(&value, gint(Int32(bitPattern: edge(pick, &r))))
        case FundamentalType.uint: g_value_set_uint(&value, guint(edge(pick, &r)))
        case FundamentalType.uint64:
            g_value_set_uint64(&value, pick & 8 != 0 ? UInt(UInt64.max) : UInt(edge(pick, &r)) * UInt(r.word()))
        case FundamentalType.enumeration: g_value_set_enum(&value, gint(pick % 8) - 1)
        case FundamentalType.flags: g_value_set_flags(&value, guint(r.long() & (pick & 1 == 0 ? 0x1FFFF : ~0)))
        case FundamentalType.string where pick & 16 != 0: g_value_set_string(&value, nil)
        case FundamentalType.string: g_value_set_string(&value, text(&r))
        default: return
        }
        _ = g_param_value_validate(spec, &value)
        g_object_set_property(object, spec.pointee.name, &value)
        if ElementTarget.trace {
            let text =
                g_strdup_value_contents(&value).map { p in
                    defer { g_free(p) }; return String(cString: p)
                } ?? "?"
            let line = "  \(String(cString: spec.pointee.name)) = \(text)\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
        }
        touched.insert(index)
    }

    /// A number picked by `pick`: 0, 1, 2, 3, the largest, a byte, a word or any.
    private func edge(_ pick: Int, _ r: inout ByteReader) -> UInt32 {
        switch pick >> 1 & 7 {
        case 0: 0
        case 1: 1
        case 2: 2
        case 3: 3
        case 4: .max
        case 5: UInt32(r.byte())
        case 6: UInt32(r.word())
        default: r.long()
        }
    }

    /// Reads a property picked by `r` back.
    func readProperty(_ r: inout ByteReader) {
        guard !readable.isEmpty else { return }
        let spec = readable[r.byte() % readable.count]
        var value = GValue()
        g_value_init(&value, spec.pointee.value_type)
        g_object_get_property(object, spec.pointee.name, &value)
        g_value_unset(&value)
    }

    /// A counter property (`frames-analysed`, `frames-rejected` ...).
    func counter(_ name: String) -> UInt {
        var value = GValue()
        g_value_init(&value, FundamentalType.uint64)
        defer { g_value_unset(&value) }
        g_object_get_property(object, name, &value)
        return g_value_get_uint64(&value)
    }

    /// A boolean property.
    func flag(_ name: String) -> Bool {
        var value = GValue()
        g_value_init(&value, FundamentalType.boolean)
        defer { g_value_unset(&value) }
        g_object_get_property(object, name, &value)
        return g_value_get_boolean(&value) != 0
    }
}
