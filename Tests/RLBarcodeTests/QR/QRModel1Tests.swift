import Foundation
import XCTest
@testable import RLBarcode

/// QR Code Model 1 symbols (ISO/IEC 18004:2000, Annex M), which zint cannot
/// make: the tests build them with an encoder of their own (numeric,
/// alphanumeric and byte segments; Reed-Solomon check words from
/// ``ReedSolomonEncoder``, as the Model 2 tests make theirs; the block
/// placement; mask; format information),
/// then read them as matrices and as pictures, turned and mirrored.
final class QRModel1Tests: XCTestCase {
    // MARK: - A Model 1 encoder

    enum Segment {
        case numeric(String)
        case alphanumeric(String)
        case bytes(String)
    }

    /// Error correction blocks of some Model 1 versions, per level L, M, Q,
    /// H: check words a block, blocks, data words a block.
    static let blockTable: [Int: [(check: Int, blocks: Int, data: Int)]] = [
        1: [(7, 1, 19), (10, 1, 16), (13, 1, 13), (17, 1, 9)],
        2: [(10, 1, 36), (16, 1, 30), (22, 1, 24), (30, 1, 16)],
        4: [(20, 1, 80), (40, 1, 60), (50, 1, 50), (66, 1, 34)],
        6: [(34, 1, 136), (32, 2, 53), (42, 2, 43), (56, 2, 29)],
        8: [(24, 2, 104), (48, 2, 80), (64, 2, 64), (56, 3, 29)],
        14: [(40, 3, 163), (60, 4, 92), (60, 5, 62), (66, 6, 35)]
    ]

    /// A module rectangle: left column, top row, width, height.
    struct Area { var x: Int, y: Int, w: Int, h: Int }

    /// A Model 1 symbol made by the tests.
    struct Symbol {
        var symbol: QRTestSymbol
        /// The modules of each code word in the order they were placed.
        var codewordModules: [[(x: Int, y: Int)]]
    }

    /// The code word areas of a Model 1 symbol of version `v` in placement
    /// order, and the areas that hold extension patterns instead.
    static func areas(version v: Int) -> (data: [Area], extensions: [Area]) {
        let n = 17 + 4 * v
        var data: [Area] = [], extensions: [Area] = []
        // The two right-hand column pairs, from the bottom to row 9.
        for pair in 0..<2 {
            for k in 0..<(v + 2) {
                let a = Area(x: n - 2 - 2 * pair, y: n - 4 - 4 * k, w: 2, h: 4)
                if pair == 0 && k % 2 == 0 && k > 0 && k < v + 1 { extensions.append(a) } else { data.append(a) }
            }
        }
        // Four-column groups, two rows at a time from the bottom, row 6 left out.
        let bottoms = Array(stride(from: n - 1, through: 8, by: -2)) + [5, 3, 1]
        for g in 0...v {
            for bottom in bottoms {
                if g == 0 && bottom <= 8 { continue }
                let a = Area(x: n - 8 - 4 * g, y: bottom - 1, w: 4, h: 2)
                if bottom == n - 1 && g % 2 == 1 && g < v { extensions.append(a) } else { data.append(a) }
            }
        }
        // The column pairs between the left finder patterns.
        for left in [7, 4, 2, 0] {
            for k in 0..<v { data.append(Area(x: left, y: n - 12 - 4 * k, w: 2, h: 4)) }
        }
        return (data, extensions)
    }

    /// Whether mask pattern `k` inverts the module in row `i`, column `j`.
    static func inverts(_ k: Int, _ i: Int, _ j: Int) -> Bool {
        switch k {
        case 0: return (i + j) % 2 == 0
        case 1: return i % 2 == 0
        case 2: return j % 3 == 0
        case 3: return (i + j) % 3 == 0
        case 4: return (i / 2 + j / 3) % 2 == 0
        case 5: return (i * j) % 2 + (i * j) % 3 == 0
        case 6: return ((i * j) % 2 + (i * j) % 3) % 2 == 0
        default: return ((i * j) % 3 + (i + j) % 2) % 2 == 0
        }
    }

