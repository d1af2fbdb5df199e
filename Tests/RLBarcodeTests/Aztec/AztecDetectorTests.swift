import XCTest
@testable import RLBarcode

/// Aztec symbols made by zint, drawn into pictures (scale, rotation,
/// perspective, blur, noise, inversion, mirroring) and read back by the
/// detector; pictures without symbols give nothing.
final class AztecDetectorTests: XCTestCase {
    private func symbol(_ data: String, _ arguments: [String] = []) throws -> QRTestSymbol? {
        try QRTestSymbol.aztec(data, arguments)
    }

    private func detect(_ p: QRPicture, thorough: Bool = false, blurred: Bool = false) -> [AztecSymbol] {
        p.picture.detectAztec(thorough: thorough, blurredCentres: blurred)
    }

    private func picture(
        _ s: QRTestSymbol, _ placement: QRPicture.Placement, width: Int = 400,
        height: Int = 400
    ) -> (QRPicture, [Point]) {
        var p = QRPicture(width: width, height: height)
        let c = p.draw(s, placement)
        return (p, c)
    }

    private func assertCorners(
        _ got: [Point], _ want: [Point], tolerance: Double,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(got.count, 4, file: file, line: line)
        for (g, w) in zip(got, want) {
            XCTAssertLessThan(g.distance(to: w), tolerance, "corner \(g) vs \(w)", file: file, line: line)
        }
    }

    func testModuleSizesCompactAndFull() throws {
        let cases: [(String, [String])] = [
            ("AZTEC", []), ("Compact four layers 0123", ["--vers=4"]),
            ("Full range 1", ["--vers=5"]), ("Full range symbol, six layers", ["--vers=10"]),
            (String(repeating: "Reference grid ", count: 12), ["--vers=16"])
        ]
        for (data, args) in cases {
            guard let s = try symbol(data, args) else { continue }
            for module in [2.0, 3.0, 4.5] {
                let size = Int(Double(s.size + 12) * module) + 20
                let (p, corners) = picture(
                    s, QRPicture.Placement(cx: Double(size) / 2, cy: Double(size) / 2, module: module),
                    width: size, height: size)
                let r = detect(p)
                XCTAssertEqual(r.first?.decoded.text, data, "\(args) module \(module)")
                if let f = r.first { assertCorners(f.corners, corners, tolerance: 1.5 * module) }
            }
        }
    }

    func testRotations() throws {
        guard let s = try symbol("Rotated Aztec 2024", ["--vers=3"]),
            let f = try symbol("Rotated full range!", ["--vers=7"])
        else { return }
        for sym in [s, f] {
            for step in 0..<24 {
                let angle = Double(step) * 15
                let (p, corners) = picture(sym, QRPicture.Placement(cx: 200, cy: 200, module: 3, angle: angle))
                let r = detect(p)
                XCTAssertEqual(r.count, 1, "angle \(angle)")
                guard let first = r.first else { continue }
                XCTAssertFalse(first.decoded.mirrored)
                assertCorners(first.corners, corners, tolerance: 4)
                let result = AztecReader.result(first)
                let want = (Int(angle.rounded()) % 360 + 360) % 360
                var diff = abs(result.orientation - want) % 360
                diff = min(diff, 360 - diff)
                XCTAssertLessThanOrEqual(diff, 2, "angle \(angle) orientation \(result.orientation)")
            }
        }
    }

    func testPerspectiveBlurNoise() throws {
        guard let s = try symbol("Perspective 123", ["--vers=2"]),
            let f = try symbol("Perspective full range 456", ["--vers=8"])
        else { return }
        for sym in [s, f] {
            for (taper, taperY, angle) in [(0.2, 0.0, 10.0), (0.0, 0.2, 40.0), (0.15, 0.15, 200.0), (0.25, 0.0, 300.0)]
            {
                var (p, _) = picture(
                    sym, QRPicture.Placement(cx: 200, cy: 200, module: 4, angle: angle, taper: taper, taperY: taperY))
                XCTAssertEqual(detect(p).first?.decoded.text != nil, true, "taper \(taper) \(taperY) angle \(angle)")
                p.picture.blur(radius: 1)
                p.picture.addNoise(amplitude: 12)
                XCTAssertNotNil(detect(p, blurred: true).first, "blur+noise taper \(taper) \(taperY) angle \(angle)")
            }
        }
    }

