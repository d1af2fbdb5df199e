/// A rectangle of whole pixels, `x0 ..< x1` by `y0 ..< y1`.
struct PixelRect: Equatable {
    var x0: Int, y0: Int, x1: Int, y1: Int
    var width: Int { x1 - x0 }
    var height: Int { y1 - y0 }
    /// The part inside a frame of `width` by `height` pixels (empty ones
    /// have a width or height of 0 or less).
    func clipped(width w: Int, height h: Int) -> PixelRect {
        PixelRect(x0: max(0, x0), y0: max(0, y0), x1: min(w, x1), y1: min(h, y1))
    }
    func contains(_ x: Double, _ y: Double) -> Bool {
        x >= Double(x0) && x < Double(x1) && y >= Double(y0) && y < Double(y1)
    }
}

/// A straight scan line through a frame: `origin + t * direction`, `t` in
/// `0 ..< length`, one sample per pixel of length.
struct ScanLine {
    var origin: Point
    /// The step from one sample to the next, along the line (the code's
    /// reading direction when read forward); a unit vector for one sample a pixel.
    var dx: Double
    var dy: Double
    /// The number of samples.
    var length: Int

    func point(at t: Double) -> Point { Point(x: origin.x + t * dx, y: origin.y + t * dy) }

    /// The distance between two samples, in pixels.
    var stepLength: Double { (dx * dx + dy * dy).squareRoot() }

    /// The part of the line over its cells of bars `crossing`, with
    /// `margin` samples or `share` of the part's length, whichever is
    /// more, on either side (for quiet zones); nil when under 16 samples.
    func part(over crossing: BarCrossing, margin: Double, share: Double) -> ScanLine? {
        let extra = max(margin, share * (crossing.last - crossing.first))
        let t0 = max(0, (crossing.first - extra).rounded(.down))
        let t1 = min(Double(length), (crossing.last + extra).rounded(.up))
        let n = Int(t1 - t0)
        guard n >= 16 else { return nil }
        return ScanLine(origin: point(at: t0), dx: dx, dy: dy, length: n)
    }

    /// Clips the infinite line through `center` with direction (dx, dy) to the
    /// pixel rectangle `bounds`, keeping at most `halfLength` pixels on each
    /// side of `center`, and `margin` pixels from the rectangle's edges (none
    /// by default: a code cut tight or touching the frame's border has its
    /// outer bars at the frame's edge).
    ///
    /// `step` is the distance between samples in pixels: below 1 the line
    /// samples between pixels too, which places the edges of modules under
    /// two pixels wide more exactly.
    static func clipped(
        center: Point, dx: Double, dy: Double, halfLength: Double,
        bounds: PixelRect, margin: Double = 0, step: Double = 1
    ) -> ScanLine? {
        var t0 = -halfLength, t1 = halfLength
        let lo = Double(bounds.x0) + margin, hiX = Double(bounds.x1) - 1 - margin, hiY = Double(bounds.y1) - 1 - margin
        let loY = Double(bounds.y0) + margin
        if hiX < lo || hiY < loY { return nil }
        func clip(_ p: Double, _ d: Double, _ lo: Double, _ hi: Double) -> Bool {
            if abs(d) < 1e-9 { return p >= lo && p <= hi }
            var a = (lo - p) / d, b = (hi - p) / d
            if a > b { swap(&a, &b) }
            t0 = max(t0, a); t1 = min(t1, b)
            return t0 < t1
        }
        guard clip(center.x, dx, lo, hiX), clip(center.y, dy, loY, hiY) else { return nil }
        // Within 0.8 degrees of an axis, the samples on pixel centres along
        // it (the origin moved forward by under a pixel): a tap between two
        // pixels halves the contrast of a bar one pixel wide.
        if step == 1, max(abs(dx), abs(dy)) > 0.9999 {
            let p = abs(dx) > abs(dy) ? center.x + t0 * dx : center.y + t0 * dy
            let d = abs(dx) > abs(dy) ? dx : dy
            t0 += (d > 0 ? p.rounded(.up) - p : p - p.rounded(.down)) / abs(d)
        }
        let n = Int(((t1 - t0) / step).rounded(.down))
        if n < 16 { return nil }
        return ScanLine(
            origin: Point(x: center.x + t0 * dx, y: center.y + t0 * dy), dx: dx * step, dy: dy * step, length: n)
    }
}

