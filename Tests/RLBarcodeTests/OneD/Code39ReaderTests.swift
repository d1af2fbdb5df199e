import Foundation
import XCTest
@testable import RLBarcode

/// Code 39 (ISO/IEC 16388) on pictures drawn from zint's module patterns.
final class Code39ReaderTests: XCTestCase {
    private let options = ScanOptions(symbologies: .code39)

    private func scan(_ pic: TestPicture, _ options: ScanOptions? = nil) -> [BarcodeResult] {
        pic.scan(options ?? self.options, readers: [Code39Reader()])
    }

    /// Draws `row` upright in a picture fitted to it and scans it.
    private func read(_ row: ZintRow, module: Double = 1, quiet: Double = 24, angle: Double = 0) -> [BarcodeResult] {
        scan(.fitted(row, module: module, quiet: quiet, angle: angle))
    }

    /// The modulo-43 check character of `data`, computed here independently.
    private func check(_ data: String) -> Character {
        let set = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%")
        let sum = data.reduce(0) { $0 + set.firstIndex(of: $1)! }
        return set[sum % 43]
    }

    func testEveryCharacterOfTheCharacterSet() throws {
        // The data characters in five codes; none ends with a valid check character.
        let codes = ["0123456789", "ABCDEFGHIJ", "KLMNOPQRST", "UVWXYZ", "-. $/+%"]
        for data in codes {
            XCTAssertNotEqual(check(String(data.dropLast())), data.last!, data)
            for (narrow, wide) in [(2, 4), (2, 5), (2, 6)] {
                let row = try code39TestZint(8, data).c39Stretched(narrow: narrow, wide: wide)
                let r = read(row)
                XCTAssertEqual(r.map(\.text), [data], "\(data) at \(narrow):\(wide)")
                XCTAssertEqual(r.first?.symbology, .code39)
                XCTAssertEqual(r.first?.extendedText, "", data)
            }
        }
    }

    func testCheckCharacterIsVerifiedAndTransmitted() throws {
        for data in ["CODE39", "ISO 16388", "12345", "A", "-$%"] {
            let row = try code39TestZint(8, data, ["--vers=1"]).c39Stretched(narrow: 2, wide: 5)
            let r = read(row)
            XCTAssertEqual(r.map(\.text), [data + String(check(data))], data)
            XCTAssertEqual(r.first?.extendedText, "", data)
            if let code = r.first {
                XCTAssertEqual(
                    code.symbologyIdentifier,
                    "]A1")
            }
        }
    }

    func testDataEndingInItsOwnCheckCharacterIsReadWhole() throws {
        // Without a check character, data whose last character happens to be
        // the modulo-43 check character of the others is still data.
        for data in ["ABC" + String(check("ABC")), "X7" + String(check("X7")), "2026-12" + String(check("2026-12"))] {
            let r = read(try code39TestZint(8, data).c39Stretched(narrow: 2, wide: 5))
            XCTAssertEqual(r.map(\.text), [data], data)
        }
    }

    func testFullASCIIRoundTrip() throws {
        for data in ["Hello, World!", "code39 ext", "a+b=c; {x|y} ~_^@`", "Mixed-Case.1234"] {
            let row = try code39TestZint(9, data).c39Stretched(narrow: 2, wide: 5)
            let r = read(row)
            XCTAssertEqual(r.map(\.text), [data], data)
            guard let code = r.first else { continue }
            XCTAssertTrue(code.extendedText.count > data.count, "raw Code 39 characters in the extended text")
            XCTAssertEqual(
                code.symbologyIdentifier,
                "]A4")
        }
        // With a check character too.
        let r = read(try code39TestZint(9, "abc", ["--vers=1"]).c39Stretched(narrow: 2, wide: 5))
        XCTAssertEqual(r.map(\.text), ["abc" + String(check("+A+B+C"))])
        if let code = r.first {
            XCTAssertEqual(code.extendedText.count, 7)
            XCTAssertEqual(
                code.symbologyIdentifier,
                "]A5")
        }
    }

