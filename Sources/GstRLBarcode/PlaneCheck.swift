import CGStreamer

/// Whether every plane of a buffer lies inside the memory it would be read
/// from, before any pixel is read.
///
/// `gst_video_frame_map` trusts a buffer's `GstVideoMeta`: its offsets and
/// strides are not compared with the memory's size, so a meta that lies
/// (a stride too large for the buffer, an offset past its end) gives plane
/// pointers into memory that is not the frame's. Without a meta, the
/// buffer must hold the negotiated layout (`GstVideoInfo.size`). Each
/// plane must hold its rows: `offset + stride × (rows − 1) + row bytes`
/// within the memory block holding its offset (with a meta, as the meta's
/// default map function maps it) or within the whole buffer (without), and
/// its stride at least the row's bytes (the width for luma).
enum PlaneCheck {
    /// Rows and bytes per row of plane `plane` of a `width` x `height`
    /// frame in `finfo`'s format (8 bits a sample): the largest over the
    /// components stored in that plane.
    static func extent(_ finfo: UnsafePointer<GstVideoFormatInfo>, plane: Int, width: Int, height: Int)
        -> (rows: Int, rowBytes: Int)
    {
        var rows = 0, rowBytes = 0
        let info = finfo.pointee
        for c in 0..<min(Int(info.n_components), 4) where Int(tuple(info.plane, c, UInt32.self)) == plane {
            let wSub = Int(tuple(info.w_sub, c, UInt32.self)), hSub = Int(tuple(info.h_sub, c, UInt32.self))
            let columns = (width + (1 << wSub) - 1) >> wSub
            let pixelStride = max(1, Int(tuple(info.pixel_stride, c, Int32.self)))
            let poffset = Int(tuple(info.poffset, c, UInt32.self))
            rows = max(rows, (height + (1 << hSub) - 1) >> hSub)
            rowBytes = max(rowBytes, poffset + pixelStride * (columns - 1) + 1)
        }
        return (rows, rowBytes)
    }

    /// Why the planes of `buffer` cannot be read as `info` (the negotiated
    /// caps) or its video meta says, or nil when every plane fits.
    static func problem(_ buffer: UnsafeMutablePointer<GstBuffer>, info: UnsafePointer<GstVideoInfo>) -> String? {
        guard let finfo = info.pointee.finfo else { return "no negotiated format" }
        let planes = Int(finfo.pointee.n_planes)
        guard let meta = gst_buffer_get_video_meta(buffer) else {
            let size = Int(gst_buffer_get_size(buffer))
            if size < Int(info.pointee.size) {
                return "buffer of \(size) bytes, the caps' frame needs \(info.pointee.size)"
            }
            for p in 0..<min(planes, 4) {
                let offset = Int(tuple(info.pointee.offset, p, UInt.self))
                if let problem = planeProblem(
                    p, finfo: finfo, width: Int(info.pointee.width),
                    height: Int(info.pointee.height),
                    stride: Int(tuple(info.pointee.stride, p, Int32.self)),
                    start: offset, available: size)
                {
                    return problem
                }
            }
            return nil
        }
        let m = meta.pointee
        guard m.format == finfo.pointee.format else {
            return "video meta format \(m.format.rawValue), caps format \(finfo.pointee.format.rawValue)"
        }
        guard Int(m.n_planes) == planes, planes <= 4 else {
            return "video meta with \(m.n_planes) planes, caps \(planes)"
        }
        // gst_video_frame_map refuses (with a critical) a meta smaller than the caps.
        guard m.width >= info.pointee.width, m.height >= info.pointee.height, m.width > 0, m.height > 0 else {
            return "video meta of \(m.width)x\(m.height), caps \(info.pointee.width)x\(info.pointee.height)"
        }
        for p in 0..<planes {
            let offset = tuple(m.offset, p, UInt.self)
            var index: guint = 0, length: guint = 0
            var skip: gsize = 0
            guard gst_buffer_find_memory(buffer, offset, 1, &index, &length, &skip) != 0,
                let memory = gst_buffer_peek_memory(buffer, index)
            else {
                return "plane \(p): offset \(offset) past the buffer's \(gst_buffer_get_size(buffer)) bytes"
            }
            if let problem = planeProblem(
                p, finfo: finfo, width: Int(m.width), height: Int(m.height),
                stride: Int(tuple(m.stride, p, Int32.self)), start: Int(skip),
                available: Int(memory.pointee.size))
            {
                return problem
            }
        }
        return nil
    }

    /// Why plane `p`, starting `start` bytes into `available` bytes, cannot
    /// hold its rows at `stride`, or nil.
    private static func planeProblem(
        _ p: Int, finfo: UnsafePointer<GstVideoFormatInfo>, width: Int, height: Int,
        stride: Int, start: Int, available: Int
    ) -> String? {
        let (rows, rowBytes) = extent(finfo, plane: p, width: width, height: height)
        guard rows > 0 else { return nil }
        if stride < rowBytes { return "plane \(p): stride \(stride) under its row's \(rowBytes) bytes" }
        let (span, o1) = stride.multipliedReportingOverflow(by: rows - 1)
        let (last, o2) = span.addingReportingOverflow(start)
        let (end, o3) = last.addingReportingOverflow(rowBytes)
        if o1 || o2 || o3 || start < 0 || end > available {
            return "plane \(p): \(rows) rows of stride \(stride) from byte \(start) need more than "
                + "the \(available) bytes mapped"
        }
        return nil
    }

    /// Element `i` of a C array imported as a homogeneous tuple.
    @inline(__always)
    private static func tuple<T, E>(_ t: T, _ i: Int, _: E.Type) -> E {
        withUnsafeBytes(of: t) { $0.load(fromByteOffset: i * MemoryLayout<E>.stride, as: E.self) }
    }
}
