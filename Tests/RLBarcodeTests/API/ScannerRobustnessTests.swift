import XCTest
@testable import RLBarcode

/// Codes as cameras see them: any angle, upside down, light on dark,
/// blurred, noisy, low contrast, small, in perspective; several per frame;
/// and frames with nothing to read.
final class ScannerRobustnessTests: XCTestCase {
    private let data = "9780201379624"

    private func picture(angle: Double, module: Double = 2.5, size: Int = 320) throws -> TestPicture {
        var pic = TestPicture(width: size, height: size)
        pic.draw(
            try ZintRow.make(.eanx, String(data.prefix(12))),
            .init(cx: Double(size) / 2, cy: Double(size) / 2, module: module, barHeight: 50, angle: angle))
        return pic
    }

    func testEveryAngleInFifteenDegreeSteps() throws {
        for step in 0..<24 {
            let angle = Double(step * 15)
            let r = try picture(angle: angle).scan()
            XCTAssertEqual(r.map(\.text), [data], "angle \(angle)")
            guard let code = r.first else { continue }
            var diff = abs(Double(code.orientation) - angle).truncatingRemainder(dividingBy: 360)
            diff = min(diff, 360 - diff)
            XCTAssertLessThan(diff, 6, "reported orientation \(code.orientation) for \(angle)")
        }
    }

    func testInverted() throws {
        var pic = try picture(angle: 30)
        pic.invert()
        let r = pic.scan()
        XCTAssertEqual(r.map(\.text), [data])
        XCTAssertEqual(r.first?.isInverted, true)
    }

    func testBlurNoiseAndLowContrast() throws {
        var pic = TestPicture(width: 360, height: 200, background: 110)
        pic.draw(
            try ZintRow.make(.eanx, String(data.prefix(12))),
            .init(cx: 180, cy: 100, module: 3, barHeight: 40, angle: 10, dark: 90, light: 150))
        pic.blur(radius: 1)
        pic.addNoise(amplitude: 8)
        XCTAssertEqual(pic.scan().map(\.text), [data])
        XCTAssertEqual(pic.scan(ScanOptions(effort: .thorough)).map(\.text), [data])
    }

    func testSmallModules() throws {
        var pic = TestPicture(width: 240, height: 90)
        pic.draw(try ZintRow.make(.eanx, String(data.prefix(12))), .init(cx: 120, cy: 45, module: 1.5, barHeight: 30))
        XCTAssertEqual(pic.scan().map(\.text), [data])
    }

    func testPerspective() throws {
        var pic = TestPicture(width: 360, height: 200)
        pic.draw(
            try ZintRow.make(.eanx, String(data.prefix(12))),
            .init(cx: 180, cy: 100, module: 3, barHeight: 35, angle: -8, taper: 0.3))
        XCTAssertEqual(pic.scan().map(\.text), [data])
    }

    func testTwoCodesSideBySide() throws {
        var pic = TestPicture(width: 560, height: 160)
        let row = try ZintRow.make(.eanx, String(data.prefix(12)))
        pic.draw(row, .init(cx: 140, cy: 80, module: 2, barHeight: 40))
        pic.draw(row, .init(cx: 420, cy: 80, module: 2, barHeight: 40))
        let r = pic.scan()
        XCTAssertEqual(r.map(\.text), [data, data], "two identical codes are two results")
        let xs = r.map { $0.corners.map(\.x).reduce(0, +) / 4 }.sorted()
        if xs.count == 2 {
            XCTAssertEqual(xs[0], 140, accuracy: 25)
            XCTAssertEqual(xs[1], 420, accuracy: 25)
        }
    }

    func testDifferentCodesInOneFrame() throws {
        var pic = TestPicture(width: 420, height: 320)
        pic.draw(try ZintRow.make(.eanx, "590123412345"), .init(cx: 120, cy: 80, module: 2, barHeight: 30, angle: 20))
        pic.draw(try ZintRow.make(.upce, "0123456"), .init(cx: 320, cy: 90, module: 2, barHeight: 30, angle: -60))
        pic.draw(try ZintRow.make(.eanx, "9638507"), .init(cx: 200, cy: 240, module: 2, barHeight: 30, angle: 95))
        XCTAssertEqual(Set(pic.scan().map(\.text)), ["5901234123457", "0012345000065", "96385074"])
    }

