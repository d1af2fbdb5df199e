import XCTest

@testable import RLBarcode

/// Scan lines within a small angle of an axis sample pixel centres along it,
/// so that a bar one pixel wide keeps its contrast (a tap halfway between
/// two pixels would halve it).
final class PixelCentredLinesTests: XCTestCase {
    /// A line turned 0.3 degrees from the horizontal through a centre off the pixel grid.
    private func line(centreX: Double, reversed: Bool = false) -> ScanLine? {
        let a = 0.3 * Double.pi / 180
        let sign: Double = reversed ? -1 : 1
        return ScanLine.clipped(
            center: Point(x: centreX, y: 20.2), dx: sign * cos(a), dy: sign * sin(a), halfLength: 60,
            bounds: PixelRect(x0: 0, y0: 0, x1: 200, y1: 40))
    }

    func testNearlyHorizontalLinesStartOnAPixelCentre() throws {
        for x in [100.0, 100.25, 100.5, 100.75] {
            for reversed in [false, true] {
                let l = try XCTUnwrap(line(centreX: x, reversed: reversed))
                XCTAssertEqual(l.origin.x, l.origin.x.rounded(), accuracy: 1e-6, "centre \(x) reversed \(reversed)")
                // Still the same line, shortened by under a sample.
                XCTAssertGreaterThanOrEqual(l.length, 119)
                XCTAssertLessThanOrEqual(abs(l.origin.x - (x - (reversed ? -60 : 60) * cos(0.3 * Double.pi / 180))), 1)
            }
        }
    }

    func testOnePixelBarKeepsItsContrast() throws {
        var pixels = [UInt8](repeating: 230, count: 200 * 40)
        for y in 0..<40 { pixels[y * 200 + 101] = 30 }
        let l = try XCTUnwrap(line(centreX: 100.5))
        var out = [Float](repeating: 0, count: l.length)
        pixels.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer {
                LumaView(base: p.baseAddress!, width: 200, height: 40, stride: 200)
                    .sample(l, thickness: 3, into: $0.baseAddress!)
            }
        }
        XCTAssertLessThan(out.min() ?? 255, 40, "the bar's darkest sample")
    }
}