extension LumaView {
    /// Samples `line` into `out[0 ..< line.length]`, each sample the mean of
    /// `thickness` bilinear samples spread across the line one pixel apart
    /// (a thicker line averages noise away along the bars).
    ///
    /// The line must lie inside the frame
    /// (``ScanLine/clipped(center:dx:dy:halfLength:bounds:margin:step:)``);
    /// taps beyond the frame's last row or column are clamped to it.
    func sample(_ line: ScanLine, thickness: Int, into out: UnsafeMutablePointer<Float>) {
        let n = line.length
        let stepLength = line.stepLength
        let px = -line.dy / stepLength, py = line.dx / stepLength
        let maxX = Float(width) - 1.001, maxY = Float(height) - 1.001
        let half = Float(thickness - 1) / 2
        let dxf = Float(line.dx), dyf = Float(line.dy)
        let ox = Float(line.origin.x), oy = Float(line.origin.y)
        let inv = 1 / Float(thickness)
        let base = self.base, stride = self.stride
        // The fixed-point positions and offsets fit 32-bit lanes (frames
        // under 32768 pixels a side and 2 GiB), and a pixel pair loads as
        // one 16-bit word, the left pixel in its low byte.
        let vectorTaps =
            ByteOrder.isLittleEndian && width < 32_768 && height < 32_768
            && stride < 65_536 && stride * height < Int(Int32.max)
        if width < 2 || height < 2 {
            // Too thin to interpolate: nearest pixel, clamped.
            for i in 0..<n {
                let x = min(max(Int((ox + Float(i) * dxf).rounded()), 0), width - 1)
                let y = min(max(Int((oy + Float(i) * dyf).rounded()), 0), height - 1)
                out[i] = Float(base[y * stride + x])
            }
            return
        }
        if thickness <= 1 && line.dy == 0 && line.dx == 1 {
            // Horizontal line: plain row read with sub-pixel x offset.
            let y = Int(oy.rounded())
            let row = base + min(max(y, 0), height - 1) * stride
            let x0 = Int(ox.rounded())
            for i in 0..<n { out[i] = Float(row[min(x0 + i, width - 1)]) }
            return
        }
        let pxf = Float(px), pyf = Float(py)
        let reachX = half * abs(pxf), reachY = half * abs(pyf)
        /// Samples `range` with each tap clamped to the frame, in floating point.
        func clamped(_ range: Range<Int>) {
            for i in range {
                let cx = ox + Float(i) * dxf, cy = oy + Float(i) * dyf
                var acc: Float = 0
                for k in 0..<thickness {
                    let o = Float(k) - half
                    let x = min(max(cx + o * Float(px), 0), maxX)
                    let y = min(max(cy + o * Float(py), 0), maxY)
                    let ix = Int(x), iy = Int(y)
                    let fx = x - Float(ix), fy = y - Float(iy)
                    let p = base + iy * stride + ix
                    let a = Float(p[0]), b = Float(p[1]), c = Float(p[stride]), d = Float(p[stride + 1])
                    let top = a + (b - a) * fx, bottom = c + (d - c) * fx
                    acc += top + (bottom - top) * fy
                }
                out[i] = acc * inv
            }
        }
        /// Whether every tap of sample `i` lies inside the frame with a
        /// tenth of a pixel to spare (and the pixel right of and below it).
        func inside(_ i: Int) -> Bool {
            let cx = ox + Float(i) * dxf, cy = oy + Float(i) * dyf
            return cx - reachX >= 0.1 && cx + reachX <= maxX - 0.1 && cy - reachY >= 0.1 && cy + reachY <= maxY - 0.1
        }
        if !(thickness == 1 || thickness == 3) || !(inside(0) && inside(n - 1)) {
            // A line that reaches the frame's edge (or of other thickness
            // than the fixed-point paths take): the samples whose taps
            // all lie inside the frame are a run (the positions are linear
            // in i), taken four at a time in floating point, the same
            // numbers as one at a time; those before and after it, clamped.
            var lower = 0.0, upper = Double(n - 1)
            /// Narrows `lower ... upper` to the samples inside along one axis.
            func narrow(_ o: Float, _ d: Float, _ reach: Float, _ hi: Float) {
                let lo = Double(0.1 + reach), up = Double(hi - 0.1 - reach)
                if d == 0 {
                    if Double(o) < lo || Double(o) > up { upper = -1 }
                } else {
                    let a = (lo - Double(o)) / Double(d), b = (up - Double(o)) / Double(d)
                    lower = max(lower, min(a, b)); upper = min(upper, max(a, b))
                }
            }
            narrow(ox, dxf, reachX, maxX)
            narrow(oy, dyf, reachY, maxY)
            guard vectorTaps, upper >= lower - 1 else { return clamped(0..<n) }
            var from = min(n, max(0, Int(lower.rounded(.down))))
            var to = max(from, min(n, Int(upper.rounded(.up)) + 1))
            while from < to && !inside(from) { from += 1 }
            while to > from && !inside(to - 1) { to -= 1 }
            to = from + (to - from) / 4 * 4
            clamped(0..<from)
            let lanes = SIMD4<Float>(0, 1, 2, 3)
            var i = from
            while i < to {
                let at = SIMD4<Float>(repeating: Float(i)) + lanes
                let cx = SIMD4<Float>(repeating: ox) + at * dxf, cy = SIMD4<Float>(repeating: oy) + at * dyf
                var acc = SIMD4<Float>(repeating: 0)
                for k in 0..<thickness {
                    let o = Float(k) - half
                    acc += LumaView.floatTaps4(base, stride: stride, x: cx + o * pxf, y: cy + o * pyf)
                }
                UnsafeMutableRawPointer(out).storeBytes(of: acc * inv, toByteOffset: i &* 4, as: SIMD4<Float>.self)
                i &+= 4
            }
            return clamped(to..<n)
        }
        // Every tap inside the frame: in fixed point, with no clamping.
        let scale: Float = 65536
        let sx = Int((dxf * scale).rounded()), sy = Int((dyf * scale).rounded())
        // One bilinear tap, or three a pixel apart across the line, in
        // fixed point (positions in 1/65536 pixel, 8-bit weights).
        let tx = Int((pxf * scale).rounded()), ty = Int((pyf * scale).rounded())
        var x = Int(((ox - half * pxf) * scale).rounded()), y = Int(((oy - half * pyf) * scale).rounded())
        let norm: Float = 1.0 / (Float(thickness) * 65536)
        var i = 0
        if vectorTaps {
            i = LumaView.samplesByFours(
                base, stride: stride, count: n, x: x, y: y, step: (sx, sy),
                across: (tx, ty), taps: thickness, norm: norm, into: out)
            x &+= i &* sx; y &+= i &* sy
        }
        while i < n {
            var acc = 0
            var xx = x, yy = y
            for _ in 0..<thickness {
                let ix = xx >> 16, iy = yy >> 16
                let fx = (xx >> 8) & 255, fy = (yy >> 8) & 255
                let p = base + (iy &* stride &+ ix)
                let a = Int(p[0]), b = Int(p[1]), c = Int(p[stride]), d = Int(p[stride &+ 1])
                let top = a &* (256 &- fx) &+ b &* fx, bottom = c &* (256 &- fx) &+ d &* fx
                acc &+= top &* (256 &- fy) &+ bottom &* fy
                xx &+= tx; yy &+= ty
            }
            out[i] = Float(acc) * norm
            x &+= sx; y &+= sy
            i &+= 1
        }
    }

