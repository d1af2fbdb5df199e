import Foundation
import XCTest
@testable import RLBarcode

/// Code 128 characters drawn from character values (for what zint does not
/// make: FNC1 in second position, FNC2, FNC3, FNC4 by hand, bad checks).
enum Code128Symbol {
    /// The row of a symbol with the given start and characters; the check
    /// character is computed unless `check` is given.
    static func row(_ values: [Int], check: Int? = nil) -> ZintRow {
        var sum = values[0]
        for (i, v) in values.enumerated().dropFirst() { sum += i * v }
        let all = values + [check ?? sum % 103]
        var modules: [Bool] = []
        func add(_ pattern: UInt32, _ elements: Int) {
            var digits: [Int] = []
            var p = pattern
            for _ in 0..<elements { digits.insert(Int(p % 10), at: 0); p /= 10 }
            for (k, d) in digits.enumerated() { modules += Array(repeating: k % 2 == 0, count: d) }
        }
        for v in all { add(Code128Reader.table[v], 6) }
        add(Code128Reader.stop, 7)
        return ZintRow(modules: modules)
    }
}

/// Code 128 and GS1-128 (ISO/IEC 15417) on zint's symbols.
final class Code128ReaderTests: XCTestCase {
    typealias Kit = LinearSymbolTestKit

    private func read(_ row: ZintRow, module: Double = 2, angle: Double = 0) -> [BarcodeResult] {
        let w = Int(Double(row.modules.count + 30) * module) + 40
        var pic = TestPicture(width: w, height: 140)
        pic.draw(row, .init(cx: Double(w) / 2, cy: 70, module: module, barHeight: 40, angle: angle))
        return Kit.scan(pic, .code128, [Code128Reader()])
    }

    func testPatternTableMatchesZint() throws {
        // Every value 0-102 in set C (digit pairs 00-99) and the starts: zint's
        // symbols decode, so the reader's table agrees with zint's.
        // (zint makes at most 60 characters a symbol.)
        for half in 0..<2 {
            var digits = ""
            for v in (50 * half)..<(50 * half + 50) { digits += String(format: "%02d", v) }
            let row = try Kit.row(Kit.code128, digits)
            let r = Kit.decode(Code128Reader(), .code128, row)
            XCTAssertEqual(r.map { String(decoding: $0.bytes, as: UTF8.self) }, [digits])
        }
        // Every printable ASCII character (set B values 0-94).
        for range in [32..<80, 80..<127] {
            var printable = ""
            for c in range { printable.unicodeScalars.append(Unicode.Scalar(UInt8(c))) }
            let r = Kit.decode(Code128Reader(), .code128, try Kit.row(Kit.code128, printable))
            XCTAssertEqual(r.map { String(decoding: $0.bytes, as: UTF8.self) }, [printable])
        }
        // Set A's control characters (values 64-95) and DEL.
        var controls = ""
        for c in 0..<32 { controls += String(format: "\\x%02X", c) }
        let r = Kit.decode(
            Code128Reader(), .code128, try Kit.row(Kit.code128, controls + "\\x7F", arguments: ["--esc"]))
        XCTAssertEqual(r.map(\.bytes), [Array(0..<32) + [127]])
    }

    func testCodeSetsAndShifts() throws {
        let cases: [(String, [UInt8])] = [
            ("Ab1234567890", Array("Ab1234567890".utf8)),  // B then C
            ("123456789012345678", Array("123456789012345678".utf8)),  // C only
            ("12345", Array("12345".utf8)),  // odd digit count: C then B (or A)
            ("abcdefXYZ", Array("abcdefXYZ".utf8)),  // B
            ("ABC\\tDEF\\n\\r", Array("ABC\tDEF\n\r".utf8)),  // A with control characters
            ("ab\\x01cd", Array("ab\u{01}cd".utf8)),  // B with a shift to A
            ("\\x01\\x02a\\x03\\x04", [1, 2, 97, 3, 4]),  // A with a shift to B
            ("HELLO\\x00world 42", Array("HELLO\u{00}world 42".utf8)),
            ("X", Array("X".utf8))
        ]
        let reader = Code128Reader()
        for (data, bytes) in cases {
            let row = try Kit.row(Kit.code128, data, arguments: ["--esc"])
            XCTAssertEqual(Kit.decode(reader, .code128, row).map(\.bytes), [bytes], data)
            // And through the scanner, on a picture.
            let r = read(row)
            XCTAssertEqual(r.map(\.bytes), [bytes], data)
            XCTAssertEqual(r.first?.symbology, .code128, data)
            XCTAssertEqual(r.first?.symbologyIdentifier, "]C0", data)
        }
    }