    /// A Model 1 symbol of `version` at `level` (0 ... 3 for L, M, Q, H)
    /// with mask pattern `mask` holding `segments`.
    static func make(_ segments: [Segment], version v: Int, level: Int, mask: Int) -> Symbol {
        let n = 17 + 4 * v, wide = v >= 10
        let (check, blockCount, dataPerBlock) = blockTable[v]![level]
        var bits: [Bool] = [false, false, false, false]
        func put(_ value: Int, _ count: Int) {
            for i in stride(from: count - 1, through: 0, by: -1) { bits.append(value >> i & 1 == 1) }
        }
        let table = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
        for segment in segments {
            switch segment {
            case .numeric(let s):
                let digits = s.map { Int(String($0))! }
                put(1, 4)
                put(digits.count, wide ? 12 : 10)
                for start in stride(from: 0, to: digits.count, by: 3) {
                    let group = digits[start..<min(start + 3, digits.count)]
                    put(group.reduce(0) { $0 * 10 + $1 }, [0, 4, 7, 10][group.count])
                }
            case .alphanumeric(let s):
                let values = s.map { c in table.firstIndex(of: c)! }
                put(2, 4)
                put(values.count, wide ? 11 : 9)
                for start in stride(from: 0, to: values.count, by: 2) {
                    if start + 1 < values.count {
                        put(values[start] * 45 + values[start + 1], 11)
                    } else {
                        put(values[start], 6)
                    }
                }
            case .bytes(let s):
                put(4, 4)
                put(s.utf8.count, wide ? 16 : 8)
                for b in s.utf8 { put(Int(b), 8) }
            }
        }
        let capacity = blockCount * dataPerBlock
        precondition(bits.count <= capacity * 8, "too much data")
        put(0, min(4, capacity * 8 - bits.count))
        while bits.count % 8 != 0 { bits.append(false) }
        var data = stride(from: 0, to: bits.count, by: 8).map { i in
            UInt8(bits[i..<(i + 8)].reduce(0) { $0 << 1 | ($1 ? 1 : 0) })
        }
        while data.count < capacity { data.append(data.count % 2 == bits.count / 8 % 2 ? 0xEC : 0x11) }

        // Blocks, then interleaving: data words across the blocks, then check words.
        let blocks = (0..<blockCount).map { Array(data[($0 * dataPerBlock)..<(($0 + 1) * dataPerBlock)]) }
        let checks = blocks.map { block in
            ReedSolomonEncoder.checkSymbols(field: .qrCode, data: block.map { Int($0) }, checkCount: check).map {
                UInt8($0)
            }
        }
        var words: [UInt8] = []
        for i in 0..<dataPerBlock { for b in blocks { words.append(b[i]) } }
        for i in 0..<check { for c in checks { words.append(c[i]) } }

        var modules = [[Bool]](repeating: [Bool](repeating: false, count: n), count: n)
        for (fx, fy) in [(0, 0), (n - 7, 0), (0, n - 7)] {
            for dy in 0..<7 {
                for dx in 0..<7 { modules[fy + dy][fx + dx] = max(abs(dx - 3), abs(dy - 3)) != 2 }
            }
        }
        for i in 8..<(n - 8) {
            modules[6][i] = i % 2 == 0
            modules[i][6] = i % 2 == 0
        }
        modules[n - 8][8] = true

        // Format information: level bits and mask, BCH(15,5), then the Model 1 mask.
        let formatData = [1, 0, 3, 2][level] << 3 | mask
        var remainder = formatData << 10
        for bit in stride(from: 14, through: 10, by: -1) where remainder >> bit & 1 == 1 {
            remainder ^= 0b101_0011_0111 << (bit - 10)
        }
        let format = (formatData << 10 | remainder) ^ 0b010_1000_0010_0101
        let first = [
            (0, 8), (1, 8), (2, 8), (3, 8), (4, 8), (5, 8), (7, 8), (8, 8), (8, 7),
            (8, 5), (8, 4), (8, 3), (8, 2), (8, 1), (8, 0)
        ]
        let second = (0..<7).map { (8, n - 1 - $0) } + (0..<8).map { (n - 8 + $0, 8) }
        for (k, (x, y)) in first.enumerated() { modules[y][x] = format >> (14 - k) & 1 == 1 }
        for (k, (x, y)) in second.enumerated() { modules[y][x] = format >> (14 - k) & 1 == 1 }

        // Code words, each from its area's bottom-right module leftwards and up; masked.
        let (dataAreas, extensionAreas) = areas(version: v)
        var codewordModules: [[(x: Int, y: Int)]] = []
        for (index, a) in dataAreas.enumerated() {
            let word = index < words.count ? Int(words[index]) : 0
            var placed: [(x: Int, y: Int)] = []
            for b in 0..<8 {
                let x = a.x + a.w - 1 - b % a.w, y = a.y + a.h - 1 - b / a.w
                modules[y][x] = (word >> (7 - b) & 1 == 1) != inverts(mask, y, x)
                placed.append((x, y))
            }
            if index < words.count { codewordModules.append(placed) }
        }
        // Extension patterns: dark along the symbol's edge, light inside.
        for a in extensionAreas {
            for y in a.y..<(a.y + a.h) {
                for x in a.x..<(a.x + a.w) { modules[y][x] = x == n - 1 || y == n - 1 }
            }
        }
        // The corner pattern over the first code word's upper half.
        modules[n - 1][n - 1] = true
        modules[n - 1][n - 2] = false
        modules[n - 2][n - 1] = false
        modules[n - 2][n - 2] = false
        return Symbol(symbol: QRTestSymbol(modules: modules), codewordModules: codewordModules)
    }