    func testFullASCIITable() {
        func decode(_ raw: String) -> String? {
            let bytes = Array(raw.utf8)
            var out = [UInt8](repeating: 0, count: bytes.count)
            let n = bytes.withUnsafeBufferPointer { b in
                out.withUnsafeMutableBufferPointer {
                    Code39Reader.fullASCII(b.baseAddress!, count: bytes.count, into: $0.baseAddress!)
                }
            }
            return n < 0 ? nil : String(decoding: out[0..<n], as: UTF8.self)
        }
        XCTAssertEqual(decode("+A+Z"), "az")
        XCTAssertEqual(decode("$A$Z"), "\u{01}\u{1A}")
        XCTAssertEqual(decode("%A%E%F%J%K%O%P%T%U%V%W%X%Y%Z"), "\u{1B}\u{1F};?[_{\u{7F}\u{00}@`\u{7F}\u{7F}\u{7F}")
        XCTAssertEqual(decode("/A/O/Z"), "!/:")
        // No shift character, a reserved pair or a shift character at the end: not full ASCII.
        XCTAssertNil(decode("ABC"))
        XCTAssertNil(decode("/P"))
        XCTAssertNil(decode("AB$"))
        XCTAssertNil(decode("$12.50"))
    }

    func testEveryAngleInFifteenDegreeSteps() throws {
        let row = try code39TestZint(8, "ANGLE-39").c39Stretched(narrow: 3, wide: 7)
        for step in 0..<24 {
            let angle = Double(step * 15)
            XCTAssertEqual(read(row, angle: angle).map(\.text), ["ANGLE-39"], "angle \(angle)")
        }
    }

    func testInvertedBlurredAndNoisy() throws {
        let row = try code39TestZint(8, "INV39").c39Stretched(narrow: 3, wide: 7)
        var pic = TestPicture(width: 340, height: 200)
        pic.draw(row, .init(cx: 170, cy: 100, module: 1, barHeight: 80, angle: 20, quietZone: 30))
        pic.invert()
        let r = scan(pic)
        XCTAssertEqual(r.map(\.text), ["INV39"])
        XCTAssertEqual(r.first?.isInverted, true)

        var blurred = TestPicture(width: 480, height: 200, background: 110)
        blurred.draw(
            try code39TestZint(8, "BLUR39", ["--vers=1"]).c39Stretched(narrow: 3, wide: 7),
            .init(cx: 240, cy: 100, module: 1, barHeight: 80, angle: 10, dark: 60, light: 170, quietZone: 30))
        blurred.blur(radius: 1)
        blurred.addNoise(amplitude: 14, seed: 3)
        XCTAssertEqual(scan(blurred).map(\.text), ["BLUR39" + String(check("BLUR39"))])
    }

    func testPerspectiveAndSmallModules() throws {
        var pic = TestPicture(width: 480, height: 300)
        pic.draw(
            try code39TestZint(8, "TAPER39").c39Stretched(narrow: 3, wide: 7),
            .init(cx: 240, cy: 150, module: 1, barHeight: 80, angle: 5, taper: 0.4, quietZone: 30))
        XCTAssertEqual(scan(pic).map(\.text), ["TAPER39"])
        // Narrow elements of 1.5 pixels, wide of 3 (ratio 2), at 30 degrees.
        XCTAssertEqual(
            read(try code39TestZint(8, "SMALL39").c39Stretched(narrow: 2, wide: 4), module: 0.75, angle: 30)
                .map(\.text), ["SMALL39"])
    }

    func testTwoCodesInOnePicture() throws {
        var pic = TestPicture(width: 420, height: 300)
        pic.draw(
            try code39TestZint(8, "FIRST").c39Stretched(narrow: 2, wide: 5),
            .init(cx: 210, cy: 75, module: 1, barHeight: 60, quietZone: 24))
        pic.draw(
            try code39TestZint(8, "SECOND").c39Stretched(narrow: 2, wide: 5),
            .init(cx: 210, cy: 220, module: 1, barHeight: 60, angle: 8, quietZone: 24))
        XCTAssertEqual(Set(scan(pic).map(\.text)), ["FIRST", "SECOND"])
    }

