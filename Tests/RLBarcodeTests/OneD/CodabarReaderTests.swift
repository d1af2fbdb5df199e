import XCTest
@testable import RLBarcode

/// Codabar (EN 798) on pictures drawn from zint's module patterns
/// (`zint -b 18`; helpers in Support/).
final class CodabarReaderTests: XCTestCase {
    private let options = ScanOptions(symbologies: .codabar)

    private func scan(_ pic: TestPicture, _ options: ScanOptions? = nil) -> [BarcodeResult] {
        pic.scan(options ?? self.options, readers: [CodabarReader()])
    }

    /// Draws `row` in a picture fitted to it and scans it.
    private func read(_ row: ZintRow, module: Double = 1, quiet: Double = 24, angle: Double = 0) -> [BarcodeResult] {
        scan(.fitted(row, module: module, quiet: quiet, angle: angle))
    }

    func testEveryCharacterAndEveryStartStop() throws {
        for data in ["A0123456789A", "B-$:/.+B", "C40156D", "D9876C", "A31117013206375B"] {
            for (narrow, wide) in [(2, 4), (2, 5), (2, 6)] {
                let r = read(try code39TestZint(18, data).c39Stretched(narrow: narrow, wide: wide))
                XCTAssertEqual(r.map(\.text), [data], "\(data) at \(narrow):\(wide)")
                XCTAssertEqual(r.first?.symbology, .codabar)
                XCTAssertEqual(r.first?.bytes, Array(data.utf8))
                // No check character; start and stop characters transmitted.
                XCTAssertEqual(r.first?.symbologyIdentifier, "]F0")
            }
        }
    }

    func testFewerThanThreeDataCharactersAreNotRead() throws {
        XCTAssertTrue(read(try code39TestZint(18, "A12B").c39Stretched(narrow: 2, wide: 5)).isEmpty)
        XCTAssertEqual(read(try code39TestZint(18, "A123B").c39Stretched(narrow: 2, wide: 5)).map(\.text), ["A123B"])
    }

    func testEveryAngleInFifteenDegreeSteps() throws {
        let row = try code39TestZint(18, "A1234567890A").c39Stretched(narrow: 3, wide: 7)
        for step in 0..<24 {
            let angle = Double(step * 15)
            XCTAssertEqual(read(row, angle: angle).map(\.text), ["A1234567890A"], "angle \(angle)")
        }
    }

    func testInvertedBlurredAndNoisy() throws {
        var pic = TestPicture(width: 340, height: 200)
        pic.draw(
            try code39TestZint(18, "B4711C").c39Stretched(narrow: 3, wide: 7),
            .init(cx: 170, cy: 100, module: 1, barHeight: 80, angle: 25, quietZone: 30))
        pic.invert()
        let r = scan(pic)
        XCTAssertEqual(r.map(\.text), ["B4711C"])
        XCTAssertEqual(r.first?.isInverted, true)

        var blurred = TestPicture(width: 360, height: 200, background: 110)
        blurred.draw(
            try code39TestZint(18, "A$12.50+D").c39Stretched(narrow: 3, wide: 7),
            .init(cx: 180, cy: 100, module: 1, barHeight: 80, angle: -10, dark: 60, light: 170, quietZone: 30))
        blurred.blur(radius: 1)
        blurred.addNoise(amplitude: 14, seed: 5)
        XCTAssertEqual(scan(blurred).map(\.text), ["A$12.50+D"])
    }

    func testPerspectiveAndSmallModules() throws {
        var pic = TestPicture(width: 480, height: 300)
        pic.draw(
            try code39TestZint(18, "A4711B").c39Stretched(narrow: 3, wide: 7),
            .init(cx: 240, cy: 150, module: 1, barHeight: 80, angle: 5, taper: 0.4, quietZone: 30))
        XCTAssertEqual(scan(pic).map(\.text), ["A4711B"])
        // Narrow elements of 1.5 pixels, wide of 3 (ratio 2), at 30 degrees.
        XCTAssertEqual(
            read(try code39TestZint(18, "C0815D").c39Stretched(narrow: 2, wide: 4), module: 0.75, angle: 30)
                .map(\.text), ["C0815D"])
    }

