import XCTest
@testable import RLBarcode

/// PDF417 symbols made by zint, drawn into pictures and read.
final class PDF417ReaderTests: XCTestCase {
    /// Draws `symbol` and reads the picture for PDF417.
    private func read(
        _ symbol: ZintPDF417, module: Double = 3, rowHeight: Int = 3, angle: Double = 0,
        taper: Double = 0, taperY: Double = 0, mirrored: Bool = false, inverted: Bool = false,
        blur: Int = 0, noise: Int = 0
    ) -> [BarcodeResult] {
        let m = symbol.matrix(rowHeight: rowHeight)
        let size = Int((Double(max(m.width, m.height)) * module * 1.2 + 60).rounded())
        var p = QRPicture(width: size, height: size)
        p.draw(
            matrix: m,
            QRPicture.Placement(
                cx: Double(size) / 2, cy: Double(size) / 2, module: module, angle: angle,
                taper: taper, taperY: taperY, quietZone: 2),
            mirrored: mirrored)
        if blur > 0 { p.picture.blur(radius: blur, passes: 1) }
        if noise > 0 { p.picture.addNoise(amplitude: noise) }
        if inverted { p.picture.invert() }
        return p.scanPDF417()
    }

    func testUpright() throws {
        guard let z = try ZintPDF417.make("Hello, PDF417!") else { return }
        let r = read(z)
        XCTAssertEqual(r.map(\.text), ["Hello, PDF417!"])
        XCTAssertEqual(r.first?.symbologyIdentifier, "]L2")
        XCTAssertEqual(r.first?.orientation, 0)
    }

    /// Every error correction level, with the column counts 1 ... 30.
    func testLevelsAndColumns() throws {
        let text = "PDF417 level test 0123456789 abc"
        for level in 0...8 {
            for cols in [1, 3, 8, 17, 30] where !(level >= 7 && cols < 4) {
                guard let z = try ZintPDF417.make(text, arguments: ["--secure=\(level)", "--cols=\(cols)"]) else {
                    continue
                }
                let r = read(z, module: cols > 20 ? 1.5 : 2)
                XCTAssertEqual(r.map(\.text), [text], "level \(level), \(cols) columns")
            }
        }
    }

    /// Text, numeric and byte compaction, ECI and Macro PDF417.
    func testCompactionModes() throws {
        let cases: [(String, [String], String)] = [
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz", [], ""),
            ("Punctuation: ;<>@[\\]_`~!\"|(){}'? and mixed &#-.$/+%*=^", [], ""),
            ("98765432109876543210987654321098765432109876543210", [], ""),
            ("bin\u{01}\u{02}\u{7F}ary", ["--binary"], ""),
            ("Grüße", [], ""),
            ("Ελληνικά", ["--eci=9"], "]L1")
        ]
        for (data, args, identifier) in cases {
            guard let z = try ZintPDF417.make(data, arguments: args) else { continue }
            let r = read(z)
            XCTAssertEqual(r.map(\.text), [data], "\(args)")
            if !identifier.isEmpty { XCTAssertEqual(r.first?.symbologyIdentifier, identifier) }
        }
    }

    func testMacroPDF417() throws {
        guard let z = try ZintPDF417.make("part two", arguments: ["--structapp=2,3,123456"]) else { return }
        let r = read(z)
        XCTAssertEqual(r.map(\.text), ["part two"])
        XCTAssertEqual(r.first?.structuredAppend?.index, 1)
        XCTAssertEqual(r.first?.structuredAppend?.total, 3)
        XCTAssertEqual(r.first?.structuredAppend?.isLast, false)
        XCTAssertEqual(r.first?.structuredAppend?.id, "123456")
    }

    /// Any angle, both polarities, mirror images.
    func testAnglesInvertedMirrored() throws {
        guard let z = try ZintPDF417.make("Rotated PDF417 0123456789", arguments: ["--cols=4", "--secure=3"]) else {
            return
        }
        for angle in stride(from: 0.0, to: 360, by: 17) {
            let r = read(z, angle: angle)
            XCTAssertEqual(r.map(\.text), ["Rotated PDF417 0123456789"], "angle \(angle)")
            if let o = r.first?.orientation {
                let d = abs(Double(o) - angle)
                XCTAssertLessThan(min(d, 360 - d), 3, "angle \(angle)")
            }
        }
        for (mirrored, inverted) in [(true, false), (false, true), (true, true)] {
            let r = read(z, angle: 33, mirrored: mirrored, inverted: inverted)
            XCTAssertEqual(r.map(\.text), ["Rotated PDF417 0123456789"], "mirrored \(mirrored), inverted \(inverted)")
            XCTAssertEqual(r.first?.isMirrored, mirrored)
            XCTAssertEqual(r.first?.isInverted, inverted)
        }
    }

