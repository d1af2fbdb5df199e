import Foundation
import XCTest
@testable import RLBarcode

/// GS1 DataBar Stacked, Stacked Omnidirectional and Expanded Stacked (ISO/IEC
/// 24724:2011), and DataBar Omnidirectional rows whose halves different
/// lines read, on pictures drawn from zint's module grids, read by the
/// scanner's registered readers: rows read by single lines are assembled
/// into symbols at the frame's end.
final class DataBarStackedTests: XCTestCase {
    /// zint's symbology numbers.
    private static let omni = 29, stacked = 79, stackedOmni = 80, expandedStacked = 81

    private func stack(
        _ symbology: Int, _ data: String, arguments: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> ZintStack {
        let s = try ZintStack.make(symbology: symbology, data, arguments: arguments, file: file, line: line)
        XCTAssertGreaterThan(s.dataRows.count, 0, data, file: file, line: line)
        return s
    }

    /// The GTIN-14 (check digit added) of 13 digits, as the raw element string.
    private func elementString(_ thirteen: String) -> String {
        var sum = 0
        for (i, c) in thirteen.enumerated() { sum += Int(String(c))! * (i % 2 == 0 ? 3 : 1) }
        return "01" + thirteen + String((10 - sum % 10) % 10)
    }

    /// The raw element string of zint's bracketed input: GS after
    /// variable-length data that is not last.
    private func raw(_ bracketed: String) -> String { BracketedGS1.raw(bracketed) }

    private func scan(_ pic: TestPicture, effort: Effort = .balanced) -> [BarcodeResult] {
        let scanner = Scanner(options: ScanOptions(symbologies: [.dataBar, .dataBarExpanded], effort: effort))
        return pic.scan(with: scanner)
    }

    /// A picture holding `stack` in its middle.
    private func picture(_ stack: ZintStack, module: Double = 2, angle: Double = 0) -> TestPicture {
        let w = Double(stack.width) + 24, h = stack.height + 24
        let side = Int(((w * w + h * h).squareRoot() * module).rounded(.up)) + 20
        let pw = angle == 0 ? Int(w * module) + 20 : side, ph = angle == 0 ? Int(h * module) + 20 : side
        var pic = TestPicture(width: pw, height: ph)
        pic.draw(stack, .init(cx: Double(pw) / 2, cy: Double(ph) / 2, module: module, angle: angle))
        return pic
    }

    // MARK: - DataBar Stacked and Stacked Omnidirectional

    /// DataBar Stacked whose upper row, 5 modules high, may hold too few
    /// of the detection pass's 16-pixel cells to be a candidate of its own
    /// (modules of 4 pixels in a 500 by 480 picture): where the lines across
    /// the lower row read it as a half without its other half, lines laid
    /// parallel to it above and below find the upper row. Twelve
    /// placements, with and without those lines: every one read without
    /// them is read with them, and more are.
    func testStackedUpperRowFoundBesideTheLowerOne() throws {
        var with: Set<String> = [], without: Set<String> = []
        for data in ["0001234567890", "0441234567890", "2012345678901"] {
            let s = try stack(Self.stacked, data)
            for dy in 0..<4 {
                var pic = TestPicture(width: 500, height: 480)
                pic.draw(s, .init(cx: 250, cy: 150 + s.height * 2 + Double(dy), module: 4, quietZone: 4))
                for seek in [true, false] {
                    let scanner = Scanner(
                        options: ScanOptions(symbologies: [.dataBar, .dataBarExpanded], effort: .balanced))
                    scanner.seeksOtherRows = seek
                    let r = pic.scan(with: scanner)
                    XCTAssertTrue(r.allSatisfy { $0.text == elementString(data) }, "\(data) \(dy): \(r.map(\.text))")
                    if r.map(\.text) == [elementString(data)] {
                        if seek { with.insert("\(data) \(dy)") } else { without.insert("\(data) \(dy)") }
                    }
                }
            }
        }
        XCTAssertTrue(without.isSubset(of: with), "\(without.subtracting(with))")
        XCTAssertGreaterThan(with.count, without.count, "with: \(with.sorted()), without: \(without.sorted())")
    }

    func testStackedRoundTrip() throws {
        for data in ["0441234567890", "0000000000000", "9999999999999", "2012345678901", "0950110153000"] {
            for symbology in [Self.stacked, Self.stackedOmni] {
                let s = try stack(symbology, data)
                XCTAssertEqual(s.dataRows.count, 2)
                let r = scan(picture(s, module: 3))
                XCTAssertEqual(r.map(\.text), [elementString(data)], "\(symbology) \(data)")
                guard let c = r.first else { continue }
                XCTAssertEqual(c.symbology, .dataBar)
                XCTAssertEqual(c.symbologyIdentifier, "]e0")
                XCTAssertEqual(c.extendedText, "(01)" + elementString(data).dropFirst(2))
            }
        }
    }

    func testStackedEveryFifteenDegrees() throws {
        for symbology in [Self.stacked, Self.stackedOmni] {
            let s = try stack(symbology, "0441234567890")
            var missed: [Int] = []
            for angle in stride(from: 0, to: 360, by: 15) {
                let r = scan(picture(s, module: 3, angle: Double(angle)))
                if r.map(\.text) != ["0104412345678909"] { missed.append(angle) }
            }
            XCTAssertEqual(missed, [], "\(symbology)")
        }
    }

    func testStackedInvertedBlurAndNoise() throws {
        for symbology in [Self.stacked, Self.stackedOmni] {
            let s = try stack(symbology, "2012345678901")
            var inverted = picture(s, module: 3)
            inverted.invert()
            let r = scan(inverted)
            XCTAssertEqual(r.map(\.text), [elementString("2012345678901")], "\(symbology) inverted")
            XCTAssertEqual(r.first?.isInverted, true)
            // DataBar Stacked's top row is 5 modules high: 4-pixel modules,
            // so that the blur leaves something of it between the quiet
            // zone and the separator.
            var blurred = picture(s, module: symbology == Self.stacked ? 4 : 3)
            blurred.blur(radius: 1)
            blurred.addNoise(amplitude: 30)
            XCTAssertEqual(scan(blurred).map(\.text), [elementString("2012345678901")], "\(symbology) blurred")
        }
    }

    func testStackedOutlineSpansBothRows() throws {
        let s = try stack(Self.stackedOmni, "0441234567890")
        let pic = picture(s, module: 2)
        guard let c = scan(pic).first else { return XCTFail("not read") }
        let ys = c.corners.map(\.y)
        // The bars span 69 modules (two rows of 33 and the separator) from y = 22.
        XCTAssertLessThan(ys.min()!, 22 + 20)
        XCTAssertGreaterThan(ys.max()!, 22 + 138 - 20)
    }

    func testDamagedStackedRowFails() throws {
        // Move one bar of the bottom row's outside character by a module:
        // the character keeps a valid shape, the checksum disagrees.
        var s = try stack(Self.stackedOmni, "0441234567890")
        let bottom = s.rows.lastIndex { !$0.isSeparator }!
        var modules = s.rows[bottom].modules
        // The last bar of character 3 before the right guard (bar, space, bar at the end).
        var k = modules.count - 4
        while !modules[k] { k -= 1 }
        var start = k
        while start > 0 && modules[start - 1] { start -= 1 }
        XCTAssertFalse(modules[k + 1])
        modules[start] = false
        modules[k + 1] = true
        s.rows[bottom].modules = modules
        XCTAssertEqual(scan(picture(s, module: 3)).map(\.text), [])
    }

    // MARK: - Omnidirectional halves on different lines

    func testOmnidirectionalScratchedAcrossItsMiddle() throws {
        // A light scratch from the top near the left third to the bottom
        // near the right third: every line across all the bars crosses it,
        // lines above the middle read the right half, lines below the left.
        let row = try ZintRow.make(symbology: Self.omni, "0950110153000")
        let module = 3.0
        let w = Int(Double(row.modules.count + 30) * module) + 20, h = 200
        var pic = TestPicture(width: w, height: h)
        let barHeight = 34.0
        pic.draw(row, .init(cx: Double(w) / 2, cy: Double(h) / 2, module: module, barHeight: barHeight))
        let symbolWidth = Double(row.modules.count) * module
        let top = Double(h) / 2 - barHeight * module / 2, bottom = Double(h) / 2 + barHeight * module / 2
        for y in Int(top) - 2...Int(bottom) + 2 {
            let t = (Double(y) - top) / (bottom - top)
            let x = Double(w) / 2 + (t - 0.5) * 0.45 * symbolWidth
            for dx in -2...2 { pic.pixels[y * pic.stride + Int(x) + dx] = 235 }
        }
        XCTAssertEqual(scan(pic).map(\.text), [elementString("0950110153000")])
        XCTAssertEqual(scan(pic, effort: .thorough).map(\.text), [elementString("0950110153000")])
    }

    // MARK: - Expanded Stacked

    func testExpandedStackedTwoToElevenRows() throws {
        // One pair a row: as many rows as pairs; longer data, more rows.
        var candidates = ["[10]A", "[10]ABCD", "[01]98898765432106"]
        let letters = Array("ABCDEFGHIJKLMNOPQRST")
        for length in 1...20 { candidates.append("[01]98898765432106[10]" + String(letters.prefix(length))) }
        for length in stride(from: 2, through: 20, by: 2) {
            candidates.append(
                "[01]98898765432106[3202]012345[15]991231[10]ABCDEF[21]" + String("12345678901234567890".prefix(length))
            )
        }
        var rowCounts = Set<Int>()
        for data in candidates {
            let s = try stack(Self.expandedStacked, data, arguments: ["--cols=1"])
            let rows = s.dataRows.count
            guard rows >= 2, !rowCounts.contains(rows) else { continue }
            rowCounts.insert(rows)
            let r = scan(picture(s, module: 2))
            XCTAssertEqual(r.map(\.text), [raw(data)], "\(rows) rows: \(data)")
            XCTAssertEqual(r.first?.symbology, .dataBarExpanded)
            XCTAssertEqual(r.first?.symbologyIdentifier, "]e0")
        }
        XCTAssertTrue(Set(2...11).isSubset(of: rowCounts), "rows covered: \(rowCounts.sorted())")
    }

    func testExpandedStackedSeveralPairsPerRow() throws {
        // Several pairs a row; rows that begin with an odd pair and rows
        // printed right to left (every other row when a row holds an even
        // number of pairs), and a shorter last row.
        let cases = [
            "[01]98898765432106[3202]012345[15]991231[10]ABCDEF[21]12345678901234567890",
            "[01]98898765432106[15]991231[3103]001750[10]12A42212321123456",
            "[01]90012345678908[3922]795888888888888",
            "[10]abc%def!?[21]12+34[240]XYZ-1/2"
        ]
        for data in cases {
            for cols in 2...4 {
                let s = try stack(Self.expandedStacked, data, arguments: ["--cols=\(cols)"])
                guard s.dataRows.count >= 2 else { continue }
                let r = scan(picture(s, module: 2))
                XCTAssertEqual(r.map(\.text), [raw(data)], "cols \(cols): \(data)")
                XCTAssertEqual(
                    r.first?.extendedText,
                    data.replacingOccurrences(of: "[", with: "(").replacingOccurrences(of: "]", with: ")"))
            }
        }
    }

    /// Rows whose outer guard bars touch a dark surround: no light module
    /// outside the guard bars (the guard spaces painted over, no quiet zone),
    /// as on a label cut at the symbol's edge. DataBar needs no quiet zone,
    /// so every row still reads at video effort, the symbol whole, with its
    /// outline on the symbol and not on the surround.
    func testExpandedStackedAgainstADarkSurround() throws {
        let data = "[01]98898765432106[3202]012345[15]991231"
        // One and two pairs a row (rows printed right to left among them),
        // and the one-row symbol (DataBar Expanded).
        for cols in [1, 2, 0] {
            var s =
                cols == 0 ? try stack(31, data) : try stack(Self.expandedStacked, data, arguments: ["--cols=\(cols)"])
            guard s.dataRows.count >= (cols == 0 ? 1 : 2) else { continue }
            for k in s.rows.indices where !s.rows[k].isSeparator {
                s.rows[k].modules[0] = true
                if s.rows[k].modules.count == s.width { s.rows[k].modules[s.width - 1] = true }
            }
            let module = 3.0
            let pw = Int(Double(s.width) * module) + 160, ph = Int(s.height * module) + 120
            var pic = TestPicture(width: pw, height: ph, background: 20)
            pic.draw(s, .init(cx: Double(pw) / 2, cy: Double(ph) / 2, module: module, quietZone: 0))
            let r = scan(pic)
            XCTAssertEqual(r.map(\.text), [raw(data)], "cols \(cols)")
            guard let box = r.first?.corners else { continue }
            let left = Double(pw) / 2 - Double(s.width) * module / 2
            XCTAssertGreaterThan(box.map(\.x).min() ?? 0, left - 3 * module, "cols \(cols): \(box)")
            XCTAssertLessThan(
                box.map(\.x).max() ?? 0, left + Double(s.width) * module + 3 * module, "cols \(cols): \(box)")
        }
    }

    func testExpandedStackedEveryFifteenDegrees() throws {
        let data = "[01]98898765432106[3202]012345[15]991231[10]ABCDEF"
        let s = try stack(Self.expandedStacked, data, arguments: ["--cols=2"])
        XCTAssertGreaterThanOrEqual(s.dataRows.count, 3)
        var missed: [Int] = []
        for angle in stride(from: 0, to: 360, by: 15) {
            if scan(picture(s, module: 2, angle: Double(angle))).map(\.text) != [raw(data)] { missed.append(angle) }
        }
        XCTAssertEqual(missed, [])
    }

    /// Rows that the candidate's own lines read alike four times or more
    /// lie along those lines: the lines halfway between them are read
    /// straight only, not also turned a little either way (turned lines
    /// are for rows that the straight lines cross at an angle and read
    /// seldom). An upright stacked symbol of tall rows is read with at
    /// most twice a candidate's lines; a tilted one still gets the turned
    /// lines it needs (``testExpandedStackedEveryFifteenDegrees()``).
    func testRowsReadOftenGetNoTurnedLines() throws {
        let data = "[01]98898765432106[3202]012345[15]991231[10]ABCDEF"
        let s = try stack(Self.expandedStacked, data, arguments: ["--cols=2"])
        XCTAssertGreaterThanOrEqual(s.dataRows.count, 3)
        let pic = picture(s, module: 4)
        let scanner = Scanner(options: ScanOptions(symbologies: [.dataBar, .dataBarExpanded], effort: .balanced))
        let before = scanner.linesSampled
        let r = pic.scan(with: scanner)
        XCTAssertEqual(r.map(\.text), [raw(data)])
        let lines = scanner.linesSampled - before, candidates = scanner.lastCandidatesRead
        XCTAssertGreaterThan(candidates, 0)
        XCTAssertLessThanOrEqual(lines, 2 * 21 * candidates, "\(lines) lines for \(candidates) candidates")
    }

    func testExpandedStackedInvertedBlurAndNoise() throws {
        let data = "[01]98898765432106[3103]012233[15]991231[10]XYZ"
        let s = try stack(Self.expandedStacked, data, arguments: ["--cols=2"])
        var inverted = picture(s, module: 3)
        inverted.invert()
        let r = scan(inverted)
        XCTAssertEqual(r.map(\.text), [raw(data)])
        XCTAssertEqual(r.first?.isInverted, true)
        var blurred = picture(s, module: 3)
        blurred.blur(radius: 1)
        blurred.addNoise(amplitude: 30)
        XCTAssertEqual(scan(blurred).map(\.text), [raw(data)])
    }

    func testExpandedStackedDamagedRowFails() throws {
        // Move a bar of the second row's first character by a module.
        var s = try stack(Self.expandedStacked, "[01]98898765432106[3202]012345[15]991231", arguments: ["--cols=1"])
        let second = s.rows.indices.filter { !s.rows[$0].isSeparator }[1]
        var modules = s.rows[second].modules
        // The first bar wider than one module after the guard, moved right by one.
        var k = 3
        while !(modules[k] && modules[k + 1] && !modules[k - 1]) { k += 1 }
        var e = k
        while modules[e + 1] { e += 1 }
        modules[k] = false
        modules[e + 1] = true
        s.rows[second].modules = modules
        XCTAssertEqual(scan(picture(s, module: 2)).map(\.text), [])
    }

    // MARK: - Several symbols

    func testTwoStackedSymbolsSideBySideAndAbove() throws {
        let a = "[01]98898765432106[3202]012345[15]991231[10]ABCDEF"
        let b = "[01]90012345678908[3103]001750[10]QRSTUV"
        let sa = try stack(Self.expandedStacked, a, arguments: ["--cols=2"])
        let sb = try stack(Self.expandedStacked, b, arguments: ["--cols=2"])
        let module = 2.0
        let wa = Double(sa.width) * module, ha = sa.height * module, hb = sb.height * module
        // Side by side, rows level with each other, 12 modules apart.
        var pic = TestPicture(
            width: Int(wa + Double(sb.width) * module) + 24 * Int(module) + 80,
            height: Int(max(ha, hb)) + 80)
        pic.draw(sa, .init(cx: 40 + wa / 2, cy: Double(pic.height) / 2, module: module, quietZone: 6))
        pic.draw(
            sb,
            .init(
                cx: 40 + wa + 12 * module + Double(sb.width) * module / 2, cy: Double(pic.height) / 2,
                module: module, quietZone: 6))
        XCTAssertEqual(Set(scan(pic).map(\.text)), [raw(a), raw(b)])
        XCTAssertEqual(scan(pic).count, 2)
        // One above the other, 10 modules apart.
        var tall = TestPicture(
            width: Int(max(wa, Double(sb.width) * module)) + 80, height: Int(ha + hb) + 20 * Int(module) + 80)
        tall.draw(sa, .init(cx: Double(tall.width) / 2, cy: 40 + ha / 2, module: module, quietZone: 5))
        tall.draw(
            sb, .init(cx: Double(tall.width) / 2, cy: 40 + ha + 10 * module + hb / 2, module: module, quietZone: 5))
        let r = scan(tall)
        XCTAssertEqual(Set(r.map(\.text)), [raw(a), raw(b)])
        XCTAssertEqual(r.count, 2)
        // Two DataBar Stacked Omnidirectional side by side.
        let so1 = try stack(Self.stackedOmni, "0441234567890"), so2 = try stack(Self.stackedOmni, "2012345678901")
        var pair = TestPicture(width: 2 * so1.width * 2 + 100, height: Int(so1.height * 2) + 60)
        pair.draw(so1, .init(cx: 30 + Double(so1.width), cy: Double(pair.height) / 2, module: 2, quietZone: 5))
        pair.draw(so2, .init(cx: 30 + 3 * Double(so1.width) + 24, cy: Double(pair.height) / 2, module: 2, quietZone: 5))
        let rs = scan(pair)
        XCTAssertEqual(Set(rs.map(\.text)), [elementString("0441234567890"), elementString("2012345678901")])
        XCTAssertEqual(rs.count, 2)
    }

    func testRandomGridsYieldNothing() {
        // Rows of random bars, stacked: no symbol.
        var seed: UInt64 = 987654321
        for _ in 0..<6 {
            var rows: [ZintStack.Row] = []
            for k in 0..<7 {
                var modules: [Bool] = []
                var bar = false
                while modules.count < 100 {
                    seed = seed &* 6364136223846793005 &+ 1442695040888963407
                    modules += Array(repeating: bar, count: Int((seed >> 33) % 8) + 1)
                    bar.toggle()
                }
                rows.append(ZintStack.Row(modules: modules, height: k % 2 == 0 ? 30 : 2, isSeparator: k % 2 == 1))
            }
            XCTAssertEqual(scan(picture(ZintStack(rows: rows), module: 2), effort: .thorough).map(\.text), [])
        }
    }
}

extension DataBarStackedTests {
    /// Video frames after a scanner's first: the lines that read a stacked
    /// symbol's rows turn one way in one frame and the other in the next,
    /// so two frames read it at every angle (the first frame turns them
    /// every way: ``testStackedEveryFifteenDegrees()``).
    func testStackedEveryFifteenDegreesWithinTwoVideoFrames() throws {
        let s = try stack(Self.stacked, "0441234567890")
        var missed: [Int] = []
        for angle in stride(from: 0, to: 360, by: 15) {
            let pic = picture(s, module: 3, angle: Double(angle))
            let blank = [UInt8](repeating: 200, count: pic.width * pic.height)
            let scanner = Scanner(options: ScanOptions(symbologies: [.dataBar, .dataBarExpanded], effort: .balanced))
            var texts = Set<String>()
            blank.withUnsafeBufferPointer {
                _ = scanner.scan(
                    LumaView(base: $0.baseAddress!, width: pic.width, height: pic.height, stride: pic.width))
            }
            pic.pixels.withUnsafeBufferPointer {
                let view = LumaView(base: $0.baseAddress!, width: pic.width, height: pic.height, stride: pic.stride)
                for _ in 0..<2 { for r in scanner.scan(view) { texts.insert(r.text) } }
            }
            if texts != ["0104412345678909"] { missed.append(angle) }
        }
        XCTAssertEqual(missed, [])
    }
}