    func testSymbolTouchingTheFrameBorder() throws {
        // A picture cropped to the symbol: its first or last bar, or both,
        // on the picture's border, at every quarter turn. `B` and `C` end
        // with a wide bar, `A` and `D` with a narrow one.
        for data in ["A1234567890A", "C40156B", "D9876C"] {
            let row = try code39TestZint(18, data).c39Stretched(narrow: 2, wide: 5)
            for module in [1.5, 3.0] {
                for (start, end) in [(true, false), (false, true), (true, true)] {
                    let pic = TestPicture.c39Touching(row, module: module, start: start, end: end)
                    for turn in 0..<4 {
                        XCTAssertEqual(
                            scan(pic.c39Turned(turn)).map(\.text), [data],
                            "\(data), module \(module), start \(start), end \(end), \(turn * 90) degrees")
                    }
                }
            }
        }
        // With a bar glued to the start character, the border is no quiet zone.
        let row = try code39TestZint(18, "A1234567890A").c39Stretched(narrow: 2, wide: 5)
        let glued = ZintRow(modules: [true, true, false, false] + row.modules)
        XCTAssertTrue(scan(TestPicture.c39Touching(glued, module: 1.5, start: true, end: false)).isEmpty)
    }

    func testThinBarsBetweenWideSpaces() throws {
        // Overexposed: every bar 1.5 units thinner and every space 1.5
        // wider than the narrow 3.5 and wide 8.5 units, so narrow spaces
        // are 2.5 times as wide as narrow bars. One printing, not a misread.
        let row = try spreadRow("A40156B", bar: (2, 7), space: (5, 10))
        XCTAssertEqual(read(row, module: 0.5).map(\.text), ["A40156B"])
        XCTAssertEqual(decodeWidths(widths(row, unit: 0.5, leading: 40, trailing: 40)).map(\.text), ["A40156B"])
    }

    /// `data` with bars and spaces of their own narrow and wide widths (in
    /// units), as ink spread prints them.
    private func spreadRow(_ data: String, bar: (Int, Int), space: (Int, Int)) throws -> ZintRow {
        let base = try code39TestZint(18, data)
        var modules: [Bool] = []
        var i = 0
        while i < base.modules.count {
            var j = i
            while j < base.modules.count && base.modules[j] == base.modules[i] { j += 1 }
            let isBar = base.modules[i], wide = j - i > 1
            let units = isBar ? (wide ? bar.1 : bar.0) : (wide ? space.1 : space.0)
            modules += [Bool](repeating: isBar, count: units)
            i = j
        }
        return ZintRow(modules: modules)
    }

    func testBarsSoThinThatWideBarsAreNarrowerThanSomeSpaces() throws {
        // Narrow bars 4 units, wide 9; narrow spaces 7, wide 13: a wide bar
        // barely wider than a narrow space, a few of which are wider
        // still (blur and print), so that the widest elements of a
        // character are not always its wide ones. Bars and spaces are
        // ranked apart.
        let data = "A80125178+B"
        let row = try spreadRow(data, bar: (4, 9), space: (7, 13))
        XCTAssertEqual(read(row, module: 0.5).map(\.text), [data])
        XCTAssertEqual(decodeWidths(widths(row, unit: 0.5, leading: 40, trailing: 40)).map(\.text), [data])
        // One narrow space of every character a third wider (4.7 units):
        // ranked with the bars, it would pass for the wide bar (4.5).
        var ws = widths(row, unit: 0.5, leading: 40, trailing: 40)
        for c in 0..<data.count {
            let spaces = [2 + 8 * c, 4 + 8 * c, 6 + 8 * c]
            let narrowest = spaces.min { ws[$0] < ws[$1] }!
            ws[narrowest] *= 1.35
        }
        XCTAssertEqual(decodeWidths(ws).map(\.text), [data])
        // Without ink spread the same classification stays out of the way:
        // bars and spaces alike read as before.
        XCTAssertEqual(read(try spreadRow(data, bar: (4, 10), space: (4, 10)), module: 0.5).map(\.text), [data])
    }