    /// Perspective, blur and noise.
    func testPerspectiveBlurNoise() throws {
        guard let z = try ZintPDF417.make("Perspective 42", arguments: ["--cols=3", "--secure=4"]) else { return }
        for (taper, taperY, angle) in [(0.3, 0.0, 0.0), (0.0, 0.25, 10.0), (0.2, 0.15, 200.0), (-0.25, 0.1, 290.0)] {
            let r = read(z, angle: angle, taper: taper, taperY: taperY)
            XCTAssertEqual(r.map(\.text), ["Perspective 42"], "taper \(taper) \(taperY) angle \(angle)")
        }
        XCTAssertEqual(read(z, module: 3, angle: 5, blur: 1, noise: 12).map(\.text), ["Perspective 42"])
        XCTAssertEqual(read(z, module: 1.5, angle: 0).map(\.text), ["Perspective 42"])
    }

    /// Sensor noise that breaks bars into bumps (uniform, about 29 grey
    /// levels of standard deviation on a contrast of 255): rows averaged
    /// across, codewords read again without the bumps, at several seeds.
    func testStrongNoise() throws {
        guard let z = try ZintPDF417.make("Noisy row 123", arguments: ["--cols=3", "--secure=2"]) else { return }
        let m = z.matrix(rowHeight: 3)
        for seed: UInt64 in [1, 2, 3] {
            let size = Int(Double(m.width) * 3 * 1.2 + 60)
            var p = QRPicture(width: size, height: size)
            p.draw(
                matrix: m,
                QRPicture.Placement(cx: Double(size) / 2, cy: Double(size) / 2, module: 3, angle: 2, quietZone: 2))
            p.picture.addNoise(amplitude: 50, seed: seed)
            XCTAssertEqual(p.scanPDF417().map(\.text), ["Noisy row 123"], "seed \(seed)")
        }
    }

    /// Several symbols in one picture.
    func testSeveralInOnePicture() throws {
        var p = QRPicture(width: 900, height: 700)
        var expected: [String] = []
        for (k, (cx, cy, angle)) in [
            (230.0, 180.0, 0.0), (650.0, 200.0, 90.0), (250.0, 520.0, 200.0), (660.0, 540.0, 315.0)
        ].enumerated() {
            let text = "symbol \(k) of four"
            guard let z = try ZintPDF417.make(text, arguments: ["--cols=3"]) else { return }
            p.draw(matrix: z.matrix(), QRPicture.Placement(cx: cx, cy: cy, module: 2, angle: angle, quietZone: 2))
            expected.append(text)
        }
        XCTAssertEqual(Set(p.scanPDF417().map(\.text)), Set(expected))
    }

    /// Compact PDF417: no right row indicator, a one-bar stop pattern.
    func testCompact() throws {
        for (cols, angle) in [(1, 0.0), (3, 0.0), (6, 25.0), (12, 160.0), (20, 100.0), (30, 333.0)] {
            let text = "Compact PDF417 \(cols) columns"
            guard let z = try ZintPDF417.make(text, arguments: ["--cols=\(cols)"], symbology: ZintPDF417.compact) else {
                continue
            }
            XCTAssertEqual(read(z, module: 2, angle: angle).map(\.text), [text], "\(cols) columns, angle \(angle)")
        }
    }

    /// A symbol reaching the picture's edge, with no quiet zone.
    func testNoQuietZone() throws {
        guard let z = try ZintPDF417.make("edge to edge", arguments: ["--cols=2"]) else { return }
        let m = z.matrix()
        var p = QRPicture(width: m.width * 2, height: m.height * 2)
        p.draw(matrix: m, QRPicture.Placement(cx: Double(m.width), cy: Double(m.height), module: 2, quietZone: 0))
        XCTAssertEqual(p.scanPDF417().map(\.text), ["edge to edge"])
    }
}
