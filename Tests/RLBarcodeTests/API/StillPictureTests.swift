import XCTest
@testable import RLBarcode

/// Still pictures (``Effort/thorough``): a first look at video depth, the
/// full depth when it reads nothing, a second look for add-ons, and
/// ``ScanOptions/exhaustive``.
final class StillPictureTests: XCTestCase {
    private static let zintMicroPDF417 = 84

    /// An EAN-13 code at the left and a MicroPDF417 symbol (which only the
    /// full depth looks for) at the right of one picture.
    private func codeAndMicroPDF417() throws -> QRPicture? {
        guard
            let micro = try ZintPDF417.make(
                "beside the code", arguments: ["--cols=2"],
                symbology: StillPictureTests.zintMicroPDF417)
        else { return nil }
        var p = QRPicture(width: 640, height: 320)
        p.draw(matrix: micro.matrix(), QRPicture.Placement(cx: 500, cy: 160, module: 2, angle: 0, quietZone: 2))
        p.picture.draw(try ZintRow.make(.eanx, "5901234123457"), .init(cx: 170, cy: 160, module: 2, barHeight: 50))
        return p
    }

    func testFirstLookEndsTheScanWhenItReadsACode() throws {
        guard let p = try codeAndMicroPDF417() else { return }
        let r = p.picture.scan(ScanOptions(effort: .thorough))
        XCTAssertEqual(r.map(\.text), ["5901234123457"])
    }

    func testExhaustiveReadsEveryCode() throws {
        guard let p = try codeAndMicroPDF417() else { return }
        let r = p.picture.scan(ScanOptions(effort: .thorough, exhaustive: true))
        XCTAssertEqual(Set(r.map(\.text)), ["5901234123457", "beside the code"])
        XCTAssertEqual(r.first { $0.text == "beside the code" }?.symbology, .microPDF417)
    }

    /// A picture that the first look reads nothing in gets the full depth:
    /// the MicroPDF417 symbol alone.
    func testFullDepthWhenTheFirstLookReadsNothing() throws {
        guard
            let micro = try ZintPDF417.make(
                "alone", arguments: ["--cols=1"],
                symbology: StillPictureTests.zintMicroPDF417)
        else { return }
        var p = QRPicture(width: 300, height: 300)
        p.draw(matrix: micro.matrix(), QRPicture.Placement(cx: 150, cy: 150, module: 2, angle: 20, quietZone: 2))
        XCTAssertEqual(p.picture.scan(ScanOptions(effort: .balanced)).count, 0)
        XCTAssertEqual(p.picture.scan(ScanOptions(effort: .thorough)).map(\.text), ["alone"])
    }

    /// A QR Code and a small PDF417 of 2-pixel modules (7 rows of 5
    /// columns) in a 1280x720 picture, the PDF417 across the middle, where
    /// the linear stage's regions of bars split it: video depth reads both
    /// (the region that shows a pattern is searched again, widened along
    /// its rows), and a still picture gives the PDF417 the corners that the
    /// whole picture's full depth gives it.
    func testPDF417AcrossSplitBarRegionsAtEveryDepth() throws {
        guard let pdf = try ZintPDF417.make("PDF 0bXP23UD37", arguments: ["--cols=5", "--rows=7"]),
            let qr = try ZintMatrix.make(.qrCode, "QR 0aO3ZYNCUW2E")
        else { return }
        var p = QRPicture(width: 1280, height: 720)
        p.draw(matrix: qr, QRPicture.Placement(cx: 1075, cy: 220, module: 5, angle: 2, quietZone: 4))
        p.draw(matrix: pdf.matrix(), QRPicture.Placement(cx: 703, cy: 431, module: 2, angle: 0, quietZone: 2))
        let balanced = p.picture.scan(ScanOptions(effort: .balanced))
        XCTAssertEqual(Set(balanced.map(\.text)), ["QR 0aO3ZYNCUW2E", "PDF 0bXP23UD37"], "video depth")
        let still = p.picture.scan(ScanOptions(effort: .thorough))
        XCTAssertEqual(Set(still.map(\.text)), ["QR 0aO3ZYNCUW2E", "PDF 0bXP23UD37"])
        // The corners the whole picture's full depth gives: the region's box
        // cuts nothing off.
        let read = try XCTUnwrap(still.first { $0.symbology == .pdf417 })
        let whole = p.picture.scan(ScanOptions(effort: .thorough, exhaustive: true))
        let reference = try XCTUnwrap(whole.first { $0.symbology == .pdf417 })
        for (a, b) in zip(read.corners, reference.corners) {
            XCTAssertEqual(a.distance(to: b), 0, accuracy: 3, "\(read.corners) against \(reference.corners)")
        }
    }

