import XCTest
@testable import RLBarcode

/// Aztec on a 1080p video frame with text-like clutter and a QR Code: no
/// Aztec symbol is read from the clutter or the QR Code, and a symbol added
/// to the frame is read.
final class AztecVideoFrameTests: XCTestCase {
    private func scan(_ p: QRPicture) -> [AztecSymbol] {
        p.picture.detectAztec(thorough: false)
    }

    func testClutteredFrameWithAndWithoutASymbol() throws {
        var frame = QRPicture(width: 1920, height: 1080)
        frame.textClutter(seed: 4)
        let qr = try QRTestSymbol.qr("https://example.com/no-aztec-here", version: 4)
        frame.draw(qr, QRPicture.Placement(cx: 900, cy: 500, module: 6, angle: 10))
        XCTAssertEqual(scan(frame).count, 0)
        guard let m = try ZintAztec.make("Aztec in a video frame", arguments: ["--vers=6"]) else { return }
        let s = QRTestSymbol(modules: (0..<m.height).map { y in (0..<m.width).map { m[$0, y] } })
        frame.draw(s, QRPicture.Placement(cx: 1400, cy: 600, module: 5, angle: 25))
        XCTAssertEqual(scan(frame).map(\.decoded.text), ["Aztec in a video frame"])
    }
}

extension AztecVideoFrameTests {
    /// Video frames: a bull's-eye whose centre module spans several scanned
    /// rows is still found when a row through its centre is rejected (the
    /// next row's look at the same place is skipped), beside stripes whose
    /// runs repeat a centre's look-alike on every row.
    func testSymbolsBesideStripesAtEveryModuleSize() throws {
        guard let m = try ZintAztec.make("Beside the stripes", arguments: ["--vers=2"]) else { return }
        let s = QRTestSymbol(modules: (0..<m.height).map { y in (0..<m.width).map { m[$0, y] } })
        var missed: [String] = []
        for module in [4.0, 6.0, 9.0] {
            for angle in [0.0, 30.0] {
                var frame = QRPicture(width: 800, height: 480)
                for y in 0..<480 {
                    for x in 0..<360 where (x / 3) % 2 == 0 { frame.picture.pixels[y * 800 + x] = 30 }
                }
                frame.draw(s, QRPicture.Placement(cx: 590, cy: 240, module: module, angle: angle))
                frame.picture.blur(radius: 1, passes: 1)
                if scan(frame).map(\.decoded.text) != ["Beside the stripes"] { missed.append("\(module)/\(angle)") }
            }
        }
        XCTAssertEqual(missed, [])
    }
}
