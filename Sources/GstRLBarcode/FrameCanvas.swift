import CGStreamer
import RLBarcode

/// A colour in limited-range BT.601 Y'CbCr.
struct YUVColor: Equatable {
    var y: UInt8
    var u: UInt8
    var v: UInt8
    /// Whether anything is drawn at all (alpha of the ARGB colour > 0).
    var visible: Bool

    /// Converts an ARGB property value (`0xAARRGGBB`). Any non-zero alpha
    /// draws opaque; alpha 0 draws nothing.
    init(argb: UInt32) {
        let r = Double((argb >> 16) & 0xFF), g = Double((argb >> 8) & 0xFF), b = Double(argb & 0xFF)
        func byte(_ x: Double) -> UInt8 { UInt8(max(0, min(255, x.rounded()))) }
        y = byte(16 + (65.738 * r + 129.057 * g + 25.064 * b) / 256)
        u = byte(128 + (-37.945 * r - 74.494 * g + 112.439 * b) / 256)
        v = byte(128 + (112.439 * r - 94.154 * g - 18.285 * b) / 256)
        visible = (argb >> 24) != 0
    }

    /// Creates a colour from its components.
    init(y: UInt8, u: UInt8, v: UInt8) { self.y = y; self.u = u; self.v = v; visible = true }

    /// Black, for label backgrounds.
    static let black = YUVColor(y: 16, u: 128, v: 128)
}

/// One 8-bit colour component of a mapped video frame.
struct ComponentPlane {
    /// First sample of the first row.
    var base: UnsafeMutablePointer<UInt8>
    /// Bytes between rows.
    var stride: Int
    /// Bytes between samples in a row (2 for interleaved chroma).
    var pixelStride: Int
    /// log2 of the horizontal subsampling.
    var wSub: Int
    /// log2 of the vertical subsampling.
    var hSub: Int

    /// Writes `value` into the sample that covers luma pixel (`x`, `y`);
    /// the caller has checked that the pixel is inside the frame.
    @inline(__always)
    func write(x: Int, y: Int, _ value: UInt8) {
        base[(y >> hSub) &* stride &+ (x >> wSub) &* pixelStride] = value
    }
}

/// Draws outlines and labels into a mapped video frame, in place, in any
/// format whose components are 8-bit (luma and, when present, Cb and Cr).
///
/// Every write is clipped to the frame. Nothing allocates while drawing.
struct FrameCanvas {
    /// Frame width in pixels.
    let width: Int
    /// Frame height in pixels.
    let height: Int
    /// The luma component.
    private let luma: ComponentPlane
    /// The Cb component (nil for gray formats).
    private let cb: ComponentPlane?
    /// The Cr component (nil for gray formats).
    private let cr: ComponentPlane?

    /// A canvas over `frame`, or `nil` when the format is not 8-bit
    /// Y'CbCr or gray, or the mapping is incomplete.
    init?(frame: UnsafeMutablePointer<GstVideoFrame>) {
        let info = frame.pointee.info
        guard let finfo = info.finfo, info.width > 0, info.height > 0 else { return nil }
        let f = finfo.pointee
        let isYUV = f.flags.rawValue & GST_VIDEO_FORMAT_FLAG_YUV.rawValue != 0
        let isGray = f.flags.rawValue & GST_VIDEO_FORMAT_FLAG_GRAY.rawValue != 0
        guard isYUV || isGray, f.n_components >= 1 else { return nil }
        let data = frame.pointee.data
        let strides = info.stride
        func plane(_ comp: Int) -> ComponentPlane? {
            let depth = withUnsafeBytes(of: f.depth) { $0.load(fromByteOffset: comp * 4, as: UInt32.self) }
            guard depth == 8 else { return nil }
            let p = Int(withUnsafeBytes(of: f.plane) { $0.load(fromByteOffset: comp * 4, as: UInt32.self) })
            let off = Int(withUnsafeBytes(of: f.poffset) { $0.load(fromByteOffset: comp * 4, as: UInt32.self) })
            let ps = Int(withUnsafeBytes(of: f.pixel_stride) { $0.load(fromByteOffset: comp * 4, as: Int32.self) })
            let ws = Int(withUnsafeBytes(of: f.w_sub) { $0.load(fromByteOffset: comp * 4, as: UInt32.self) })
            let hs = Int(withUnsafeBytes(of: f.h_sub) { $0.load(fromByteOffset: comp * 4, as: UInt32.self) })
            guard p >= 0, p < 4, ps >= 1, ws >= 0, ws < 8, hs >= 0, hs < 8 else { return nil }
            let raw = withUnsafeBytes(of: data) {
                $0.load(fromByteOffset: p * MemoryLayout<gpointer?>.stride, as: gpointer?.self)
            }
            let stride = Int(withUnsafeBytes(of: strides) { $0.load(fromByteOffset: p * 4, as: Int32.self) })
            guard let raw, stride > 0 else { return nil }
            return ComponentPlane(
                base: raw.assumingMemoryBound(to: UInt8.self) + off, stride: stride,
                pixelStride: ps, wSub: ws, hSub: hs)
        }
        guard let y = plane(0) else { return nil }
        width = Int(info.width)
        height = Int(info.height)
        luma = y
        if isYUV && f.n_components >= 3, let u = plane(1), let v = plane(2) {
            cb = u; cr = v
        } else {
            cb = nil; cr = nil
        }
    }

