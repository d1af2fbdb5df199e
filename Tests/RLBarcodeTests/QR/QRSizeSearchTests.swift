import XCTest
@testable import RLBarcode

/// The search for a QR Code symbol's size: when the two timing patterns'
/// counts disagree, the neighbouring sizes are candidates too, but a size
/// whose finder and timing patterns all read right is decoded before the
/// others are sampled.
final class QRSizeSearchTests: XCTestCase {
    static let text = "http://rlbarcode.example/size-search"

    /// A version 3 symbol (29 modules, 10 pixels a module) with one light
    /// module of the row timing pattern (ISO/IEC 18004:2015, 6.3.5)
    /// darkened but for 3 pixels at its centre: counted across, the row
    /// shows two runs fewer than the column (the light stretch is under
    /// the shortest run counted), but every module centre reads right.
    func picture(scratched: Bool) throws -> QRPicture? {
        let symbol = try QRTestSymbol.qr(QRSizeSearchTests.text, version: 3)
        guard symbol.size == 29 else { return nil }
        var picture = QRPicture(width: 640, height: 640)
        picture.draw(symbol, QRPicture.Placement(cx: 320, cy: 320, module: 10))
        if scratched {
            // Module (9, 6) spans x 265 ..< 275 and y 235 ..< 245.
            for y in 235..<245 {
                for x in 265..<275 where x < 269 || x > 271 {
                    picture.picture.pixels[y * picture.picture.stride + x] = 25
                }
            }
        }
        return picture
    }

    func testAPerfectFitDecodesBeforeOtherSizesAreSampled() throws {
        for scratched in [false, true] {
            guard let picture = try picture(scratched: scratched) else { return }
            let detector = QRDetector()
            let found = picture.detect(detector).compactMap { $0.decoded?.text }
            XCTAssertEqual(found, [QRSizeSearchTests.text], "scratched: \(scratched)")
            XCTAssertEqual(detector.gridsSampled, 1, "scratched: \(scratched)")
        }
    }
}
