import XCTest
@testable import RLBarcode

/// The Aztec decoding stage on module matrices made by zint (no pictures):
/// every size, every mode, ECI, GS1, structured append, reader
/// initialisation, Runes, and damage up to and beyond the correction limit.
final class AztecDecoderTests: XCTestCase {
    private func decode(
        _ data: String, _ arguments: [String] = [], file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> AztecDecodeResult? {
        guard let m = try ZintAztec.make(data, arguments: arguments, file: file, line: line) else { return nil }
        let r = AztecDecoder.decodeResult(m)
        if case .failure(let f) = r { XCTFail("\(arguments) \(data.prefix(40)): \(f)", file: file, line: line) }
        return try? r.get()
    }

    func testLayoutSizes() {
        XCTAssertEqual(AztecLayout(compact: true, layers: 1).size, 15)
        XCTAssertEqual(AztecLayout(compact: true, layers: 4).size, 27)
        XCTAssertEqual(AztecLayout(compact: false, layers: 1).size, 19)
        XCTAssertEqual(AztecLayout(compact: false, layers: 4).size, 31)
        XCTAssertEqual(AztecLayout(compact: false, layers: 5).size, 37)
        XCTAssertEqual(AztecLayout(compact: false, layers: 32).size, 151)
        XCTAssertEqual(AztecLayout(compact: true, layers: 1).totalCodewords, 17)
        XCTAssertEqual(AztecLayout(compact: false, layers: 32).totalCodewords, 1664)
    }

    func testEveryCompactLayerCount() throws {
        for v in 1...4 {
            let text = "Compact \(v)"
            let r = try decode(text, ["--vers=\(v)"])
            XCTAssertEqual(r?.text, text)
            XCTAssertEqual(r?.compact, true)
            XCTAssertEqual(r?.layers, v)
            XCTAssertEqual(r?.symbologyIdentifier, "]z0")
        }
    }

    func testEveryFullRangeLayerCount() throws {
        for v in 5...36 {
            let text = v == 5 ? "Full 1" : "Full range symbol with \(v - 4) layers 0123456789"
            let r = try decode(text, ["--vers=\(v)"])
            XCTAssertEqual(r?.text, text, "layers \(v - 4)")
            XCTAssertEqual(r?.compact, false)
            XCTAssertEqual(r?.layers, v - 4)
        }
    }

    func testFullyUsedSymbols() throws {
        // Long data that fills symbols of each code word size.
        let base = "The quick brown fox jumps over the lazy dog 0123456789 !?;:"
        for k in [1, 3, 10, 30] {
            let text = String(repeating: base, count: k)
            XCTAssertEqual(try decode(text)?.text, text)
        }
    }

    func testModes() throws {
        let samples = [
            "UPPER CASE", "lower case", "MiXeD CaSe wOrDs", "12345678901234567890", "3.14, 2.71",
            "a@b\\c^d_e`f|g~h", "Punct: !\"#$%&'()*+,-./:;<=>?[]{}", "CR\rLF\r\nEnd. Next, x: y",
            "Digits 123 then UPPER then 456 lower 789", "Tab\there\u{1}ctl\u{7F}"
        ]
        for s in samples { XCTAssertEqual(try decode(s)?.text, s) }
    }

    func testBinaryShift() throws {
        let r = try decode("caf\\xE9 \\x80\\xFF\\x00 end", ["--esc", "--binary"])
        XCTAssertEqual(r?.bytes, Array("caf".utf8) + [0xE9, 0x20, 0x80, 0xFF, 0x00] + Array(" end".utf8))
        XCTAssertEqual(r?.text, "café \u{80}ÿ\u{0} end")
        // A long byte run (11-bit length).
        let long = String(repeating: "\\xC4", count: 300)
        XCTAssertEqual(try decode(long, ["--esc", "--binary"])?.bytes, [UInt8](repeating: 0xC4, count: 300))
    }

    func testECI() throws {
        let r = try decode("Ελληνικά", ["--eci=9"])
        XCTAssertEqual(r?.text, "Ελληνικά")
        XCTAssertEqual(r?.eci, 9)
        XCTAssertEqual(r?.symbologyIdentifier, "]z3")
        let u = try decode("日本語 ✓", ["--eci=26"])
        XCTAssertEqual(u?.text, "日本語 ✓")
        XCTAssertEqual(u?.bytes, Array("日本語 ✓".utf8))
    }

    func testGS1() throws {
        let r = try decode("[01]09501101530003[10]ABC123[17]251231", ["--gs1"])
        XCTAssertEqual(r?.gs1, true)
        XCTAssertEqual(r?.symbologyIdentifier, "]z1")
        XCTAssertEqual(r?.text, "010950110153000310ABC123\u{1D}17251231")
        XCTAssertEqual(r?.gs1HumanReadable, "(01)09501101530003(10)ABC123(17)251231")
    }

    func testStructuredAppend() throws {
        let r = try decode("PART TWO", ["--structapp=2,3"])
        XCTAssertEqual(r?.text, "PART TWO")
        XCTAssertEqual(r?.structuredAppend?.index, 1)
        XCTAssertEqual(r?.structuredAppend?.total, 3)
        XCTAssertEqual(r?.symbologyIdentifier, "]z6")
        let id = try decode("Data", ["--structapp=4,7,MSGID"])
        XCTAssertEqual(id?.text, "Data")
        XCTAssertEqual(id?.structuredAppend?.index, 3)
        XCTAssertEqual(id?.structuredAppend?.total, 7)
        XCTAssertEqual(id?.structuredAppend?.id, "MSGID")
    }

    func testReaderInitialisation() throws {
        for args in [[], ["--vers=2"], ["--vers=5"], ["--vers=7"]] {
            let r = try decode("INIT 1", ["--init"] + args)
            XCTAssertEqual(r?.text, "INIT 1", "\(args)")
            XCTAssertEqual(r?.readerInit, true, "\(args)")
        }
        XCTAssertEqual(try decode("INIT 1")?.readerInit, false)
    }

    func testRunes() throws {
        for v in [0, 1, 7, 68, 128, 217, 223, 255] {
            guard let m = try ZintAztec.rune(v) else { continue }
            let r = AztecDecoder.decode(m)
            XCTAssertEqual(r?.isRune, true)
            XCTAssertEqual(r?.text, v < 10 ? "00\(v)" : v < 100 ? "0\(v)" : String(v))
            XCTAssertEqual(r?.symbologyIdentifier, "]zC")
        }
    }

    func testRotationsAndMirror() throws {
        guard let m = try ZintAztec.make("Turned around", arguments: ["--vers=6"]) else { return }
        var t = m
        for turn in 0..<4 {
            XCTAssertEqual(AztecDecoder.decode(t)?.text, "Turned around", "turn \(turn)")
            XCTAssertEqual(AztecDecoder.decode(t.transposed())?.mirrored, true)
            t = rotated(t)
        }
    }

    private func rotated(_ m: BitMatrix) -> BitMatrix {
        var r = BitMatrix(size: m.width)
        let n = m.width - 1
        for y in 0...n { for x in 0...n where m[x, y] { r[n - y, x] = true } }
        return r
    }

    /// Damages whole code words of the data layers: up to the decoder's
    /// limit corrects, beyond it fails or (never) misreads.
    func testDamage() throws {
        var rng = DecoderTestRandom(seed: 5)
        for (args, text) in [
            (["--vers=2"], "DAMAGE 12"), (["--vers=8"], "Damage in a full-range symbol"),
            (["--vers=14", "--secure=3"], String(repeating: "Payload ", count: 20))
        ] {
            guard let m = try ZintAztec.make(text, arguments: args) else { continue }
            guard let clean = AztecDecoder.decode(m) else { XCTFail("\(args)"); continue }
            let layout = AztecLayout(compact: clean.compact, layers: clean.layers)
            let n = layout.totalCodewords, c = n - clean.dataCodewords
            let limit = c <= 4 ? (c - 2) / 2 : c <= 10 ? (c - 1) / 2 : c / 2
            let modules = layout.dataModules(), skip = layout.totalBits % layout.codewordBits
            for trial in 0..<6 {
                for errors in [limit, limit + 1, limit + 3] {
                    var d = m
                    var words = Array(0..<n)
                    words.shuffle(using: &rng)
                    for w in words.prefix(errors) {
                        let bit = Int.random(in: 0..<layout.codewordBits, using: &rng)
                        let p = Int(modules[skip + w * layout.codewordBits + bit])
                        d.flip(x: p % layout.size, y: p / layout.size)
                    }
                    let r = AztecDecoder.decode(d)
                    if errors <= limit {
                        XCTAssertEqual(r?.text, text, "\(args) \(errors) errors, trial \(trial)")
                    } else if let r {
                        XCTAssertEqual(r.text, text, "misread with \(errors) errors")
                    }
                }
            }
        }
    }

    func testNoiseMatricesFail() {
        var rng = DecoderTestRandom(seed: 11)
        for size in [11, 15, 19, 23, 27, 31, 37, 41] {
            for _ in 0..<50 {
                var m = BitMatrix(size: size)
                for y in 0..<size { for x in 0..<size where Bool.random(using: &rng) { m[x, y] = true } }
                XCTAssertNil(AztecDecoder.decode(m))
            }
        }
        XCTAssertNil(AztecDecoder.decode(BitMatrix(size: 13)))
        XCTAssertNil(AztecDecoder.decode(BitMatrix(width: 15, height: 17)))
    }
}

/// Modules marked as not seen (a symbol cut by the picture's edge) are
/// corrected as erasures.
final class AztecErasureTests: XCTestCase {
    func testCutEdgeCorrectsAsErasures() throws {
        let text = String(repeating: "Cut off at the edge ", count: 8)
        guard let m = try ZintAztec.make(text, arguments: ["--vers=12", "--secure=4"]) else { return }
        var cut = m, mask = BitMatrix(size: m.width)
        // The leftmost columns are lost: set light and marked unreliable.
        for y in 0..<m.width {
            for x in 0..<12 {
                cut[x, y] = false
                mask[x, y] = true
            }
        }
        XCTAssertEqual(AztecDecoder.decode(cut, unreliable: mask)?.text, text)
        // Nothing marked: too many errors for correction alone, and no misread.
        let plain = AztecDecoder.decode(cut)
        XCTAssertNil(plain)
    }
}