    func testInvertedAndMirrored() throws {
        guard let s = try symbol("Light on dark", ["--vers=3"]) else { return }
        var (p, _) = picture(s, QRPicture.Placement(cx: 200, cy: 200, module: 3, angle: 30))
        p.picture.invert()
        let r = detect(p)
        XCTAssertEqual(r.first?.decoded.text, "Light on dark")
        XCTAssertEqual(r.first?.isInverted, true)
        let (m, corners) = picture(s.mirrored, QRPicture.Placement(cx: 200, cy: 200, module: 3, angle: 75))
        let mr = detect(m)
        XCTAssertEqual(mr.first?.decoded.text, "Light on dark")
        XCTAssertEqual(mr.first?.decoded.mirrored, true)
        if let f = mr.first {
            // The symbol's own top-left is the drawn top-right of the mirror image.
            assertCorners(f.corners, [corners[1], corners[0], corners[3], corners[2]], tolerance: 4)
        }
    }

    func testTwoSymbolsAndRune() throws {
        guard let a = try symbol("First symbol"), let b = try symbol("Second one, full", ["--vers=6"]),
            let rm = try ZintAztec.rune(68)
        else { return }
        let rune = QRTestSymbol(modules: (0..<rm.height).map { y in (0..<rm.width).map { rm[$0, y] } })
        var p = QRPicture(width: 640, height: 360)
        p.draw(a, QRPicture.Placement(cx: 120, cy: 150, module: 4, angle: 20))
        p.draw(b, QRPicture.Placement(cx: 360, cy: 180, module: 3, angle: -35))
        p.draw(rune, QRPicture.Placement(cx: 560, cy: 100, module: 4, angle: 5))
        let texts = Set(detect(p).map(\.decoded.text))
        XCTAssertEqual(texts, ["First symbol", "Second one, full", "068"])
    }

    func testScannerReadsAztec() throws {
        guard let s = try symbol("Scanner path", ["--vers=2"]) else { return }
        let (p, _) = picture(s, QRPicture.Placement(cx: 300, cy: 200, module: 3, angle: 12), width: 640, height: 400)
        let results = p.picture.scan(ScanOptions(symbologies: [.aztec]))
        XCTAssertEqual(results.first?.text, "Scanner path")
        XCTAssertEqual(results.first?.symbology, .aztec)
        XCTAssertEqual(results.first?.symbologyIdentifier, "]z0")
    }

    /// A symbol seen at a slant, its modules 3 pixels wide and 6.9 tall: the
    /// bull's-eye's column crosses rings 2.3 times as wide as its row's,
    /// within the 2.5 the detector admits, and is still confirmed by a walk
    /// down the column that gives up on runs of 4 row modules (stripes).
    func testModulesStretchedAlongTheColumn() throws {
        guard let m = try ZintAztec.make("Stretched 2026", arguments: ["--vers=2"]) else { return }
        let w = 320, h = 360, mw = 3.0, mh = 6.9
        var p = QRPicture(width: w, height: h)
        let x0 = (Double(w) - Double(m.width) * mw) / 2, y0 = (Double(h) - Double(m.height) * mh) / 2
        for y in 0..<h {
            for x in 0..<w {
                var dark = 0
                for sy in 0..<4 {
                    for sx in 0..<4 {
                        let u = (Double(x) + (Double(sx) + 0.5) / 4 - x0) / mw
                        let v = (Double(y) + (Double(sy) + 0.5) / 4 - y0) / mh
                        let i = Int(u.rounded(.down)), j = Int(v.rounded(.down))
                        if i >= 0, j >= 0, i < m.width, j < m.height, m[i, j] { dark += 1 }
                    }
                }
                p.picture.pixels[y * p.picture.stride + x] = UInt8(235 - 210 * dark / 16)
            }
        }
        XCTAssertEqual(detect(p).first?.decoded.text, "Stretched 2026")
    }

    func testNothingInNoiseOrText() {
        var noise = QRPicture(width: 640, height: 480)
        noise.picture.addNoise(amplitude: 120, seed: 3)
        XCTAssertTrue(detect(noise, thorough: true).isEmpty)
        var text = QRPicture(width: 640, height: 480)
        text.textClutter(seed: 9)
        XCTAssertTrue(detect(text, thorough: true).isEmpty)
        var checker = QRPicture(width: 320, height: 320)
        for y in 0..<320 {
            for x in 0..<320 where (x / 3 + y / 3) & 1 == 0 { checker.picture.pixels[y * 320 + x] = 20 }
        }
        XCTAssertTrue(detect(checker, thorough: true).isEmpty)
    }
}