    /// The cells of `picture`, 16 pixels square.
    private func withCells(_ picture: TestPicture, _ body: (CellTensors) -> Void) {
        picture.pixels.withUnsafeBufferPointer {
            let view = LumaView(
                base: $0.baseAddress!, width: picture.width, height: picture.height,
                stride: picture.stride)
            var detector = RegionDetector()
            defer { detector.free() }
            detector.measure(view, cellSize: 16, x0: 0, y0: 0, x1: picture.width, y1: picture.height, flatBelow: 6)
            guard let cells = detector.tensors else { return XCTFail("no cells measured") }
            body(cells)
        }
    }

    /// The second look's box: past an EAN-13 code read without its add-on
    /// when bars follow it, reaching over the add-on; nil when nothing does.
    func testAddOnBoxFollowsBarsPastTheCode() throws {
        let frame = PixelRect(x0: 0, y0: 0, x1: 480, y1: 200)
        let plan = Scanner.Plan(
            cellSize: 16, minEnergy: 40, minCoherence: 0.55, minCells: 2, maxCandidates: 32,
            linesPerCandidate: 21, thickness: 3, relativeEdge: 0.1, floorEdge: 2, sweeps: false,
            minVotes: 2, refine: true, prune: 0.15, smooth: true, enoughReadings: 4)
        for (data, followed) in [("978020137962+51299", true), ("978020137962", false)] {
            var p = TestPicture(width: frame.width, height: frame.height)
            p.draw(try ZintRow.make(.eanx, data), .init(cx: 240, cy: 100, module: 2, barHeight: 50))
            // The main code alone, as the first look reads it.
            guard let main = p.scan(ScanOptions(symbologies: .ean13)).first else { return XCTFail(data) }
            XCTAssertEqual(main.addOn, "")
            withCells(p) { cells in
                let box = Scanner.addOnBox(main, cells: cells, frame: frame, plan: plan)
                XCTAssertEqual(box != nil, followed, data)
                if let box {
                    let right = max(main.corners[1].x, main.corners[2].x)
                    XCTAssertGreaterThan(Double(box.x1), right + 40 * 2, data)
                    XCTAssertLessThanOrEqual(Double(box.x0), main.corners[0].x)
                }
            }
        }
        // Not for codes that take no add-on.
        var p = TestPicture(width: frame.width, height: frame.height)
        p.draw(try ZintRow.make(.eanx, "978020137962+51299"), .init(cx: 240, cy: 100, module: 2, barHeight: 50))
        guard var main = p.scan(ScanOptions(symbologies: .ean13)).first else { return XCTFail("not read") }
        main.symbology = .code128
        withCells(p) { XCTAssertNil(Scanner.addOnBox(main, cells: $0, frame: frame, plan: plan)) }
    }

    /// Through the scanner: the add-on read, whichever look read it.
    func testThoroughReadsAddOns() throws {
        for (data, main, addOn) in [
            ("978020137962+51299", "9780201379624", "51299"),
            ("590123412345+12", "5901234123457", "12")
        ] {
            var p = TestPicture(width: 480, height: 200)
            p.draw(try ZintRow.make(.eanx, data), .init(cx: 240, cy: 100, module: 2, barHeight: 50))
            let r = p.scan(ScanOptions(effort: .thorough))
            XCTAssertEqual(r.map(\.text), [main], data)
            XCTAssertEqual(r.first?.addOn, addOn, data)
        }
    }

