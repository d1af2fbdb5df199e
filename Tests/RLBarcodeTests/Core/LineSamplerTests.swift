import XCTest
@testable import RLBarcode

/// ``LumaView/sample(_:thickness:into:)``: every path (lines nearer
/// horizontal or vertical, near the frame's edges or not, thin or thick)
/// reads the grey level at the line's points. On a picture whose grey
/// level is a linear function of x and y, bilinear taps spread evenly
/// around a point average to the level at that point exactly.
final class LineSamplerTests: XCTestCase {
    private let w = 200, h = 150

    /// Grey level 0.5x + 0.75y + 10, rounded: at most 0.5 off the plane.
    private func level(_ x: Double, _ y: Double) -> Double { 0.5 * x + 0.75 * y + 10 }

    private func withPlane(_ body: (LumaView) -> Void) {
        var pixels = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h { for x in 0..<w { pixels[y * w + x] = UInt8(level(Double(x), Double(y)).rounded()) } }
        pixels.withUnsafeBufferPointer { body(LumaView(base: $0.baseAddress!, width: w, height: h, stride: w)) }
    }

    /// A picture of random grey levels, and its first pixel.
    private func withNoise(_ body: (LumaView, UnsafePointer<UInt8>) -> Void) {
        var rng = SystemRandomNumberGenerator()
        var pixels = [UInt8](repeating: 0, count: w * h)
        for k in pixels.indices { pixels[k] = UInt8.random(in: 0...255, using: &rng) }
        pixels.withUnsafeBufferPointer {
            body(LumaView(base: $0.baseAddress!, width: w, height: h, stride: w), $0.baseAddress!)
        }
    }

    private func check(
        _ image: LumaView, center: Point, degrees: Double, halfLength: Double, thickness: Int,
        file: StaticString = #filePath, line lineNumber: UInt = #line
    ) {
        let a = degrees * Double.pi / 180
        guard
            let line = ScanLine.clipped(
                center: center, dx: cos(a), dy: sin(a), halfLength: halfLength,
                bounds: PixelRect(x0: 0, y0: 0, x1: w, y1: h))
        else {
            return XCTFail("no line", file: file, line: lineNumber)
        }
        var out = [Float](repeating: -1, count: line.length)
        out.withUnsafeMutableBufferPointer { image.sample(line, thickness: thickness, into: $0.baseAddress!) }
        for i in stride(from: 0, to: line.length, by: 7) {
            let p = line.point(at: Double(i))
            XCTAssertEqual(
                Double(out[i]), level(p.x, p.y), accuracy: 0.6,
                "\(degrees) degrees, thickness \(thickness), sample \(i) at \(p.x),\(p.y)",
                file: file, line: lineNumber)
        }
    }

    func testEveryPathReadsTheLevelAtTheLinesPoints() {
        withPlane { image in
            for degrees in [0.0, 10, 30, 44, 46, 60, 90, 100, 135, 170, 180, 225, 300] {
                for thickness in [1, 3, 5] {
                    // Inside the frame (the fast paths) ...
                    check(image, center: Point(x: 100, y: 75), degrees: degrees, halfLength: 50, thickness: thickness)
                    // ... and from edge to edge (the taps clamped).
                    check(image, center: Point(x: 100, y: 75), degrees: degrees, halfLength: 400, thickness: thickness)
                }
            }
        }
    }

