import XCTest
@testable import RLBarcode

/// Data Matrix detection and sampling on pictures of zint symbols: module
/// sizes, rotations, perspective, blur, noise, inversion, mirror images,
/// several symbols in one picture, and pictures without symbols.
final class DataMatrixDetectorTests: XCTestCase {
    private func symbol(_ data: String, _ args: [String] = []) throws -> BitMatrix {
        try ZintMatrix.symbol(.dataMatrix, data, arguments: args)
    }

    /// Draws one symbol and scans; the results.
    private func read(
        _ m: BitMatrix, _ p: QRPicture.Placement, size: Int = 400, blur: Int = 0, noise: Int = 0,
        invert: Bool = false, mirrored: Bool = false
    ) -> (results: [BarcodeResult], corners: [Point]) {
        var pic = QRPicture(width: size, height: size)
        let corners = pic.draw(matrix: m, p, mirrored: mirrored)
        if blur > 0 { pic.picture.blur(radius: blur, passes: 2) }
        if noise > 0 { pic.picture.addNoise(amplitude: noise) }
        if invert { pic.picture.invert() }
        return (pic.scanDataMatrix(), corners)
    }

    func testUprightSymbol() throws {
        let m = try symbol("Hello Data Matrix")
        let (r, corners) = read(m, QRPicture.Placement(cx: 200, cy: 200, module: 6))
        XCTAssertEqual(r.count, 1)
        XCTAssertEqual(r.first?.text, "Hello Data Matrix")
        XCTAssertEqual(r.first?.symbologyIdentifier, "]d1")
        XCTAssertEqual(r.first?.orientation, 0)
        XCTAssertEqual(r.first?.isInverted, false)
        if let c = r.first?.corners {
            for k in 0..<4 {
                XCTAssertLessThan(c[k].distance(to: corners[k]), 3, "corner \(k): \(c[k]) vs \(corners[k])")
            }
        }
    }

    func testRotations() throws {
        let m = try symbol("Rotation 0123456789")
        var failures: [Int] = []
        for deg in Swift.stride(from: 0, to: 360, by: 15) {
            let (r, _) = read(m, QRPicture.Placement(cx: 200, cy: 200, module: 5, angle: Double(deg)))
            if r.first?.text != "Rotation 0123456789" {
                failures.append(deg)
            } else if let o = r.first?.orientation {
                let diff = abs(((o - deg) % 360 + 540) % 360 - 180)
                XCTAssertLessThanOrEqual(diff, 3, "orientation at \(deg): \(o)")
            }
        }
        XCTAssertEqual(failures, [])
    }

    func testModuleSizes() throws {
        let m = try symbol("Small modules ABC 123")
        var failures: [Double] = []
        for module in [2.0, 2.5, 3.0, 4.0, 8.0, 14.0] {
            for angle in [0.0, 20.0] {
                let (r, _) = read(m, QRPicture.Placement(cx: 200, cy: 200, module: module, angle: angle))
                if r.first?.text != "Small modules ABC 123" { failures.append(module * 1000 + angle) }
            }
        }
        XCTAssertEqual(failures, [])
    }

    func testRectangularAndDMRE() throws {
        for (args, data) in [
            (["--vers=25"], "R8x18"), (["--vers=29"], "Rect 16x36 symbol"),
            (["--vers=36", "--dmre"], "DMRE 8x144 long symbol here"),
            (["--vers=46", "--dmre"], "DMRE 26x40 symbol")
        ] {
            let m = try symbol(data, args)
            for angle in [0.0, 30.0, 90.0, 200.0] {
                let (r, _) = read(m, QRPicture.Placement(cx: 250, cy: 250, module: 3, angle: angle), size: 500)
                XCTAssertEqual(r.first?.text, data, "\(args) at \(angle)")
            }
        }
    }

    /// The smallest symbols (10x10, 8x18 and DMRE 8x48), blurred, at small
    /// module sizes and read at video effort, where finders whose arms are
    /// short for their thickness are passed over: still read.
    func testSmallestSymbolsAtVideoEffort() throws {
        var failures: [String] = []
        for (args, data) in [(["--vers=1"], "12345"), (["--vers=25"], "R8x18"), (["--vers=31", "--dmre"], "DMRE 8x48")]
        {
            let m = try symbol(data, args)
            XCTAssertLessThanOrEqual(min(m.width, m.height), 10, "\(args)")
            for module in [4.0, 5.0, 8.0] {
                for angle in [0.0, 30.0] {
                    var pic = QRPicture(width: 400, height: 400)
                    pic.draw(matrix: m, QRPicture.Placement(cx: 200, cy: 200, module: module, angle: angle))
                    pic.picture.blur(radius: 1, passes: 1)
                    if pic.scanDataMatrix(thorough: false).first?.text != data {
                        failures.append("\(args) \(module) \(angle)")
                    }
                }
            }
        }
        XCTAssertEqual(failures, [])
    }

