import Foundation
import XCTest
@testable import RLBarcode

/// QR Code and Micro QR detection and sampling on pictures drawn from
/// zint's module matrices.
///
/// Each test draws symbols, runs ``QRDetector`` and checks that every
/// symbol is found, that the sampled matrix equals zint's (exactly on clean
/// pictures; under heavy blur or noise at most `maxErrors` modules, which the
/// decoder's Reed-Solomon correction absorbs) and that the corners are within
/// `cornerTolerance` pixels of where the symbol was drawn.
final class QRDetectorTests: XCTestCase {
    /// One drawn symbol and what the detector should report for it.
    struct Expected {
        var matrix: BitMatrix
        var corners: [Point]
        var inverted = false
        var micro = false
    }

    /// Checks that each expected symbol has a candidate; returns the candidates.
    @discardableResult
    func check(
        _ picture: QRPicture, _ expected: [Expected], maxErrors: Int = 0, cornerTolerance: Double = 2,
        allowExtra: Bool = false, label: String = "", file: StaticString = #filePath, line: UInt = #line
    ) -> [QRCandidate] {
        // As a scanner calls it (2D regions first), and over the whole picture.
        let whole = picture.detect(regions: false)
        checkFound(
            whole, picture, expected, maxErrors: maxErrors, cornerTolerance: cornerTolerance, allowExtra: allowExtra,
            label: label + " (whole picture)", file: file, line: line)
        let found = picture.detect()
        checkFound(
            found, picture, expected, maxErrors: maxErrors, cornerTolerance: cornerTolerance, allowExtra: allowExtra,
            label: label, file: file, line: line)
        return found
    }

    func checkFound(
        _ found: [QRCandidate], _ picture: QRPicture, _ expected: [Expected], maxErrors: Int, cornerTolerance: Double,
        allowExtra: Bool, label: String, file: StaticString, line: UInt
    ) {
        for (n, e) in expected.enumerated() {
            let cx = e.corners.map(\.x).reduce(0, +) / 4, cy = e.corners.map(\.y).reduce(0, +) / 4
            let near = found.filter { c in
                let x = c.corners.map(\.x).reduce(0, +) / 4, y = c.corners.map(\.y).reduce(0, +) / 4
                return abs(x - cx) < 10 && abs(y - cy) < 10
            }
            guard let c = near.first else {
                XCTFail(
                    "\(label) symbol \(n) (\(e.matrix.width) modules) not found; \(found.count) candidates", file: file,
                    line: line)
                if let dir = ProcessInfo.processInfo.environment["QR_TEST_DUMP"] {
                    picture.writePGM("\(dir)/\(label.filter { $0.isLetter || $0.isNumber })-\(n).pgm")
                }
                continue
            }
            XCTAssertEqual(c.isInverted, e.inverted, "\(label) symbol \(n) polarity", file: file, line: line)
            XCTAssertEqual(c.isMicro, e.micro, "\(label) symbol \(n) kind", file: file, line: line)
            let all = [c.matrix] + c.alternatives
            let errors = all.map { $0.differences(from: e.matrix) }.min()!
            XCTAssertLessThanOrEqual(
                errors, maxErrors,
                "\(label) symbol \(n): module errors (size \(c.matrix.width), expected \(e.matrix.width))",
                file: file, line: line)
            if c.matrix.width == e.matrix.width {
                for k in 0..<4 {
                    let d = c.corners[k].distance(to: e.corners[k])
                    XCTAssertLessThanOrEqual(
                        d, cornerTolerance, "\(label) symbol \(n) corner \(k): \(c.corners[k]) vs \(e.corners[k])",
                        file: file, line: line)
                }
            }
        }
        if !allowExtra {
            XCTAssertEqual(found.count, expected.count, "\(label) candidates", file: file, line: line)
        }
    }