    func testShiftAndCodeChangesByValue() {
        let reader = Code128Reader()
        func text(_ values: [Int]) -> [[UInt8]] { Kit.decode(reader, .code128, Code128Symbol.row(values)).map(\.bytes) }
        // Start B "a", Shift, (set A) SOH = 65, "b".
        XCTAssertEqual(text([104, 65, 98, 65, 66]), [[97, 1, 98]])
        // Start A "A", Shift, (set B) "a" = 65, then set A again: 65 is SOH.
        XCTAssertEqual(text([103, 33, 98, 65, 65]), [[65, 97, 1]])
        // Start C 12, Code B, "x", Code C 34, Code A, "Z".
        XCTAssertEqual(text([105, 12, 100, 88, 99, 34, 101, 58]), [Array("12x34Z".utf8)])
        // A shift as the last character before the check breaks the rules.
        XCTAssertEqual(text([104, 65, 98]), [])
        // Start characters inside the data are not data.
        XCTAssertEqual(text([104, 65, 103, 65]), [])
    }

    func testGS1128() throws {
        let reader = Code128Reader()
        let cases: [(String, String, String)] = [
            ("[01]12345678901231[10]ABC", "011234567890123110ABC", "(01)12345678901231(10)ABC"),
            ("[10]ABC[21]XYZ", "10ABC\u{1D}21XYZ", "(10)ABC(21)XYZ"),
            ("[21]12345[17]261231[10]L1", "2112345\u{1D}17261231" + "10L1", "(21)12345(17)261231(10)L1"),
            ("[00]123456789012345675", "00123456789012345675", "(00)123456789012345675")
        ]
        for (data, text, hri) in cases {
            let row = try Kit.row(Kit.gs1128, data)
            XCTAssertEqual(Kit.decode(reader, .code128, row).map(\.bytes), [Array(text.utf8)], data)
            let r = read(row)
            XCTAssertEqual(r.map(\.text), [text], data)
            XCTAssertEqual(r.first?.symbologyIdentifier, "]C1", data)
            XCTAssertEqual(r.first?.extendedText, hri, data)
        }
    }

    func testFunctionCharactersByValue() {
        let reader = Code128Reader()
        func text(_ values: [Int]) -> [[UInt8]] { Kit.decode(reader, .code128, Code128Symbol.row(values)).map(\.bytes) }
        func modifier(_ values: [Int]) -> [Character] {
            Kit.decode(reader, .code128, Code128Symbol.row(values)).map(\.modifier)
        }
        // FNC1 in second position after a letter: AIM ]C2, the letter is data.
        XCTAssertEqual(text([104, 33, 102, 16, 17]), [Array("A01".utf8)])
        XCTAssertEqual(modifier([104, 33, 102, 16, 17]), ["2"])
        XCTAssertEqual(read(Code128Symbol.row([104, 33, 102, 16, 17])).map(\.symbologyIdentifier), ["]C2"])
        // ... and after a digit pair in set C.
        XCTAssertEqual(text([105, 42, 102, 12, 34]), [Array("421234".utf8)])
        XCTAssertEqual(modifier([105, 42, 102, 12, 34]), ["2"])
        // After a digit (not a letter) in set B, FNC1 is a separator.
        XCTAssertEqual(text([104, 17, 102, 18]), [[49, 0x1D, 50]])
        XCTAssertEqual(modifier([104, 17, 102, 18]), ["0"])
        // FNC1 first after Code C in a Start B symbol: GS1-128.
        XCTAssertEqual(text([104, 99, 102, 1, 12]), [Array("0112".utf8)])
        XCTAssertEqual(modifier([104, 99, 102, 1, 12]), ["1"])
        // FNC2 (message append) is dropped.
        XCTAssertEqual(text([104, 97, 33, 34]), [Array("AB".utf8)])
        // FNC3 (reader initialisation): not data, nothing reported.
        XCTAssertEqual(text([104, 96, 33, 34]), [])
        // FNC4 in set B (100) and set A (101): one character + 128.
        XCTAssertEqual(text([104, 67, 100, 73, 67]), [[99, 0xE9, 99]])
        XCTAssertEqual(text([103, 101, 64, 33]), [[128, 65]])
        // Two FNC4 latch, a single one meanwhile gives one plain character, two more unlatch.
        XCTAssertEqual(text([104, 100, 100, 65, 66, 100, 67, 68, 100, 100, 69]), [[0xE1, 0xE2, 99, 0xE4, 101]])
        // Nothing but a function character: no text, no reading.
        XCTAssertEqual(text([105, 102]), [])
    }