    func testNothingInBlankNoisyOrStripedFrames() {
        var blank = TestPicture(width: 320, height: 240, background: 128)
        XCTAssertTrue(blank.scan(ScanOptions(effort: .thorough)).isEmpty)
        blank.addNoise(amplitude: 60, seed: 7)
        XCTAssertTrue(blank.scan(ScanOptions(effort: .thorough)).isEmpty)
        // Regular stripes: bars without a valid code.
        var stripes = TestPicture(width: 320, height: 240)
        for y in 0..<240 { for x in 0..<320 where (x / 3) % 2 == 0 { stripes.pixels[y * 320 + x] = 0 } }
        XCTAssertTrue(stripes.scan(ScanOptions(effort: .thorough)).isEmpty)
        // Random bar widths, like text or a grid seen edge-on.
        var random = TestPicture(width: 320, height: 240)
        var state: UInt64 = 42
        var x = 10
        var dark = true
        while x < 310 {
            state = state &* 6364136223846793005 &+ 1
            let w = 1 + Int(state >> 61)
            if dark { for y in 40..<200 { for k in x..<min(x + w, 320) { random.pixels[y * 320 + k] = 10 } } }
            x += w * 2
            dark.toggle()
        }
        XCTAssertTrue(random.scan(ScanOptions(effort: .thorough)).isEmpty)
    }

    func testOddSizesAndStridesDoNotBreak() throws {
        for (w, h, stride) in [(1, 1, 1), (2, 3, 2), (3, 2, 64), (17, 1, 17), (1, 40, 1), (300, 5, 301), (5, 300, 8)] {
            let pic = TestPicture(width: w, height: h, stride: stride, background: 200)
            for effort in Effort.allCases { _ = pic.scan(ScanOptions(effort: effort)) }
        }
        // A code in a picture whose rows are padded.
        var pic = TestPicture(width: 301, height: 121, stride: 320)
        pic.draw(try ZintRow.make(.eanx, "590123412345"), .init(cx: 150, cy: 60, module: 2, barHeight: 40))
        XCTAssertEqual(pic.scan().map(\.text), ["5901234123457"])
    }

    func testActiveRegionOnly() throws {
        var pic = TestPicture(width: 480, height: 200)
        pic.draw(try ZintRow.make(.eanx, "590123412345"), .init(cx: 120, cy: 100, module: 2, barHeight: 40))
        pic.draw(try ZintRow.make(.eanx, "400638133393"), .init(cx: 360, cy: 100, module: 2, barHeight: 40))
        var options = ScanOptions()
        options.activeRegion = NormalizedRect(x: 0.5, y: 0, width: 0.5, height: 1)
        options.regionOnly = true
        XCTAssertEqual(pic.scan(options).map(\.text), ["4006381333931"])
        // Still pictures: the whole frame at once.
        options.regionOnly = false
        options.effort = .thorough
        XCTAssertEqual(Set(pic.scan(options).map(\.text)), ["5901234123457", "4006381333931"])
    }

