import Foundation
import XCTest
@testable import RLBarcode

/// GS1 DataBar Omnidirectional, Truncated, Limited (and Expanded) on
/// pictures drawn from zint's module patterns, read by the DataBar readers
/// alone.
final class DataBarReaderTests: XCTestCase {
    /// zint's symbology numbers.
    private static let omni = 29, limited = 30, expanded = 31

    /// Runs `zint -b SYMBOLOGY -d DATA --dump` (plus `arguments`) and parses the first row.
    private func zint(
        _ symbology: Int, _ data: String, arguments: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> ZintRow {
        try ZintRow.make(symbology: symbology, data, arguments: arguments, file: file, line: line)
    }

    /// The GTIN-14 (check digit added) of 13 digits, as the raw element string.
    private func elementString(_ thirteen: String) -> String {
        let d = thirteen.map { Int(String($0))! }
        var sum = 0
        for (i, v) in d.enumerated() { sum += v * (i % 2 == 0 ? 3 : 1) }
        return "01" + thirteen + String((10 - sum % 10) % 10)
    }

    private func scan(
        _ pic: TestPicture, _ symbologies: Symbology = [.dataBar, .dataBarExpanded],
        effort: Effort = .balanced
    ) -> [BarcodeResult] {
        let scanner = Scanner(
            options: ScanOptions(symbologies: symbologies, effort: effort),
            linearReaders: [DataBarReader(), DataBarExpandedReader()])
        return pic.scan(with: scanner)
    }

    /// Draws `row` upright in a small picture.
    private func picture(_ row: ZintRow, module: Double = 2, barHeight: Double = 34, angle: Double = 0) -> TestPicture {
        let side = angle == 0 ? 0 : Int(Double(row.modules.count) * module)
        let w = max(Int(Double(row.modules.count + 30) * module) + 20, side + 40)
        let h = max(120, side + 40)
        var pic = TestPicture(width: w, height: h)
        pic.draw(row, .init(cx: Double(w) / 2, cy: Double(h) / 2, module: module, barHeight: barHeight, angle: angle))
        return pic
    }

    // MARK: - Value computation

    func testCharacterValueMethod() {
        // Every 4-element set of 8 modules, widest 5, is ranked 0..<count with no gaps.
        var seen = Set<Int>()
        var count = 0
        let w = UnsafeMutablePointer<Int>.allocate(capacity: 4)
        defer { w.deallocate() }
        for a in 1...5 {
            for b in 1...5 {
                for c in 1...5 {
                    let d = 8 - a - b - c
                    guard d >= 1, d <= 5 else { continue }
                    w[0] = a; w[1] = b; w[2] = c; w[3] = d
                    seen.insert(DataBar.value(w, count: 4, maxWidth: 5, narrowRequired: false))
                    count += 1
                }
            }
        }
        XCTAssertEqual(seen.count, count)
        XCTAssertEqual(seen.min(), 0)
        XCTAssertEqual(seen.max(), count - 1)
    }

    // MARK: - Omnidirectional and Truncated

    func testOmnidirectionalRoundTrip() throws {
        for data in [
            "0441234567890", "0000000000000", "9999999999999", "2012345678901", "0950110153000", "1234567890123"
        ] {
            let r = scan(picture(try zint(Self.omni, data)))
            let expected = elementString(data)
            XCTAssertEqual(r.map(\.text), [expected], data)
            guard let c = r.first else { continue }
            XCTAssertEqual(c.symbology, .dataBar)
            XCTAssertEqual(c.symbologyIdentifier, "]e0")
            XCTAssertEqual(c.extendedText, "(01)" + expected.dropFirst(2))
            XCTAssertEqual(c.extendedText, GS1.humanReadable(Array(expected.utf8)))
        }
    }

    func testManyRandomGTINs() throws {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<12 {
            var data = ""
            for _ in 0..<13 {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                data += String((seed >> 33) % 10)
            }
            let r = scan(picture(try zint(Self.omni, data)))
            XCTAssertEqual(r.map(\.text), [elementString(data)], data)
        }
    }

    func testTruncated() throws {
        // Truncated is the Omnidirectional row, only 13 modules high.
        let row = try zint(Self.omni, "0441234567890", arguments: ["--height=13"])
        let r = scan(picture(row, module: 2, barHeight: 13))
        XCTAssertEqual(r.map(\.text), ["0104412345678909"])
    }

    func testOmnidirectionalEveryFifteenDegrees() throws {
        let row = try zint(Self.omni, "0441234567890")
        var missed: [Int] = []
        for angle in stride(from: 0, to: 360, by: 15) {
            let r = scan(picture(row, module: 2.5, barHeight: 34, angle: Double(angle)))
            if r.map(\.text) != ["0104412345678909"] { missed.append(angle) }
        }
        XCTAssertEqual(missed, [])
    }

    func testInverted() throws {
        var pic = picture(try zint(Self.omni, "0950110153000"))
        pic.invert()
        let r = scan(pic)
        XCTAssertEqual(r.map(\.text), [elementString("0950110153000")])
        XCTAssertEqual(r.first?.isInverted, true)
    }

    func testBlurAndNoise() throws {
        var pic = picture(try zint(Self.omni, "2012345678901"), module: 3)
        pic.blur(radius: 1)
        pic.addNoise(amplitude: 30)
        XCTAssertEqual(scan(pic).map(\.text), [elementString("2012345678901")])
        var lim = picture(try zint(Self.limited, "1501234567890"), module: 3)
        lim.blur(radius: 1)
        lim.addNoise(amplitude: 30)
        XCTAssertEqual(scan(lim).map(\.text), [elementString("1501234567890")])
    }

    /// `row` at four sub-modules per module with every bar grown (or, with
    /// a negative `spread`, shrunk) by `spread` sub-modules on each side.
    private func inked(_ row: ZintRow, spread: Int) -> ZintRow {
        let fine = row.modules.flatMap { Array(repeating: $0, count: 4) }
        var out = fine
        for k in fine.indices {
            let lo = max(0, k - abs(spread)), hi = min(fine.count - 1, k + abs(spread))
            // Grow: dark when any neighbour within reach is dark; shrink: light when any is light.
            out[k] = spread > 0 ? fine[lo...hi].contains(true) : !fine[lo...hi].contains(false)
        }
        return ZintRow(modules: out)
    }

    func testInkSpreadAndThinBars() throws {
        let cases: [(Int, String, String)] = [
            (Self.omni, "0441234567890", elementString("0441234567890")),
            (Self.limited, "1501234567890", elementString("1501234567890")),
            (Self.expanded, "[01]98898765432106[3202]012345[15]991231", raw("[01]98898765432106[3202]012345[15]991231"))
        ]
        for (kind, data, expected) in cases {
            let row = try zint(kind, data)
            for spread in [-1, 1] {
                // 0.25 module more (or less) on each side: bars 0.5 module wider (narrower).
                let r = scan(picture(inked(row, spread: spread), module: 0.75))
                XCTAssertEqual(r.map(\.text), [expected], "\(data) spread \(spread)")
            }
        }
    }

    func testPerspectiveAndSmallModules() throws {
        let cases: [(Int, String, String)] = [
            (Self.omni, "0441234567890", elementString("0441234567890")),
            (Self.limited, "1501234567890", elementString("1501234567890")),
            (Self.expanded, "[01]98898765432106[3202]012345[15]991231", raw("[01]98898765432106[3202]012345[15]991231"))
        ]
        for (kind, data, expected) in cases {
            let row = try zint(kind, data)
            let w = Int(Double(row.modules.count + 30) * 3) + 20
            var pic = TestPicture(width: w, height: 160)
            pic.draw(row, .init(cx: Double(w) / 2, cy: 80, module: 3, barHeight: 34, angle: 8, taper: 0.3))
            XCTAssertEqual(scan(pic).map(\.text), [expected], "\(data) perspective")
            // Expanded's characters are a module wider; at 1.2 pixels it is not read yet.
            for module in kind == Self.expanded ? [1.5] : [1.5, 1.2] {
                XCTAssertEqual(scan(picture(row, module: module)).map(\.text), [expected], "\(data) module \(module)")
            }
        }
    }

    func testDamagedChecksumFails() throws {
        // Shift one bar of character 1 by a module: the character keeps a
        // valid shape (its odd and even sums stay), its value changes, and
        // the checksum no longer agrees.
        var row = try zint(Self.omni, "0441234567890")
        shiftBarRight(&row, element: 7)
        XCTAssertEqual(scan(picture(row)).map(\.text), [])
        var lim = try zint(Self.limited, "0441234567890")
        shiftBarRight(&lim, element: 9)
        XCTAssertEqual(scan(picture(lim)).map(\.text), [])
    }

    /// Moves bar element `e` (counted from the row's first, light, module run) one module right.
    private func shiftBarRight(_ row: inout ZintRow, element e: Int) {
        let runs = moduleRuns(row)
        let start = runs[0..<e].reduce(0, +)
        XCTAssertTrue(row.modules[start])
        row.modules[start] = false
        row.modules[start + runs[e]] = true
    }

    func testRandomStripesYieldNothing() {
        var seed: UInt64 = 12345
        for _ in 0..<20 {
            var modules: [Bool] = []
            var bar = true
            for _ in 0..<60 {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                let width = Int((seed >> 33) % 6) + 1
                modules += Array(repeating: bar, count: width)
                bar.toggle()
            }
            XCTAssertTrue(scan(picture(ZintRow(modules: modules))).isEmpty)
        }
    }

    // MARK: - Limited

    func testLimitedRoundTrip() throws {
        for data in ["0441234567890", "1501234567890", "0000000000000", "1999999999999", "0123456789012"] {
            let r = scan(picture(try zint(Self.limited, data)))
            let expected = elementString(data)
            XCTAssertEqual(r.map(\.text), [expected], data)
            XCTAssertEqual(r.first?.symbology, .dataBar)
            XCTAssertEqual(r.first?.symbologyIdentifier, "]e0")
            XCTAssertEqual(r.first?.extendedText, "(01)" + expected.dropFirst(2))
        }
    }

    func testLimitedAngles() throws {
        let row = try zint(Self.limited, "0441234567890")
        var missed: [Int] = []
        for angle in stride(from: 0, to: 360, by: 30) {
            if scan(picture(row, module: 2.5, angle: Double(angle))).map(\.text) != ["0104412345678909"] {
                missed.append(angle)
            }
        }
        XCTAssertEqual(missed, [])
    }

    func testDisabledSymbologyReadsNothing() throws {
        XCTAssertTrue(scan(picture(try zint(Self.omni, "0441234567890")), .dataBarExpanded).isEmpty)
    }

    // MARK: - Expanded

    /// The raw element string zint's bracketed input stands for: AIs and
    /// data, GS after variable-length data that is not last.
    private func raw(_ bracketed: String) -> String { BracketedGS1.raw(bracketed) }

    func testExpandedEncodationMethods() throws {
        let cases = [
            "[01]98898765432106[3202]012345[15]991231",  // 0111xxx with a date
            "[01]90012345678908[3103]001750",  // 0100
            "[01]90012345678908[3202]001750",  // 0101
            "[01]90012345678908[3203]001750",  // 0101, weight over 9999.99
            "[01]90012345678908[3922]795",  // 01100
            "[01]90012345678908[3932]0401234",  // 01101
            "[01]00012345678905",  // 1
            "[01]12345678901231[10]ABC-12/x",  // 1 + general purpose
            "[10]ABC123",  // 00, alphanumeric
            "[99]1234567890",  // 00, numeric
            "[21]A1B2C3[10]12",  // FNC1 after variable-length data
            "[10]abc%def!?[21]12+34",  // ISO/IEC 646
            "[01]98898765432106[3103]012233[15]991231",
            "[01]98898765432106[3203]012233[17]991231",
            "[01]98898765432106[3103]012233[11]991231",
            "[10]12A42212321123456",
            "[01]98898765432106[15]991231[3103]001750[10]12A42212321123456"
        ]
        for data in cases {
            let r = scan(picture(try zint(Self.expanded, data), module: 2))
            let expected = raw(data)
            XCTAssertEqual(r.map(\.text), [expected], data)
            guard let c = r.first else { continue }
            XCTAssertEqual(c.symbology, .dataBarExpanded, data)
            XCTAssertEqual(c.symbologyIdentifier, "]e0", data)
            XCTAssertEqual(
                c.extendedText, data.replacingOccurrences(of: "[", with: "(").replacingOccurrences(of: "]", with: ")"),
                data)
        }
    }

    func testExpandedAnglesInvertedBlur() throws {
        let data = "[01]98898765432106[3202]012345[15]991231"
        let row = try zint(Self.expanded, data)
        var missed: [Int] = []
        for angle in stride(from: 0, to: 360, by: 15) {
            if scan(picture(row, module: 2, angle: Double(angle))).map(\.text) != [raw(data)] { missed.append(angle) }
        }
        XCTAssertEqual(missed, [])
        var pic = picture(row, module: 3)
        pic.invert()
        XCTAssertEqual(scan(pic).map(\.text), [raw(data)])
        var blurred = picture(row, module: 3)
        blurred.blur(radius: 1)
        blurred.addNoise(amplitude: 30)
        XCTAssertEqual(scan(blurred).map(\.text), [raw(data)])
    }

    func testExpandedDamagedChecksumFails() throws {
        var row = try zint(Self.expanded, "[01]98898765432106[3202]012345[15]991231")
        // Character 2 (elements 15...22): widths 3,4,2,2,1,1,1,3; shift bar 17 right.
        shiftBarRight(&row, element: 17)
        XCTAssertTrue(scan(picture(row)).isEmpty)
    }

    // MARK: - Corpus

    /// The DataBar folders of the shared corpus (zxing-cpp's samples), read
    /// by the DataBar readers alone; skipped when the corpus or `convert`
    /// (which turns the PNG images into PPM) is missing. JPEG images are left out. Counts must not fall below what the readers reach now,
    /// and no image may be misread.
    func testCorpus() throws {
        let corpus = TestPaths.corpus
        guard FileManager.default.fileExists(atPath: corpus.path), let convert = TestPicture.convertTool else {
            throw XCTSkip("the shared corpus or ImageMagick's convert (to read the images) is missing")
        }
        // Least read with balanced effort, and with thorough effort added.
        let minimum: [String: (balanced: Int, thorough: Int)] = [
            "rss14-1": (8, 8), "databarltd-1": (1, 1), "rssexpanded-1": (27, 28), "rssexpanded-2": (10, 12),
            "rssexpanded-3": (89, 89), "rss14-2": (4, 6),
            "rssexpandedstacked-1": (45, 47), "rssexpandedstacked-2": (2, 2)
        ]
        for (folder, least) in minimum.sorted(by: { $0.key < $1.key }) {
            let dir = corpus.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            var passed = 0, thorough = 0, total = 0, misread: [String] = [], missed: [String] = []
            for name in names.sorted() where name.hasSuffix(".png") {
                let stem = String(name.dropLast(4))
                guard let expected = try? Data(contentsOf: dir.appendingPathComponent(stem + ".txt")),
                    let pic = try TestPicture.load(png: dir.appendingPathComponent(name).path, convert: convert)
                else { continue }
                total += 1
                var texts = scan(pic).map(\.bytes)
                if texts.contains(Array(expected)) {
                    passed += 1
                } else {
                    // Still-picture depth: denser lines over the whole frame.
                    texts = scan(pic, effort: .thorough).map(\.bytes)
                    if texts.contains(Array(expected)) { thorough += 1 } else { missed.append(stem) }
                }
                if texts.contains(where: { $0 != Array(expected) }) {
                    misread.append(
                        stem + ": " + texts.map { String(decoding: $0, as: UTF8.self) }.joined(separator: " | "))
                }
            }
            print(
                "corpus \(folder): \(passed)/\(total) read, \(thorough) more with thorough effort; missed \(missed); misread \(misread)"
            )
            XCTAssertGreaterThanOrEqual(passed, least.balanced, folder)
            XCTAssertGreaterThanOrEqual(passed + thorough, least.thorough, folder)
            XCTAssertEqual(misread, [], folder)
        }
        // Pictures without any barcode, or with other symbologies: nothing.
        for folder in ["falsepositives-1", "falsepositives-2", "ean13-1", "code128-1"] {
            let dir = corpus.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            var found: [String] = []
            for name in names.sorted() where name.hasSuffix(".png") {
                guard let pic = try TestPicture.load(png: dir.appendingPathComponent(name).path, convert: convert)
                else { continue }
                let r = scan(pic)
                if !r.isEmpty { found.append(name + ": " + r.map(\.text).joined(separator: " | ")) }
            }
            XCTAssertEqual(found, [], folder)
        }
    }

    func zintRow(_ k: Int, _ d: String) throws -> ZintRow { try zint(k, d) }
    func scanPicture(_ p: TestPicture) -> [BarcodeResult] { scan(p) }

    private func moduleRuns(_ row: ZintRow) -> [Int] {
        var runs: [Int] = []
        var previous: Bool? = nil
        for m in row.modules {
            if m == previous { runs[runs.count - 1] += 1 } else { runs.append(1); previous = m }
        }
        return runs
    }
}

extension DataBarReaderTests {
    /// Symbols drawn without quiet zones, touching the picture's left or
    /// right edge: the line's margin cuts the guard bar there.
    func testSymbolsTouchingThePictureEdge() throws {
        for (kind, data) in [
            (31, "[01]98898765432106[3202]012345[15]991231"), (29, "0441234567890"), (30, "0441234567890")
        ] {
            let row = try zintRow(kind, data)
            for (l, r) in [(0, 0), (0, 10), (10, 0)] {
                let w = (row.modules.count + l + r) * 2
                var pic = TestPicture(width: w, height: 80)
                pic.draw(
                    row, .init(cx: Double(row.modules.count + 2 * l), cy: 40, module: 2, barHeight: 30, quietZone: 0))
                XCTAssertEqual(scanPicture(pic).count, 1, "\(kind) \(data) margins \(l) \(r)")
            }
        }
    }
}