    func testSymbolTouchingTheFrameBorder() throws {
        // A picture cropped to the symbol: its first or last bar, or both,
        // on the picture's border, at every quarter turn.
        let row = try code39TestZint(8, "EDGE-39").c39Stretched(narrow: 2, wide: 5)
        // (The scanner's lines stay a pixel or two off the frame's border:
        // narrower bars there are out of their reach.)
        for module in [1.5, 3.0] {
            for (start, end) in [(true, false), (false, true), (true, true)] {
                let pic = TestPicture.c39Touching(row, module: module, start: start, end: end)
                for turn in 0..<4 {
                    XCTAssertEqual(
                        scan(pic.c39Turned(turn)).map(\.text), ["EDGE-39"],
                        "module \(module), start \(start), end \(end), \(turn * 90) degrees")
                }
            }
        }
    }

    /// The element run of one line across `row` (`unit` pixels a module) that
    /// starts inside its first bar; `startsAtBorder` tells the run whether
    /// that start is the frame's border.
    private func decodeCutAtStart(_ row: ZintRow, unit: Int, startsAtBorder: Bool) -> [String] {
        var p: [Float] = []
        for m in row.modules { p += [Float](repeating: m ? 30 : 220, count: unit) }
        p += [Float](repeating: 220, count: 40 * unit)
        var edges = EdgeExtractor(), run = ElementRun()
        defer { edges.free(); run.free() }
        var sink = LinearHitSink()
        defer { sink.free() }
        p.withUnsafeBufferPointer { profile in
            edges.extract(profile.baseAddress!, count: p.count, relative: 0.1, floor: 2)
            run.fill(from: edges, lineLength: p.count, inverted: false, startsAtFrameBorder: startsAtBorder)
            run.profile = profile.baseAddress
            Code39Reader().decode(run, enabled: .code39, into: &sink)
        }
        return (0..<sink.hitCount).map { String(decoding: sink.text(of: sink.hits[$0]), as: UTF8.self) }
    }

    func testFrameBorderCountsAsQuietZoneOnlyOnTheBorder() throws {
        let row = try code39TestZint(8, "BORDER").c39Stretched(narrow: 2, wide: 5)
        XCTAssertEqual(decodeCutAtStart(row, unit: 2, startsAtBorder: true), ["BORDER"])
        // The same line cut short inside the frame: what lies before the
        // bar is unknown, and may be more bars (text, another symbol).
        XCTAssertEqual(decodeCutAtStart(row, unit: 2, startsAtBorder: false), [])
        // A bar glued to the start character on the border is no quiet zone either.
        let glued = ZintRow(modules: [true, true, false, false] + row.modules)
        XCTAssertEqual(decodeCutAtStart(glued, unit: 2, startsAtBorder: true), [])
    }

    /// The Code 32 check digit of eight digits, from the rule: the
    /// odd-placed digits plus the digit sums of the doubled even-placed
    /// ones, modulo 10.
    private func code32Check(_ digits: String) -> Character {
        let d = digits.map { Int(String($0))! }
        var sum = 0
        for (i, v) in d.enumerated() { sum += i % 2 == 0 ? v : (2 * v) / 10 + (2 * v) % 10 }
        return Character(String(sum % 10))
    }

    /// The six Code 39 characters of a nine-digit Code 32 number.
    private func code32Characters(_ number: Int) -> String {
        let digits = Array("0123456789BCDFGHJKLMNPQRSTUVWXYZ")
        var v = number, out = ""
        for _ in 0..<6 { out = String(digits[v % 32]) + out; v /= 32 }
        return out
    }