    func testActiveRegionOnVideoFrames() throws {
        // A 1280x720 frame: the region's code is read in every frame, the
        // code outside it within a round of tiles (12 tiles, one every other
        // frame, twice for the shifted round), never from a part.
        var pic = TestPicture(width: 1280, height: 720, background: 230)
        pic.draw(try ZintRow.make(.eanx, "590123412345"), .init(cx: 640, cy: 360, module: 2, barHeight: 40))
        pic.draw(try ZintRow.make(.eanx, "400638133393"), .init(cx: 1050, cy: 600, module: 2, barHeight: 40))
        var options = ScanOptions()
        options.activeRegion = NormalizedRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        let scanner = Scanner(options: options)
        var outsideSeen = 0
        pic.pixels.withUnsafeBufferPointer { buf in
            let view = LumaView(base: buf.baseAddress!, width: pic.width, height: pic.height, stride: pic.stride)
            for frame in 0..<48 {
                let texts = scanner.scan(view).map(\.text)
                XCTAssertTrue(texts.contains("5901234123457"), "frame \(frame): \(texts)")
                XCTAssertTrue(Set(texts).isSubset(of: ["5901234123457", "4006381333931"]), "frame \(frame): \(texts)")
                if texts.contains("4006381333931") { outsideSeen += 1 }
            }
        }
        XCTAssertGreaterThanOrEqual(outsideSeen, 1, "the code outside the region is found within 48 frames")
        XCTAssertLessThanOrEqual(outsideSeen, 6, "the code outside the region is looked at sparsely")
    }

    func testSymbologiesFilter() throws {
        var pic = TestPicture(width: 300, height: 120)
        pic.draw(try ZintRow.make(.eanx, "9638507"), .init(cx: 150, cy: 60, module: 2, barHeight: 40))
        XCTAssertTrue(pic.scan(ScanOptions(symbologies: [.ean13, .upcA, .upcE])).isEmpty)
        XCTAssertEqual(pic.scan(ScanOptions(symbologies: .ean8)).map(\.text), ["96385074"])
    }
}

/// The orientation hint.
final class OrientationHintTests: XCTestCase {
    func testFastScanReadsOnlyTheHintedOrientation() throws {
        let row = try ZintRow.make(.eanx, "590123412345")
        var upright = TestPicture(width: 300, height: 120)
        upright.draw(row, .init(cx: 150, cy: 60, module: 2, barHeight: 40))
        var upsideDown = TestPicture(width: 300, height: 120)
        upsideDown.draw(row, .init(cx: 150, cy: 60, module: 2, barHeight: 40, angle: 180))
        let up = ScanOptions(orientation: .up, effort: .fast)
        let down = ScanOptions(orientation: .down, effort: .fast)
        XCTAssertEqual(upright.scan(up).map(\.text), ["5901234123457"])
        XCTAssertEqual(upsideDown.scan(down).map(\.text), ["5901234123457"])
        XCTAssertEqual(upsideDown.scan(down).first?.orientation, 180)
        XCTAssertTrue(upright.scan(down).isEmpty, "fast + hint reads the hinted orientation only")
        // Other efforts only order the work: every orientation is still read.
        XCTAssertEqual(upright.scan(ScanOptions(orientation: .down)).map(\.text), ["5901234123457"])
    }
}

/// Symbologies without a check character are reported only when two scan
/// lines agree, even where the frame is too thin for more than one line.
final class AgreeingLinesTests: XCTestCase {
    /// A frame of `rows` rows, each the module pattern of `row` at 3 pixels a module.
    private func strip(_ row: ZintRow, rows: Int) -> TestPicture {
        let quiet = 40
        var pic = TestPicture(width: row.modules.count * 3 + 2 * quiet, height: rows)
        for y in 0..<rows {
            for (i, bar) in row.modules.enumerated() where bar {
                for k in 0..<3 { pic.pixels[y * pic.stride + quiet + 3 * i + k] = 20 }
            }
        }
        return pic
    }

    func testOneLineIsNotEnoughWithoutACheckCharacter() throws {
        let codabar = try ZintRow.make(symbology: 18, "A40156B")
        XCTAssertTrue(strip(codabar, rows: 1).scan().isEmpty, "Codabar has no check character: one line is not enough")
        XCTAssertEqual(strip(codabar, rows: 2).scan().map(\.text), ["A40156B"], "two agreeing lines are")
        // A code with a check character is read from a single row.
        let ean = try ZintRow.make(.eanx, "590123412345")
        XCTAssertEqual(strip(ean, rows: 1).scan().map(\.text), ["5901234123457"])
    }
}
