import CGStreamer

/// A buffer for the stream's caps as an input describes it: its size
/// (the caps' frame, more, less, nothing), a video meta that tells the
/// truth (padded rows) or lies (planes, offsets, strides, format, size),
/// one or several memories, timestamps and flags, pixels tiled from the
/// input.
///
/// Bytes: layout (bits 0-2: plain, padded meta, other size, lying meta,
/// empty, several memories; bit 3: also pushed read-only), flags, then the
/// layout's own bytes, then a pattern length and the pattern.
enum FuzzBuffer {
    /// The PTS of the next buffer that gets the stream's own; 0 at each input's start.
    nonisolated(unsafe) static var nextPTS: UInt = 0

    /// The buffer read from `r` for frames of `caps`, and whether the
    /// harness should keep a reference while pushing it (read-only).
    static func make(_ r: inout ByteReader, caps: Caps) -> (UnsafeMutablePointer<GstBuffer>, Bool) {
        let layout = r.byte(), flags = r.byte()
        var info = GstVideoInfo()
        let parsed = gst_caps_from_string(caps.text).map { c in
            defer { gst_caps_unref(c) }
            return gst_video_info_from_caps(&info, c) != 0
        }
        let known = parsed == true
        var size = known ? Int(info.size) : r.byte() * 16
        var meta: Meta?
        var pieces = 1
        switch layout & 7 {
        case 1 where known:
            var align = GstVideoAlignment()
            gst_video_alignment_reset(&align)
            align.padding_right = guint(r.byte() % 64)
            align.padding_bottom = guint(r.byte() % 8)
            _ = gst_video_info_align(&info, &align)
            size = Int(info.size)
            meta = Meta(info: info)
        case 2: size = max(0, size + (r.byte() - 128) * (1 + r.byte() % 16))
        case 3 where known: meta = Meta.lie(&r, info: info, size: size)
        case 4:
            size = 0
            if known && r.byte() & 1 == 1 { meta = Meta(info: info) }
        case 5: pieces = 2 + r.byte() % 3
        default: break
        }
        let buffer = allocate(size: size, pieces: pieces, &r)
        if let meta { meta.attach(to: buffer) }
        stamp(buffer, flags: flags, &r)
        fill(buffer, &r)
        return (buffer, layout & 8 != 0)
    }

    /// A buffer of `size` bytes in `pieces` memories cut where `r` says.
    private static func allocate(size: Int, pieces: Int, _ r: inout ByteReader) -> UnsafeMutablePointer<GstBuffer> {
        guard pieces > 1, size > pieces else { return gst_buffer_new_allocate(nil, gsize(size), nil)! }
        let buffer = gst_buffer_new()!
        var left = size
        for i in 0..<pieces {
            let part = i == pieces - 1 ? left : min(left, 1 + r.word() % max(1, left))
            left -= part
            if let memory = gst_allocator_alloc(nil, gsize(part), nil) { gst_buffer_append_memory(buffer, memory) }
        }
        return buffer
    }

    /// Timestamps and flags from `flags` (bit 0: no PTS, bit 1: no
    /// duration, bit 2: a PTS from the input, bit 3: DISCONT, bit 4: GAP,
    /// bit 5: DELTA_UNIT, bit 6: a zero duration).
    private static func stamp(_ buffer: UnsafeMutablePointer<GstBuffer>, flags: Int, _ r: inout ByteReader) {
        nextPTS &+= 33_333_333
        let none = UInt(UInt64.max)
        buffer.pointee.pts = flags & 1 != 0 ? none : flags & 4 != 0 ? UInt(r.long()) * 1000 : nextPTS
        buffer.pointee.duration = flags & 2 != 0 ? none : flags & 64 != 0 ? 0 : 33_333_333
        var f: guint = 0
        if flags & 8 != 0 { f |= GST_BUFFER_FLAG_DISCONT.rawValue }
        if flags & 16 != 0 { f |= GST_BUFFER_FLAG_GAP.rawValue }
        if flags & 32 != 0 { f |= GST_BUFFER_FLAG_DELTA_UNIT.rawValue }
        buffer.withMemoryRebound(to: GstMiniObject.self, capacity: 1) { $0.pointee.flags |= f }
    }