    /// A picture holding one symbol with the placement, centred.
    func single(_ symbol: QRTestSymbol, size: Int, _ place: (inout QRPicture.Placement) -> Void = { _ in })
        -> (QRPicture, Expected)
    {
        var picture = QRPicture(width: size, height: size)
        var p = QRPicture.Placement(cx: Double(size) / 2, cy: Double(size) / 2)
        place(&p)
        let corners = picture.draw(symbol, p)
        return (picture, Expected(matrix: symbol.bitMatrix, corners: corners))
    }

    // MARK: - Geometry

    func testPerspectiveTransformMapsFourPoints() {
        let from = [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10), Point(x: 0, y: 10)]
        let to = [Point(x: 100, y: 50), Point(x: 180, y: 70), Point(x: 170, y: 160), Point(x: 90, y: 140)]
        let t = PerspectiveTransform.quadrilateralToQuadrilateral(
            from: from[0], from[1], from[2], from[3],
            to: to[0], to[1], to[2], to[3])
        for k in 0..<4 {
            XCTAssertEqual(t.map(from[k]).distance(to: to[k]), 0, accuracy: 1e-9)
            XCTAssertEqual(t.inverse.map(to[k]).distance(to: from[k]), 0, accuracy: 1e-9)
        }
        let mid = t.then(t.inverse).map(Point(x: 3, y: 7))
        XCTAssertEqual(mid.distance(to: Point(x: 3, y: 7)), 0, accuracy: 1e-9)
        // A parallelogram gives an affine map.
        let a = PerspectiveTransform.squareToQuadrilateral(
            Point(x: 1, y: 1), Point(x: 3, y: 1), Point(x: 4, y: 3), Point(x: 2, y: 3))
        XCTAssertEqual(a.a13, 0); XCTAssertEqual(a.a23, 0)
        XCTAssertEqual(a.map(0.5, 0.5).distance(to: Point(x: 2.5, y: 2)), 0, accuracy: 1e-12)
    }

    // MARK: - Versions

    func testVersions() throws {
        for (version, module, size) in [
            (1, 4.0, 200), (2, 4.0, 220), (7, 3.0, 260), (10, 3.0, 300), (25, 3.0, 420), (40, 3.0, 600)
        ] {
            let symbol = try QRTestSymbol.qr(version == 1 ? "V1" : "rlbarcode version \(version)", version: version)
            XCTAssertEqual(symbol.size, 17 + 4 * version)
            let (picture, e) = single(symbol, size: size) {
                $0.module = module; $0.angle = 7
            }
            check(picture, [e], label: "version \(version)")
        }
    }

    func testAlignmentPatternPositionsMatchZint() throws {
        for version in [2, 6, 7, 10, 14, 21, 25, 32, 36, 40] {
            let symbol = try QRTestSymbol.qr("A", version: version)
            let coords = QRDetector.alignmentCoordinates(version: version)
            XCTAssertEqual(coords.count, version / 7 + 2, "version \(version)")
            for cy in coords {
                for cx in coords {
                    // Under a finder pattern: no alignment pattern there.
                    if (cx < 9 && cy < 9) || (cx < 9 && cy > symbol.size - 10) || (cx > symbol.size - 10 && cy < 9) {
                        continue
                    }
                    for j in -2...2 {
                        for i in -2...2 {
                            let dark = max(abs(i), abs(j)) != 1
                            XCTAssertEqual(
                                symbol.modules[cy + j][cx + i], dark, "version \(version) alignment (\(cx), \(cy))")
                        }
                    }
                }
            }
        }
    }

    func testLensDistortionOfLargeSymbols() throws {
        // Barrel distortion moves the corners 6% inwards: the grid must
        // follow the alignment patterns between the finder patterns. Beyond
        // the last alignment pattern (the outermost 6 modules of the
        // bottom-right corner) the grid is extended, not measured: at most 8
        // module errors there.
        for (version, module, size) in [(10, 4.0, 300), (25, 3.0, 420)] {
            let symbol = try QRTestSymbol.qr("distorted \(version)", version: version)
            let (picture, e) = single(symbol, size: size) {
                $0.module = module; $0.angle = 15; $0.distortion = 0.06
            }
            check(picture, [e], maxErrors: 8, cornerTolerance: 3, label: "distortion version \(version)")
        }
    }

    func testSymbolsWithoutQuietZone() throws {
        // Printed or cropped without a quiet zone: the finder patterns'
        // outer rings end at the frame's edges.
        for (version, module) in [(2, 3.0), (4, 2.0), (7, 2.0)] {
            let text = "no quiet zone \(version)"
            let symbol = try QRTestSymbol.qr(text, version: version)
            let side = Int(Double(symbol.size) * module)
            var picture = QRPicture(width: side, height: side)
            let corners = picture.draw(
                symbol,
                QRPicture.Placement(
                    cx: Double(side) / 2 - 0.5, cy: Double(side) / 2 - 0.5,
                    module: module, quietZone: 0))
            let found = check(
                picture, [Expected(matrix: symbol.bitMatrix, corners: corners)],
                label: "no quiet zone, version \(version)")
            XCTAssertEqual(found.first?.decoded?.text, text, "no quiet zone, version \(version)")
        }
    }

    func testRotationsIn15DegreeSteps() throws {
        let symbol = try QRTestSymbol.qr("https://example.com/rotate", version: 3)
        for step in 0..<24 {
            let angle = Double(step) * 15
            let (picture, e) = single(symbol, size: 240) {
                $0.module = 4; $0.angle = angle
            }
            check(picture, [e], label: "angle \(angle)")
        }
    }

    func testPerspective() throws {
        let symbol = try QRTestSymbol.qr("perspective", version: 4)
        for (angle, taper, taperY) in [
            (0.0, 0.25, 0.0), (30, 0.2, 0.15), (100, 0.3, 0.1), (200, 0.15, 0.25), (315, 0.25, 0.2)
        ] {
            let (picture, e) = single(symbol, size: 300) {
                $0.module = 5; $0.angle = angle; $0.taper = taper; $0.taperY = taperY
            }
            check(picture, [e], cornerTolerance: 2.5, label: "perspective \(angle) \(taper) \(taperY)")
        }
        // Version 1 has no alignment pattern: a mild perspective only.
        let v1 = try QRTestSymbol.qr("v1", version: 1)
        let (picture, e) = single(v1, size: 200) {
            $0.module = 5; $0.angle = 20; $0.taper = 0.1
        }
        check(picture, [e], cornerTolerance: 3, label: "perspective version 1")
    }

    /// Views tilted by 62 and 65 degrees about the vertical axis: the
    /// finder patterns' modules are 1 to 1.5 pixels wide and 3 tall, the
    /// far pattern found only down the columns, and each pattern's outline
    /// measured on its whitened shape.
    func testSteepViews() throws {
        for (version, degrees, taper) in [(1, 62.0, 0.1), (1, 65, 0.1), (3, 62, 0.1), (3, 65, 0.1)] {
            let text = "steep \(version) \(Int(degrees))"
            let symbol = try QRTestSymbol.qr(text, version: version)
            var picture = QRPicture(width: 80, height: 140)
            var p = QRPicture.Placement(cx: 40, cy: 70)
            p.module = 3; p.squash = cos(degrees * Double.pi / 180); p.taper = taper
            _ = picture.draw(symbol, p)
            let texts = picture.detect().compactMap { $0.decoded ?? QRDetector.decodeFirst($0) }.map(\.text)
            XCTAssertEqual(texts, [text], "version \(version) tilted by \(degrees) degrees")
        }
    }

    func testSmallModules() throws {
        for version in [1, 2, 5] {
            let symbol = try QRTestSymbol.qr("small \(version)", version: version)
            for angle in [0.0, 10, 45] {
                let (picture, e) = single(symbol, size: 180) {
                    $0.module = 2.5; $0.angle = angle
                }
                check(picture, [e], label: "2.5 px version \(version) angle \(angle)")
            }
        }
    }

    func testTwoPixelModules() throws {
        for (version, angle) in [(1, 0.0), (1, 20), (2, 45), (4, 10)] {
            let symbol = try QRTestSymbol.qr("two \(version)", version: version)
            let (picture, e) = single(symbol, size: 160) {
                $0.module = 2; $0.angle = angle
            }
            check(picture, [e], label: "2 px version \(version) angle \(angle)")
        }
    }

    func testLargeModules() throws {
        // 14 and 25 pixels a module: finder centres wider than the threshold
        // blocks' reach and than the 2D pre-pass's small cells.
        for (version, module, size) in [(2, 14.0, 560), (1, 25.0, 700)] {
            let symbol = try QRTestSymbol.qr("large", version: version)
            let (picture, e) = single(symbol, size: size) {
                $0.module = module; $0.angle = 10
            }
            check(picture, [e], label: "\(module) px modules")
        }
    }

    /// Large modules blurred over a third of a module: the walks from the
    /// finder patterns' centres to their outer edges (a quarter of a
    /// module at a time through the centre square and the light ring, half
    /// a pixel at a time through the dark ring) meet the light ring
    /// however thin the blur leaves it, and stop at the dark ring's outer
    /// edge, not at the data beyond: the outline within an eighth of a
    /// module, every module right, at every tilt tried.
    func testLargeBlurredModules() throws {
        let symbol = try QRTestSymbol.qr("large and blurred", version: 2)
        for (module, blur) in [(12.0, 4), (20.0, 7)] {
            for angle in [0.0, 30] {
                var (picture, e) = single(symbol, size: Int(40 * module)) {
                    $0.module = module; $0.angle = angle
                }
                picture.picture.blur(radius: blur)
                check(
                    picture, [e], cornerTolerance: module / 8,
                    label: "\(module) px modules, blur \(blur), \(angle) degrees")
            }
        }
    }

    /// Light lines 3 pixels wide (creases, scratches) across the finder
    /// patterns of a symbol of 16-pixel modules, inside their centre
    /// squares, between rows of module centres: the checks across the
    /// patterns take them for specks inside the runs.
    func testCreasesAcrossFinderPatterns() throws {
        let symbol = try QRTestSymbol.qr("creased", version: 2)
        let module = 16.0
        var (picture, e) = single(symbol, size: 560) { $0.module = module }
        let n = Double(symbol.size)
        let top = e.corners[0].y, left = e.corners[0].x
        // Each finder pattern's seven columns, 0.75 modules below its centre.
        for (row, column) in [(4.25, 0.0), (4.25, n - 7), (n - 2.75, 0)] {
            let y0 = Int((top + row * module).rounded()) - 1
            let x0 = Int((left + column * module).rounded())
            for y in y0..<(y0 + 3) {
                for x in x0..<(x0 + Int(7 * module)) { picture.picture.pixels[y * picture.picture.stride + x] = 255 }
            }
        }
        // The outline, traced along the patterns' edges, within 3/8 of a module.
        check(picture, [e], cornerTolerance: 6, label: "creased")
    }

    func testLowContrast() throws {
        let symbol = try QRTestSymbol.qr("low contrast", version: 3)
        for (dark, light, module, angle) in [(100.0, 160.0, 4.0, 20.0), (110, 150, 3, 70)] {
            var picture = QRPicture(width: 200, height: 200, background: UInt8(light))
            let corners = picture.draw(
                symbol, QRPicture.Placement(cx: 100, cy: 100, module: module, angle: angle, dark: dark, light: light))
            picture.picture.blur(radius: 1, passes: 2)
            picture.picture.addNoise(amplitude: 5)
            check(picture, [Expected(matrix: symbol.bitMatrix, corners: corners)], label: "contrast \(light - dark)")
        }
    }

    func testInverted() throws {
        let symbol = try QRTestSymbol.qr("light on dark", version: 2)
        var (picture, e) = single(symbol, size: 200) {
            $0.module = 4; $0.angle = 25
        }
        picture.picture.invert()
        e.inverted = true
        check(picture, [e], label: "inverted")
    }

    func testMirroredReadsTransposed() throws {
        let symbol = try QRTestSymbol.qr("mirror", version: 2)
        var (picture, e) = single(symbol.mirrored, size: 200) {
            $0.module = 4; $0.angle = 10
        }
        // The mirror image reads as the transposed matrix, starting at the
        // drawn top-right corner and going down the drawn right edge.
        e.matrix = symbol.bitMatrix.transposed()
        e.corners = [e.corners[1], e.corners[2], e.corners[3], e.corners[0]]
        check(picture, [e], label: "mirrored")
        // Mirrored and inverted.
        picture.picture.invert()
        e.inverted = true
        check(picture, [e], label: "mirrored, inverted")
    }

    func testUnevenLight() throws {
        let symbol = try QRTestSymbol.qr("uneven light across the symbol", version: 5)
        var (picture, e) = single(symbol, size: 300) {
            $0.module = 4; $0.angle = 12
        }
        picture.light(left: 1.0, right: 0.3, top: 1.0, bottom: 0.7)
        check(picture, [e], label: "uneven light")
        var (shaded, e2) = single(symbol, size: 300) {
            $0.module = 4; $0.angle = 80
        }
        // Light on one side, a dark shadow on the other: the shadow's light
        // modules are darker than the lit side's dark ones.
        shaded.light(left: 0.25, right: 1.0)
        check(shaded, [e2], label: "shadow")
    }

    func testBlurAndNoise() throws {
        let symbol = try QRTestSymbol.qr("blurred and noisy", version: 3)
        // Modules of 4 pixels, blurred to about a module and noisy: at most
        // 2 module errors in 841.
        var (picture, e) = single(symbol, size: 240) {
            $0.module = 4; $0.angle = 33
        }
        picture.picture.blur(radius: 1, passes: 3)
        picture.picture.addNoise(amplitude: 30)
        check(picture, [e], maxErrors: 2, label: "blur and noise")
        // Heavy blur (two passes of a 5-pixel box on 4-pixel modules): at
        // most 20 module errors in 841, well within what level M corrects.
        var heavy = QRPicture(width: 240, height: 240)
        let corners = heavy.draw(symbol, QRPicture.Placement(cx: 120, cy: 120, module: 4, angle: 20))
        heavy.picture.blur(radius: 2, passes: 2)
        check(heavy, [Expected(matrix: symbol.bitMatrix, corners: corners)], maxErrors: 20, label: "heavy blur")
        // Small modules, blurred: at most 8 module errors.
        var (small, e2) = single(symbol, size: 200) {
            $0.module = 3; $0.angle = 5
        }
        small.picture.blur(radius: 1, passes: 2)
        small.picture.addNoise(amplitude: 12, seed: 5)
        check(small, [e2], maxErrors: 8, label: "small, blurred")
    }

    func testSeveralSymbolsInOneFrame() throws {
        var picture = QRPicture(width: 760, height: 560)
        var expected: [Expected] = []
        let specs: [(String, Int, Double, Double, Double, Double)] = [
            ("first", 1, 150, 140, 5, 0), ("second symbol", 3, 560, 150, 4, 30),
            ("third", 2, 170, 420, 3, 200), ("fourth one here", 6, 520, 400, 3, 290)
        ]
        for (data, version, x, y, module, angle) in specs {
            let s = try QRTestSymbol.qr(data, version: version)
            let c = picture.draw(s, QRPicture.Placement(cx: x, cy: y, module: module, angle: angle))
            expected.append(Expected(matrix: s.bitMatrix, corners: c))
        }
        let m = try QRTestSymbol.micro("12345", version: 2)
        let c = picture.draw(m, QRPicture.Placement(cx: 370, cy: 290, module: 4, angle: 60))
        expected.append(Expected(matrix: m.bitMatrix, corners: c, micro: true))
        check(picture, expected, label: "several")
    }

    // MARK: - Micro QR

    func testMicroQR() throws {
        for version in 1...4 {
            let symbol = try QRTestSymbol.micro(version == 1 ? "123" : "M\(version)", version: version)
            XCTAssertEqual(symbol.size, 9 + 2 * version)
            for angle in [0.0, 30, 135, 270] {
                var (picture, e) = single(symbol, size: 160) {
                    $0.module = 5; $0.angle = angle
                }
                e.micro = true
                check(picture, [e], label: "M\(version) angle \(angle)")
            }
        }
    }

    func testMicroQRRotationsIn15DegreeSteps() throws {
        let symbol = try QRTestSymbol.micro("ROTATE", version: 3)
        for step in 0..<24 {
            let angle = Double(step) * 15
            var (picture, e) = single(symbol, size: 130) {
                $0.module = 4; $0.angle = angle
            }
            e.micro = true
            check(picture, [e], label: "M3 angle \(angle)")
        }
    }

    func testMicroQRSmallInvertedAndTilted() throws {
        let symbol = try QRTestSymbol.micro("HELLO", version: 3)
        var (small, e) = single(symbol, size: 120) {
            $0.module = 3; $0.angle = 15
        }
        e.micro = true
        check(small, [e], label: "M3 small")
        var (inv, e2) = single(symbol, size: 160) {
            $0.module = 4; $0.angle = 200
        }
        inv.picture.invert()
        e2.micro = true; e2.inverted = true
        check(inv, [e2], label: "M3 inverted")
        var (tilted, e3) = single(symbol, size: 160) {
            $0.module = 5; $0.angle = 40; $0.taper = 0.15
        }
        e3.micro = true
        check(tilted, [e3], cornerTolerance: 3, label: "M3 tilted")
    }

    /// A label on a dark surface with one module of margin, two and three
    /// pixels a module: the timing patterns end in no quiet zone, so the
    /// size comes from sampling every size on the finder pattern's grid
    /// and taking the one whose format information and Reed-Solomon check
    /// pass.
    func testMicroQROnDarkSurfaceWithOneModuleMargin() throws {
        for (version, module) in [(2, 2.0), (3, 2), (2, 3), (3, 3), (4, 3)] {
            let text = String("M\(version) ON DARK".prefix(version + 3))
            let symbol = try QRTestSymbol.micro(text, version: version)
            var picture = QRPicture(width: 100, height: 100)
            for k in picture.picture.pixels.indices { picture.picture.pixels[k] = 70 }
            var p = QRPicture.Placement(cx: 50, cy: 50)
            p.module = module; p.quietZone = 1
            _ = picture.draw(symbol, p)
            let texts = picture.detect().compactMap { $0.decoded ?? QRDetector.decodeFirst($0) }.map(\.text)
            XCTAssertEqual(texts, [text], "M\(version), \(module) px a module")
        }
    }

    // MARK: - Pictures without symbols

    func testNothingInPicturesWithoutSymbols() {
        var text = QRPicture(width: 400, height: 300)
        text.textClutter()
        XCTAssertEqual(text.detect().count + text.detect(regions: false).count, 0, "text")

        var grid = QRPicture(width: 300, height: 300)
        for y in 0..<300 { for x in 0..<300 where x % 12 < 2 || y % 12 < 2 { grid.picture.pixels[y * 300 + x] = 30 } }
        XCTAssertEqual(grid.detect().count + grid.detect(regions: false).count, 0, "grid")

        for cell in [3, 4, 8] {
            var board = QRPicture(width: 300, height: 300)
            for y in 0..<300 {
                for x in 0..<300 where (x / cell + y / cell) % 2 == 0 { board.picture.pixels[y * 300 + x] = 20 }
            }
            XCTAssertEqual(board.detect().count + board.detect(regions: false).count, 0, "checkerboard \(cell)")
        }

        var noise = QRPicture(width: 300, height: 300, background: 128)
        noise.picture.addNoise(amplitude: 120, seed: 3)
        XCTAssertEqual(noise.detect().count + noise.detect(regions: false).count, 0, "noise")

        var blank = QRPicture(width: 300, height: 300, background: 200)
        blank.light(left: 1, right: 0.4)
        XCTAssertEqual(blank.detect().count + blank.detect(regions: false).count, 0, "blank")
    }

    /// The cheap check before a symbol is sampled whole
    /// (``QRDetector/finderShare(_:_:size:inverted:)``): a drawn symbol's
    /// finder patterns read right where its corners put them, turned and
    /// in perspective; in a grid of the wrong size, or over noise, about
    /// half of them do.
    func testFinderShareTellsSymbolsFromTexture() throws {
        let symbol = try QRTestSymbol.qr("RLBARCODE FINDER SHARE CHECK 0123456789", version: 5)
        guard symbol.size > 0 else { throw XCTSkip("zint is not installed") }
        var picture = QRPicture(width: 400, height: 400, background: 230)
        let placement = QRPicture.Placement(cx: 200, cy: 200, module: 6, angle: 17, taper: 0.1)
        let c = picture.draw(symbol, placement)
        let n = Double(symbol.size)
        let grid = PerspectiveTransform.quadrilateralToQuadrilateral(
            from: Point(x: 0, y: 0), Point(x: n, y: 0), Point(x: n, y: n), Point(x: 0, y: n), to: c[0], c[1], c[2], c[3]
        )
        var noise = TestPicture(width: 400, height: 400, background: 128)
        noise.addNoise(amplitude: 100, seed: 3)
        picture.picture.pixels.withUnsafeBufferPointer { p in
            let view = LumaView(base: p.baseAddress!, width: 400, height: 400, stride: picture.picture.stride)
            XCTAssertGreaterThan(QRDetector.finderShare(view, grid, size: symbol.size, inverted: false), 0.9)
            // Light on dark: the same grid, the other polarity.
            XCTAssertLessThan(QRDetector.finderShare(view, grid, size: symbol.size, inverted: true), 0.5)
        }
        noise.pixels.withUnsafeBufferPointer { p in
            let view = LumaView(base: p.baseAddress!, width: 400, height: 400, stride: noise.stride)
            XCTAssertLessThan(QRDetector.finderShare(view, grid, size: symbol.size, inverted: false), 0.6)
        }
    }

    /// The sampled grid's local extremes (``QRDetector/windowExtremes(count:step:low:high:into:_:)``):
    /// for runs of 1 to 24 places, contiguous and strided, written in place
    /// or elsewhere, each place's least and greatest within 3 places either
    /// way, as a plain search of the clipped window finds them.
    func testWindowExtremesAreThoseOfEachWindow() {
        var generator = DecoderTestRandom(seed: 21)
        var scratchLow = [Double](repeating: 0, count: 32), scratchHigh = scratchLow
        for count in 1...24 {
            for step in [1, 3] {
                let values = (0..<(count * step)).map { _ in Double(Int.random(in: 0...255, using: &generator)) }
                var expectedLow = [Double](repeating: 0, count: count), expectedHigh = expectedLow
                for k in 0..<count {
                    let window = max(0, k - 3)...min(count - 1, k + 3)
                    expectedLow[k] = window.map { values[$0 * step] }.min()!
                    expectedHigh[k] = window.map { values[$0 * step] }.max()!
                }
                var low = values, high = values
                low.withUnsafeMutableBufferPointer { l in
                    high.withUnsafeMutableBufferPointer { h in
                        scratchLow.withUnsafeMutableBufferPointer { a in
                            scratchHigh.withUnsafeMutableBufferPointer { b in
                                QRDetector.windowExtremes(
                                    count: count, step: step, low: l.baseAddress!, high: h.baseAddress!,
                                    into: (l.baseAddress!, h.baseAddress!),
                                    (a.baseAddress!, b.baseAddress!))
                            }
                        }
                    }
                }
                XCTAssertEqual((0..<count).map { low[$0 * step] }, expectedLow, "count \(count), step \(step)")
                XCTAssertEqual((0..<count).map { high[$0 * step] }, expectedHigh, "count \(count), step \(step)")
            }
        }
    }

    /// An alignment pattern (ISO/IEC 18004:2015, 6.3.6) of 4-pixel modules
    /// turned 20 degrees is found within a quarter of a module of its
    /// centre from a prediction 2 pixels off (the search's grid and its
    /// slight preference for the prediction leave it half a pixel off), well inside the frame (the template read
    /// without the clamps at the frame's edges) and where the template
    /// reaches past the frame's left edge (read with them) alike.
    func testAlignmentPatternFoundInsideAndAtTheEdge() {
        let w = 200, h = 200, module = 4.0, angle = 20.0 * Double.pi / 180
        let (c, s) = (cos(angle), sin(angle))
        for centre in [Point(x: 100.3, y: 90.7), Point(x: 9.4, y: 120.2)] {
            var pixels = [UInt8](repeating: 220, count: w * h)
            for y in 0..<h {
                for x in 0..<w {
                    var dark = 0
                    for sy in 0..<4 {
                        for sx in 0..<4 {
                            let px = Double(x) + (Double(sx) + 0.5) / 4 - 0.5 - centre.x
                            let py = Double(y) + (Double(sy) + 0.5) / 4 - 0.5 - centre.y
                            let u = (px * c + py * s) / module, v = (-px * s + py * c) / module
                            let ring = max(abs((u).rounded()), abs((v).rounded()))
                            if ring == 0 || ring == 2 { dark += 1 }
                        }
                    }
                    pixels[y * w + x] = UInt8(220 - 190 * dark / 16)
                }
            }
            pixels.withUnsafeBufferPointer { p in
                let image = LumaView(base: p.baseAddress!, width: w, height: h, stride: w)
                let detector = QRDetector()
                let found = detector.findAlignment(
                    image, near: Point(x: centre.x + 1.5, y: centre.y - 1.3),
                    ax: module * c, ay: module * s, bx: -module * s, by: module * c,
                    radius: 1.5, inverted: false, contrast: 190)
                guard let found else { return XCTFail("no alignment pattern near \(centre)") }
                XCTAssertLessThan(found.distance(to: centre), module / 4, "found \(found) for \(centre)")
            }
        }
    }

    /// The luma without clamps (``QRDetector/lumaInside(_:x:y:)``), which
    /// the alignment pattern search reads where its template lies inside
    /// the frame, is the clamped one's exactly, at random points of a
    /// random picture with padding between its rows.
    func testLumaInsideIsTheClampedLuma() {
        let w = 37, h = 23, stride = 40
        var generator = DecoderTestRandom(seed: 33)
        let pixels = (0..<(stride * h)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        pixels.withUnsafeBufferPointer { p in
            let image = LumaView(base: p.baseAddress!, width: w, height: h, stride: stride)
            var differ = 0
            for _ in 0..<2000 {
                let x = Double.random(in: 0...(Double(w) - 1.0001), using: &generator)
                let y = Double.random(in: 0...(Double(h) - 1.0001), using: &generator)
                if QRDetector.lumaInside(image, x: x, y: y) != QRDetector.luma(image, Point(x: x, y: y)) { differ += 1 }
            }
            XCTAssertEqual(differ, 0)
        }
    }
}