    /// The still-picture searches share out over two threads (PDF417 and
    /// MicroPDF417 among the matrix searches): the same results, in the
    /// same order, as on one.
    func testTwoThreadsReadAsOne() throws {
        guard
            let micro = try ZintPDF417.make(
                "micro of four", arguments: ["--cols=2"],
                symbology: StillPictureTests.zintMicroPDF417),
            let pdf = try ZintPDF417.make("pdf417 of four", arguments: ["--cols=3"])
        else { return }
        let qr = try QRTestSymbol.make(symbology: 58, "qr of four")
        guard qr.size > 0 else { return }
        var p = QRPicture(width: 720, height: 480)
        p.draw(matrix: micro.matrix(), QRPicture.Placement(cx: 180, cy: 120, module: 2, angle: 10, quietZone: 2))
        p.draw(matrix: pdf.matrix(), QRPicture.Placement(cx: 520, cy: 130, module: 2, angle: -8, quietZone: 2))
        p.draw(qr, QRPicture.Placement(cx: 200, cy: 350, module: 4, angle: 30, quietZone: 4))
        p.picture.draw(try ZintRow.make(.eanx, "5901234123457"), .init(cx: 520, cy: 350, module: 2, barHeight: 40))
        let want: Set = ["micro of four", "pdf417 of four", "qr of four", "5901234123457"]
        var runs: [[String]] = []
        for threads in [1, 2, 2] {
            let r = p.picture.scan(ScanOptions(effort: .thorough, threads: threads, exhaustive: true))
            XCTAssertEqual(Set(r.map(\.text)), want, "\(threads) threads")
            runs.append(r.map(\.text))
        }
        XCTAssertEqual(runs[0], runs[1])
        XCTAssertEqual(runs[1], runs[2])
    }

    /// Light-on-dark linear codes: left to the full depth, which reads them.
    func testLightOnDarkLinearCodeReadAtFullDepth() throws {
        var p = TestPicture(width: 400, height: 200)
        p.draw(try ZintRow.make(.eanx, "5901234123457"), .init(cx: 200, cy: 100, module: 2, barHeight: 50))
        p.invert()
        let r = p.scan(ScanOptions(effort: .thorough))
        XCTAssertEqual(r.map(\.text), ["5901234123457"])
        XCTAssertEqual(r.first?.isInverted, true)
    }

    /// The full depth's dense sweeps: left out when the lines across the
    /// candidates read a code (a light-on-dark one, which the first look
    /// leaves to the full depth), made when they read nothing, and always
    /// with ``ScanOptions/exhaustive``; the same code read either way.
    func testSweepsOnlyWhenTheCandidatesReadNothing() throws {
        var p = TestPicture(width: 400, height: 200)
        p.draw(try ZintRow.make(.eanx, "5901234123457"), .init(cx: 200, cy: 100, module: 2, barHeight: 50))
        p.invert()
        var empty = TestPicture(width: 400, height: 200)
        empty.addNoise(amplitude: 12)
        func scan(_ picture: TestPicture, exhaustive: Bool, threads: Int) -> ([String], Int) {
            let scanner = RLBarcode.Scanner(
                options: ScanOptions(
                    effort: .thorough, threads: threads,
                    exhaustive: exhaustive))
            let texts = picture.pixels.withUnsafeBufferPointer {
                scanner.scan(
                    LumaView(
                        base: $0.baseAddress!, width: picture.width, height: picture.height,
                        stride: picture.stride)
                ).map(\.text)
            }
            return (texts, scanner.sweptAngles)
        }
        for threads in [1, 2] {
            let (read, swept) = scan(p, exhaustive: false, threads: threads)
            XCTAssertEqual(read, ["5901234123457"], "\(threads) threads")
            XCTAssertEqual(swept, 0, "\(threads) threads: swept though the candidates read the code")
            let (all, sweptAll) = scan(p, exhaustive: true, threads: threads)
            XCTAssertEqual(all, ["5901234123457"], "\(threads) threads, exhaustive")
            XCTAssertEqual(sweptAll, RLBarcode.Scanner.sweepAngles.count, "\(threads) threads, exhaustive")
            let (none, sweptNone) = scan(empty, exhaustive: false, threads: threads)
            XCTAssertEqual(none, [], "\(threads) threads, noise")
            XCTAssertEqual(sweptNone, RLBarcode.Scanner.sweepAngles.count, "\(threads) threads, noise")
        }
    }
}
