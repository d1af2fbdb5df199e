import XCTest
@testable import RLBarcode

/// The QR Code and Micro QR decoder on module grids made by zint, on
/// damaged and mirrored grids, on garbage, and the bit stream parser on
/// hand-built streams (ISO/IEC 18004:2015).
final class QRDecoderTests: XCTestCase {
    // MARK: Helpers

    /// A QR Code symbol made by zint.
    private func qr(
        _ data: String, _ arguments: [String] = [], file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> BitMatrix {
        try ZintMatrix.symbol(.qrCode, data, arguments: arguments, file: file, line: line)
    }

    /// A Micro QR symbol made by zint.
    private func micro(
        _ data: String, _ arguments: [String] = [], file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> BitMatrix {
        try ZintMatrix.symbol(.microQR, data, arguments: arguments, file: file, line: line)
    }

    /// Decodes and fails the test when the matrix does not decode.
    private func decoded(
        _ m: BitMatrix, _ what: String, file: StaticString = #filePath,
        line: UInt = #line
    ) -> QRDecodeResult? {
        switch QRDecoder.decodeResult(m) {
        case .success(let r): return r
        case .failure(let f):
            XCTFail("\(what): \(f)", file: file, line: line)
            return nil
        }
    }

    /// The modules of each code word in placement order: `result[k]` lists
    /// the (x, y) of the bits of the k-th code word of the symbol as placed.
    private func codewordModules(_ m: BitMatrix, micro: Bool, total: Int, halfCodeword: Int = -1) -> [[(Int, Int)]] {
        let function =
            micro
            ? QRCodewordPlacement.microFunctionMasks[(m.width - 9) / 2 - 1]
            : QRCodewordPlacement.functionMasks[(m.width - 17) / 4 - 1]
        var out: [[(Int, Int)]] = [[]]
        QRCodewordPlacement.forEachDataModule(size: m.width, function: function, micro: micro) { x, y in
            let k = out.count - 1
            out[k].append((x, y))
            if out[k].count == (k == halfCodeword ? 4 : 8) {
                if out.count == total { return false }
                out.append([])
            }
            return true
        }
        return out
    }

    /// For each block of a QR Code structure, the symbol code word indices
    /// (placement order) of its code words, data then error correction (7.6).
    private func blockCodewords(_ s: QRBlockStructure) -> [[Int]] {
        var blocks = [[Int]](repeating: [], count: s.blockCount)
        var k = 0
        for i in 0...s.data1 {
            for b in 0..<s.blockCount where i < s.dataCount(block: b) { blocks[b].append(k); k += 1 }
        }
        for _ in 0..<s.checkPerBlock {
            for b in 0..<s.blockCount { blocks[b].append(k); k += 1 }
        }
        return blocks
    }

    // MARK: Tables

    func testVersionTablesAreConsistent() {
        for v in QRVersion.all {
            let function = QRCodewordPlacement.functionMasks[v.number - 1]
            let dataModules = v.size * v.size - function.darkCount
            XCTAssertEqual(v.totalCodewords, dataModules / 8, "version \(v.number) code words")
            XCTAssertLessThanOrEqual(dataModules % 8, 7)
            for level in QRErrorCorrectionLevel.allCases {
                XCTAssertEqual(v.blocks(level).totalCodewords, v.totalCodewords, "version \(v.number) \(level)")
            }
        }
        XCTAssertEqual(QRFormat.formatWords[0b01_000], 0x77C4, "format word of L, mask 0 (Annex C)")
        XCTAssertEqual(QRFormat.versionWords[0], 0x07C94, "version 7 word (Annex D)")
        XCTAssertEqual(QRFormat.versionWords[33], 0x28C69, "version 40 word (Annex D)")
    }

    // MARK: Versions, levels, masks

    func testEveryVersionAtEveryLevel() throws {
        for v in 1...40 {
            for level in 1...4 {
                // Half the data capacity, in byte mode, so that every block holds data.
                let capacity = QRVersion.version(v)!.blocks(QRErrorCorrectionLevel(rawValue: level - 1)!).dataCodewords
                let filler = Array("abcdefghijklmnopqrstuvwxyz0123456789-./".utf8)
                let data =
                    "V\(v)L\(level)"
                    + String(
                        decoding: (0..<max(0, capacity / 2 - 8)).map { filler[($0 * 7 + v) % filler.count] },
                        as: UTF8.self)
                let m = try qr(data, ["--vers=\(v)", "--secure=\(level)"])
                XCTAssertEqual(m.width, 17 + 4 * v)
                guard let r = decoded(m, "version \(v) level \(level)") else { continue }
                XCTAssertEqual(r.text, data)
                XCTAssertEqual(r.version, v)
                XCTAssertEqual(r.ecLevel, ["L", "M", "Q", "H"][level - 1])
                XCTAssertFalse(r.isMicro)
                XCTAssertFalse(r.mirrored)
                XCTAssertEqual(r.correctedErrors, 0)
                XCTAssertEqual(r.symbologyIdentifier, "]Q1")
            }
        }
    }

    func testEveryMask() throws {
        var seen = Set<Int>()
        for mask in 0...7 {
            let m = try qr("MASK TEST \(mask)", ["--mask=\(mask)", "--vers=3"])
            guard let r = decoded(m, "mask \(mask)") else { continue }
            XCTAssertEqual(r.text, "MASK TEST \(mask)")
            seen.insert(r.mask)
        }
        XCTAssertEqual(seen, Set(0...7))
        var microSeen = Set<Int>()
        for mask in 0...3 {
            let m = try micro("M\(mask)", ["--mask=\(mask)", "--vers=3"])
            guard let r = decoded(m, "micro mask \(mask)") else { continue }
            XCTAssertEqual(r.text, "M\(mask)")
            microSeen.insert(r.mask)
        }
        XCTAssertEqual(microSeen, Set(0...3))
    }

    // MARK: Modes

    func testModes() throws {
        let cases: [(String, [String])] = [
            ("01234567890123456789", []),
            ("7", []),
            ("42", []),
            ("HELLO WORLD $%*+-./:", []),
            ("A", []),
            ("hello, world! {}~", []),
            ("日本語のテキスト", []),
            ("ABC123456789abcdef日本XYZ", []),
            ("0123456789ABCDEFGHIJ0123456789abcdefghij", ["--vers=10"])
        ]
        for (data, arguments) in cases {
            let m = try qr(data, arguments)
            guard let r = decoded(m, data) else { continue }
            XCTAssertEqual(r.text, data)
            XCTAssertEqual(r.aimModifier, 1)
        }
        // Kanji mode gives Shift JIS bytes: 日本 is 93 FA 96 7B.
        let m = try qr("日本")
        XCTAssertEqual(decoded(m, "kanji")?.bytes, [0x93, 0xFA, 0x96, 0x7B])
    }

    func testByteDataWithoutECI() throws {
        // zint writes ISO/IEC 8859-1 without an ECI when it can.
        let m = try qr("Grüße aus Köln")
        guard let r = decoded(m, "latin-1") else { return }
        XCTAssertEqual(r.text, "Grüße aus Köln")
        XCTAssertEqual(r.bytes, [UInt8]("Grüße aus Köln".unicodeScalars.map { UInt8($0.value) }))
        XCTAssertNil(r.eci)
        // Raw UTF-8 bytes without an ECI are read as UTF-8.
        let u = try qr("Gr\\xC3\\xBC\\xC3\\x9Fe", ["--binary", "--esc"])
        XCTAssertEqual(decoded(u, "utf-8 bytes")?.text, "Grüße")
    }

    /// zint's --fullmultibyte packs any byte pair that fits into Kanji mode:
    /// the bytes stay right, and the text follows the data's character set.
    func testFullMultibyte() throws {
        // Without an ECI, Kanji mode means Shift JIS text; the bytes are kept.
        let latin = "àáâãäåæçèéêëìíîï"
        let packed = try qr(latin, ["--fullmultibyte"])
        XCTAssertEqual(decoded(packed, "packed Latin-1")?.bytes, latin.unicodeScalars.map { UInt8($0.value) })
        for (text, arguments) in [
            ("日本語のテキスト", ["--fullmultibyte", "--eci=26"]),
            ("Grüße àéî", ["--fullmultibyte", "--eci=3"])
        ] {
            let m = try qr(text, arguments)
            guard let r = decoded(m, "\(text) \(arguments)") else { continue }
            XCTAssertEqual(r.text, text, "\(arguments)")
        }
    }

    func testECIs() throws {
        let cases: [(eci: Int, text: String)] = [
            (26, "Grüße, 日本, €, 😀"),
            (3, "Àéîõü ÿ"),
            (4, "Łódź, Kraków"),
            (7, "Привет, мир"),
            (9, "Καλημέρα"),
            (17, "Prix: 20 €"),
            (20, "テスト漢字"),
            (22, "Съешь же ещё"),
            (23, "Crème brûlée"),
            (25, "UTF-16 Ωμέγα"),
            (27, "plain ASCII"),
            (5, "Ħaġar Qim"), (6, "Ķekava, Ļaudona"), (8, "مرحبا"), (10, "שלום"), (11, "Ağrı, İzmir, Şişli"),
            (12, "Ŋŧ Ūū"), (13, "สวัสดี"), (15, "Ąžuolas"), (16, "Ŵŷ Ẁẃ"), (18, "Ștefan Țară"),
            (21, "Łódź ěščř"), (24, "مرحبا بك"), (28, "中文字"), (29, "中文字"), (30, "한국어"), (31, "中文字"),
            (32, "中文字 𠀀"), (33, "UTF-16LE Ωμέγα"), (34, "UTF-32BE 😀"), (35, "UTF-32LE 😀"), (170, "ABC abc 123")
        ]
        for c in cases {
            let m = try qr(c.text, ["--eci=\(c.eci)"])
            guard let r = decoded(m, "ECI \(c.eci)") else { continue }
            XCTAssertEqual(r.text, c.text, "ECI \(c.eci)")
            XCTAssertEqual(r.eci, c.eci)
            XCTAssertEqual(r.aimModifier, 2)
            XCTAssertEqual(r.symbologyIdentifier, "]Q2")
        }
        // Binary data under ECI 899 keeps its bytes.
        let b = try qr("\\x00\\x01\\x80\\xFF\\x1D", ["--eci=899", "--binary", "--esc"])
        guard let r = decoded(b, "ECI 899") else { return }
        XCTAssertEqual(r.bytes, [0x00, 0x01, 0x80, 0xFF, 0x1D])
        XCTAssertEqual(r.eci, 899)
    }

    func testGS1() throws {
        let m = try qr("[01]09501101530003[17]250101[10]AB-12", ["--gs1"])
        guard let r = decoded(m, "GS1") else { return }
        XCTAssertTrue(r.gs1)
        XCTAssertEqual(r.aimModifier, 3)
        XCTAssertEqual(r.symbologyIdentifier, "]Q3")
        XCTAssertEqual(r.text, "010950110153000317250101" + "10AB-12")
        XCTAssertEqual(r.gs1HumanReadable, "(01)09501101530003(17)250101(10)AB-12")
        // A variable-length field not at the end is followed by GS; a % in
        // the data is written %% in alphanumeric mode.
        let v = try qr("[10]ABC%123[21]XYZ", ["--gs1"])
        guard let s = decoded(v, "GS1 with separator") else { return }
        XCTAssertEqual(s.bytes, Array("10ABC%123\u{1D}21XYZ".utf8))
        XCTAssertEqual(s.gs1HumanReadable, "(10)ABC%123(21)XYZ")
    }

    func testStructuredAppend() throws {
        let m = try qr("PART TWO OF FOUR", ["--structapp=2,4,123"])
        guard let r = decoded(m, "structured append") else { return }
        XCTAssertEqual(r.text, "PART TWO OF FOUR")
        XCTAssertEqual(r.structuredAppend, QRStructuredAppend(index: 1, total: 4, parity: 123))
        let plain = try qr("PART TWO OF FOUR")
        XCTAssertNil(decoded(plain, "no header")?.structuredAppend)
    }

    // MARK: Micro QR

    func testMicroQREveryVersionAndLevel() throws {
        let cases: [(version: Int, levels: [Int], data: String)] = [
            (1, [0], "12345"),
            (2, [1, 2], "AB12"),
            (3, [1, 2], "abc"),
            (4, [1, 2, 3], "Hello")
        ]
        for c in cases {
            for level in c.levels {
                let arguments = ["--vers=\(c.version)"] + (level > 0 ? ["--secure=\(level)"] : [])
                let m = try micro(c.data, arguments)
                XCTAssertEqual(m.width, 9 + 2 * c.version)
                guard let r = decoded(m, "M\(c.version) level \(level)") else { continue }
                XCTAssertEqual(r.text, c.data)
                XCTAssertTrue(r.isMicro)
                XCTAssertEqual(r.version, c.version)
                XCTAssertEqual(r.ecLevel, ["L", "L", "M", "Q"][level])
                XCTAssertEqual(r.aimModifier, 1)
            }
        }
    }

    func testMicroQRModes() throws {
        let cases: [(String, [String])] = [
            ("1", ["--vers=1"]), ("12345", ["--vers=1"]),
            ("012345", ["--vers=2"]), ("A1 B2", ["--vers=2"]),
            ("日本", ["--vers=3"]), ("ab", ["--vers=3"]), ("1234567890123456789012", ["--vers=3"]),
            ("日本ABC123", ["--vers=4"]), ("Hi there", ["--vers=4"]),
            ("0123456789012345678901234567890123", ["--vers=4"])
        ]
        for (data, arguments) in cases {
            let m = try micro(data, arguments)
            guard let r = decoded(m, "micro \(data)") else { continue }
            XCTAssertEqual(r.text, data)
        }
    }

    // MARK: Damage

    /// Flips one to three bits in up to `perBlock` distinct code words of
    /// every block and expects the symbol back with that many corrections.
    func testDamageWithinCapacityIsCorrected() throws {
        let symbols: [(String, [String])] = [
            ("DAMAGE 1-L", ["--vers=1", "--secure=1"]), ("DAMAGE 1-H", ["--vers=1", "--secure=4"]),
            ("DAMAGE 5-Q TWO GROUPS", ["--vers=5", "--secure=3"]),
            ("DAMAGE 10-H", ["--vers=10", "--secure=4"]), ("DAMAGE 7-M", ["--vers=7", "--secure=2"])
        ]
        var rng = DecoderTestRandom(seed: 1)
        for (data, arguments) in symbols {
            let clean = try qr(data, arguments)
            guard let r0 = decoded(clean, data) else { continue }
            let version = QRVersion.version(r0.version)!
            let level = QRErrorCorrectionLevel.allCases.first { $0.letter == r0.ecLevel }!
            let structure = version.blocks(level)
            let modules = codewordModules(clean, micro: false, total: structure.totalCodewords)
            let blocks = blockCodewords(structure)
            let capacity = version.maxCorrectable(level)
            for seed in 0..<12 {
                var m = clean
                var expected = 0
                for block in blocks {
                    let k = seed % 3 == 0 ? capacity : Int.random(in: 0...capacity, using: &rng)
                    for cw in block.shuffled(using: &rng).prefix(k) {
                        for (x, y) in modules[cw].shuffled(using: &rng).prefix(Int.random(in: 1...3, using: &rng)) {
                            m.flip(x: x, y: y)
                        }
                        expected += 1
                    }
                }
                guard let r = decoded(m, "\(data) seed \(seed)") else { continue }
                XCTAssertEqual(r.bytes, r0.bytes)
                XCTAssertEqual(r.correctedErrors, expected)
            }
        }
        // Micro QR: one block.
        let micros: [(String, [String])] = [
            ("12345", ["--vers=2", "--secure=1"]), ("ABC", ["--vers=2", "--secure=2"]),
            ("abc", ["--vers=3", "--secure=1"]), ("abc", ["--vers=3", "--secure=2"]),
            ("Hello", ["--vers=4", "--secure=1"]), ("Hi", ["--vers=4", "--secure=3"])
        ]
        for (data, arguments) in micros {
            let clean = try micro(data, arguments)
            guard let r0 = decoded(clean, "micro \(data)") else { continue }
            let mv = MicroQRVersion(number: r0.version)
            let level = QRErrorCorrectionLevel.allCases.first { $0.letter == r0.ecLevel }!
            let d = mv.dataCodewords(level)!
            let modules = codewordModules(
                clean, micro: true, total: mv.totalCodewords,
                halfCodeword: mv.hasHalfCodeword ? d - 1 : -1)
            let capacity = mv.maxCorrectable(level)
            for seed in 0..<12 {
                var m = clean
                let k = seed % 2 == 0 ? capacity : Int.random(in: 0...capacity, using: &rng)
                for cw in Array(0..<mv.totalCodewords).shuffled(using: &rng).prefix(k) {
                    let (x, y) = modules[cw].randomElement(using: &rng)!
                    m.flip(x: x, y: y)
                }
                guard let r = decoded(m, "micro \(data) \(arguments) seed \(seed)") else { continue }
                XCTAssertEqual(r.bytes, r0.bytes)
                XCTAssertEqual(r.correctedErrors, k)
            }
        }
    }

    /// Far more damage than the code corrects: no reading, and above all
    /// never a wrong one.
    func testDamageBeyondCapacityNeverMisreads() throws {
        var rng = DecoderTestRandom(seed: 2)
        var symbols: [(BitMatrix, Bool)] = []
        for (data, arguments) in [
            ("BEYOND 1-L", ["--vers=1", "--secure=1"]), ("BEYOND 1-M", ["--vers=1", "--secure=2"]),
            ("BEYOND 2-H", ["--vers=2", "--secure=4"]), ("BEYOND 6-Q", ["--vers=6", "--secure=3"])
        ] {
            symbols.append((try qr(data, arguments), false))
        }
        for (data, arguments) in [
            ("123", ["--vers=1"]), ("AB", ["--vers=2", "--secure=1"]),
            ("abc", ["--vers=3", "--secure=2"]), ("Hi", ["--vers=4", "--secure=1"])
        ] {
            symbols.append((try micro(data, arguments), true))
        }
        // M1 has two check code words for detection only: about one damaged
        // symbol in a thousand still passes them, by design (7.5.1). Its
        // misreads are counted apart.
        var misreads = 0, nils = 0, trials = 0, m1Misreads = 0, m1Trials = 0
        for (clean, isMicro) in symbols {
            let isM1 = isMicro && clean.width == 11
            guard let r0 = decoded(clean, "clean") else { continue }
            let total: Int, blocks: [[Int]], capacity: Int
            var half = -1
            if isMicro {
                let mv = MicroQRVersion(number: r0.version)
                let level = QRErrorCorrectionLevel.allCases.first { $0.letter == r0.ecLevel }!
                total = mv.totalCodewords
                blocks = [Array(0..<total)]
                capacity = mv.maxCorrectable(level)
                if mv.hasHalfCodeword { half = mv.dataCodewords(level)! - 1 }
            } else {
                let v = QRVersion.version(r0.version)!
                let level = QRErrorCorrectionLevel.allCases.first { $0.letter == r0.ecLevel }!
                total = v.totalCodewords
                blocks = blockCodewords(v.blocks(level))
                capacity = v.maxCorrectable(level)
            }
            let modules = codewordModules(clean, micro: isMicro, total: total, halfCodeword: half)
            for _ in 0..<150 {
                var m = clean
                let block = blocks.randomElement(using: &rng)!
                let k = min(block.count, Int.random(in: (2 * capacity + 3)...(2 * capacity + 8), using: &rng))
                for cw in block.shuffled(using: &rng).prefix(k) {
                    let (x, y) = modules[cw].randomElement(using: &rng)!
                    m.flip(x: x, y: y)
                }
                if isM1 { m1Trials += 1 } else { trials += 1 }
                if let r = QRDecoder.decode(m) {
                    if r.bytes != r0.bytes {
                        if isM1 { m1Misreads += 1 } else { misreads += 1 }
                    }
                } else {
                    nils += 1
                }
            }
        }
        XCTAssertEqual(misreads, 0, "wrong payloads out of \(trials)")
        XCTAssertLessThanOrEqual(m1Misreads * 100, m1Trials, "M1 wrong payloads out of \(m1Trials)")
        XCTAssertGreaterThan(nils, trials * 9 / 10)
        // Modules flipped anywhere, function patterns and format information included.
        for (clean, isMicro) in symbols where !(isMicro && clean.width == 11) {
            guard let r0 = QRDecoder.decode(clean) else { continue }
            for _ in 0..<100 {
                var m = clean
                for _ in 0..<Int.random(in: 1...(clean.width * 2), using: &rng) {
                    m.flip(x: Int.random(in: 0..<m.width, using: &rng), y: Int.random(in: 0..<m.width, using: &rng))
                }
                if let r = QRDecoder.decode(m) { XCTAssertEqual(r.bytes, r0.bytes, "a wrong payload") }
            }
        }
    }

    /// Up to three wrong bits in each copy of the format information, and in
    /// each copy of the version information.
    func testFormatAndVersionInformationTolerateThreeErrors() throws {
        let clean = try qr("FORMAT", ["--vers=7", "--secure=2"])
        let n = clean.width
        var m = clean
        for (x, y) in [(0, 8), (3, 8), (8, 2)] { m.flip(x: x, y: y) }  // copy 1
        for (x, y) in [(8, n - 1), (n - 3, 8), (n - 1, 8)] { m.flip(x: x, y: y) }  // copy 2
        for k in [0, 7, 17] { m.flip(x: n - 11 + k % 3, y: k / 3) }  // version copy 1
        for k in [1, 8, 16] { m.flip(x: k / 3, y: n - 11 + k % 3) }  // version copy 2
        XCTAssertEqual(decoded(m, "format damage")?.text, "FORMAT")
        // Both format copies destroyed: no reading.
        var d = clean
        for x in 0...5 { d.flip(x: x, y: 8) }
        for x in (n - 8)..<n { d.flip(x: x, y: 8) }
        for y in [0, 1, 2] { d.flip(x: 8, y: y) }
        for y in [n - 1, n - 2, n - 3] { d.flip(x: 8, y: y) }
        if let r = QRDecoder.decode(d) { XCTAssertEqual(r.text, "FORMAT") }
        // A version 7 symbol's version information in a matrix of version 8's size.
        var wrongSize = BitMatrix(size: 49)
        for y in 0..<n { for x in 0..<n where clean[x, y] { wrongSize[x + (x >= n - 11 ? 4 : 0), y] = true } }
        XCTAssertEqual(QRDecoder.decodeResult(wrongSize, tryMirrored: false), .failure(.version(7)))
        // Micro QR format information with three wrong bits.
        var mq = try micro("12345", ["--vers=2"])
        for (x, y) in [(1, 8), (5, 8), (8, 3)] { mq.flip(x: x, y: y) }
        XCTAssertEqual(decoded(mq, "micro format damage")?.text, "12345")
    }

    // MARK: Mirror images

    func testMirroredSymbols() throws {
        for (m, text) in [
            (try qr("MIRROR IMAGE", ["--vers=2"]), "MIRROR IMAGE"),
            (try qr("Mirror, version 8", ["--vers=8", "--secure=3"]), "Mirror, version 8"),
            (try micro("MIRROR", ["--vers=3"]), "MIRROR")
        ] {
            guard let upright = decoded(m, text) else { continue }
            XCTAssertFalse(upright.mirrored)
            guard let r = decoded(m.transposed(), "mirrored \(text)") else { continue }
            XCTAssertTrue(r.mirrored)
            XCTAssertEqual(r.text, text)
            XCTAssertNil(QRDecoder.decode(m.transposed(), tryMirrored: false), "mirror images only when asked")
        }
    }

    // MARK: Garbage

    /// Random matrices of every size, and symbols whose data modules are
    /// random: nothing traps, nothing decodes.
    func testGarbageNeverCrashes() throws {
        var rng = DecoderTestRandom(seed: 3)
        var decodedCount = 0
        for size in 0...180 {
            let repeats = (size >= 11 && size <= 17 && size & 1 == 1) || (size >= 21 && (size - 17) % 4 == 0) ? 3 : 1
            for _ in 0..<repeats {
                var m = BitMatrix(size: size)
                for y in 0..<size { for x in 0..<size where Bool.random(using: &rng) { m[x, y] = true } }
                if QRDecoder.decode(m) != nil { decodedCount += 1 }
            }
        }
        for (w, h) in [(21, 25), (11, 13), (0, 5), (1, 0), (177, 175)] {
            XCTAssertNil(QRDecoder.decode(BitMatrix(width: w, height: h)))
        }
        XCTAssertEqual(decodedCount, 0)
        // Valid function patterns and format information, random data.
        let shapes: [(BitMatrix, Bool)] = [
            (try qr("X", ["--vers=1"]), false), (try qr("X", ["--vers=9", "--secure=4"]), false),
            (try micro("1", ["--vers=1"]), true), (try micro("X", ["--vers=4"]), true)
        ]
        for (clean, isMicro) in shapes {
            let function =
                isMicro
                ? QRCodewordPlacement.microFunctionMasks[(clean.width - 9) / 2 - 1]
                : QRCodewordPlacement.functionMasks[(clean.width - 17) / 4 - 1]
            for _ in 0..<40 {
                var m = clean
                for y in 0..<m.width {
                    for x in 0..<m.width where !function[x, y] { m[x, y] = Bool.random(using: &rng) }
                }
                let r = QRDecoder.decode(m)
                if isMicro && clean.width == 11 { _ = r; continue }  // M1 detects with two code words only
                XCTAssertNil(r)
            }
        }
    }

    /// The bit stream parser on random data code words of every kind of
    /// symbol: it never traps.
    func testRandomBitstreamsNeverCrash() {
        var rng = DecoderTestRandom(seed: 4)
        for _ in 0..<3000 {
            let micro = Bool.random(using: &rng)
            let version = micro ? Int.random(in: 1...4, using: &rng) : Int.random(in: 1...40, using: &rng)
            let count = Int.random(in: 0...60, using: &rng)
            let data = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let bits = max(0, count * 8 - Int.random(in: 0...4, using: &rng))
            let r = data.withUnsafeBufferPointer {
                QRBitstream.decode($0, bitCount: bits, version: version, micro: micro)
            }
            if case .success(let c) = r { _ = QRDecoder.text(of: c) }
        }
    }

    // MARK: Hand-built bit streams

    /// Bits appended most significant first, padded to whole bytes.
    private struct Bits {
        var bits: [Bool] = []
        mutating func put(_ value: Int, _ n: Int) {
            for i in stride(from: n - 1, through: 0, by: -1) { bits.append(value >> i & 1 == 1) }
        }
        var bytes: [UInt8] {
            var out = [UInt8](repeating: 0, count: (bits.count + 7) / 8)
            for (i, b) in bits.enumerated() where b { out[i >> 3] |= 0x80 >> UInt8(i & 7) }
            return out
        }
    }

    private func parse(_ b: Bits, version: Int = 1, micro: Bool = false) -> QRBitstream.Content? {
        let bytes = b.bytes
        let r = bytes.withUnsafeBufferPointer {
            QRBitstream.decode($0, bitCount: bytes.count * 8, version: version, micro: micro)
        }
        return try? r.get()
    }

    private func alnumValue(_ c: Character) -> Int { QRBitstream.alphanumeric.firstIndex(of: c.asciiValue!)! }

    func testFNC1SecondPositionAndPercent() {
        var b = Bits()
        b.put(0b1001, 4); b.put(37, 8)  // FNC1 second, application indicator 37
        b.put(0b0010, 4); b.put(5, 9)  // alphanumeric, 5 characters: A%%B%
        b.put(alnumValue("A") * 45 + alnumValue("%"), 11)
        b.put(alnumValue("%") * 45 + alnumValue("B"), 11)
        b.put(alnumValue("%"), 6)
        b.put(0, 4)
        guard let c = parse(b) else { return XCTFail("no parse") }
        XCTAssertEqual(c.fnc1, .second)
        XCTAssertEqual(c.applicationIndicator, "37")
        XCTAssertEqual(c.bytes, Array("37A%B\u{1D}".utf8))
        // A letter as application indicator: 'a' + 100.
        var l = Bits()
        l.put(0b1001, 4); l.put(97 + 100, 8); l.put(0b0001, 4); l.put(2, 10); l.put(42, 7); l.put(0, 4)
        XCTAssertEqual(parse(l)?.bytes, Array("a42".utf8))
        var bad = Bits()
        bad.put(0b1001, 4); bad.put(150, 8); bad.put(0, 4)
        XCTAssertNil(parse(bad))
        // Without FNC1, % is itself.
        var p = Bits()
        p.put(0b0010, 4); p.put(1, 9); p.put(alnumValue("%"), 6)
        XCTAssertEqual(parse(p)?.bytes, Array("%".utf8))
    }

    func testECIDesignatorLengths() {
        for (eci, designator) in [(3, [0x03]), (899, [0x83, 0x83]), (123_456, [0xC1, 0xE2, 0x40])] {
            var b = Bits()
            b.put(0b0111, 4)
            for byte in designator { b.put(byte, 8) }
            b.put(0b0100, 4); b.put(1, 8); b.put(0x41, 8); b.put(0, 4)
            guard let c = parse(b) else { XCTFail("ECI \(eci)"); continue }
            XCTAssertEqual(c.firstECI, eci)
            XCTAssertTrue(c.hasECI)
            XCTAssertEqual(c.bytes, [0x41])
        }
        var bad = Bits()
        bad.put(0b0111, 4); bad.put(0xE0, 8); bad.put(0, 16)
        XCTAssertNil(parse(bad))
    }

    /// A QR Code symbol built from a hand-made bit stream: padded with the
    /// 0xEC 0x11 pad code words, split into blocks with their check words,
    /// interleaved, placed and masked, with both copies of the format
    /// information. Only what the decoder reads is drawn.
    private func symbol(_ stream: Bits, version: Int, level: QRErrorCorrectionLevel, mask: Int) -> BitMatrix {
        let v = QRVersion.version(version)!, s = v.blocks(level), n = v.size
        var data = stream.bytes
        var pad: UInt8 = 0xEC
        while data.count < s.dataCodewords { data.append(pad); pad = pad == 0xEC ? 0x11 : 0xEC }
        var blocks: [[Int]] = [], offset = 0
        for b in 0..<s.blockCount {
            let d = data[offset..<(offset + s.dataCount(block: b))].map(Int.init)
            offset += d.count
            blocks.append(d + ReedSolomonEncoder.checkSymbols(field: .qrCode, data: d, checkCount: s.checkPerBlock))
        }
        var words: [Int] = []
        for i in 0...s.data1 {
            for b in 0..<s.blockCount where i < s.dataCount(block: b) { words.append(blocks[b][i]) }
        }
        for i in 0..<s.checkPerBlock {
            for b in 0..<s.blockCount { words.append(blocks[b][s.dataCount(block: b) + i]) }
        }
        var m = BitMatrix(size: n)
        var k = 0
        QRCodewordPlacement.forEachDataModule(
            size: n, function: QRCodewordPlacement.functionMasks[version - 1],
            micro: false
        ) { x, y in
            let bit = k < words.count * 8 ? words[k / 8] >> (7 - k % 8) & 1 == 1 : false
            m[x, y] = bit != QRCodewordPlacement.masks(mask, row: y, column: x)
            k += 1
            return true
        }
        let format = QRFormat.formatWords[level.formatBits << 3 | mask]
        let copy1 = [
            (0, 8), (1, 8), (2, 8), (3, 8), (4, 8), (5, 8), (7, 8), (8, 8), (8, 7),
            (8, 5), (8, 4), (8, 3), (8, 2), (8, 1), (8, 0)
        ]
        let copy2 = (0..<7).map { (8, n - 1 - $0) } + (0..<8).map { (n - 8 + $0, 8) }
        for (i, ((x1, y1), (x2, y2))) in zip(copy1, copy2).enumerated() {
            let bit = format >> (14 - i) & 1 == 1
            m[x1, y1] = bit
            m[x2, y2] = bit
        }
        if version >= 7 {
            let word = QRFormat.versionWords[version - 7]
            for k in 0..<18 where word >> k & 1 == 1 {
                m[n - 11 + k % 3, k / 3] = true
                m[k / 3, n - 11 + k % 3] = true
            }
        }
        return m
    }

    /// The AIM modifiers that zint cannot make: ECI with FNC1 in first
    /// position (4), FNC1 in second position (5) and both (6), read from
    /// whole symbols.
    func testSymbologyIdentifierModifiers() {
        func stream(eci: Bool, fnc1: Int, version: Int) -> Bits {
            var b = Bits()
            if eci { b.put(0b0111, 4); b.put(26, 8) }
            if fnc1 == 1 { b.put(0b0101, 4) }
            if fnc1 == 2 { b.put(0b1001, 4); b.put(1, 8) }
            b.put(0b0100, 4); b.put(2, version < 10 ? 8 : 16); b.put(0x4F, 8); b.put(0x4B, 8)
            b.put(0, 4)
            return b
        }
        let cases: [(Bool, Int, UInt8, String)] = [
            (false, 0, 1, "OK"), (true, 0, 2, "OK"), (false, 1, 3, "OK"),
            (true, 1, 4, "OK"), (false, 2, 5, "01OK"), (true, 2, 6, "01OK")
        ]
        for (index, (eci, fnc1, modifier, text)) in cases.enumerated() {
            let version = [1, 3, 7, 12, 2, 27][index]
            let m = symbol(
                stream(eci: eci, fnc1: fnc1, version: version), version: version, level: .quartile, mask: index)
            guard let r = decoded(m, "modifier \(modifier)") else { continue }
            XCTAssertEqual(r.aimModifier, modifier)
            XCTAssertEqual(r.symbologyIdentifier, "]Q\(modifier)")
            XCTAssertEqual(r.text, text)
            XCTAssertEqual(r.gs1, fnc1 == 1)
            XCTAssertEqual(r.applicationIndicator, fnc1 == 2 ? "01" : nil)
            XCTAssertEqual(r.version, version)
        }
    }

    func testHanziMode() {
        // 中 is D6D0 in GB 2312: (0xD6D0 - 0xA6A1) = 0x302F -> 0x30 * 0x60 + 0x2F.
        var b = Bits()
        b.put(0b1101, 4); b.put(1, 4); b.put(1, 8); b.put(0x30 * 0x60 + 0x2F, 13); b.put(0, 4)
        guard let c = parse(b) else { return XCTFail("no parse") }
        XCTAssertEqual(c.bytes, [0xD6, 0xD0])
        XCTAssertEqual(QRDecoder.text(of: c), "中")
    }

    func testInvalidStreamsAreRejected() {
        var digits = Bits()
        digits.put(0b0001, 4); digits.put(3, 10); digits.put(1000, 10)  // 1000 is not three digits
        XCTAssertNil(parse(digits))
        var alnum = Bits()
        alnum.put(0b0010, 4); alnum.put(1, 9); alnum.put(45, 6)  // 45 is past the table
        XCTAssertNil(parse(alnum))
        var long = Bits()
        long.put(0b0100, 4); long.put(200, 8); long.put(0x41, 8)  // more bytes than there are
        XCTAssertNil(parse(long))
        var mode = Bits()
        mode.put(0b1111, 4); mode.put(0, 12)
        XCTAssertNil(parse(mode))
        var microMode = Bits()
        microMode.put(0b111, 3); microMode.put(0, 13)  // M4 has modes 000 ... 011
        XCTAssertNil(parse(microMode, version: 4, micro: true))
    }

    func testShiftJISGuess() {
        XCTAssertEqual(QRCharacterSet.guess([0x93, 0xFA, 0x96, 0x7B][...]), 20)
        XCTAssertEqual(QRCharacterSet.guess(Array("Grüße".utf8)[...]), 26)
        XCTAssertEqual(QRCharacterSet.guess([0x47, 0x72, 0xFC, 0xDF, 0x65][...]), 3)
        XCTAssertEqual(QRCharacterSet.text([0x93, 0xFA, 0x96, 0x7B][...], .shiftJIS), "日本")
    }
}