    /// Reads `symbol` drawn with `module` pixels a module, turned by
    /// `angle` degrees, with a quiet zone of 4 modules.
    static func scan(_ symbol: QRTestSymbol, module: Double, angle: Double = 0) -> [BarcodeResult] {
        let side = Int((Double(symbol.size) + 10) * module * 1.5)
        var p = QRPicture(width: side, height: side)
        p.draw(
            symbol,
            QRPicture.Placement(
                cx: Double(side) / 2, cy: Double(side) / 2, module: module, angle: angle,
                quietZone: 4))
        return p.picture.scan()
    }

    // MARK: - Tests

    /// The test's block table agrees with the engine's.
    func testBlockTableAgrees() {
        for (v, rows) in Self.blockTable {
            let version = QRVersion.model1[v - 1]
            XCTAssertEqual(version.size, 17 + 4 * v)
            XCTAssertTrue(version.alignmentCenters.isEmpty)
            for (level, row) in rows.enumerated() {
                let b = version.blocks(QRErrorCorrectionLevel(rawValue: level)!)
                XCTAssertEqual(
                    [b.checkPerBlock, b.blockCount, b.dataCodewords], [row.check, row.blocks, row.blocks * row.data],
                    "version \(v) level \(level)")
            }
        }
        XCTAssertNil(QRVersion.model1(forSize: 77))
        XCTAssertEqual(QRVersion.model1(forSize: 73)?.number, 14)
    }

    /// Every version's placement has room for every level's code words,
    /// covers each module at most once, and agrees with the tests' areas.
    func testPlacementFitsEveryVersion() {
        for v in 1...14 {
            let n = 17 + 4 * v
            var modules: [Int] = []
            QRCodewordPlacement.forEachModel1Block(version: v) { x, y, width in
                for b in 0..<8 { modules.append((y - b / width) * n + x - b % width) }
                return true
            }
            XCTAssertEqual(Set(modules).count, modules.count, "version \(v)")
            XCTAssertTrue(modules.allSatisfy { $0 >= 0 && $0 < n * n })
            let areas = Self.areas(version: v).data
            XCTAssertEqual(areas.count * 8, modules.count, "version \(v)")
            for level in QRErrorCorrectionLevel.allCases {
                XCTAssertLessThanOrEqual(
                    QRVersion.model1[v - 1].blocks(level).totalCodewords * 8, modules.count,
                    "version \(v) \(level.letter)")
            }
            // 26 code words in version 1 and 46 in version 2, as in Model 2.
            if v <= 2 { XCTAssertEqual(modules.count, [26, 46][v - 1] * 8) }
        }
    }

