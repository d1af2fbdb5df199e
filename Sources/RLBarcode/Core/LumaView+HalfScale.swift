extension LumaView {
    /// Writes `rect` of this view at half size, each pixel the mean of a
    /// 2x2 block (rounded), into `buffer`, and returns a view of it.
    ///
    /// A point (`x`, `y`) of the half-size view lies at
    /// (`rect.x0 + 2x + 0.5`, `rect.y0 + 2y + 0.5`) in this one (see
    /// ``fromHalf(_:of:)``). An odd last row or column of `rect` is left out.
    /// `buffer` grows to the largest size asked for and is reused, so a
    /// stream of frames allocates nothing after the first one.
    ///
    /// - Precondition: `rect` lies inside the view and is at least 2x2.
    func halved(_ rect: PixelRect, into buffer: inout ScratchBuffer<UInt8>) -> LumaView {
        let w = rect.width / 2, h = rect.height / 2
        precondition(w >= 1 && h >= 1 && rect.x0 >= 0 && rect.y0 >= 0 && rect.x1 <= width && rect.y1 <= height)
        buffer.reserve(w * h)
        let out = buffer.pointer
        let two = SIMD16<UInt16>(repeating: 2), low = SIMD16<UInt16>(repeating: 0xFF)
        for y in 0..<h {
            let top = base + (rect.y0 + 2 * y) * stride + rect.x0
            let bottom = top + stride
            let row = out + y * w
            var x = 0
            // 16 output pixels at a time from 32 of each row. Each 16-bit
            // lane loaded holds a pixel pair, the left one in its low byte
            // (little-endian machines only).
            while ByteOrder.isLittleEndian && x + 16 <= w {
                let a = UnsafeRawPointer(top + 2 * x).loadUnaligned(as: SIMD16<UInt16>.self)
                let b = UnsafeRawPointer(bottom + 2 * x).loadUnaligned(as: SIMD16<UInt16>.self)
                let sum = (a & low) &+ (a &>> 8) &+ (b & low) &+ (b &>> 8)
                UnsafeMutableRawPointer(row + x).storeBytes(
                    of: SIMD16<UInt8>(truncatingIfNeeded: (sum &+ two) &>> 2),
                    as: SIMD16<UInt8>.self)
                x += 16
            }
            while x < w {
                let sum =
                    UInt16(top[2 &* x]) &+ UInt16(top[2 &* x &+ 1]) &+ UInt16(bottom[2 &* x])
                    &+ UInt16(bottom[2 &* x &+ 1])
                row[x] = UInt8(truncatingIfNeeded: (sum &+ 2) >> 2)
                x += 1
            }
        }
        return LumaView(base: out, width: w, height: h, stride: w)
    }

    /// The point of this view that `p`, a point of the half-size view that
    /// ``halved(_:into:)`` made of `rect`, stands for.
    static func fromHalf(_ p: Point, of rect: PixelRect) -> Point {
        Point(x: Double(rect.x0) + 2 * p.x + 0.5, y: Double(rect.y0) + 2 * p.y + 0.5)
    }
}