    /// Fills the buffer with a pattern of the input's next bytes (a byte
    /// `n`: from 192 on, a pattern of `n - 191` bytes, tiled; below, none),
    /// then a grey level (everywhere, without a pattern). Flat frames are
    /// cheap to scan, so that inputs run fast; the scanner's own targets
    /// fuzz what is in the pixels.
    private static func fill(_ buffer: UnsafeMutablePointer<GstBuffer>, _ r: inout ByteReader) {
        let n = r.byte()
        let pattern = r.bytes(n >= 192 ? n - 191 : 0)
        let grey = UInt8(truncatingIfNeeded: r.byte())
        let size = Int(gst_buffer_get_size(buffer))
        guard size > 0 else { return }
        var bytes = [UInt8](repeating: grey, count: size)
        if !pattern.isEmpty { for i in 0..<size { bytes[i] = pattern[i % pattern.count] } }
        _ = bytes.withUnsafeBytes { gst_buffer_fill(buffer, 0, $0.baseAddress, gsize(size)) }
    }
}

/// A video meta's claims.
struct Meta {
    var format: GstVideoFormat
    var width: Int
    var height: Int
    var offsets: [Int]
    var strides: [Int]

    /// What `info` says: the truth.
    init(info: GstVideoInfo) {
        var i = info
        let n = Int(i.finfo.pointee.n_planes)
        format = i.finfo.pointee.format
        width = Int(i.width)
        height = Int(i.height)
        offsets = withUnsafeBytes(of: &i.offset) { p in
            (0..<n).map { Int(p.load(fromByteOffset: $0 * 8, as: gsize.self)) }
        }
        strides = withUnsafeBytes(of: &i.stride) { p in
            (0..<n).map { Int(p.load(fromByteOffset: $0 * 4, as: gint.self)) }
        }
    }

    /// A meta that lies about `info` in the ways `r` picks: another plane
    /// count, format or size, offsets anywhere up to twice the buffer, strides
    /// nudged, negative, zero or anything.
    static func lie(_ r: inout ByteReader, info: GstVideoInfo, size: Int) -> Meta {
        var m = Meta(info: info)
        let what = r.byte()
        if what & 1 != 0 { m.format = gst_video_format_from_string(Caps.formats[r.byte() % Caps.formats.count]) }
        if what & 2 != 0 { m.width = r.word() }
        if what & 4 != 0 { m.height = r.word() }
        let planes = what & 8 != 0 ? 1 + r.byte() % 4 : m.offsets.count
        m.offsets = (0..<planes).map { p in
            what & 16 != 0 ? Int(r.long() % UInt32(2 * size + 16)) : p < m.offsets.count ? m.offsets[p] : size
        }
        m.strides = (0..<planes).map { p in
            let honest = p < m.strides.count ? m.strides[p] : m.strides[0]
            switch r.byte() % 6 {
            case 0: return honest
            case 1: return honest + r.byte() - 128
            case 2: return -honest
            case 3: return 0
            case 4: return Int(Int32(bitPattern: r.long()))
            default: return honest * (1 + r.byte() % 4)
            }
        }
        return m
    }

    /// Adds the meta to `buffer`.
    func attach(to buffer: UnsafeMutablePointer<GstBuffer>) {
        var o = [gsize](repeating: 0, count: 4), s = [gint](repeating: 0, count: 4)
        for p in 0..<min(4, offsets.count) {
            o[p] = gsize(offsets[p])
            s[p] = gint(truncatingIfNeeded: strides[p])
        }
        _ = o.withUnsafeMutableBufferPointer { op in
            s.withUnsafeMutableBufferPointer { sp in
                gst_buffer_add_video_meta_full(
                    buffer, GST_VIDEO_FRAME_FLAG_NONE, format, guint(truncatingIfNeeded: width),
                    guint(truncatingIfNeeded: height), guint(min(4, offsets.count)), op.baseAddress, sp.baseAddress)
            }
        }
    }
}