    /// Matrices of several versions, levels and masks, in each mode, read
    /// exactly, as Model 1, upright and mirrored.
    func testMatricesDecode() {
        let cases: [(segments: [Segment], text: String, version: Int, level: Int, mask: Int)] = [
            ([.numeric("0123456789")], "0123456789", 1, 0, 0),
            ([.alphanumeric("MODEL 1")], "MODEL 1", 1, 3, 3),
            ([.bytes("Hello, Model 1")], "Hello, Model 1", 2, 1, 5),
            ([.alphanumeric("AB-12"), .numeric("345")], "AB-12345", 2, 2, 6),
            ([.bytes("quarter of a hundred bytes and more")], "quarter of a hundred bytes and more", 4, 2, 1),
            (
                [.bytes("two blocks at level M, version six of Model 1")],
                "two blocks at level M, version six of Model 1", 6, 1, 2
            ),
            (
                [.numeric(String(repeating: "31415926535", count: 5))], String(repeating: "31415926535", count: 5), 8,
                3, 4
            ),
            ([.bytes(String(repeating: "Model 1 ", count: 20))], String(repeating: "Model 1 ", count: 20), 14, 2, 7)
        ]
        for c in cases {
            let made = Self.make(c.segments, version: c.version, level: c.level, mask: c.mask).symbol
            for mirrored in [false, true] {
                // The mirror image about the diagonal keeps the finder patterns in their corners.
                let matrix = mirrored ? made.bitMatrix.transposed() : made.bitMatrix
                let r = QRDecoder.decode(matrix)
                XCTAssertEqual(r?.text, c.text, "version \(c.version) level \(c.level) mirrored \(mirrored)")
                XCTAssertEqual(r?.isModel1, true)
                XCTAssertEqual(r?.symbologyIdentifier, "]Q0")
                XCTAssertEqual(r?.version, c.version)
                XCTAssertEqual(r?.ecLevel, QRErrorCorrectionLevel(rawValue: c.level)!.letter)
                XCTAssertEqual(r?.mask, c.mask)
                XCTAssertEqual(r?.mirrored, mirrored)
                XCTAssertEqual(r?.correctedErrors, 0)
            }
        }
    }

    /// Code words flipped within the level's capacity are corrected; one
    /// more than it can correct and the symbol does not read.
    func testDamagedSymbolIsCorrected() {
        let made = Self.make([.bytes("damaged but readable")], version: 2, level: 1, mask: 4)
        // Version 2-M: 16 check words, up to 8 errors.
        func damaged(_ count: Int) -> QRTestSymbol {
            var s = made.symbol
            for k in 0..<count {
                for (x, y) in made.codewordModules[3 + 5 * k].prefix(3) { s.modules[y][x].toggle() }
            }
            return s
        }
        let r = QRDecoder.decode(damaged(5).bitMatrix)
        XCTAssertEqual(r?.text, "damaged but readable")
        XCTAssertEqual(r?.correctedErrors, 5)
        XCTAssertNil(QRDecoder.decode(damaged(9).bitMatrix))
        let scanned = Self.scan(damaged(5), module: 3, angle: 90)
        XCTAssertEqual(scanned.map(\.text), ["damaged but readable"])
        XCTAssertEqual(scanned.first?.symbologyIdentifier, "]Q0")
    }

    /// Pictures of versions 1, 2 and 8 (three blocks) at a few module sizes,
    /// at each quarter turn, plain and mirrored.
    func testPicturesAtEveryQuarterTurnAndMirrored() {
        let symbols: [(Symbol, String, Double)] = [
            (Self.make([.alphanumeric("HELLO MODEL 1")], version: 1, level: 0, mask: 2), "HELLO MODEL 1", 3),
            (Self.make([.bytes("QR Code Model 1")], version: 2, level: 1, mask: 5), "QR Code Model 1", 2),
            (
                Self.make([.bytes("version 8 at level H has three blocks")], version: 8, level: 3, mask: 6),
                "version 8 at level H has three blocks", 2
            )
        ]
        for (made, text, module) in symbols {
            for mirrored in [false, true] {
                let s = mirrored ? made.symbol.mirrored : made.symbol
                for angle in [0.0, 90, 180, 270] {
                    let r = Self.scan(s, module: module, angle: angle)
                    XCTAssertEqual(r.map(\.text), [text], "\(text) at \(angle) mirrored \(mirrored)")
                    XCTAssertEqual(r.first?.symbology, .qrCode)
                    XCTAssertEqual(r.first?.symbologyIdentifier, "]Q0")
                    XCTAssertEqual(r.first?.isMirrored, mirrored)
                }
            }
        }
    }

