import Foundation
import XCTest
@testable import RLBarcode

/// Code 93 characters drawn from values, for bad check characters and
/// shift pairs zint would not make.
enum Code93Symbol {
    /// The row of `*`, the values, C and K (computed unless given), `*` and the termination bar.
    static func row(_ values: [Int], c: Int? = nil, k: Int? = nil) -> ZintRow {
        var cs = 0, ks = 0
        let n = values.count
        for (i, v) in values.enumerated() {
            cs += v * ((n - 1 - i) % 20 + 1)
            ks += v * ((n - i) % 15 + 1)
        }
        let cv = c ?? cs % 47
        ks += cv
        let kv = k ?? ks % 47
        var modules: [Bool] = []
        for v in [47] + values + [cv, kv, 47] {
            var digits: [Int] = []
            var p = Code93Reader.table[v]
            for _ in 0..<6 { digits.insert(Int(p % 10), at: 0); p /= 10 }
            for (e, d) in digits.enumerated() { modules += Array(repeating: e % 2 == 0, count: d) }
        }
        modules.append(true)
        return ZintRow(modules: modules)
    }
}

/// Code 93 (AIM USS-93) on zint's symbols.
final class Code93ReaderTests: XCTestCase {
    typealias Kit = LinearSymbolTestKit

    private func read(_ row: ZintRow, module: Double = 2) -> [BarcodeResult] {
        let w = Int(Double(row.modules.count + 30) * module) + 40
        var pic = TestPicture(width: w, height: 140)
        pic.draw(row, .init(cx: Double(w) / 2, cy: 70, module: module, barHeight: 40))
        return Kit.scan(pic, .code93, [Code93Reader()])
    }

    func testEveryCharacter() throws {
        let reader = Code93Reader()
        let data = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%"
        let row = try Kit.row(Kit.code93, data)
        XCTAssertEqual(Kit.decode(reader, .code93, row).map { String(decoding: $0.bytes, as: UTF8.self) }, [data])
        XCTAssertLessThan(Kit.decode(reader, .code93, row).first?.error ?? 9, 0.1)
        for data in ["TEST93", "CODE 93", "A", "12345678901234567890"] {
            let r = read(try Kit.row(Kit.code93, data))
            XCTAssertEqual(r.map(\.text), [data], data)
            XCTAssertEqual(r.first?.symbology, .code93, data)
            XCTAssertEqual(r.first?.symbologyIdentifier, "]G0", data)
        }
    }

    func testFullASCII() throws {
        let reader = Code93Reader()
        // Lower case, punctuation and control characters, through the shift pairs.
        var all: [UInt8] = []
        for c in 1..<128 { all.append(UInt8(c)) }
        let cases: [(String, [UInt8])] = [
            ("abc", Array("abc".utf8)),
            ("Hello, World!", Array("Hello, World!".utf8)),
            ("a@b`c{|}~;<=>?[\\\\]^_:\\x22#&'()*,", Array("a@b`c{|}~;<=>?[\\]^_:\"#&'()*,".utf8)),
            ("\\x01\\x1A\\x1B\\x1F\\x7F\\x00", [1, 26, 27, 31, 127, 0])
        ]
        for (data, bytes) in cases {
            let row = try Kit.row(Kit.code93, data, arguments: ["--esc"])
            XCTAssertEqual(Kit.decode(reader, .code93, row).map(\.bytes), [bytes], data)
            XCTAssertEqual(read(row).map(\.bytes), [bytes], data)
        }
        // Every ASCII character once (zint makes at most 107 characters a symbol).
        for part in [all[0..<40], all[40..<80], all[80...]] {
            let data = part.map { String(format: "\\x%02X", $0) }.joined()
            XCTAssertEqual(
                Kit.decode(reader, .code93, try Kit.row(Kit.code93, data, arguments: ["--esc"])).map(\.bytes),
                [Array(part)])
        }
    }

