import Foundation
import XCTest
@testable import RLBarcode

/// Interleaved 2 of 5 and ITF-14 on pictures drawn from zint's module
/// patterns, read by ``ITFReader`` through a scanner that runs it alone;
/// and the pictures it must not read: EAN/UPC symbols, stripes, text, grids, noise.
final class ITFReaderTests: XCTestCase {
    /// zint's symbology numbers: Interleaved 2 of 5 and ITF-14.
    private static let zintITF = 3, zintITF14 = 89

    /// Runs `zint -b KIND -d DATA --dump` and parses the hexadecimal row
    /// (ZintRow.Kind does not list the ITF symbologies).
    private func zint(_ kind: Int, _ data: String, file: StaticString = #filePath, line: UInt = #line) throws -> ZintRow
    {
        try ZintRow.make(symbology: kind, data, file: file, line: line)
    }

    /// The run lengths of a module row, starting with a bar.
    private func runs(_ row: ZintRow) -> [Int] {
        var out: [Int] = []
        var current = true, length = 0
        for m in row.modules {
            if m == current { length += 1 } else { out.append(length); current = m; length = 1 }
        }
        out.append(length)
        return out
    }

    /// A module row from run lengths starting with a bar.
    private func row(_ runs: [Int]) -> ZintRow {
        var modules: [Bool] = []
        for (i, r) in runs.enumerated() { modules += [Bool](repeating: i % 2 == 0, count: r) }
        return ZintRow(modules: modules)
    }

    /// Scans with the ITF reader alone (or with `readers`).
    private func scan(
        _ pic: TestPicture, effort: Effort = .balanced, symbologies: Symbology = .itf,
        readers: [any LinearReader] = [ITFReader()]
    ) -> [BarcodeResult] {
        let scanner = Scanner(options: ScanOptions(symbologies: symbologies, effort: effort), linearReaders: readers)
        return pic.scan(with: scanner)
    }

    /// Draws `row` upright in a picture just big enough and scans it.
    private func read(_ row: ZintRow, module: Double = 2, effort: Effort = .balanced) -> [BarcodeResult] {
        let w = Int(Double(row.modules.count + 30) * module) + 20
        var pic = TestPicture(width: w, height: 120)
        pic.draw(row, .init(cx: Double(w) / 2, cy: 60, module: module, barHeight: 40))
        return scan(pic, effort: effort)
    }

    // MARK: - Reading

    func testSeveralLengths() throws {
        // 6, 8, 10, 14 (valid GS1 check digit), 20 digits.
        for data in [
            "123456", "070429", "00123456", "0829220875", "3018108390", "00012345678905",
            "12345678901234567890", "98765432109876543210"
        ] {
            let r = read(try zint(ITFReaderTests.zintITF, data))
            XCTAssertEqual(r.map(\.text), [data], data)
            XCTAssertEqual(r.first?.symbology, .itf)
            XCTAssertEqual(r.first?.bytes, Array(data.utf8))
            XCTAssertEqual(r.first?.addOn, "")
        }
    }

    func testOddLengthIsPaddedByTheEncoder() throws {
        // zint pads an odd number of digits with a leading zero.
        XCTAssertEqual(read(try zint(ITFReaderTests.zintITF, "1234567")).map(\.text), ["01234567"])
    }

    func testWideToNarrowRatioTwoAndTwoAndAHalf() throws {
        let base = runs(try zint(ITFReaderTests.zintITF, "5012345678"))
        XCTAssertEqual(Set(base), [1, 3], "zint draws ITF at 3:1")
        // 2:1 straight from the module row.
        XCTAssertEqual(read(row(base.map { $0 == 3 ? 2 : 1 })).map(\.text), ["5012345678"])
        // 2.5:1 with narrow elements of two modules.
        XCTAssertEqual(read(row(base.map { $0 == 3 ? 5 : 2 }), module: 1).map(\.text), ["5012345678"])
    }

    func testITF14() throws {
        for (data, full) in [
            ("1234567890123", "12345678901231"), ("0001234567890", "00012345678905"),
            ("3071234500001", "30712345000010")
        ] {
            let r = read(try zint(ITFReaderTests.zintITF14, data))
            XCTAssertEqual(r.map(\.text), [full], data)
        }
    }

    func testITF14WithBearerBars() throws {
        // The bearer bars frame the symbol; the scan line crosses the
        // vertical ones beyond the quiet zones.
        let row = try zint(ITFReaderTests.zintITF14, "1234567890123")
        let module = 2.0, quiet = 12.0, bearer = 5.0
        let n = Double(row.modules.count)
        let w = Int((n + 2 * quiet + 2 * bearer) * module) + 40
        var pic = TestPicture(width: w, height: 160)
        pic.draw(row, .init(cx: Double(w) / 2, cy: 80, module: module, barHeight: 40))
        let outerX0 = Double(w) / 2 - (n / 2 + quiet + bearer) * module,
            outerX1 = Double(w) / 2 + (n / 2 + quiet + bearer) * module
        let outerY0 = 80 - (20 + bearer) * module, outerY1 = 80 + (20 + bearer) * module
        for y in 0..<pic.height {
            for x in 0..<pic.width {
                let fx = Double(x) + 0.5, fy = Double(y) + 0.5
                guard fx >= outerX0, fx < outerX1, fy >= outerY0, fy < outerY1 else { continue }
                let inner =
                    fx >= outerX0 + bearer * module && fx < outerX1 - bearer * module
                    && fy >= outerY0 + bearer * module && fy < outerY1 - bearer * module
                if !inner { pic.pixels[y * pic.stride + x] = 20 }
            }
        }
        XCTAssertEqual(scan(pic).map(\.text), ["12345678901231"])
        // The bearer bars stop oblique lines from leaving through the bars' ends.
        XCTAssertEqual(scan(pic, effort: .thorough).map(\.text), ["12345678901231"])
    }

    /// A scan line crossing the bars obliquely can leave a symbol without
    /// bearer bars through the ends of its bars, in a space: what it read up
    /// to there looks like a shorter symbol with a stop pattern and a quiet
    /// zone (ISO/IEC 16390 recommends bearer bars against these short
    /// reads). The reader cannot see it on one line; the scanner must keep
    /// ITF lines nearly square to the bars, as it does for UPC-E.
    func testShortReadsFromObliqueLines() throws {
        let row = try zint(ITFReaderTests.zintITF14, "1234567890123")
        let r = read(row, effort: .thorough)
        XCTAssertTrue(r.contains { $0.text == "12345678901231" })
        XCTAssertEqual(read(row).map(\.text), ["12345678901231"], "balanced: lines across the bars only")
        let short = r.filter { $0.text != "12345678901231" }.map(\.text)
        XCTAssertTrue(short.isEmpty, "oblique sweeps must not read part of an ITF: \(short)")
    }

    func testITF14WithBadCheckDigitIsRejected() throws {
        let good = try zint(ITFReaderTests.zintITF14, "1234567890123")
        XCTAssertEqual(read(good).map(\.text), ["12345678901231"])
        // Flip the check digit's pattern: the last pair's spaces (the second
        // digit of a pair) are elements 4 + 60 + 1, 3, 5, 7, 9 of the row.
        var r = runs(good)
        XCTAssertEqual(r.count, 4 + 70 + 3)
        let spaces = stride(from: 65, through: 73, by: 2).map { $0 }
        let wide = spaces.first { r[$0] == 3 }!, narrow = spaces.first { r[$0] == 1 }!
        r[wide] = 1; r[narrow] = 3
        XCTAssertTrue(read(row(r)).isEmpty, "14 digits with a failing GS1 check")
        // (Thorough sweeps also cross it obliquely; see testShortReadsFromObliqueLines.)
        XCTAssertFalse(read(row(r), effort: .thorough).contains { $0.text.count == 14 })
        // The same through the plain encoder.
        XCTAssertTrue(read(try zint(ITFReaderTests.zintITF, "12345678901234")).isEmpty)
        // Other lengths carry no check: a 10-digit code whose last digit
        // fails the modulo 10 check is read as it is.
        XCTAssertEqual(read(try zint(ITFReaderTests.zintITF, "0829220875")).map(\.text), ["0829220875"])
    }

    func testEveryAngleInFifteenDegreeSteps() throws {
        let row = try zint(ITFReaderTests.zintITF14, "1234567890123")
        for step in 0..<24 {
            let angle = Double(step * 15)
            var pic = TestPicture(width: 400, height: 400)
            pic.draw(row, .init(cx: 200, cy: 200, module: 2, barHeight: 45, angle: angle))
            let r = scan(pic)
            XCTAssertEqual(r.map(\.text), ["12345678901231"], "angle \(angle)")
            guard let code = r.first else { continue }
            var diff = abs(Double(code.orientation) - angle).truncatingRemainder(dividingBy: 360)
            diff = min(diff, 360 - diff)
            XCTAssertLessThan(diff, 6, "reported orientation \(code.orientation) for \(angle)")
        }
    }

    func testInverted() throws {
        var pic = TestPicture(width: 360, height: 360)
        pic.draw(
            try zint(ITFReaderTests.zintITF, "0829220875"),
            .init(cx: 180, cy: 180, module: 2.5, barHeight: 40, angle: 30))
        pic.invert()
        let r = scan(pic)
        XCTAssertEqual(r.map(\.text), ["0829220875"])
        XCTAssertEqual(r.first?.isInverted, true)
    }

    func testBlurNoiseAndLowContrast() throws {
        var pic = TestPicture(width: 420, height: 200, background: 110)
        pic.draw(
            try zint(ITFReaderTests.zintITF14, "0001234567890"),
            .init(cx: 210, cy: 100, module: 2.5, barHeight: 40, angle: 10, dark: 80, light: 160))
        pic.blur(radius: 1)
        pic.addNoise(amplitude: 8)
        XCTAssertEqual(scan(pic).map(\.text), ["00012345678905"])
        XCTAssertEqual(scan(pic, effort: .thorough).map(\.text), ["00012345678905"])
    }

    func testPerspectiveAndSmallModules() throws {
        var pic = TestPicture(width: 420, height: 200)
        pic.draw(
            try zint(ITFReaderTests.zintITF, "12345678901234567890"),
            .init(cx: 210, cy: 100, module: 1.8, barHeight: 40, angle: -8, taper: 0.25))
        XCTAssertEqual(scan(pic).map(\.text), ["12345678901234567890"])
        var small = TestPicture(width: 260, height: 90)
        small.draw(try zint(ITFReaderTests.zintITF, "00123456"), .init(cx: 130, cy: 45, module: 1.5, barHeight: 30))
        XCTAssertEqual(scan(small).map(\.text), ["00123456"])
    }

    /// Modules 14 to 15 pixels wide (a blurred close-up in an HD frame),
    /// low contrast and noise: the wide bars' and spaces' flat insides
    /// leave cells without gradients among the code's cells.
    func testLargeBlurredModules() throws {
        for (digits, module, height) in [
            ("0817605453", 15.0, 14.0), ("0817605453", 15, 20), ("12345678901234567890", 14, 12)
        ] {
            let row = try zint(ITFReaderTests.zintITF, digits)
            let w = Int(Double(row.modules.count + 40) * module)
            var pic = TestPicture(width: w, height: 300, background: 90)
            pic.draw(
                row,
                .init(
                    cx: Double(w) / 2, cy: 150, module: module, barHeight: height, angle: 1, dark: 80, light: 180,
                    quietZone: 12))
            pic.blur(radius: 6)
            pic.addNoise(amplitude: 6)
            XCTAssertEqual(scan(pic).map(\.text), [digits], "\(digits) \(module) \(height)")
        }
    }

    func testTwoCodesInOnePicture() throws {
        var pic = TestPicture(width: 440, height: 360)
        pic.draw(
            try zint(ITFReaderTests.zintITF14, "1234567890123"),
            .init(cx: 220, cy: 90, module: 2, barHeight: 35, angle: 5))
        pic.draw(
            try zint(ITFReaderTests.zintITF, "0829220875"),
            .init(cx: 200, cy: 260, module: 2, barHeight: 35, angle: -70))
        XCTAssertEqual(Set(scan(pic).map(\.text)), ["12345678901231", "0829220875"])
        // Two identical codes side by side are two results.
        var twins = TestPicture(width: 600, height: 140)
        let row = try zint(ITFReaderTests.zintITF, "070429")
        twins.draw(row, .init(cx: 150, cy: 70, module: 2, barHeight: 40))
        twins.draw(row, .init(cx: 450, cy: 70, module: 2, barHeight: 40))
        let r = scan(twins)
        XCTAssertEqual(r.map(\.text), ["070429", "070429"])
    }

    func testSymbologyIdentifier() throws {
        XCTAssertEqual(ITFReader.symbologyIdentifier(digitCount: 14), "]I1")
        XCTAssertEqual(ITFReader.symbologyIdentifier(digitCount: 10), "]I0")
        // Through the scanner.
        let r14 = read(try zint(ITFReaderTests.zintITF14, "1234567890123"))
        let r10 = read(try zint(ITFReaderTests.zintITF, "0829220875"))
        guard let a = r14.first?.symbologyIdentifier, let b = r10.first?.symbologyIdentifier else {
            return XCTFail("not read")
        }
        XCTAssertEqual(a, "]I1")
        XCTAssertEqual(b, "]I0")
    }

    // MARK: - Reader rules on exact widths

    /// An element run of `row` drawn `module` pixels per module with
    /// `leading` and `trailing` modules of quiet zone (no profile). Unless
    /// `atLineEnds`, a bar of 3 modules and a margin lie beyond each quiet zone.
    private func withRun<T>(
        _ row: ZintRow, module: Float = 2, leading: Float = 12, trailing: Float = 12,
        atLineEnds: Bool = false, reversed: Bool = false,
        _ body: (borrowing ElementRun) -> T
    ) -> T {
        var widths = [leading] + runs(row).map { Float($0) } + [trailing]
        if !atLineEnds { widths = [20, 3] + widths + [3, 20] }
        widths = widths.filter { $0 > 0 }.map { $0 * module }
        var run = ElementRun()
        run.reserve(widths.count + 2)
        var at: Float = 0
        for (i, w) in widths.enumerated() { run.widths[i] = w; run.starts[i] = at; at += w }
        run.count = widths.count
        run.lineLength = at
        if reversed { run.reverse() }
        defer { run.free() }
        return body(run)
    }

    /// Decodes one line of element widths, in modules of `module` pixels
    /// (a space first; no profile).
    private func decodeWidths(_ widths: [Float], module: Float = 1, reader: ITFReader = ITFReader()) -> [String] {
        var run = ElementRun()
        defer { run.free() }
        run.reserve(widths.count + 2)
        var at: Float = 0
        for (i, w) in widths.enumerated() { run.widths[i] = w * module; run.starts[i] = at; at += w * module }
        run.count = widths.count
        run.lineLength = at
        return decode(run, reader: reader)
    }

    private func decode(_ run: borrowing ElementRun, reader: ITFReader = ITFReader()) -> [String] {
        var sink = LinearHitSink()
        defer { sink.free() }
        reader.decode(run, enabled: .itf, into: &sink)
        return (0..<sink.hitCount).map { String(decoding: sink.text(of: sink.hits[$0]), as: UTF8.self) }
    }

    func testReaderRulesOnExactWidths() throws {
        let row = try zint(ITFReaderTests.zintITF, "0829220875")
        XCTAssertEqual(withRun(row) { decode($0) }, ["0829220875"])
        // Perfect widths score a near-zero error.
        withRun(row) { run in
            var sink = LinearHitSink()
            defer { sink.free() }
            ITFReader().decode(run, enabled: .itf, into: &sink)
            XCTAssertEqual(sink.hitCount, 1)
            if sink.hitCount == 1 { XCTAssertLessThan(sink.hits[0].error, 0.2) }
            // Not enabled: nothing.
            sink.reset()
            ITFReader().decode(run, enabled: .ean13, into: &sink)
            XCTAssertEqual(sink.hitCount, 0)
        }
        // Quiet zones shorter than about ten narrow widths: nothing.
        XCTAssertEqual(withRun(row, leading: 8) { decode($0) }, [])
        XCTAssertEqual(withRun(row, trailing: 8) { decode($0) }, [])
        XCTAssertEqual(withRun(row, leading: 10, trailing: 10) { decode($0) }, ["0829220875"])
        // Cut by the line's end, six narrow widths are enough (wider than
        // any element inside a symbol); no space at all is not.
        XCTAssertEqual(withRun(row, leading: 6, trailing: 6, atLineEnds: true) { decode($0) }, ["0829220875"])
        XCTAssertEqual(decodeWidths([4] + runs(row).map { Float($0) } + [12, 3, 20], module: 2), [])
        XCTAssertEqual(decodeWidths([20, 3, 12] + runs(row).map { Float($0) } + [4], module: 2), [])
        XCTAssertEqual(decodeWidths([12] + runs(row).map { Float($0) }, module: 2), [])
        // Unless the symbol fills the line from one end to the other (a
        // picture cropped to it), where the margins are what the crop left.
        XCTAssertEqual(withRun(row, leading: 4, atLineEnds: true) { decode($0) }, ["0829220875"])
        XCTAssertEqual(withRun(row, leading: 1, trailing: 1, atLineEnds: true) { decode($0) }, ["0829220875"])
        // Read backwards: the stop pattern is not a start pattern.
        XCTAssertEqual(withRun(row, reversed: true) { decode($0) }, [])
        // Four digits are too few for this reader.
        XCTAssertEqual(withRun(try zint(ITFReaderTests.zintITF, "1515")) { decode($0) }, [])
        let lenient = ITFReader()
        lenient.minDigits = 4
        XCTAssertEqual(withRun(try zint(ITFReaderTests.zintITF, "1515")) { decode($0, reader: lenient) }, ["1515"])
    }

    /// Decodes `row` (2 pixels a module, 12 modules of quiet zone each side)
    /// with a grey-level profile that `edit` may change.
    private func decodeWithProfile(_ row: ZintRow, _ edit: (inout [Float], _ symbolEnd: Int) -> Void) -> [String] {
        let module = 2
        let modules = [Bool](repeating: false, count: 12) + row.modules + [Bool](repeating: false, count: 12)
        var profile: [Float] = []
        for m in modules { profile += [Float](repeating: m ? 20 : 235, count: module) }
        edit(&profile, (12 + row.modules.count) * module)
        let r = [12] + runs(row) + [12]
        var run = ElementRun()
        defer { run.free() }
        run.reserve(r.count + 2)
        var at: Float = 0
        for (i, m) in r.enumerated() { run.widths[i] = Float(m * module); run.starts[i] = at; at += Float(m * module) }
        run.count = r.count
        run.lineLength = Float(profile.count)
        return profile.withUnsafeBufferPointer { p in
            run.profile = p.baseAddress
            return decode(run)
        }
    }

    func testQuietZonesAndSymbolEndsOnTheProfile() throws {
        let row = try zint(ITFReaderTests.zintITF, "0829220875")
        XCTAssertEqual(decodeWithProfile(row) { _, _ in }, ["0829220875"])
        // A faint speck in the trailing quiet zone is still a margin.
        XCTAssertEqual(
            decodeWithProfile(row) { p, end in for k in (end + 10)..<(end + 12) { p[k] = 205 } }, ["0829220875"])
        // A bar at 40% of the contrast is not.
        XCTAssertEqual(decodeWithProfile(row) { p, end in for k in (end + 10)..<(end + 12) { p[k] = 150 } }, [])
        // A last bar whose outer edge fades over 8 pixels, as when the line
        // leaves through the bars' ends: not a symbol's end.
        XCTAssertEqual(
            decodeWithProfile(row) { p, end in
                for k in 0..<8 { p[end + k] = 20 + Float(k + 1) * 215 / 9 }
            }, [])
    }

    // MARK: - Pictures cropped to the symbol, steep perspective

    /// A picture of `row` upright with `margin` modules of background on
    /// either side: cropped to the symbol.
    private func cropped(_ row: ZintRow, module: Double = 2, margin: Double = 1, height: Int = 60) -> TestPicture {
        let n = Double(row.modules.count)
        let width = Int(((n + 2 * margin) * module).rounded())
        var pic = TestPicture(width: width, height: height)
        pic.draw(
            row,
            .init(
                cx: Double(width) / 2, cy: Double(height) / 2, module: module,
                barHeight: Double(height) / module, quietZone: margin))
        return pic
    }

    func testShortSymbolFillingTheFrame() throws {
        // Four digits, the picture cropped to the symbol, at every quarter turn.
        let short = try zint(ITFReaderTests.zintITF, "1515")
        // (The scanner's lines end a pixel or two off the frame's far
        // border: margins of two modules leave them some.)
        for (module, margin) in [(2.0, 2.0), (3.0, 2.0), (2.0, 4.0)] {
            let pic = cropped(short, module: module, margin: margin)
            for turn in 0..<4 {
                XCTAssertEqual(
                    scan(pic.c39Turned(turn)).map(\.text), ["1515"],
                    "module \(module), margin \(margin), \(turn * 90) degrees")
                XCTAssertEqual(scan(pic.c39Turned(turn), effort: .thorough).map(\.text), ["1515"])
            }
        }
        // Longer symbols cropped the same way read too.
        XCTAssertEqual(scan(cropped(try zint(ITFReaderTests.zintITF, "070429"), margin: 2)).map(\.text), ["070429"])
        XCTAssertEqual(
            scan(cropped(try zint(ITFReaderTests.zintITF14, "3071234500001"), margin: 2)).map(\.text),
            ["30712345000010"])
        // Four digits anywhere else are too few: with quiet zones in a larger picture...
        XCTAssertEqual(read(short).map(\.text), [])
        XCTAssertEqual(read(short, effort: .thorough).map(\.text), [])
        // ... or reaching only one border.
        var oneSide = TestPicture(width: 200, height: 60)
        oneSide.draw(short, .init(cx: Double(short.modules.count) + 4, cy: 30, module: 2, barHeight: 30, quietZone: 2))
        XCTAssertEqual(scan(oneSide, effort: .thorough).map(\.text), [])
        // Two digits are too few even filling the frame.
        XCTAssertEqual(
            scan(cropped(try zint(ITFReaderTests.zintITF, "15"), margin: 2), effort: .thorough).map(\.text), [])
    }

    /// The run of one line across `row` (2 pixels a module) with a margin
    /// of one module each side, read from a grey-level profile; the run
    /// is told whether the line's ends lie on the frame's border.
    private func decodeFillingLine(_ row: ZintRow, onBorder: Bool) -> [String] {
        let modules = [false] + row.modules + [false]
        var p: [Float] = []
        for m in modules { p += [Float](repeating: m ? 25 : 230, count: 2) }
        var edges = EdgeExtractor(), run = ElementRun()
        defer { edges.free(); run.free() }
        return p.withUnsafeBufferPointer { profile in
            edges.extract(profile.baseAddress!, count: p.count, relative: 0.1, floor: 2)
            run.fill(
                from: edges, lineLength: p.count, inverted: false,
                startsAtFrameBorder: onBorder, endsAtFrameBorder: onBorder)
            run.profile = profile.baseAddress
            return decode(run)
        }
    }

    func testFillingTheLineCountsOnlyOnTheFrameBorder() throws {
        let short = try zint(ITFReaderTests.zintITF, "1515")
        XCTAssertEqual(decodeFillingLine(short, onBorder: true), ["1515"])
        // A line cut short inside the frame: the margins are not the picture's.
        XCTAssertEqual(decodeFillingLine(short, onBorder: false), [])
        let long = try zint(ITFReaderTests.zintITF, "0829220875")
        XCTAssertEqual(decodeFillingLine(long, onBorder: true), ["0829220875"])
        XCTAssertEqual(decodeFillingLine(long, onBorder: false), [])
    }

    /// Element widths of `row` (quiet zones of 12 modules), each pair
    /// `scale(k)` times as wide as drawn (k counts the pairs from 0; the
    /// start pattern follows pair 0, the stop pattern the last pair).
    private func scaledWidths(_ row: ZintRow, _ scale: (Int) -> Float) -> [Float] {
        let r = runs(row).map { Float($0) }
        let pairs = (r.count - 7) / 10
        var out: [Float] = [12 * scale(0)]
        for k in 0..<4 { out.append(r[k] * scale(0)) }
        for p in 0..<pairs { for k in 0..<10 { out.append(r[4 + 10 * p + k] * scale(p)) } }
        for k in 0..<3 { out.append(r[4 + 10 * pairs + k] * scale(pairs - 1)) }
        out.append(12 * scale(pairs - 1))
        return out
    }

    func testSteepPerspective() throws {
        let row = try zint(ITFReaderTests.zintITF, "12345678901234567890")
        // Each pair a fifth narrower than the one before, steadily (a
        // symbol seen at a grazing angle): read, both ways.
        let steady = scaledWidths(row) { pow(0.79, Float($0)) * 3 }
        XCTAssertEqual(decodeWidths(steady), ["12345678901234567890"])
        XCTAssertEqual(decodeWidths(steady.reversed()), [])  // the stop pattern is no start
        let growing = scaledWidths(row) { pow(1 / 0.79, Float($0)) }
        XCTAssertEqual(decodeWidths(growing), ["12345678901234567890"])
        // The same steps, but not steadily: zigzag, or one jump alone.
        let zigzag = scaledWidths(row) { $0 % 2 == 0 ? 2 : 1.58 }
        XCTAssertEqual(decodeWidths(zigzag), [])
        let jump = scaledWidths(row) { $0 < 5 ? 2 : 1.58 }
        XCTAssertEqual(decodeWidths(jump), [])
        // Four digits: a single steep step has no neighbour to confirm it.
        let short = try zint(ITFReaderTests.zintITF, "1515")
        let lenient = ITFReader()
        lenient.minDigits = 4
        XCTAssertEqual(decodeWidths(scaledWidths(short) { $0 == 0 ? 2 : 1.98 }, reader: lenient), ["1515"])
        XCTAssertEqual(decodeWidths(scaledWidths(short) { $0 == 0 ? 2 : 1.58 }, reader: lenient), [])
    }

    /// Under perspective each quiet zone is measured in the narrow width at
    /// its own end: a symbol shrinking along the line, with ten of the last
    /// pair's narrow widths after the stop pattern (fewer than ten of the
    /// symbol's mean narrow width), has its quiet zone; seven has none.
    func testQuietZonesInTheNarrowWidthAtTheirEnd() throws {
        let row = try zint(ITFReaderTests.zintITF, "0829220875")
        func shrinking(trailing: Float) -> [Float] {
            let scale = { (k: Int) -> Float in 2 * pow(0.85, Float(k)) }
            var w = scaledWidths(row, scale)
            w[0] = 10.5 * scale(0)
            w[w.count - 1] = trailing * scale(4)
            // Bars beyond both quiet zones: the line does not end there.
            return [12, 3] + w + [3, 12]
        }
        XCTAssertEqual(decodeWidths(shrinking(trailing: 10.5)), ["0829220875"])
        XCTAssertEqual(decodeWidths(shrinking(trailing: 7)), [])
    }

    func testInexactStartOrStopPatternIsRejected() throws {
        let base = runs(try zint(ITFReaderTests.zintITF, "0829220875"))
        // A wide element in the start pattern.
        var r = base
        r[2] = 3
        XCTAssertEqual(withRun(row(r)) { decode($0) }, [])
        // A narrow stop bar where the wide one belongs.
        r = base
        r[r.count - 3] = 1
        XCTAssertEqual(withRun(row(r)) { decode($0) }, [])
        // A wide last bar.
        r = base
        r[r.count - 1] = 3
        XCTAssertEqual(withRun(row(r)) { decode($0) }, [])
        // Three wide bars in a pair.
        r = base
        let bars = [4, 6, 8, 10, 12]
        if let narrow = bars.first(where: { r[$0] == 1 }) { r[narrow] = 3 }
        XCTAssertEqual(withRun(row(r)) { decode($0) }, [])
    }

    func testDigitTableAndCheckDigit() {
        // ISO/IEC 16390 Table 1: the weights 1, 2, 4, 7, 0 of the wide elements sum to the digit (11 is 0).
        let weights = [1, 2, 4, 7, 0]
        var seen = Set<UInt8>()
        for pattern in 0..<32 {
            let d = ITFReader.digitByPattern[pattern]
            let wide = (0..<5).filter { pattern >> (4 - $0) & 1 == 1 }
            if wide.count != 2 { XCTAssertEqual(d, 255); continue }
            let sum = wide.map { weights[$0] }.reduce(0, +)
            XCTAssertEqual(Int(d), sum == 11 ? 0 : sum, "pattern \(pattern)")
            seen.insert(d)
        }
        XCTAssertEqual(seen.count, 10)
        let good: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 1]
        var bad = good
        bad[13] = 4
        XCTAssertTrue(good.withUnsafeBufferPointer { ITFReader.checkDigitOK($0.baseAddress!, count: 14) })
        XCTAssertFalse(bad.withUnsafeBufferPointer { ITFReader.checkDigitOK($0.baseAddress!, count: 14) })
    }