    func testLargeMultiRegionSymbols() throws {
        let text = String(repeating: "Multi region symbol 0123456789. ", count: 12)
        let m = try symbol(text)
        XCTAssertGreaterThan(m.width, 40)
        let (r, _) = read(m, QRPicture.Placement(cx: 300, cy: 300, module: 4, angle: 10), size: 600)
        XCTAssertEqual(r.first?.text, text)
    }

    func testPerspective() throws {
        let m = try symbol("Perspective view")
        for (tx, ty, angle) in [(0.2, 0.0, 0.0), (0.0, 0.2, 30.0), (0.15, 0.15, 120.0), (-0.2, 0.1, 250.0)] {
            let (r, _) = read(m, QRPicture.Placement(cx: 200, cy: 200, module: 6, angle: angle, taper: tx, taperY: ty))
            XCTAssertEqual(r.first?.text, "Perspective view", "taper \(tx) \(ty) at \(angle)")
        }
    }

    func testBlurAndNoise() throws {
        let m = try symbol("Blurred and noisy 42")
        let (r1, _) = read(m, QRPicture.Placement(cx: 200, cy: 200, module: 5, angle: 12), blur: 1)
        XCTAssertEqual(r1.first?.text, "Blurred and noisy 42")
        let (r2, _) = read(m, QRPicture.Placement(cx: 200, cy: 200, module: 5, angle: 33), noise: 40)
        XCTAssertEqual(r2.first?.text, "Blurred and noisy 42")
        let (r3, _) = read(m, QRPicture.Placement(cx: 200, cy: 200, module: 4, angle: 70), blur: 1, noise: 20)
        XCTAssertEqual(r3.first?.text, "Blurred and noisy 42")
    }

    func testInverted() throws {
        let m = try symbol("Light on dark")
        let (r, _) = read(m, QRPicture.Placement(cx: 200, cy: 200, module: 5, angle: 40), invert: true)
        XCTAssertEqual(r.first?.text, "Light on dark")
        XCTAssertEqual(r.first?.isInverted, true)
    }

    func testMirrored() throws {
        let m = try symbol("Mirror image")
        let (r, _) = read(m, QRPicture.Placement(cx: 200, cy: 200, module: 5, angle: 25), mirrored: true)
        XCTAssertEqual(r.first?.text, "Mirror image")
        XCTAssertEqual(r.first?.isMirrored, true)
        let rect = try symbol("Mirror rect", ["--vers=28"])
        let (r2, _) = read(rect, QRPicture.Placement(cx: 200, cy: 200, module: 4, angle: 100), mirrored: true)
        XCTAssertEqual(r2.first?.text, "Mirror rect")
        XCTAssertEqual(r2.first?.isMirrored, true)
    }

    func testTwoSymbolsInOnePicture() throws {
        let a = try symbol("First symbol"), b = try symbol("Second symbol", ["--vers=27"])
        var pic = QRPicture(width: 640, height: 400)
        pic.draw(matrix: a, QRPicture.Placement(cx: 160, cy: 200, module: 5, angle: 10))
        pic.draw(matrix: b, QRPicture.Placement(cx: 460, cy: 200, module: 4, angle: -35))
        let texts = Set(pic.scanDataMatrix().map(\.text))
        XCTAssertEqual(texts, ["First symbol", "Second symbol"])
    }

    func testGS1AndStructuredAppendThroughTheScanner() throws {
        let m = try symbol("[01]09501101530003[10]ABC", ["--gs1"])
        var pic = QRPicture(width: 300, height: 300)
        pic.draw(matrix: m, QRPicture.Placement(cx: 150, cy: 150, module: 5, angle: 5))
        let r = pic.picture.scan(ScanOptions(symbologies: [.dataMatrix]))
        XCTAssertEqual(r.first?.symbology, .dataMatrix)
        XCTAssertEqual(r.first?.symbologyIdentifier, "]d2")
        XCTAssertEqual(r.first?.extendedText, "(01)09501101530003(10)ABC")
        let s = try symbol("Part", ["--structapp=2,4"])
        var pic2 = QRPicture(width: 300, height: 300)
        pic2.draw(matrix: s, QRPicture.Placement(cx: 150, cy: 150, module: 5))
        XCTAssertEqual(pic2.scanDataMatrix().first?.structuredAppend?.index, 1)
        XCTAssertEqual(pic2.scanDataMatrix().first?.structuredAppend?.total, 4)
    }