    /// Fills the rectangle [`x0`, `x1`) x [`y0`, `y1`), clipped to the frame.
    func fill(x0: Int, y0: Int, x1: Int, y1: Int, _ color: YUVColor) {
        guard color.visible else { return }
        let xa = max(0, x0), xb = min(width, x1), ya = max(0, y0), yb = min(height, y1)
        guard xa < xb, ya < yb else { return }
        for y in ya..<yb {
            let row = luma.base + y &* luma.stride
            for x in xa..<xb { row[x &* luma.pixelStride] = color.y }
        }
        if let cb, let cr {
            // One write per chroma sample: step over the subsampled grid.
            let xs = 1 << cb.wSub, ys = 1 << cb.hSub
            var y = ya
            while y < yb {
                var x = xa
                while x < xb {
                    cb.write(x: x, y: y, color.u)
                    cr.write(x: x, y: y, color.v)
                    x = (x / xs + 1) * xs
                }
                y = (y / ys + 1) * ys
            }
        }
    }

    /// Draws a line `thickness` pixels wide from (`x0`, `y0`) to (`x1`, `y1`).
    func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, thickness: Int, _ color: YUVColor) {
        guard color.visible, x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite else { return }
        // Keep the walk bounded even for absurd coordinates.
        let limit = Double(4 * (width + height))
        guard abs(x0) < limit, abs(y0) < limit, abs(x1) < limit, abs(y1) < limit else { return }
        let dx = x1 - x0, dy = y1 - y0
        let steps = max(1, Int(max(abs(dx), abs(dy)).rounded(.up)))
        let half = thickness / 2
        for i in 0...steps {
            let t = Double(i) / Double(steps)
            let cx = Int((x0 + dx * t).rounded()), cy = Int((y0 + dy * t).rounded())
            if cx + half < 0 || cy + half < 0 || cx - half >= width || cy - half >= height { continue }
            fill(x0: cx - half, y0: cy - half, x1: cx - half + thickness, y1: cy - half + thickness, color)
        }
    }

    /// Draws the closed polygon through `points`.
    func polygon(_ points: [Point], thickness: Int, _ color: YUVColor) {
        guard points.count >= 2 else { return }
        for i in points.indices {
            let a = points[i], b = points[(i + 1) % points.count]
            line(a.x, a.y, b.x, b.y, thickness: thickness, color)
        }
    }

    /// The size in pixels of `text` drawn with ``text(_:x:y:scale:color:background:)``.
    static func textSize(byteCount: Int, scale: Int) -> (width: Int, height: Int) {
        ((byteCount * BitmapFont.advance + 1) * scale, (BitmapFont.glyphHeight + 2) * scale)
    }

    /// Draws `text` (its UTF-8 bytes; non-ASCII shows as `?`) with its top-left
    /// corner at (`x`, `y`), on a filled background box.
    func text(_ text: Substring.UTF8View, x: Int, y: Int, scale: Int, color: YUVColor, background: YUVColor) {
        let size = FrameCanvas.textSize(byteCount: text.count, scale: scale)
        fill(x0: x, y0: y, x1: x + size.width, y1: y + size.height, background)
        guard color.visible else { return }
        var gx = x + scale
        let gy = y + scale
        for byte in text {
            if gx >= width { break }
            let rows = BitmapFont.rows(of: byte)
            for (r, bits) in rows.enumerated() where bits != 0 {
                for c in 0..<BitmapFont.glyphWidth where bits & (0x10 >> UInt8(c)) != 0 {
                    let px = gx + c * scale, py = gy + r * scale
                    fill(x0: px, y0: py, x1: px + scale, y1: py + scale, color)
                }
            }
            gx += BitmapFont.advance * scale
        }
    }
}