    func testShiftPairsByValue() {
        let reader = Code93Reader()
        func text(_ values: [Int]) -> [[UInt8]] { Kit.decode(reader, .code93, Code93Symbol.row(values)).map(\.bytes) }
        // (+)A = a, (%)U = NUL, (/)Z = ':', ($)M = CR.
        XCTAssertEqual(text([46, 10, 44, 30, 45, 35, 43, 22]), [[97, 0, 58, 13]])
        // (%)X, (%)Y, (%)Z are DEL.
        XCTAssertEqual(text([44, 33, 44, 34, 44, 35]), [[127, 127, 127]])
        // A shift followed by a digit, (/)P, or a shift at the end: invalid.
        XCTAssertEqual(text([46, 1]), [])
        XCTAssertEqual(text([45, 25]), [])
        XCTAssertEqual(text([10, 46]), [])
    }

    func testDamagedCheckCharactersFail() {
        let reader = Code93Reader()
        let values = [29, 14, 28, 29, 9, 3]  // TEST93
        XCTAssertEqual(Kit.decode(reader, .code93, Code93Symbol.row(values)).map(\.bytes), [Array("TEST93".utf8)])
        let good = Kit.decode(reader, .code93, Code93Symbol.row(values))
        XCTAssertEqual(good.count, 1)
        var cs = 0
        for (i, v) in values.enumerated() { cs += v * ((values.count - 1 - i) % 20 + 1) }
        for bad in [1, 20, 46] {
            let c = (cs + bad) % 47
            XCTAssertEqual(Kit.decode(reader, .code93, Code93Symbol.row(values, c: c)).count, 0, "C off by \(bad)")
            XCTAssertEqual(read(Code93Symbol.row(values, c: c)).count, 0, "C off by \(bad)")
        }
        // A good C with a bad K.
        let row = Code93Symbol.row(values)
        let k = Kit.runs(row)  // unused shape check: the row is well formed
        XCTAssertEqual(k.count, (values.count + 4) * 6 + 1)
        var ks = 0
        for (i, v) in values.enumerated() { ks += v * ((values.count - i) % 15 + 1) }
        ks += cs % 47
        XCTAssertEqual(Kit.decode(reader, .code93, Code93Symbol.row(values, k: (ks + 5) % 47)).count, 0)
    }

    func testQuietZonesAndTerminationBar() throws {
        let reader = Code93Reader()
        let row = try Kit.row(Kit.code93, "QUIET")
        XCTAssertEqual(Kit.decode(reader, .code93, row, quiet: 10.5).count, 1)
        XCTAssertEqual(Kit.decode(reader, .code93, row, quiet: 6).count, 0)
        XCTAssertEqual(Kit.decode(reader, .code93, row, quiet: 12, trailingQuiet: 6).count, 0)
        // Without the termination bar, nothing.
        var cut = row
        cut.modules.removeLast()
        XCTAssertEqual(Kit.decode(reader, .code93, cut).count, 0)
    }

    func testInkSpreadAndBackwards() throws {
        let reader = Code93Reader()
        let row = try Kit.row(Kit.code93, "SPREAD-93")
        for spread: Float in [-0.9, -0.45, 0.45, 0.9] {
            XCTAssertEqual(
                Kit.decode(reader, .code93, row, spread: spread).map(\.bytes), [Array("SPREAD-93".utf8)], "\(spread)")
        }
        XCTAssertEqual(Kit.decode(reader, .code93, row, reversed: true).count, 0)
    }

    func testEveryAngleInFifteenDegreeSteps() throws {
        let data = "ANGLE/93"
        let row = try Kit.row(Kit.code93, data)
        for step in 0..<24 {
            let angle = Double(step * 15)
            var pic = TestPicture(width: 320, height: 320)
            pic.draw(row, .init(cx: 160, cy: 160, module: 2, barHeight: 40, angle: angle))
            XCTAssertEqual(Kit.scan(pic, .code93, [Code93Reader()]).map(\.text), [data], "angle \(angle)")
        }
    }