    func testTwoCodesInOnePicture() throws {
        var pic = TestPicture(width: 400, height: 300)
        pic.draw(
            try code39TestZint(18, "A111B").c39Stretched(narrow: 2, wide: 5),
            .init(cx: 200, cy: 75, module: 1, barHeight: 60, quietZone: 24))
        pic.draw(
            try code39TestZint(18, "C2222D").c39Stretched(narrow: 2, wide: 5),
            .init(cx: 200, cy: 220, module: 1, barHeight: 60, angle: -6, quietZone: 24))
        XCTAssertEqual(Set(scan(pic).map(\.text)), ["A111B", "C2222D"])
    }

    /// Decodes one line of widths (no grey levels: quiet zones count by width alone).
    private func decodeWidths(_ widths: [Float]) -> [(text: String, error: Float)] {
        LinearSymbolTestKit.decodeWidths(widths, CodabarReader(), .codabar)
    }

    private func widths(_ row: ZintRow, unit: Float, leading: Float, trailing: Float) -> [Float] {
        LinearSymbolTestKit.widths(row, unit: unit, leading: leading, trailing: trailing)
    }

    func testQuietZonesGapsAndCleanWidthsOnOneLine() throws {
        // Narrow 3 pixels, wide 7.5.
        let row = try code39TestZint(18, "B2024C").c39Stretched(narrow: 2, wide: 5)
        let clean = decodeWidths(widths(row, unit: 1.5, leading: 30, trailing: 30))
        XCTAssertEqual(clean.map(\.text), ["B2024C"])
        XCTAssertLessThan(clean.first?.error ?? 9, 0.5)
        // Quiet zones of six narrow elements: nothing.
        XCTAssertTrue(decodeWidths([40, 5] + widths(row, unit: 1.5, leading: 18, trailing: 40)).isEmpty)
        XCTAssertTrue(decodeWidths(widths(row, unit: 1.5, leading: 40, trailing: 18) + [5, 40]).isEmpty)
        // An inter-character gap of six narrow elements: nothing.
        var w = widths(row, unit: 1.5, leading: 40, trailing: 40)
        w[8] = 18
        XCTAssertTrue(decodeWidths(w).isEmpty)
        // Narrow elements of a character half as wide again as the others': nothing.
        w = widths(row, unit: 1.5, leading: 40, trailing: 40)
        for k in 17...23 { w[k] *= 1.6 }
        XCTAssertTrue(decodeWidths(w).isEmpty)
        // Uneven widths (no check character to catch a misread): not read.
        w = widths(row, unit: 1.5, leading: 40, trailing: 40)
        for k in 1..<(w.count - 1) { w[k] += [1.4, -1.2, 0.9, -1.4, 1.1][k % 5] }
        XCTAssertTrue(decodeWidths(w).allSatisfy { $0.text == "B2024C" }, "no misread")
    }

    func testNothingFromNoiseStripesTextOrOtherSymbologies() throws {
        let thorough = ScanOptions(symbologies: .codabar, effort: .thorough)
        var blank = TestPicture(width: 320, height: 240, background: 128)
        blank.addNoise(amplitude: 60, seed: 11)
        XCTAssertTrue(scan(blank, thorough).isEmpty)
        for seed in 1...12 {
            let random = TestPicture.randomStripes(seed: seed, mix: 0xD1B54A32D192ED03)
            XCTAssertTrue(scan(random, thorough).isEmpty, "random stripes \(seed)")
        }
        // Text-like strokes.
        let text = TestPicture.textLike(seed: 5, glyphs: 5, glyphWidth: 8, advance: 11) { glyph, k, dy in
            switch glyph {
            case 0: k < 2 || k > 5
            case 1: k < 2
            case 2: (k > 2 && k < 5) || dy % 10 < 2
            case 3: k < 2 || k > 5 || dy % 11 < 2
            default: false
            }
        }
        XCTAssertTrue(scan(text, thorough).isEmpty)
        // Code 39 and EAN-13 symbols are not Codabar.
        var other = TestPicture(width: 400, height: 240)
        other.draw(
            try code39TestZint(8, "CODE39").c39Stretched(narrow: 2, wide: 5),
            .init(cx: 200, cy: 60, module: 1, barHeight: 60, quietZone: 24))
        other.draw(try ZintRow.make(.eanx, "590123412345"), .init(cx: 200, cy: 170, module: 2, barHeight: 40))
        XCTAssertTrue(scan(other, thorough).isEmpty)
    }
}