    func testLatin1ThroughFNC4() throws {
        let reader = Code128Reader()
        let cases: [(String, [UInt8])] = [
            ("café", [99, 97, 102, 0xE9]),
            ("éèàü", [0xE9, 0xE8, 0xE0, 0xFC]),
            ("Grüße 123456", [71, 114, 0xFC, 0xDF, 101, 32, 49, 50, 51, 52, 53, 54])
        ]
        for (data, bytes) in cases {
            let row = try Kit.row(Kit.code128, data)
            XCTAssertEqual(Kit.decode(reader, .code128, row).map(\.bytes), [bytes], data)
            let r = read(row)
            XCTAssertEqual(r.map(\.bytes), [bytes], data)
            XCTAssertEqual(r.first?.symbologyIdentifier, "]C0", data)
            // The text is the payload read as ISO/IEC 8859-1.
            XCTAssertEqual(r.first?.text, data)
        }
    }

    func testDamagedCheckCharacterFails() {
        let reader = Code128Reader()
        let values = [104, 33, 34, 35, 17, 18]
        XCTAssertEqual(Kit.decode(reader, .code128, Code128Symbol.row(values)).count, 1)
        var sum = values[0]
        for (i, v) in values.enumerated().dropFirst() { sum += i * v }
        for bad in [(sum + 1) % 103, (sum + 50) % 103, (sum + 102) % 103] {
            XCTAssertEqual(Kit.decode(reader, .code128, Code128Symbol.row(values, check: bad)).count, 0)
            XCTAssertEqual(read(Code128Symbol.row(values, check: bad)).count, 0)
        }
    }

    func testQuietZones() throws {
        let reader = Code128Reader()
        let row = try Kit.row(Kit.code128, "QUIET")
        XCTAssertEqual(Kit.decode(reader, .code128, row, quiet: 10.5).count, 1)
        XCTAssertEqual(Kit.decode(reader, .code128, row, quiet: 6).count, 0, "leading quiet zone too short")
        XCTAssertEqual(Kit.decode(reader, .code128, row, quiet: 12, trailingQuiet: 6).count, 0, "trailing too short")
    }

    func testInkSpreadAndBackwards() throws {
        let reader = Code128Reader()
        let row = try Kit.row(Kit.code128, "Spread 0123456789")
        for spread: Float in [-1.2, -0.6, 0.6, 1.2] {
            let r = Kit.decode(reader, .code128, row, module: 3, spread: spread)
            XCTAssertEqual(r.map(\.bytes), [Array("Spread 0123456789".utf8)], "spread \(spread)")
        }
        let clean = Kit.decode(reader, .code128, row)
        XCTAssertLessThan(clean.first?.error ?? 9, 0.1)
        // Backwards: not read by this direction (the scanner reads both).
        XCTAssertEqual(Kit.decode(reader, .code128, row, reversed: true).count, 0)
    }

    func testEveryAngleInFifteenDegreeSteps() throws {
        let data = "Angle-128 0042"
        let row = try Kit.row(Kit.code128, data)
        for step in 0..<24 {
            let angle = Double(step * 15)
            var pic = TestPicture(width: 440, height: 440)
            pic.draw(row, .init(cx: 220, cy: 220, module: 2, barHeight: 40, angle: angle))
            let r = Kit.scan(pic, .code128, [Code128Reader()])
            XCTAssertEqual(r.map(\.text), [data], "angle \(angle)")
        }
    }