    func testNothingInNoiseAndText() {
        var noise = QRPicture(width: 480, height: 360, background: 128)
        noise.picture.addNoise(amplitude: 120, seed: 5)
        XCTAssertEqual(noise.scanDataMatrix().count, 0)
        var text = QRPicture(width: 480, height: 360)
        text.textClutter(seed: 9)
        XCTAssertEqual(text.scanDataMatrix().count, 0)
        var blocks = QRPicture(width: 480, height: 360)
        var rng = DecoderTestRandom(seed: 4)
        for y in Swift.stride(from: 0, to: 360, by: 6) {
            for x in Swift.stride(from: 0, to: 480, by: 6) where Bool.random(using: &rng) {
                for yy in y..<(y + 6) { for xx in x..<(x + 6) { blocks.picture.pixels[yy * 480 + xx] = 20 } }
            }
        }
        XCTAssertEqual(blocks.scanDataMatrix().count, 0)
    }
}

extension DataMatrixDetectorTests {
    /// A 1080p video frame with text-like clutter and sensor noise but no
    /// Data Matrix symbol: nothing is read.
    func testNothingInAClutteredVideoFrame() {
        var pic = QRPicture(width: 1920, height: 1080)
        var clutter = QRPicture(width: 640, height: 360)
        clutter.textClutter(seed: 3)
        for y in 0..<360 {
            for x in 0..<640 { pic.picture.pixels[(y + 300) * 1920 + x + 600] = clutter.picture.pixels[y * 640 + x] }
        }
        pic.picture.addNoise(amplitude: 6)
        let reader = DataMatrixReader()
        var out: [BarcodeResult] = []
        pic.picture.pixels.withUnsafeBufferPointer {
            let view = LumaView(base: $0.baseAddress!, width: 1920, height: 1080, stride: 1920)
            for _ in 0..<2 { reader.read(view, bounds: nil, thorough: false, into: &out) }
        }
        XCTAssertEqual(out.count, 0)
    }
}

extension DataMatrixDetectorTests {
    /// A symbol whose finder lies along the frame's left and bottom edges,
    /// its quiet zone beyond them: still pictures read it (a picture
    /// cropped to its symbol); video frames do not take the frame's edge
    /// for a quiet zone, and read it once the quiet zone is in view.
    func testFinderOnTheFramesEdge() throws {
        let m = try symbol("Cropped to the edge")
        let module = 6.0, side = Double(m.width) * module
        var flush = QRPicture(width: 320, height: 320)
        flush.draw(matrix: m, QRPicture.Placement(cx: side / 2, cy: 320 - side / 2, module: module))
        XCTAssertEqual(flush.scanDataMatrix(thorough: true).first?.text, "Cropped to the edge")
        XCTAssertEqual(flush.scanDataMatrix(thorough: false).count, 0)
        var inView = QRPicture(width: 320, height: 320)
        inView.draw(
            matrix: m,
            QRPicture.Placement(
                cx: side / 2 + 3 * module, cy: 320 - side / 2 - 3 * module,
                module: module))
        XCTAssertEqual(inView.scanDataMatrix(thorough: false).first?.text, "Cropped to the edge")
    }
}

extension DataMatrixDetectorTests {
    /// Small symbols at 3 to 4 pixels a module, slightly turned and
    /// softened (as in the half-size copy of an HD video frame), with
    /// seeded texts of 6 to 19 characters (square and rectangular sizes):
    /// video frames read nearly all of them, still pictures all. Dark data
    /// under the top clock track's light modules used to pull its second
    /// fit a module inwards, and dark data beside a short arm doubled the
    /// module size taken from it (video frames read 90 % of them then).
    func testSmallSymbolsWithDarkDataBesideTheirTracks() throws {
        var state: UInt64 = 12345
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var total = 0, video = 0
        var stillMisses: [String] = []
        for _ in 0..<24 {
            let count = 6 + Int(next() % 14)
            let text = String((0..<count).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
            let m = try symbol(text)
            for module in [3.0, 3.25, 3.5, 4.0] {
                for angle in [-2.0, 1.0] {
                    var pic = QRPicture(width: 200, height: 200)
                    _ = pic.draw(matrix: m, QRPicture.Placement(cx: 100, cy: 100, module: module, angle: angle))
                    pic.picture.blur(radius: 1, passes: 1)
                    total += 1
                    let read = pic.scanDataMatrix(thorough: false)
                    for r in read { XCTAssertEqual(r.text, text) }
                    if read.first?.text == text { video += 1 }
                    if pic.scanDataMatrix().first?.text != text {
                        stillMisses.append("\(text) \(m.width)x\(m.height) module \(module) angle \(angle)")
                    }
                }
            }
        }
        print("small symbols: video frames read \(video) of \(total)")
        XCTAssertEqual(stillMisses, [])
        XCTAssertGreaterThanOrEqual(Double(video), 0.95 * Double(total), "video frames read \(video) of \(total)")
    }
}