    func testCode32RoundTrips() throws {
        for data in ["12345678", "01234567", "00000000", "99999999", "31415926", "90000001"] {
            let full = data + String(code32Check(data))
            // zint -b 129: Code 32 from the eight digits, check digit added.
            let r = read(try code39TestZint(129, data).c39Stretched(narrow: 2, wide: 5))
            XCTAssertEqual(r.map(\.text), ["A" + full], data)
            guard let code = r.first else { continue }
            XCTAssertEqual(code.symbology, .code39)
            XCTAssertEqual(code.extendedText, code32Characters(Int(full)!), "raw Code 39 characters")
            XCTAssertEqual(code.symbologyIdentifier, "]A0")
        }
        XCTAssertEqual(code32Check("12345678"), "8")
        XCTAssertEqual(code32Characters(123456788), "3PRM8N")
    }

    func testSixCharactersThatAreNoCode32StayCode39() throws {
        // Six Code 32 digits whose check digit fails, six characters with
        // vowels or symbols, and a number of ten digits (beyond Code 32).
        for data in ["3PRM8P", "3PRM8M", "A1B2C3", "12-4.6", "ZZZZZZ"] {
            XCTAssertNotEqual(check(String(data.dropLast())), data.last!, data)
            let r = read(try code39TestZint(8, data).c39Stretched(narrow: 2, wide: 5))
            XCTAssertEqual(r.map(\.text), [data], data)
            XCTAssertEqual(r.first?.extendedText, "", data)
        }
        // Five or seven characters are never Code 32.
        for data in ["3PRM8", "3PRM8NB"] {
            XCTAssertEqual(read(try code39TestZint(8, data).c39Stretched(narrow: 2, wide: 5)).map(\.text), [data])
        }
    }

    func testNoQuietZoneNoReading() throws {
        // Bars right before the start character: no quiet zone, no reading.
        let code = try code39TestZint(8, "QZ").c39Stretched(narrow: 2, wide: 5)
        let row = ZintRow(modules: [true, true, false, false, true, false, false] + code.modules)
        var pic = TestPicture(width: 300, height: 120)
        pic.draw(row, .init(cx: 150, cy: 60, module: 1, barHeight: 80, quietZone: 20))
        XCTAssertTrue(scan(pic).isEmpty)
    }

    /// Decodes one line of widths (no grey levels: quiet zones count by width alone).
    private func decodeWidths(_ widths: [Float]) -> [String] { decodeWidthsAndErrors(widths).map(\.text) }

    private func decodeWidthsAndErrors(_ widths: [Float]) -> [(text: String, error: Float)] {
        LinearSymbolTestKit.decodeWidths(widths, Code39Reader(), .code39)
    }

    private func widths(_ row: ZintRow, unit: Float, leading: Float, trailing: Float) -> [Float] {
        LinearSymbolTestKit.widths(row, unit: unit, leading: leading, trailing: trailing)
    }

    func testQuietZonesAndGapsOnOneLine() throws {
        // zint: narrow 1 module, wide 2; stretched to 2 and 5 units of 1.5 pixels: narrow 3 pixels.
        let row = try code39TestZint(8, "GAP").c39Stretched(narrow: 2, wide: 5)
        XCTAssertEqual(decodeWidths(widths(row, unit: 1.5, leading: 30, trailing: 30)), ["GAP"])
        XCTAssertEqual(decodeWidths(widths(row, unit: 1.5, leading: 40, trailing: 40)), ["GAP"])
        // Quiet zones of six narrow elements on either side: nothing.
        XCTAssertEqual(decodeWidths([40, 5] + widths(row, unit: 1.5, leading: 18, trailing: 40)), [])
        XCTAssertEqual(decodeWidths([40, 5] + widths(row, unit: 1.5, leading: 30, trailing: 40)), ["GAP"])
        XCTAssertEqual(decodeWidths(widths(row, unit: 1.5, leading: 40, trailing: 18) + [5, 40]), [])
        // An inter-character gap of eight narrow elements splits the code: nothing.
        var w = widths(row, unit: 1.5, leading: 40, trailing: 40)
        w[10] = 24
        XCTAssertEqual(decodeWidths(w), [])
        // A character twice as wide as its neighbours (perspective does not do that): nothing.
        w = widths(row, unit: 1.5, leading: 40, trailing: 40)
        for k in 11...19 { w[k] *= 2 }
        XCTAssertEqual(decodeWidths(w), [])
        // Ink spread: bars wider, spaces narrower by a third of a narrow element.
        w = widths(row, unit: 1.5, leading: 40, trailing: 40)
        for k in 1..<(w.count - 1) { w[k] += k % 2 == 1 ? 1 : -1 }
        XCTAssertEqual(decodeWidths(w), ["GAP"])
    }