    /// The fast paths take four samples at a time in 32-bit lanes: every
    /// sample must be the same number as the fixed-point bilinear tap
    /// (8-bit weights) taken one at a time, whatever the line's length
    /// (samples left over after the fours), direction and noise.
    func testFourAtATimeGivesTheSameSamplesAsOneAtATime() {
        var rng = SystemRandomNumberGenerator()
        withNoise { image, p in
            /// One bilinear tap at (x, y) in 1/65536 pixel, times 65536.
            func tap(_ x: Int, _ y: Int) -> Int {
                let ix = x >> 16, iy = y >> 16, fx = (x >> 8) & 255, fy = (y >> 8) & 255
                let o = iy * w + ix
                let top = Int(p[o]) * (256 - fx) + Int(p[o + 1]) * fx
                let bottom = Int(p[o + w]) * (256 - fx) + Int(p[o + w + 1]) * fx
                return top * (256 - fy) + bottom * fy
            }
            for trial in 0..<400 {
                let degrees = Double.random(in: 0..<360, using: &rng)
                let a = degrees * Double.pi / 180
                let center = Point(
                    x: Double.random(in: 60...140, using: &rng), y: Double.random(in: 50...100, using: &rng))
                guard
                    let line = ScanLine.clipped(
                        center: center, dx: cos(a), dy: sin(a),
                        halfLength: Double(8 + trial % 20),
                        bounds: PixelRect(x0: 0, y0: 0, x1: w, y1: h))
                else { continue }
                for thickness in [1, 3] {
                    var out = [Float](repeating: -1, count: line.length)
                    out.withUnsafeMutableBufferPointer {
                        image.sample(line, thickness: thickness, into: $0.baseAddress!)
                    }
                    let scale: Float = 65536
                    let dx = Float(line.dx), dy = Float(line.dy)
                    let sx = Int((dx * scale).rounded()), sy = Int((dy * scale).rounded())
                    // A unit step across the line.
                    let px = Float(-line.dy / line.stepLength), py = Float(line.dx / line.stepLength)
                    let tx = Int((px * scale).rounded()), ty = Int((py * scale).rounded())
                    let first = thickness == 1 ? Float(0) : -1
                    let x0 = Int(((Float(line.origin.x) + first * px) * scale).rounded())
                    let y0 = Int(((Float(line.origin.y) + first * py) * scale).rounded())
                    for i in 0..<line.length {
                        var acc = 0
                        for k in 0..<thickness { acc += tap(x0 + i * sx + k * tx, y0 + i * sy + k * ty) }
                        let expected = Float(acc) * (1 / (Float(thickness) * 65536))
                        XCTAssertEqual(
                            out[i], expected,
                            "\(degrees) degrees, thickness \(thickness), sample \(i) of \(line.length)")
                    }
                }
            }
        }
    }

    /// A line that reaches the frame's edge takes the samples whose taps
    /// all lie inside four at a time in floating point: every sample must
    /// be the same number as the clamped floating-point taps taken one at a
    /// time (those of the samples at the ends), whatever the thickness.
    func testLinesToTheEdgeGiveTheSameSamplesAsClampedTaps() {
        var rng = SystemRandomNumberGenerator()
        withNoise { image, p in
            let maxX = Float(w) - 1.001, maxY = Float(h) - 1.001
            var edgeLines = 0
            for _ in 0..<300 {
                let a = Double.random(in: 0..<(2 * Double.pi), using: &rng)
                let center = Point(
                    x: Double.random(in: 10...190, using: &rng), y: Double.random(in: 10...140, using: &rng))
                guard
                    let line = ScanLine.clipped(
                        center: center, dx: cos(a), dy: sin(a), halfLength: 400,
                        bounds: PixelRect(x0: 0, y0: 0, x1: w, y1: h),
                        margin: Double.random(in: 0...1.5, using: &rng))
                else { continue }
                edgeLines += 1
                for thickness in [1, 3, 5] {
                    var out = [Float](repeating: -1, count: line.length)
                    out.withUnsafeMutableBufferPointer {
                        image.sample(line, thickness: thickness, into: $0.baseAddress!)
                    }
                    let s = line.stepLength
                    let px = Float(-line.dy / s), py = Float(line.dx / s)
                    let half = Float(thickness - 1) / 2
                    let ox = Float(line.origin.x), oy = Float(line.origin.y), dx = Float(line.dx), dy = Float(line.dy)
                    let firstInside = { (i: Int) -> Bool in
                        // The fixed-point paths take whole lines whose taps all lie inside.
                        let cx = ox + Float(i) * dx, cy = oy + Float(i) * dy
                        return cx - half * abs(px) >= 0.1 && cx + half * abs(px) <= maxX - 0.1
                            && cy - half * abs(py) >= 0.1 && cy + half * abs(py) <= maxY - 0.1
                    }
                    if thickness != 5 && firstInside(0) && firstInside(line.length - 1) { continue }
                    /// u to v by t, as the sampler interpolates.
                    func lerp(_ u: Float, _ v: Float, _ t: Float) -> Float { u + (v - u) * t }
                    /// The grey level at pixel offset `o`.
                    func grey(_ o: Int) -> Float { Float(p[o]) }
                    for i in 0..<line.length {
                        var acc: Float = 0
                        for k in 0..<thickness {
                            let x = min(max(ox + Float(i) * dx + (Float(k) - half) * px, 0), maxX)
                            let y = min(max(oy + Float(i) * dy + (Float(k) - half) * py, 0), maxY)
                            let o = Int(y) * w + Int(x), fx = x - Float(Int(x)), fy = y - Float(Int(y))
                            acc += lerp(lerp(grey(o), grey(o + 1), fx), lerp(grey(o + w), grey(o + w + 1), fx), fy)
                        }
                        XCTAssertEqual(
                            out[i], acc * (1 / Float(thickness)),
                            "thickness \(thickness), sample \(i) of \(line.length) from \(line.origin)")
                    }
                }
            }
            XCTAssertGreaterThan(edgeLines, 200)
        }
    }
}
