import XCTest
@testable import RLBarcode

/// MicroPDF417 symbols (ISO/IEC 24728) made by zint at test time, drawn
/// into pictures and read.
final class MicroPDF417Tests: XCTestCase {
    /// zint's MicroPDF417.
    private static let zintMicro = 84

    private func make(
        _ data: String, columns: Int? = nil, arguments: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> ZintPDF417? {
        let args = (columns.map { ["--cols=\($0)"] } ?? []) + arguments
        return try ZintPDF417.make(data, arguments: args, symbology: MicroPDF417Tests.zintMicro, file: file, line: line)
    }

    private func picture(
        _ symbol: ZintPDF417, module: Double = 2, rowHeight: Int = 3, angle: Double = 0,
        mirrored: Bool = false, inverted: Bool = false
    ) -> QRPicture {
        symbol.picture(module: module, rowHeight: rowHeight, angle: angle, mirrored: mirrored, inverted: inverted)
    }

    /// Reads the picture with the MicroPDF417 reader alone.
    private func symbols(_ p: QRPicture, thorough: Bool = true) -> [MicroPDF417Symbol] {
        let reader = MicroPDF417Reader()
        return p.picture.pixels.withUnsafeBufferPointer {
            let view = LumaView(
                base: $0.baseAddress!, width: p.picture.width, height: p.picture.height,
                stride: p.picture.stride)
            return reader.symbols(view, bounds: nil, thorough: thorough)
        }
    }

    private func read(
        _ symbol: ZintPDF417, module: Double = 2, rowHeight: Int = 3, angle: Double = 0,
        mirrored: Bool = false, inverted: Bool = false
    ) -> [BarcodeResult] {
        symbols(
            picture(
                symbol, module: module, rowHeight: rowHeight, angle: angle, mirrored: mirrored,
                inverted: inverted)
        ).map(MicroPDF417Reader.result)
    }

    /// The size table: 34 sizes, 1 to 4 columns, and a row's RAPs name
    /// one row of one size only (5.2.2).
    func testSizeTable() {
        XCTAssertEqual(MicroPDF417.sizes.count, 34)
        XCTAssertEqual(
            MicroPDF417.sizes.map(\.columns).reduce(into: [Int: Int]()) { $0[$1, default: 0] += 1 },
            [1: 6, 2: 7, 3: 10, 4: 11])
        XCTAssertEqual((1...4).map { MicroPDF417.modules(columns: $0) }, [38, 55, 82, 99])
        // Every top row's left and right RAPs are told apart from those of
        // every other size's top row.
        for columns in 1...4 {
            let sizes = MicroPDF417.sizes.filter { $0.columns == columns }
            let keys = Set(sizes.map { [$0.left, $0.centre, $0.right, $0.cluster] })
            XCTAssertEqual(keys.count, sizes.count, "\(columns) columns")
        }
        // The RAP tables read back from their own widths.
        for k in 0..<52 {
            for (pattern, expected) in [
                (MicroPDF417.sidePatterns[k], k + 1), (MicroPDF417.centrePatterns[k], 64 + k + 1)
            ] {
                var widths: [Float] = [], run: Float = 0
                for bit in stride(from: 9, through: 0, by: -1) {
                    run += 1
                    if bit == 0 || (pattern >> UInt16(bit) & 1) != (pattern >> UInt16(bit - 1) & 1) {
                        widths.append(run * 2.5); run = 0
                    }
                }
                XCTAssertEqual(widths.count, 6)
                XCTAssertEqual(widths.withUnsafeBufferPointer { MicroPDF417.rap($0.baseAddress!) }, expected)
            }
        }
    }

    /// Every column count with several row counts.
    func testEveryColumnCountAndSeveralRowCounts() throws {
        var seen = Set<String>()
        for columns in 1...4 {
            for length in [3, 12, 30] {
                let text = String("MicroPDF417 sizes 0123456789 abcdefghijklmnopqrstuvwxyz".prefix(length))
                guard let z = try make(text, columns: columns) else { return }
                let found = symbols(picture(z))
                XCTAssertEqual(found.map(\.decoded.text), [text], "\(columns) columns, \(z.rows.count) rows")
                if let s = found.first {
                    XCTAssertEqual(s.size.columns, columns)
                    XCTAssertEqual(s.size.rows, z.rows.count)
                    seen.insert("\(s.size.columns)x\(s.size.rows)")
                }
            }
        }
        XCTAssertGreaterThanOrEqual(seen.count, 10, "sizes read: \(seen.sorted())")
    }

    /// Text, numeric and byte compaction.
    func testCompactionModes() throws {
        let cases: [(String, [String])] = [
            ("Text Compaction: ABC abc 123 &#-.$/+%", []),
            ("12345678901234567890123456789012345678", []),
            ("bin\u{01}\u{02}\u{7F}ary", ["--binary"]),
            ("Grüße", [])
        ]
        for (data, args) in cases {
            guard let z = try make(data, arguments: args) else { return }
            let r = read(z)
            XCTAssertEqual(r.map(\.text), [data], "\(args)")
            XCTAssertEqual(r.first?.symbologyIdentifier, "]L2")
            XCTAssertEqual(r.first?.symbology, .microPDF417)
        }
    }

    /// ECI (`]L1`) and Macro PDF417 (structured append).
    func testECIAndMacro() throws {
        guard let z = try make("Ελληνικά", arguments: ["--eci=9"]) else { return }
        let r = read(z)
        XCTAssertEqual(r.map(\.text), ["Ελληνικά"])
        XCTAssertEqual(r.first?.symbologyIdentifier, "]L1")
        guard let m = try make("part two", arguments: ["--structapp=2,3,123456"]) else { return }
        let s = read(m)
        XCTAssertEqual(s.map(\.text), ["part two"])
        XCTAssertEqual(s.first?.structuredAppend?.index, 1)
        XCTAssertEqual(s.first?.structuredAppend?.total, 3)
        XCTAssertEqual(s.first?.structuredAppend?.id, "123456")
    }

    /// Quarter turns, with the orientation reported.
    func testQuarterTurns() throws {
        guard let z = try make("Quarter turns", columns: 3) else { return }
        for angle in [0.0, 90, 180, 270] {
            let r = read(z, angle: angle)
            XCTAssertEqual(r.map(\.text), ["Quarter turns"], "angle \(angle)")
            if let o = r.first?.orientation {
                let d = abs(Double(o) - angle)
                XCTAssertLessThan(min(d, 360 - d), 3, "angle \(angle)")
            }
        }
    }

    /// Every 15 degrees of a turn.
    func testFifteenDegreeSteps() throws {
        guard let z = try make("Turned 15", columns: 2) else { return }
        for angle in stride(from: 0.0, to: 360, by: 15) {
            XCTAssertEqual(read(z, angle: angle).map(\.text), ["Turned 15"], "angle \(angle)")
        }
    }

    /// Light bars on dark, and a mirror image.
    func testInvertedAndMirrored() throws {
        guard let z = try make("Inverted 42", columns: 4) else { return }
        let inverted = read(z, angle: 20, inverted: true)
        XCTAssertEqual(inverted.map(\.text), ["Inverted 42"])
        XCTAssertEqual(inverted.first?.isInverted, true)
        let mirrored = read(z, angle: 0, mirrored: true)
        XCTAssertEqual(mirrored.map(\.text), ["Inverted 42"])
        XCTAssertEqual(mirrored.first?.isMirrored, true)
        XCTAssertEqual(read(z).first?.isMirrored, false)
    }

    /// Rows two modules tall, the least the standard allows.
    func testRowsTwoModulesTall() throws {
        guard let z = try make("Low rows 2X", columns: 2) else { return }
        XCTAssertEqual(read(z, module: 2.5, rowHeight: 2).map(\.text), ["Low rows 2X"])
    }

    /// Sensor noise (uniform, about 20 grey levels of standard deviation):
    /// rows read again without the bumps, the search again along thicker
    /// lines, at several seeds.
    func testStrongNoise() throws {
        guard let z = try make("Noisy micro", columns: 2) else { return }
        for seed: UInt64 in [1, 2, 3] {
            var p = picture(z, module: 3)
            p.picture.addNoise(amplitude: 35, seed: seed)
            XCTAssertEqual(symbols(p).map { MicroPDF417Reader.result($0).text }, ["Noisy micro"], "seed \(seed)")
        }
    }

    /// A label on a dark surface with the quiet zone the standard asks
    /// for, one module: still pictures look for rows with that little
    /// light before them once the first searches find none.
    func testOneModuleQuietZoneOnDarkSurface() throws {
        for columns in [1, 2, 3] {
            guard let z = try make("Tight label \(columns)", columns: columns) else { return }
            let m = z.matrix(rowHeight: 2)
            let size = Int(Double(max(m.width, m.height)) * 4 + 40)
            var p = QRPicture(width: size, height: size)
            for k in p.picture.pixels.indices { p.picture.pixels[k] = 70 }
            p.draw(
                matrix: m,
                QRPicture.Placement(cx: Double(size) / 2, cy: Double(size) / 2, module: 4, angle: 3, quietZone: 1))
            XCTAssertEqual(
                symbols(p).map { MicroPDF417Reader.result($0).text }, ["Tight label \(columns)"], "\(columns) columns")
            XCTAssertEqual(symbols(p, thorough: false).count, 0, "video frames keep the wider margin")
        }
    }

    /// Noise and text clutter: nothing.
    func testNoiseAndTextGiveNothing() {
        var p = QRPicture(width: 240, height: 240)
        p.textClutter(seed: 11)
        p.picture.addNoise(amplitude: 30, seed: 5)
        XCTAssertEqual(symbols(p).count, 0)
        var q = QRPicture(width: 200, height: 200)
        q.picture.addNoise(amplitude: 120, seed: 9)
        XCTAssertEqual(symbols(q).count, 0)
    }

    /// Through the scanner: enabled by the PDF417 flag, reported as MicroPDF417.
    func testScannerReportsMicroPDF417() throws {
        guard let z = try make("Scanner sees micro", columns: 2) else { return }
        let p = picture(z, angle: 10)
        var options = ScanOptions()
        options.effort = .thorough
        options.symbologies = .pdf417
        let r = p.picture.scan(options)
        XCTAssertEqual(r.map(\.text), ["Scanner sees micro"])
        XCTAssertEqual(r.first?.symbology.name, "MicroPDF417")
        XCTAssertEqual(r.first?.symbology.flag, .pdf417)
        options.symbologies = .qrCode
        XCTAssertEqual(p.picture.scan(options).count, 0)
    }

    /// Video frames (effort balanced): read where PDF417 is looked for,
    /// in the regions of bars, within the frames that look for PDF417.
    /// MicroPDF417 is read in still pictures (thorough); video frames
    /// (balanced) leave its costly search out.
    func testStillPicturesOnly() throws {
        guard let z = try make("Video micro", columns: 3) else { return }
        let p = picture(z, angle: 8)
        for effort in [Effort.thorough, .balanced] {
            let scanner = Scanner(options: ScanOptions(symbologies: .pdf417, effort: effort))
            var texts: [String] = []
            p.picture.pixels.withUnsafeBufferPointer {
                let view = LumaView(
                    base: $0.baseAddress!, width: p.picture.width, height: p.picture.height,
                    stride: p.picture.stride)
                for _ in 0..<4 { texts += scanner.scan(view).filter { $0.symbology == .microPDF417 }.map(\.text) }
            }
            XCTAssertEqual(Set(texts), effort == .thorough ? ["Video micro"] : [], "\(effort)")
        }
    }
}

extension ZintPDF417 {
    /// The symbol (rows `rowHeight` modules tall) drawn into a square
    /// picture with a quiet zone of 2 modules, turned by `angle` degrees.
    func picture(
        module: Double = 2, rowHeight: Int = 3, angle: Double = 0, mirrored: Bool = false,
        inverted: Bool = false
    ) -> QRPicture {
        let m = matrix(rowHeight: rowHeight)
        let size = Int((Double(max(m.width, m.height)) * module * 1.15 + 30).rounded())
        var p = QRPicture(width: size, height: size)
        p.draw(
            matrix: m,
            QRPicture.Placement(
                cx: Double(size) / 2, cy: Double(size) / 2, module: module, angle: angle,
                quietZone: 2),
            mirrored: mirrored)
        if inverted { p.picture.invert() }
        return p
    }
}