    // MARK: - Nothing to read

    func testNoITFFromEANAndUPCSymbols() throws {
        let rows = [
            try ZintRow.make(.eanx, "590123412345"), try ZintRow.make(.eanx, "978020137962"),
            try ZintRow.make(.eanx, "400638133393+12"), try ZintRow.make(.eanx, "9638507"),
            try ZintRow.make(.upca, "01234567890"), try ZintRow.make(.upce, "0123456")
        ]
        for (k, row) in rows.enumerated() {
            for module in [1.5, 2.0, 3.0] {
                XCTAssertEqual(read(row, module: module).map(\.text), [], "row \(k), module \(module)")
            }
            XCTAssertEqual(read(row, effort: .thorough).map(\.text), [], "row \(k) thorough")
            for angle in stride(from: 0.0, to: 360, by: 45) {
                var pic = TestPicture(width: 320, height: 320)
                pic.draw(row, .init(cx: 160, cy: 160, module: 2, barHeight: 40, angle: angle))
                pic.blur(radius: 1, passes: 1)
                XCTAssertEqual(scan(pic).map(\.text), [], "row \(k) angle \(angle)")
            }
        }
        // With both readers, an EAN-13 is only an EAN-13.
        var pic = TestPicture(width: 300, height: 140)
        pic.draw(try ZintRow.make(.eanx, "590123412345"), .init(cx: 150, cy: 70, module: 2, barHeight: 40))
        let both = scan(pic, effort: .thorough, symbologies: .all, readers: [EANReader(), ITFReader()])
        XCTAssertEqual(both.map(\.symbology), [.ean13])
    }