    /// The samples of ``sample(_:thickness:into:)``'s fixed-point paths,
    /// four at a time: sample `i` is the sum of `taps` bilinear taps
    /// (``taps4(_:stride:x:y:)``) at (`x`, `y`) + `i` `step` + `k` `across`
    /// (1/65536 pixel), times `norm`. Stops before the last one to three
    /// samples; returns how many it wrote.
    @inline(__always)
    static func samplesByFours(
        _ base: UnsafePointer<UInt8>, stride: Int, count n: Int, x: Int, y: Int,
        step: (Int, Int), across: (Int, Int), taps: Int, norm: Float,
        into out: UnsafeMutablePointer<Float>
    ) -> Int {
        let lanes = SIMD4<Int32>(0, 1, 2, 3)
        var vx = SIMD4<Int32>(repeating: Int32(x)) &+ lanes &* Int32(step.0)
        var vy = SIMD4<Int32>(repeating: Int32(y)) &+ lanes &* Int32(step.1)
        let stepX = SIMD4<Int32>(repeating: Int32(4 * step.0)), stepY = SIMD4<Int32>(repeating: Int32(4 * step.1))
        let acrossX = SIMD4<Int32>(repeating: Int32(across.0)), acrossY = SIMD4<Int32>(repeating: Int32(across.1))
        let raw = UnsafeMutableRawPointer(out)
        var i = 0
        while i + 4 <= n {
            var v = taps4(base, stride: stride, x: vx, y: vy)
            var tx = vx, ty = vy
            for _ in 1..<taps {
                tx &+= acrossX; ty &+= acrossY
                v &+= taps4(base, stride: stride, x: tx, y: ty)
            }
            raw.storeBytes(of: SIMD4<Float>(v) * norm, toByteOffset: i &* 4, as: SIMD4<Float>.self)
            vx &+= stepX; vy &+= stepY
            i &+= 4
        }
        return i
    }