    func testInvertedBlurNoise() throws {
        let data = "INV12345678"
        let row = try Kit.row(Kit.code128, data)
        var pic = TestPicture(width: 360, height: 200)
        pic.draw(row, .init(cx: 180, cy: 100, module: 2.5, barHeight: 40, angle: 30))
        pic.invert()
        let inv = Kit.scan(pic, .code128, [Code128Reader()])
        XCTAssertEqual(inv.map(\.text), [data])
        XCTAssertEqual(inv.first?.isInverted, true)

        let size = Int(Double(row.modules.count + 40) * 3) + 20
        var noisy = TestPicture(width: size, height: 220, background: 110)
        noisy.draw(row, .init(cx: Double(size) / 2, cy: 110, module: 3, barHeight: 40, angle: 8, dark: 80, light: 160))
        noisy.blur(radius: 1)
        noisy.addNoise(amplitude: 8)
        XCTAssertEqual(Kit.scan(noisy, .code128, [Code128Reader()]).map(\.text), [data])
        XCTAssertEqual(Kit.scan(noisy, .code128, [Code128Reader()], effort: .thorough).map(\.text), [data])
    }

    func testSmallModulesAndPerspective() throws {
        let data = "Small-128 0042"
        let row = try Kit.row(Kit.code128, data)
        let size = Int(Double(row.modules.count + 40) * 3) + 20
        var small = TestPicture(width: size, height: 120, background: 120)
        small.draw(row, .init(cx: Double(size) / 2, cy: 60, module: 1.5, barHeight: 30, angle: 7, dark: 60, light: 200))
        XCTAssertEqual(Kit.scan(small, .code128, [Code128Reader()]).map(\.text), [data])
        var tapered = TestPicture(width: size, height: 220, background: 120)
        tapered.draw(
            row,
            .init(cx: Double(size) / 2, cy: 110, module: 3, barHeight: 40, angle: 7, taper: 0.3, dark: 60, light: 200))
        XCTAssertEqual(Kit.scan(tapered, .code128, [Code128Reader()]).map(\.text), [data])
    }

    func testTwoCodesInOnePicture() throws {
        var pic = TestPicture(width: 520, height: 320)
        pic.draw(try Kit.row(Kit.code128, "FIRST-1"), .init(cx: 150, cy: 90, module: 2, barHeight: 30, angle: 15))
        pic.draw(
            try Kit.row(Kit.gs1128, "[01]12345678901231"), .init(cx: 330, cy: 230, module: 2, barHeight: 30, angle: -40)
        )
        XCTAssertEqual(Set(Kit.scan(pic, .code128, [Code128Reader()]).map(\.text)), ["FIRST-1", "0112345678901231"])
    }

    func testSymbologyDisabledReadsNothing() throws {
        let row = try Kit.row(Kit.code128, "OFF")
        XCTAssertEqual(Kit.decode(Code128Reader(), .code93, row).count, 0)
    }

    func testNothingFromNoiseStripesOrText() throws {
        for (i, frame) in Kit.falsePositiveFrames().enumerated() {
            XCTAssertEqual(
                Kit.scan(frame, .code128, [Code128Reader()], effort: .thorough).map(\.text), [], "frame \(i)")
        }
        // Other symbologies are not Code 128.
        var pic = TestPicture(width: 400, height: 140)
        pic.draw(try Kit.row(Kit.code93, "CODE93"), .init(cx: 200, cy: 70, module: 2, barHeight: 40))
        XCTAssertEqual(Kit.scan(pic, .code128, [Code128Reader()], effort: .thorough).count, 0)
        var ean = TestPicture(width: 300, height: 140)
        ean.draw(try ZintRow.make(.eanx, "590123412345"), .init(cx: 150, cy: 70, module: 2, barHeight: 40))
        XCTAssertEqual(Kit.scan(ean, .code128, [Code128Reader()], effort: .thorough).count, 0)
    }
}
