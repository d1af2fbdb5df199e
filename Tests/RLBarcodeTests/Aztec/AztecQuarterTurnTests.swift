import XCTest
@testable import RLBarcode

/// One picture of an Aztec symbol turned by quarter turns, pixel for pixel,
/// is read at every turn: nothing in the detector may favour a direction
/// of the picture.
final class AztecQuarterTurnTests: XCTestCase {
    private func detect(_ p: TestPicture) -> [AztecSymbol] {
        p.detectAztec(thorough: true)
    }

    private func symbol(_ data: String, _ arguments: [String]) throws -> QRTestSymbol? {
        try QRTestSymbol.aztec(data, arguments)
    }

    /// The picture bent like paper that is not flat: each row shifted
    /// sideways and each column up or down along slow sine waves of
    /// amplitude `amount` pixels (bilinear resampling).
    private func bent(_ p: TestPicture, _ amount: Double) -> TestPicture {
        var out = TestPicture(width: p.width, height: p.height)
        let w = Double(p.width), h = Double(p.height)
        for y in 0..<p.height {
            for x in 0..<p.width {
                let sx = Double(x) + amount * sin(Double.pi * Double(y) / h * 1.3)
                let sy = Double(y) + amount * sin(Double.pi * Double(x) / w * 0.9 + 0.4)
                let x0 = Int(sx.rounded(.down)), y0 = Int(sy.rounded(.down))
                guard x0 >= 0, y0 >= 0, x0 + 1 < p.width, y0 + 1 < p.height else { continue }
                let fx = sx - Double(x0), fy = sy - Double(y0)
                func at(_ a: Int, _ b: Int) -> Double { Double(p.pixels[b * p.stride + a]) }
                let top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx
                let bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx
                out.pixels[y * out.stride + x] = UInt8((top * (1 - fy) + bottom * fy).rounded())
            }
        }
        return out
    }

    /// Which of the four quarter turns of `picture` read as `text`.
    private func turnsRead(_ picture: TestPicture, _ text: String) -> [Bool] {
        (0..<4).map { detect(picture.c39Turned($0)).first?.decoded.text == text }
    }

    /// A full-range symbol with reference grid lines, at under three pixels
    /// a module, bent (so only the grid-line mesh samples it well), with
    /// lens distortion, blur or noise: the grid intersections must be
    /// located alike at every quarter turn.
    func testBentFullRangeSymbolAtEveryQuarterTurn() throws {
        let text = String(repeating: "347918003403 invalid ", count: 14)
        guard let s = try symbol(text, ["--vers=16"]) else { return }
        // Pixels a module, lens distortion, blur radius, noise amplitude.
        for (module, distortion, blur, noise) in [(2.8, 0.06, 0, 0), (2.4, 0.0, 1, 6), (2.8, 0.06, 1, 6)] {
            // Not square, so that a turn moves the symbol against the frame's block grid.
            let w = Int(Double(s.size + 8) * module) + 9, h = w + 2
            var p = QRPicture(width: w, height: h)
            p.draw(
                s,
                QRPicture.Placement(
                    cx: Double(w) / 2 + 0.3, cy: Double(h) / 2 - 0.2, module: module,
                    distortion: distortion))
            p.picture = bent(p.picture, 1.5 * module)
            p.picture.blur(radius: blur, passes: 1)
            p.picture.addNoise(amplitude: noise)
            XCTAssertEqual(
                turnsRead(p.picture, text), [true, true, true, true],
                "module \(module) distortion \(distortion) blur \(blur) noise \(noise)")
        }
    }

    /// Symbols at 45 degrees (and so, turned, at 135, 225 and 315), blurred
    /// and noisy: read at every turn.
    func testDiagonalSymbolsAtEveryQuarterTurn() throws {
        for (data, arguments) in [
            ("Diagonal compact", ["--vers=3"]), ("Diagonal full range 45", ["--vers=7"]),
            (String(repeating: "Diagonal grid ", count: 10), ["--vers=16"])
        ] {
            guard let s = try symbol(data, arguments) else { continue }
            let size = Int(Double(s.size + 8) * 3 * 1.42) + 11
            var p = QRPicture(width: size, height: size + 3)
            p.draw(s, QRPicture.Placement(cx: Double(size) / 2, cy: Double(size + 3) / 2, module: 3, angle: 45))
            p.picture.blur(radius: 1, passes: 1)
            p.picture.addNoise(amplitude: 8)
            XCTAssertEqual(turnsRead(p.picture, data), [true, true, true, true], "\(arguments)")
        }
    }
}