    /// Model 2 format information never reads as Model 1, even with two
    /// bits wrong in a copy; Model 1's reads as Model 1, and with a bit
    /// wrong at most never as Model 2.
    func testFormatInformationTellsTheModelsApart() {
        func matrix(_ word: Int, flip: Int) -> BitMatrix {
            let n = 21
            var m = BitMatrix(size: n)
            let first = [
                (0, 8), (1, 8), (2, 8), (3, 8), (4, 8), (5, 8), (7, 8), (8, 8), (8, 7),
                (8, 5), (8, 4), (8, 3), (8, 2), (8, 1), (8, 0)
            ]
            let second = (0..<7).map { (8, n - 1 - $0) } + (0..<8).map { (n - 8 + $0, 8) }
            for (k, (x, y)) in first.enumerated() { m[x, y] = (word ^ flip) >> (14 - k) & 1 == 1 }
            for (k, (x, y)) in second.enumerated() { m[x, y] = word >> (14 - k) & 1 == 1 }
            return m
        }
        for index in 0..<32 {
            for flip in [0, 0b100, 0b11, 0b1_0000_0001, 0b100_0000_0000_0100] {
                let model2 = matrix(QRFormat.formatWords[index], flip: flip)
                XCTAssertNil(QRFormat.readModel1Info(model2), "Model 2 word \(index)")
                let model1 = matrix(QRFormat.model1FormatWords[index], flip: flip)
                if flip.nonzeroBitCount <= 1 {
                    XCTAssertTrue(QRFormat.readInfo(model1).isEmpty, "Model 1 word \(index)")
                }
                XCTAssertEqual(
                    QRFormat.readModel1Info(model1),
                    QRFormat.Info(level: QRErrorCorrectionLevel(formatBits: index >> 3), mask: index & 7))
            }
        }
    }

    /// A Model 2 symbol still reads as Model 2, with the modifier 1.
    func testModel2StillReadsAsModel2() throws {
        let s = try QRTestSymbol.qr("MODEL 2 AS BEFORE", version: 2)
        guard s.size > 0 else { return }
        let d = QRDecoder.decode(s.bitMatrix)
        XCTAssertEqual(d?.text, "MODEL 2 AS BEFORE")
        XCTAssertEqual(d?.isModel1, false)
        let r = Self.scan(s, module: 2, angle: 270)
        XCTAssertEqual(r.map(\.text), ["MODEL 2 AS BEFORE"])
        XCTAssertEqual(r.first?.symbologyIdentifier, "]Q1")
    }

    /// The corpus picture of a version 2-M Model 1 symbol (2-pixel modules,
    /// a 4-module quiet zone): it reads, and its modules are exactly what
    /// the tests' encoder makes of the same data, level and mask.
    func testCorpusPicture() throws {
        let folder = TestPaths.corpus.appendingPathComponent("qrcode-2")
        let png = folder.appendingPathComponent("qr-model-1.png").path
        guard FileManager.default.fileExists(atPath: png) else {
            throw XCTSkip(
                "the shared corpus is not at \(folder.path) (it belongs beside the package, as ../shared/corpus)")
        }
        guard let convert = TestPicture.convertTool else {
            throw XCTSkip("ImageMagick's convert, which reads the corpus's PNG pictures, is not installed")
        }
        let expected = try String(contentsOf: folder.appendingPathComponent("qr-model-1.txt"), encoding: .utf8)
        XCTAssertEqual(expected, "QR Code Model 1 ")
        let picture = try XCTUnwrap(TestPicture.load(png: png, convert: convert))
        let r = picture.scan()
        XCTAssertEqual(r.map(\.text), [expected])
        XCTAssertEqual(r.first?.symbologyIdentifier, "]Q0")

        let made = Self.make([.bytes(expected)], version: 2, level: 1, mask: 5).symbol
        var differing = 0
        for y in 0..<25 {
            for x in 0..<25 where (picture.pixels[(9 + 2 * y) * picture.stride + 9 + 2 * x] < 128) != made.modules[y][x]
            {
                differing += 1
            }
        }
        XCTAssertEqual(differing, 0)
    }
}
