import XCTest
@testable import RLBarcode

/// The Data Matrix decoding stage on module matrices made by zint: every
/// size, every encodation scheme, ECI, GS1, structured append, and error
/// correction up to and just beyond its limit.
final class DataMatrixDecoderTests: XCTestCase {
    private func symbol(
        _ data: String, _ args: [String] = [], file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> BitMatrix {
        try ZintMatrix.symbol(.dataMatrix, data, arguments: args, file: file, line: line)
    }

    /// The data code words of a matrix (after correction), to check which
    /// scheme an encoder chose.
    private func dataCodewords(_ m: BitMatrix) -> [UInt8]? {
        guard let v = DMVersion.version(rows: m.height, columns: m.width) else { return nil }
        var cw = [UInt8](repeating: 0, count: v.totalCodewords)
        DMDecoder.readCodewords(m, v, into: &cw)
        return DMDecoder.correct(cw, v, standardInterleave: true)?.data
    }

    func testSizeTableAgreesWithPlacement() {
        XCTAssertEqual(DMVersion.all.count, 48)
        for v in DMVersion.all {
            XCTAssertEqual(DMPlacement.table(v).count, 8 * v.totalCodewords, "\(v.rows)x\(v.columns)")
            XCTAssertEqual(v.regionsAcross * (v.regionColumns + 2), v.columns)
            XCTAssertEqual(v.regionsDown * (v.regionRows + 2), v.rows)
            XCTAssertEqual(v.checkCodewords % v.blockCount, 0)
            XCTAssertEqual(Set(DMPlacement.table(v)).count, 8 * v.totalCodewords)
        }
    }

    func testEverySizeRoundTrip() throws {
        for (n, v) in DMVersion.all.enumerated() {
            // Enough data to fill part of the symbol, digits and letters.
            let capacity = v.dataCodewords
            var text = ""
            let alphabet = Array("Data Matrix 0123456789 abc XYZ-")
            for k in 0..<max(1, capacity - 2) { text.append(alphabet[(k * 7) % alphabet.count]) }
            var args = ["--vers=\(n + 1)"]
            if v.isDMRE { args.append("--dmre") }
            // Keep the text short enough for any scheme zint picks.
            text = String(text.prefix(max(1, capacity * 3 / 4)))
            let m = try symbol(text, args)
            XCTAssertEqual(m.height, v.rows, "size \(v.rows)x\(v.columns)")
            XCTAssertEqual(m.width, v.columns, "size \(v.rows)x\(v.columns)")
            guard let r = DMDecoder.decode(m) else {
                XCTFail("\(v.rows)x\(v.columns): \(DMDecoder.decodeResult(m))"); continue
            }
            XCTAssertEqual(r.text, text, "\(v.rows)x\(v.columns)")
            XCTAssertEqual(r.rows, v.rows)
            XCTAssertEqual(r.symbologyIdentifier, "]d1")
            XCTAssertFalse(r.mirrored)
        }
    }

    func testEncodationSchemes() throws {
        // (data, zint arguments, the latch code word the encoder should start with)
        let cases: [(String, [String], UInt8?)] = [
            ("1234567890123456", [], nil),  // ASCII digit pairs
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123", [], 230),  // C40
            ("abcdefghijklmnopqrstuvwxyzabcd", [], 239),  // Text
            ("ABC>DEF*GHI>JKL*MNO>PQR*STU\r", [], 238),  // ANSI X12
            ("ABC.DEF/GHI:JKL.MNO/PQR:STU.VWX/", [], 240),  // EDIFACT
            // Base 256
            ("\\xE9\\xE8\\xE0\\xFF\\x80\\x81\\x82\\x83\\x84\\x85\\x86\\x87\\x88\\x89", ["--binary", "--esc"], 231)
        ]
        for (data, args, latch) in cases {
            let m = try symbol(data, args)
            guard let r = DMDecoder.decode(m) else {
                XCTFail("no read: \(data) \(DMDecoder.decodeResult(m))"); continue
            }
            if args.contains("--esc") {
                XCTAssertEqual(
                    r.bytes, [0xE9, 0xE8, 0xE0, 0xFF, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89])
                XCTAssertEqual(r.text, "éèàÿ\u{80}\u{81}\u{82}\u{83}\u{84}\u{85}\u{86}\u{87}\u{88}\u{89}")
            } else {
                XCTAssertEqual(r.text, data)
                XCTAssertEqual(r.bytes, Array(data.utf8))
            }
            if let latch, let cw = dataCodewords(m) {
                XCTAssertTrue(cw.contains(latch), "\(data): scheme \(latch) expected in \(cw)")
            }
        }
    }

    func testMixedSchemesAndShifts() throws {
        let samples = [
            "Hello, World! The quick brown fox jumps over the lazy dog 1234567890",
            "lower UPPER MiXeD 12 ab !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
            "ABCDEFGHIJabcdefghij0123456789ABCDEFabcdef\u{1}\u{2}\u{1F}",
            "X12X12X12*>\rABCDEFGH0123456789abcdefghABC.DEF:GHI/123",
            "~`{}|^_ AaBbCc 000111222333444555 EDIFACT:TEST/DATA.END"
        ]
        for s in samples {
            for extra in [[], ["--fast"]] {
                let m = try symbol(s, extra)
                XCTAssertEqual(DMDecoder.decode(m)?.text, s, "\(s) \(extra)")
            }
        }
        // Upper shift: Latin-1 characters outside Base 256.
        let m = try symbol("Gr\\xFC\\xDFe aus K\\xF6ln", ["--esc", "--binary"])
        XCTAssertEqual(DMDecoder.decode(m)?.text, "Grüße aus Köln")
    }

    func testLongBase256Field() throws {
        // More than 249 bytes: the two-code-word length field.
        var data = ""
        for k in 0..<300 { data += String(format: "\\x%02X", 128 + k % 128) }
        let m = try symbol(data, ["--esc", "--binary"])
        let r = DMDecoder.decode(m)
        XCTAssertEqual(r?.bytes, (0..<300).map { UInt8(128 + $0 % 128) })
    }

    func testECI() throws {
        let m = try symbol("Ελληνικά", ["--eci=9"])  // ISO/IEC 8859-7
        let r = DMDecoder.decode(m)
        XCTAssertEqual(r?.text, "Ελληνικά")
        XCTAssertEqual(r?.eci, 9)
        XCTAssertEqual(r?.symbologyIdentifier, "]d4")
        let u = try symbol("Grüße 😀", ["--eci=26"])
        XCTAssertEqual(DMDecoder.decode(u)?.text, "Grüße 😀")
        XCTAssertEqual(DMDecoder.decode(u)?.bytes, Array("Grüße 😀".utf8))
        // Without ECI, bytes over 127 are ISO/IEC 8859-1.
        let l = try symbol("café", [])
        XCTAssertEqual(DMDecoder.decode(l)?.text, "café")
        XCTAssertEqual(DMDecoder.decode(l)?.symbologyIdentifier, "]d1")
    }

    func testGS1() throws {
        for extra in [[], ["--gssep"]] {
            let m = try symbol("[01]09501101530003[17]140704[10]AB-123[21]XYZ", ["--gs1"] + extra)
            let r = DMDecoder.decode(m)
            XCTAssertEqual(r?.symbologyIdentifier, "]d2")
            XCTAssertTrue(r?.gs1 ?? false)
            XCTAssertEqual(r?.text, "010950110153000317140704" + "10AB-123\u{1D}21XYZ")
            XCTAssertEqual(r?.gs1HumanReadable, "(01)09501101530003(17)140704(10)AB-123(21)XYZ")
        }
    }

    func testStructuredAppend() throws {
        let m = try symbol("Part two", ["--structapp=2,3,1001"])
        let r = DMDecoder.decode(m)
        XCTAssertEqual(r?.text, "Part two")
        XCTAssertEqual(r?.structuredAppend?.index, 1)
        XCTAssertEqual(r?.structuredAppend?.total, 3)
        XCTAssertFalse(r?.structuredAppend?.id.isEmpty ?? true)
        let g = try symbol("[01]09501101530003", ["--gs1", "--structapp=1,2"])
        let rg = DMDecoder.decode(g)
        XCTAssertEqual(rg?.symbologyIdentifier, "]d2")
        XCTAssertEqual(rg?.structuredAppend?.index, 0)
        XCTAssertEqual(rg?.text, "0109501101530003")
    }

    func testReaderProgrammingAndMacros() throws {
        let p = try symbol("CONFIG1", ["--init"])
        XCTAssertEqual(DMDecoder.decode(p)?.readerProgramming, true)
        XCTAssertEqual(DMDecoder.decode(p)?.text, "CONFIG1")
        // Macro 05: zint writes code word 236 for this header and trailer.
        let text = "[)>\u{1E}05\u{1D}ABC123\u{1E}\u{04}"
        let m = try symbol("[)>\\R05\\GABC123\\R\\E", ["--esc"])
        let r = DMDecoder.decode(m)
        XCTAssertEqual(r?.text, text)
        if let cw = dataCodewords(m) { XCTAssertEqual(cw.first, 236) }
        let m6 = try symbol("[)>\\R06\\GXYZ\\R\\E", ["--esc"])
        XCTAssertEqual(DMDecoder.decode(m6)?.text, "[)>\u{1E}06\u{1D}XYZ\u{1E}\u{04}")
    }

    func testMirroredMatrix() throws {
        let m = try symbol("Mirror image 42")
        let r = DMDecoder.decode(DMDecoder.antiTransposed(m))
        XCTAssertEqual(r?.text, "Mirror image 42")
        XCTAssertEqual(r?.mirrored, true)
    }

    /// Code words damaged: up to half the check words of a block correct,
    /// more fail without a misread.
    func testDamageUpToTheLimit() throws {
        var rng = DecoderTestRandom(seed: 11)
        for vers in [1, 3, 10, 15, 24, 25, 30, 31, 48] {
            var args = ["--vers=\(vers)"]
            if vers > 30 { args.append("--dmre") }
            let v = DMVersion.all[vers - 1]
            let text = String(repeating: "DM", count: max(1, v.dataCodewords / 3))
            let m = try symbol(text, args)
            guard m.width == v.columns, m.height == v.rows else {
                XCTFail("zint made \(m.height)x\(m.width) for vers \(vers)"); continue
            }
            let table = DMPlacement.table(v)
            let nb = v.blockCount, limit = v.checkPerBlock / 2
            for beyond in [false, true] {
                for _ in 0..<4 {
                    var d = m
                    // Damage `limit` (or limit + 1) code words of every block.
                    let perBlock = beyond ? limit + 1 : limit
                    var words = Array(0..<v.totalCodewords).shuffled(using: &rng)
                    var taken = [Int](repeating: 0, count: nb)
                    words = words.filter { k in
                        let b = blockOf(k, v)
                        if taken[b] < perBlock { taken[b] += 1; return true }
                        return false
                    }
                    for k in words {
                        // Flip one to eight bits of the code word.
                        let mask = Int.random(in: 1...255, using: &rng)
                        for b in 0..<8 where mask >> b & 1 == 1 {
                            let p = Int(table[8 * k + b]), r = p / v.mappingColumns, c = p % v.mappingColumns
                            d.flip(x: c + 1 + 2 * (c / v.regionColumns), y: r + 1 + 2 * (r / v.regionRows))
                        }
                    }
                    let r = DMDecoder.decode(d, tryMirrored: false)
                    if beyond {
                        XCTAssertTrue(r == nil || r?.text == text, "misread of vers \(vers)")
                    } else {
                        XCTAssertEqual(r?.text, text, "vers \(vers) with \(limit) errors per block")
                        XCTAssertEqual(r?.correctedErrors, limit * nb)
                    }
                }
            }
        }
    }

    private func blockOf(_ k: Int, _ v: DMVersion) -> Int {
        k < v.dataCodewords ? k % v.blockCount : (k - v.dataCodewords + v.dataCodewords) % v.blockCount
    }

    func testGarbageMatrices() {
        var rng = DecoderTestRandom(seed: 3)
        var reads = 0
        for v in DMVersion.all {
            for _ in 0..<5 {
                var m = BitMatrix(width: v.columns, height: v.rows)
                for y in 0..<v.rows { for x in 0..<v.columns where Bool.random(using: &rng) { m[x, y] = true } }
                if DMDecoder.decode(m) != nil { reads += 1 }
            }
        }
        XCTAssertEqual(reads, 0)
        XCTAssertNil(DMDecoder.decode(BitMatrix(width: 11, height: 11)))
        XCTAssertNil(DMDecoder.decode(BitMatrix(width: 0, height: 0)))
    }
}
