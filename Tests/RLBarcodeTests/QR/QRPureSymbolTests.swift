import Foundation
import XCTest
@testable import RLBarcode

/// Still pictures that are a single upright QR Code symbol and nothing else
/// (``QRPureSymbol``): symbols touching the picture's edges with one-pixel
/// modules, and symbols whose dark modules hold a picture.
final class QRPureSymbolTests: XCTestCase {
    /// The picture of `symbol` with `module` pixels a module and `border`
    /// light pixels around it; `texture` lightens the dark modules' pixels
    /// pseudo-randomly (a printed picture inside them), up to that grey level.
    func picture(_ symbol: QRTestSymbol, module: Int, border: Int, texture: Int = 0, seed: UInt64 = 3) -> TestPicture {
        let side = symbol.size * module + 2 * border
        var p = TestPicture(width: side, height: side, background: 255)
        var state = seed
        for y in 0..<symbol.size * module {
            for x in 0..<symbol.size * module where symbol.modules[y / module][x / module] {
                var v = 0
                if texture > 0 {
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    v = Int(state >> 33) % (texture + 1)
                }
                p.pixels[(y + border) * p.stride + x + border] = UInt8(v)
            }
        }
        return p
    }

    /// Turns a picture a quarter clockwise `turns` times.
    func turned(_ p: TestPicture, _ turns: Int) -> TestPicture {
        var q = p
        for _ in 0..<turns {
            var r = TestPicture(width: q.height, height: q.width, background: 255)
            for y in 0..<q.height {
                for x in 0..<q.width { r.pixels[x * r.stride + (q.height - 1 - y)] = q.pixels[y * q.stride + x] }
            }
            q = r
        }
        return q
    }

    func testOnePixelModulesWithoutQuietZone() throws {
        let text = "one pixel a module"
        let symbol = try QRTestSymbol.qr(text, version: 3)
        for turns in 0..<4 {
            let p = turned(picture(symbol, module: 1, border: 0), turns)
            let results = p.scan(ScanOptions(symbologies: .qrCode, effort: .thorough))
            XCTAssertEqual(results.map(\.text), [text], "\(turns) quarter turns")
            if let r = results.first {
                // The symbol's own top-left corner: the picture's, turned.
                let expected = [Point(x: 0, y: 0), Point(x: 28, y: 0), Point(x: 28, y: 28), Point(x: 0, y: 28)][turns]
                XCTAssertLessThanOrEqual(r.corners[0].distance(to: expected), 1, "\(turns) quarter turns: \(r.corners)")
            }
        }
    }

    func testDarkModulesHoldingAPicture() throws {
        // Dark modules whose pixels reach light grey (a photograph printed
        // in them): only the paper's white is light.
        let text = "The dark modules hold a picture"
        let symbol = try QRTestSymbol.qr(text, version: 4, ecc: 2)
        for turns in [0, 1] {
            let p = turned(picture(symbol, module: 6, border: 6, texture: 200), turns)
            let results = p.scan(ScanOptions(symbologies: .qrCode, effort: .thorough))
            XCTAssertEqual(results.map(\.text), [text], "\(turns) quarter turns")
        }
    }

    func testInvertedSymbol() throws {
        let text = "light on dark"
        let symbol = try QRTestSymbol.qr(text, version: 2)
        var p = picture(symbol, module: 1, border: 0)
        p.invert()
        let results = p.scan(ScanOptions(symbologies: .qrCode, effort: .thorough))
        XCTAssertEqual(results.map(\.text), [text])
        XCTAssertEqual(results.first?.isInverted, true)
    }

    func testNoiseGivesNothing() {
        // Random dark and light pixels, and a flat picture: no symbol.
        var noise = TestPicture(width: 120, height: 120)
        var state: UInt64 = 9
        for i in 0..<noise.pixels.count {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            noise.pixels[i] = state >> 40 & 1 == 1 ? 0 : 255
        }
        noise.pixels.withUnsafeBufferPointer {
            XCTAssertNil(QRPureSymbol.read(LumaView(base: $0.baseAddress!, width: 120, height: 120, stride: 120)))
        }
        let flat = [UInt8](repeating: 200, count: 40 * 40)
        flat.withUnsafeBufferPointer {
            XCTAssertNil(QRPureSymbol.read(LumaView(base: $0.baseAddress!, width: 40, height: 40, stride: 40)))
        }
    }
}