    func testInvertedBlurNoise() throws {
        let data = "Noisy 93"
        let row = try Kit.row(Kit.code93, data)
        let size = Int(Double(row.modules.count + 40) * 3)
        var pic = TestPicture(width: size, height: size / 2 + 40)
        pic.draw(row, .init(cx: Double(size) / 2, cy: Double(size / 4 + 20), module: 2.5, barHeight: 40, angle: -20))
        pic.invert()
        let inv = Kit.scan(pic, .code93, [Code93Reader()])
        XCTAssertEqual(inv.map(\.text), [data])
        XCTAssertEqual(inv.first?.isInverted, true)

        var noisy = TestPicture(width: size + 20, height: 220, background: 110)
        noisy.draw(
            row, .init(cx: Double(size + 20) / 2, cy: 110, module: 3, barHeight: 40, angle: 8, dark: 80, light: 160))
        noisy.blur(radius: 1)
        noisy.addNoise(amplitude: 8)
        XCTAssertEqual(Kit.scan(noisy, .code93, [Code93Reader()]).map(\.text), [data])
        XCTAssertEqual(Kit.scan(noisy, .code93, [Code93Reader()], effort: .thorough).map(\.text), [data])
    }

    func testSmallModulesAndPerspective() throws {
        let data = "MATRIX-93"
        let row = try Kit.row(Kit.code93, data)
        let size = Int(Double(row.modules.count + 40) * 3) + 20
        var small = TestPicture(width: size, height: 120, background: 120)
        small.draw(row, .init(cx: Double(size) / 2, cy: 60, module: 1.5, barHeight: 30, angle: 7, dark: 60, light: 200))
        XCTAssertEqual(Kit.scan(small, .code93, [Code93Reader()]).map(\.text), [data])
        var tapered = TestPicture(width: size, height: 220, background: 120)
        tapered.draw(
            row,
            .init(cx: Double(size) / 2, cy: 110, module: 3, barHeight: 40, angle: 7, taper: 0.3, dark: 60, light: 200))
        XCTAssertEqual(Kit.scan(tapered, .code93, [Code93Reader()]).map(\.text), [data])
    }

    func testTwoCodesInOnePicture() throws {
        var pic = TestPicture(width: 560, height: 440)
        pic.draw(try Kit.row(Kit.code93, "LEFT"), .init(cx: 150, cy: 110, module: 2, barHeight: 30, angle: 20))
        pic.draw(try Kit.row(Kit.code93, "right"), .init(cx: 400, cy: 240, module: 2, barHeight: 30, angle: 75))
        XCTAssertEqual(Set(Kit.scan(pic, .code93, [Code93Reader()]).map(\.text)), ["LEFT", "right"])
    }

    func testBothReadersTogether() throws {
        var pic = TestPicture(width: 480, height: 300)
        pic.draw(try Kit.row(Kit.code93, "C93"), .init(cx: 130, cy: 80, module: 2, barHeight: 30))
        pic.draw(try Kit.row(Kit.code128, "C128"), .init(cx: 330, cy: 220, module: 2, barHeight: 30, angle: 45))
        let r = Kit.scan(pic, [.code93, .code128], [Code128Reader(), Code93Reader()])
        XCTAssertEqual(Set(r.map { "\($0.symbology.nick ?? "?") \($0.text)" }), ["code-93 C93", "code-128 C128"])
    }

    func testNothingFromNoiseStripesOrText() throws {
        for (i, frame) in Kit.falsePositiveFrames().enumerated() {
            XCTAssertEqual(Kit.scan(frame, .code93, [Code93Reader()], effort: .thorough).map(\.text), [], "frame \(i)")
        }
        var pic = TestPicture(width: 400, height: 140)
        pic.draw(try Kit.row(Kit.code128, "CODE128"), .init(cx: 200, cy: 70, module: 2, barHeight: 40))
        XCTAssertEqual(Kit.scan(pic, .code93, [Code93Reader()], effort: .thorough).count, 0)
    }
}