    func testErrorScale() throws {
        let row = try code39TestZint(8, "SCALE39").c39Stretched(narrow: 2, wide: 5)
        let clean = decodeWidthsAndErrors(widths(row, unit: 1.5, leading: 40, trailing: 40))
        XCTAssertEqual(clean.map(\.text), ["SCALE39"])
        XCTAssertLessThan(clean.first?.error ?? 9, 0.5)
        // Every element off by up to a quarter of a narrow element: still clean.
        var w = widths(row, unit: 1.5, leading: 40, trailing: 40)
        for k in 1..<(w.count - 1) { w[k] += [0.7, -0.5, 0.2, -0.7, 0.4][k % 5] }
        let jitter = decodeWidthsAndErrors(w)
        XCTAssertEqual(jitter.map(\.text), ["SCALE39"])
        XCTAssertLessThan(jitter.first?.error ?? 9, 0.5)
        // Wide elements hardly wider than narrow ones, and uneven: doubtful or not read.
        let squeezed = try code39TestZint(8, "SCALE39").c39Stretched(narrow: 4, wide: 6)
        w = widths(squeezed, unit: 0.75, leading: 40, trailing: 40)
        for k in 1..<(w.count - 1) { w[k] += [0.6, -0.6, 0.3, -0.3][k % 4] }
        let doubtful = decodeWidthsAndErrors(w)
        XCTAssertTrue(doubtful.allSatisfy { $0.error > 1.2 }, "\(doubtful)")
    }

    func testNothingFromNoiseStripesTextOrOtherSymbologies() throws {
        let thorough = ScanOptions(symbologies: .code39, effort: .thorough)
        var blank = TestPicture(width: 320, height: 240, background: 128)
        blank.addNoise(amplitude: 60, seed: 7)
        XCTAssertTrue(scan(blank, thorough).isEmpty)
        // Random bar and space widths of one to three narrow units, many times.
        for seed in 1...12 {
            let random = TestPicture.randomStripes(seed: seed, mix: 0x9E3779B97F4A7C15)
            XCTAssertTrue(scan(random, thorough).isEmpty, "random stripes \(seed)")
        }
        // Text-like: rows of glyph-like strokes and blocks.
        let text = TestPicture.textLike(seed: 99, glyphs: 6, glyphWidth: 10, advance: 13) { glyph, k, dy in
            switch glyph {
            case 0: k < 2 || k > 7
            case 1: k < 2 || dy < 3
            case 2: (k > 3 && k < 6) || dy % 10 < 2
            case 3: abs(k - dy / 2) < 2
            case 4: k < 2 || k > 7 || dy % 11 < 2
            default: false
            }
        }
        XCTAssertTrue(scan(text, thorough).isEmpty)
        // A Codabar symbol and an EAN-13 are not Code 39.
        var other = TestPicture(width: 400, height: 240)
        other.draw(
            try code39TestZint(18, "A123456789B").c39Stretched(narrow: 2, wide: 5),
            .init(cx: 200, cy: 60, module: 1, barHeight: 60, quietZone: 24))
        other.draw(try ZintRow.make(.eanx, "590123412345"), .init(cx: 200, cy: 170, module: 2, barHeight: 40))
        XCTAssertTrue(scan(other, thorough).isEmpty)
    }
}
