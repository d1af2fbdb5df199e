import XCTest
@testable import RLBarcode

/// Aztec on a 1080p video frame with text-like clutter and a QR Code: no
/// Aztec symbol is read from the clutter or the QR Code, and a symbol added
/// to the frame is read.
final class AztecVideoFrameTests: XCTestCase {
    private func scan(_ p: QRPicture) -> [AztecSymbol] {
        let detector = AztecDetector()
        var out: [AztecSymbol] = []
        p.picture.pixels.withUnsafeBufferPointer {
            let view = LumaView(base: $0.baseAddress!, width: p.picture.width, height: p.picture.height,
                                stride: p.picture.stride)
            detector.scan(view, thorough: false, into: &out)
        }
        return out
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