    func testNoITFFromOtherLinearSymbologies() throws {
        // zint: Code 39 (8), Code 128 (20), Code 93 (25), Codabar (18),
        // Matrix 2 of 5 (2), IATA 2 of 5 (4), Industrial 2 of 5 (7).
        let symbols: [(Int, String)] = [
            (8, "CODE39-1234"), (8, "12345678"), (20, "12345678901234"), (20, "Code 128"),
            (25, "CODE93 1234"), (18, "A12345678B"), (18, "C0123456789D"),
            (2, "1234567890"), (4, "1234567890"), (7, "1234567890")
        ]
        for (kind, data) in symbols {
            let row = try zint(kind, data)
            XCTAssertEqual(read(row).map(\.text), [], "zint -b \(kind) \(data)")
            XCTAssertEqual(read(row, module: 3, effort: .thorough).map(\.text), [], "zint -b \(kind) \(data), thorough")
            var pic = TestPicture(width: 360, height: 360)
            pic.draw(row, .init(cx: 180, cy: 180, module: 1.8, barHeight: 50, angle: 30))
            XCTAssertEqual(scan(pic).map(\.text), [], "zint -b \(kind) \(data), 30 degrees")
        }
    }

    func testNothingFromStripesTextGridsAndNoise() {
        var state: UInt64 = 0x1234_5678
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        var pictures: [TestPicture] = []
        // Random stripes: widths 1-8 pixels, and 1-3 "modules" of 2 pixels
        // with wide margins, so that quiet zones are there.
        for seed in 0..<6 {
            var pic = TestPicture(width: 360, height: 200)
            var x = 40
            var dark = true
            while x < 320 {
                let w = seed % 2 == 0 ? 1 + next(8) : 2 * (1 + next(3))
                if dark { for y in 40..<160 { for k in x..<min(x + w, 320) { pic.pixels[y * 360 + k] = 15 } } }
                x += w
                dark.toggle()
            }
            pictures.append(pic)
        }
        // Text: lines of 5x7 random glyphs, 2 pixels per dot.
        var text = TestPicture(width: 360, height: 240)
        for line in 0..<6 {
            for ch in 0..<28 {
                for dy in 0..<7 {
                    for dx in 0..<5 where next(2) == 1 {
                        for py in 0..<2 {
                            for px in 0..<2 {
                                text.pixels[(20 + line * 36 + dy * 2 + py) * 360 + 12 + ch * 12 + dx * 2 + px] = 10
                            }
                        }
                    }
                }
            }
        }
        pictures.append(text)
        // Grids: thin lines every 7 pixels, and thick and thin lines mixed.
        var grid = TestPicture(width: 320, height: 240)
        for y in 0..<240 { for x in 0..<320 where x % 7 < 2 || y % 7 < 2 { grid.pixels[y * 320 + x] = 30 } }
        pictures.append(grid)
        var ruler = TestPicture(width: 320, height: 240)
        for y in 40..<200 { for x in 40..<280 where (x % 10 < 2) || (x % 50 < 6) { ruler.pixels[y * 320 + x] = 20 } }
        pictures.append(ruler)
        // Noise.
        var noise = TestPicture(width: 320, height: 240, background: 128)
        noise.addNoise(amplitude: 90, seed: 3)
        pictures.append(noise)
        for (k, pic) in pictures.enumerated() {
            XCTAssertEqual(scan(pic, effort: .thorough).map(\.text), [], "picture \(k)")
            var inverted = pic
            inverted.invert()
            XCTAssertEqual(scan(inverted).map(\.text), [], "inverted picture \(k)")
        }
    }
}
