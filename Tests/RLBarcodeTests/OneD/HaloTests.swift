import XCTest
@testable import RLBarcode

/// Codes with halos: a sharpened picture (a camera's or an encoder's
/// sharpening, the ringing of upscaled video) overshoots beside every edge
/// and leaves ripples inside wide bars and spaces, which a line's first
/// edges take for narrow elements. The scanner reads such a line again
/// on its steep edges only.
final class HaloTests: XCTestCase {
    /// Unsharp masking: each pixel pushed away from its blurred
    /// neighbourhood by `amount` times the difference.
    private func sharpen(_ pic: inout TestPicture, radius: Int, amount: Double) {
        var blurred = pic
        blurred.blur(radius: radius, passes: 2)
        for i in 0..<pic.pixels.count {
            let v = Double(pic.pixels[i]), b = Double(blurred.pixels[i])
            pic.pixels[i] = UInt8(max(0, min(255, (v + amount * (v - b)).rounded())))
        }
    }

    private func scan(_ pic: TestPicture, effort: Effort) -> [BarcodeResult] {
        let scanner = Scanner(options: ScanOptions(effort: effort))
        return pic.scan(with: scanner)
    }

    func testSharpenedLargeModules() throws {
        let row = try ZintRow.make(.eanx, "978843053267")
        for (module, preblur, radius, amount) in [
            (7.0, 2, 4, 2.0), (7.0, 3, 5, 2.5), (6.0, 2, 3, 2.0), (8.0, 3, 6, 3.0), (7.0, 2, 6, 1.5)
        ] {
            let w = Int(Double(row.modules.count + 40) * module)
            var pic = TestPicture(width: w, height: 360, background: 60)
            pic.draw(row, .init(cx: Double(w) / 2, cy: 180, module: module, barHeight: 30, dark: 30, light: 170))
            pic.blur(radius: preblur)
            sharpen(&pic, radius: radius, amount: amount)
            XCTAssertEqual(
                scan(pic, effort: .balanced).map(\.text), ["9788430532674"], "\(module) \(preblur) \(radius) \(amount)")
        }
    }
}
