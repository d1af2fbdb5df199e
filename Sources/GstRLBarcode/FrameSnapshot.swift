import CGStreamer

/// A copy of a video frame for the `frame` field of `barcode` messages
/// (`attach-frame`): taken before the outlines are drawn (`frame-clean`)
/// and scaled down to preview size (`frame-max-size`).
///
/// One copy is made per frame that reports codes, shared by that frame's
/// messages; it holds a buffer and caps of its own.
struct FrameSnapshot {
    /// The copy (a reference the snapshot owns until ``release()``).
    let buffer: UnsafeMutablePointer<GstBuffer>
    /// Its caps: the frame's, with the copy's size.
    let caps: UnsafeMutablePointer<GstCaps>

    /// The size of a frame `width` by `height` scaled down so that neither
    /// side exceeds `maxSize` (0: no limit), keeping its aspect ratio.
    static func size(width: Int, height: Int, maxSize: Int) -> (width: Int, height: Int) {
        let longest = max(width, height)
        guard maxSize > 0, longest > maxSize else { return (width, height) }
        return (max(1, (width * maxSize + longest / 2) / longest), max(1, (height * maxSize + longest / 2) / longest))
    }

    /// Copies the mapped `frame`, scaled down to `maxSize` (0: full size)
    /// by nearest-neighbour sampling of every component (luma and chroma
    /// alike); nil when the copy cannot be made.
    init?(of frame: UnsafeMutablePointer<GstVideoFrame>, maxSize: Int) {
        let source = frame.pointee.info
        let width = Int(source.width), height = Int(source.height)
        guard width > 0, height > 0, let finfo = source.finfo else { return nil }
        let size = FrameSnapshot.size(width: width, height: height, maxSize: maxSize)
        var info = GstVideoInfo()
        guard gst_video_info_set_format(&info, finfo.pointee.format, guint(size.width), guint(size.height)) != 0
        else { return nil }
        info.fps_n = source.fps_n
        info.fps_d = source.fps_d
        info.par_n = source.par_n
        info.par_d = source.par_d
        info.colorimetry = source.colorimetry
        info.chroma_site = source.chroma_site
        guard let buffer = gst_buffer_new_allocate(nil, info.size, nil) else { return nil }
        var copy = GstVideoFrame()
        guard gst_video_frame_map(&copy, &info, buffer, GST_MAP_WRITE) != 0 else {
            gst_buffer_unref(buffer)
            return nil
        }
        if size.width == width && size.height == height {
            _ = gst_video_frame_copy(&copy, frame)
        } else {
            FrameSnapshot.scale(frame, into: &copy)
        }
        gst_video_frame_unmap(&copy)
        if let from = frame.pointee.buffer {
            buffer.pointee.pts = from.pointee.pts
            buffer.pointee.duration = from.pointee.duration
        }
        guard let caps = gst_video_info_to_caps(&info) else {
            gst_buffer_unref(buffer)
            return nil
        }
        self.buffer = buffer
        self.caps = caps
    }

    /// Drops the snapshot's references (the messages' samples keep theirs).
    func release() {
        gst_buffer_unref(buffer)
        gst_caps_unref(caps)
    }

    /// Nearest-neighbour scaling of each 8-bit component of `source` into
    /// `target`, of the same format (16.16 fixed-point steps, no division
    /// per pixel).
    private static func scale(
        _ source: UnsafeMutablePointer<GstVideoFrame>,
        into target: UnsafeMutablePointer<GstVideoFrame>
    ) {
        guard let finfo = source.pointee.info.finfo else { return }
        let components = Int(finfo.pointee.n_components)
        withUnsafeBytes(of: finfo.pointee.plane) { planes in
            withUnsafeBytes(of: finfo.pointee.poffset) { offsets in
                withUnsafeBytes(of: finfo.pointee.pixel_stride) { pixelStrides in
                    for c in 0..<min(components, 4) {
                        let component = Component(
                            plane: Int(planes.load(fromByteOffset: c * MemoryLayout<guint>.stride, as: guint.self)),
                            offset: Int(offsets.load(fromByteOffset: c * MemoryLayout<guint>.stride, as: guint.self)),
                            pixelStride: Int(
                                pixelStrides.load(fromByteOffset: c * MemoryLayout<gint>.stride, as: gint.self)),
                            index: c)
                        scale(component, source, target)
                    }
                }
            }
        }
    }

    /// Where one component lies: its plane, its byte offset in a pixel and
    /// the bytes from one pixel to the next.
    private struct Component {
        var plane: Int
        var offset: Int
        var pixelStride: Int
        var index: Int
    }

    /// Scales one component of `source` into `target`.
    private static func scale(
        _ c: Component, _ source: UnsafeMutablePointer<GstVideoFrame>,
        _ target: UnsafeMutablePointer<GstVideoFrame>
    ) {
        let from = Plane(source.pointee, c), to = Plane(target.pointee, c)
        guard let src = from.data, let dst = to.data, from.width > 0, from.height > 0, to.width > 0, to.height > 0
        else { return }
        let stepX = (from.width << 16) / to.width, stepY = (from.height << 16) / to.height
        let ps = c.pixelStride
        var fy = 0
        for y in 0..<to.height {
            let srcRow = src + (fy >> 16) * from.stride + c.offset
            let dstRow = dst + y * to.stride + c.offset
            var fx = 0
            for x in 0..<to.width {
                dstRow[x * ps] = srcRow[(fx >> 16) * ps]
                fx += stepX
            }
            fy += stepY
        }
    }

    /// One component's plane in a mapped frame: its data, row stride and
    /// the component's width and height (after subsampling).
    private struct Plane {
        var data: UnsafeMutablePointer<UInt8>?
        var stride: Int
        var width: Int
        var height: Int

        init(_ frame: GstVideoFrame, _ c: Component) {
            var frame = frame
            let info = frame.info
            data = withUnsafeBytes(of: &frame.data) { raw in
                raw.load(fromByteOffset: c.plane * MemoryLayout<gpointer?>.stride, as: gpointer?.self)
            }?.assumingMemoryBound(to: UInt8.self)
            stride = withUnsafeBytes(of: info.stride) { raw in
                Int(raw.load(fromByteOffset: c.plane * MemoryLayout<gint>.stride, as: gint.self))
            }
            let wSub = withUnsafeBytes(of: info.finfo.pointee.w_sub) { raw in
                Int(raw.load(fromByteOffset: c.index * MemoryLayout<guint>.stride, as: guint.self))
            }
            let hSub = withUnsafeBytes(of: info.finfo.pointee.h_sub) { raw in
                Int(raw.load(fromByteOffset: c.index * MemoryLayout<guint>.stride, as: guint.self))
            }
            // GST_VIDEO_SUB_SCALE: rounded up.
            width = -((-Int(info.width)) >> wSub)
            height = -((-Int(info.height)) >> hSub)
        }
    }
}