    /// Bilinear taps at four positions inside the frame (with the pixel
    /// right of and below each), in floating point: the same numbers as
    /// ``sample(_:thickness:into:)``'s clamped taps, one at a time.
    @inline(__always)
    static func floatTaps4(_ base: UnsafePointer<UInt8>, stride: Int, x: SIMD4<Float>, y: SIMD4<Float>) -> SIMD4<Float>
    {
        // Lane by lane: the generic vector conversion is not specialized.
        let ix = SIMD4<Int32>(Int32(x[0]), Int32(x[1]), Int32(x[2]), Int32(x[3]))
        let iy = SIMD4<Int32>(Int32(y[0]), Int32(y[1]), Int32(y[2]), Int32(y[3]))
        let fx = x - SIMD4<Float>(ix), fy = y - SIMD4<Float>(iy)
        let (top, bottom) = pixelPairs(base, stride: stride, offsets: iy &* Int32(truncatingIfNeeded: stride) &+ ix)
        let a = SIMD4<Float>(top & 255), b = SIMD4<Float>(top &>> 8)
        let c = SIMD4<Float>(bottom & 255), d = SIMD4<Float>(bottom &>> 8)
        let upper = a + (b - a) * fx, lower = c + (d - c) * fx
        return upper + (lower - upper) * fy
    }

    /// The pixel at each of four offsets with its right neighbour (`top`)
    /// and the two below them (`bottom`), each pair as one 16-bit word, the
    /// left pixel in its low byte.
    @inline(__always)
    static func pixelPairs(_ base: UnsafePointer<UInt8>, stride: Int, offsets: SIMD4<Int32>)
        -> (top: SIMD4<Int32>, bottom: SIMD4<Int32>)
    {
        let raw = UnsafeRawPointer(base)
        let o0 = Int(offsets[0]), o1 = Int(offsets[1]), o2 = Int(offsets[2]), o3 = Int(offsets[3])
        let top = SIMD4<Int32>(
            Int32(raw.loadUnaligned(fromByteOffset: o0, as: UInt16.self)),
            Int32(raw.loadUnaligned(fromByteOffset: o1, as: UInt16.self)),
            Int32(raw.loadUnaligned(fromByteOffset: o2, as: UInt16.self)),
            Int32(raw.loadUnaligned(fromByteOffset: o3, as: UInt16.self)))
        let bottom = SIMD4<Int32>(
            Int32(raw.loadUnaligned(fromByteOffset: o0 &+ stride, as: UInt16.self)),
            Int32(raw.loadUnaligned(fromByteOffset: o1 &+ stride, as: UInt16.self)),
            Int32(raw.loadUnaligned(fromByteOffset: o2 &+ stride, as: UInt16.self)),
            Int32(raw.loadUnaligned(fromByteOffset: o3 &+ stride, as: UInt16.self)))
        return (top, bottom)
    }

    /// Bilinear taps at four positions (`x`, `y` in 1/65536 pixel, inside
    /// the frame with the pixel right of and below each), in the fixed
    /// point of ``sample(_:thickness:into:)``: 8-bit weights, each tap
    /// 65536 times the interpolated value. The same integers as one tap at
    /// a time: `a (256 - f) + b f` is `256 a + (b - a) f`.
    @inline(__always)
    static func taps4(_ base: UnsafePointer<UInt8>, stride: Int, x: SIMD4<Int32>, y: SIMD4<Int32>) -> SIMD4<Int32> {
        let fx = (x &>> 8) & 255, fy = (y &>> 8) & 255
        let (top, bottom) = pixelPairs(
            base, stride: stride,
            offsets: (y &>> 16) &* Int32(truncatingIfNeeded: stride) &+ (x &>> 16))
        let a = top & 255, b = top &>> 8, c = bottom & 255, d = bottom &>> 8
        let upper = (a &<< 8) &+ (b &- a) &* fx
        let lower = (c &<< 8) &+ (d &- c) &* fx
        return (upper &<< 8) &+ (lower &- upper) &* fy
    }
}
