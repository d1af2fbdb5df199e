import XCTest
@testable import RLBarcode

/// The video searches of HD frames: the half-size copy where Aztec Code and
/// Data Matrix are looked for in every frame, and the candidates of large
/// linear codes whose wide elements leave gaps in the bar regions.
final class VideoSearchTests: XCTestCase {
    /// Every pixel of the half-size copy is the rounded mean of its 2x2
    /// block, for a rectangle with odd origin and size inside a padded
    /// picture (the 16-pixel blocks and the remainder alike).
    func testHalvedCopyIsTheMeanOfEachBlock() {
        let width = 101, height = 37, stride = 128
        var generator = DecoderTestRandom(seed: 11)
        let pixels = (0..<(stride * height)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var buffer = ScratchBuffer<UInt8>(capacity: 1)
        defer { buffer.free() }
        pixels.withUnsafeBufferPointer { p in
            let view = LumaView(base: p.baseAddress!, width: width, height: height, stride: stride)
            let rect = PixelRect(x0: 3, y0: 5, x1: 3 + 2 * 41 + 1, y1: 5 + 2 * 13 + 1)
            let half = view.halved(rect, into: &buffer)
            XCTAssertEqual(half.width, 41)
            XCTAssertEqual(half.height, 13)
            var wrong = 0
            for y in 0..<half.height {
                for x in 0..<half.width {
                    let fx = rect.x0 + 2 * x, fy = rect.y0 + 2 * y
                    let sum =
                        Int(view[fx, fy]) + Int(view[fx + 1, fy]) + Int(view[fx, fy + 1]) + Int(view[fx + 1, fy + 1])
                    if Int(half[x, y]) != (sum + 2) / 4 { wrong += 1 }
                }
            }
            XCTAssertEqual(wrong, 0)
            // A half-size pixel stands for the middle of its block.
            let p = LumaView.fromHalf(Point(x: 4, y: 2), of: rect)
            XCTAssertEqual(p.x, 3 + 8 + 0.5)
            XCTAssertEqual(p.y, 5 + 4 + 0.5)
        }
    }

    /// An HD video frame with a Data Matrix and an Aztec symbol: both are
    /// read in every frame (not only in their turn among frames), with
    /// corners where they were drawn.
    func testMatrixCodesReadInEveryHDFrame() throws {
        guard let dm = try ZintMatrix.make(.dataMatrix, "Every frame 2026"),
            let aztec = try ZintAztec.make("Aztec every frame", arguments: ["--vers=4"])
        else { return }
        var frame = QRPicture(width: 1280, height: 720)
        let dmCorners = frame.draw(matrix: dm, QRPicture.Placement(cx: 360, cy: 360, module: 10, angle: 12))
        let az = QRTestSymbol(modules: (0..<aztec.height).map { y in (0..<aztec.width).map { aztec[$0, y] } })
        frame.draw(az, QRPicture.Placement(cx: 900, cy: 380, module: 8, angle: -20))
        let scanner = Scanner(options: ScanOptions(symbologies: .all, effort: .balanced))
        try frame.picture.pixels.withUnsafeBufferPointer { p in
            let view = LumaView(base: p.baseAddress!, width: 1280, height: 720, stride: frame.picture.stride)
            for k in 0..<5 {
                let results = scanner.scan(view)
                let texts = results.map(\.text).sorted()
                XCTAssertEqual(texts, ["Aztec every frame", "Every frame 2026"], "frame \(k)")
                let d = try XCTUnwrap(results.first { $0.symbology == .dataMatrix })
                // The same corners up to where the outline starts (one of
                // four turns) and a module's accuracy.
                let centre = Point(x: d.corners.map(\.x).reduce(0, +) / 4, y: d.corners.map(\.y).reduce(0, +) / 4)
                let drawn = Point(x: dmCorners.map(\.x).reduce(0, +) / 4, y: dmCorners.map(\.y).reduce(0, +) / 4)
                XCTAssertLessThan(centre.distance(to: drawn), 6, "frame \(k)")
                for c in d.corners {
                    XCTAssertLessThan(dmCorners.map { $0.distance(to: c) }.min()!, 12, "frame \(k)")
                }
            }
        }
    }

    /// Video frames examine four Data Matrix components in a whole frame,
    /// and in part of one (an active region, a tile of the rest) its
    /// share of the four, rounded up, two at least.
    /// Frames under 720 lines look for Aztec Code in one frame of four and
    /// a stream's first frame gets every search; both follow the frame's
    /// number: two scanners sharing a stream of a 640x480 Aztec symbol, each
    /// every other frame, read it in the frames one scanner given every
    /// frame reads it in (the first and every fourth), and the second
    /// scanner's first frame gets no more than its turn.
    func testMatrixTurnsFollowTheFrameNumber() throws {
        guard let aztec = try ZintAztec.make("Turns 2026", arguments: ["--vers=2"]) else { return }
        var frame = QRPicture(width: 640, height: 480)
        let symbol = QRTestSymbol(modules: (0..<aztec.height).map { y in (0..<aztec.width).map { aztec[$0, y] } })
        frame.draw(symbol, QRPicture.Placement(cx: 320, cy: 240, module: 4, angle: 10))
        frame.picture.pixels.withUnsafeBufferPointer { p in
            let view = LumaView(base: p.baseAddress!, width: 640, height: 480, stride: frame.picture.stride)
            func read(_ scanner: RLBarcode.Scanner, _ n: Int) -> Bool {
                scanner.scan(view, frameNumber: n).contains { $0.text == "Turns 2026" }
            }
            let one = Scanner(options: ScanOptions(symbologies: [.aztec], effort: .balanced))
            let alone = (1...8).map { read(one, $0) }
            XCTAssertEqual(alone.indices.filter { alone[$0] }.map { $0 + 1 }, [1, 4, 8])
            let a = Scanner(options: ScanOptions(symbologies: [.aztec], effort: .balanced))
            let b = Scanner(options: ScanOptions(symbologies: [.aztec], effort: .balanced))
            XCTAssertEqual((1...8).map { read($0 % 2 == 1 ? a : b, $0) }, alone)
        }
    }

    func testDataMatrixBudgetFollowsTheArea() {
        var pixels = [UInt8](repeating: 0, count: 1)
        pixels.withUnsafeMutableBufferPointer { p in
            let view = LumaView(base: p.baseAddress!, width: 1920, height: 1080, stride: 1920)
            XCTAssertEqual(MatrixReaders.dataMatrixBudget(nil, of: view), 4)
            XCTAssertEqual(MatrixReaders.dataMatrixBudget(PixelRect(x0: 0, y0: 0, x1: 1920, y1: 1080), of: view), 4)
            XCTAssertEqual(MatrixReaders.dataMatrixBudget(PixelRect(x0: 480, y0: 270, x1: 1440, y1: 810), of: view), 1)
            XCTAssertEqual(MatrixReaders.dataMatrixBudget(PixelRect(x0: 0, y0: 0, x1: 480, y1: 180), of: view), 1)
            XCTAssertEqual(MatrixReaders.dataMatrixBudget(PixelRect(x0: 0, y0: 0, x1: 1440, y1: 1080), of: view), 3)
        }
    }

    /// A Data Matrix symbol inside the active region of HD video frames,
    /// among look-alike components (dark L shapes) around it, is read in
    /// every frame with the region's share of the components examined.
    func testDataMatrixInActiveRegionOfHDFrames() throws {
        guard let dm = try ZintMatrix.make(.dataMatrix, "Region 2026") else { return }
        var frame = QRPicture(width: 1280, height: 720)
        _ = frame.draw(matrix: dm, QRPicture.Placement(cx: 640, cy: 360, module: 8, angle: 8))
        // Dark L shapes inside the region and outside it, where tiles of
        // the rest look.
        for (cx, cy) in [(150, 150), (1130, 570), (420, 250), (860, 470)] {
            for y in (cy - 60)..<(cy + 60) {
                for x in (cx - 60)..<(cx + 60) where x < cx - 45 || y > cy + 45 {
                    frame.picture.pixels[y * frame.picture.stride + x] = 20
                }
            }
        }
        var options = ScanOptions(symbologies: .all, effort: .balanced)
        options.activeRegion = NormalizedRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        let scanner = Scanner(options: options)
        frame.picture.pixels.withUnsafeBufferPointer { p in
            let view = LumaView(base: p.baseAddress!, width: 1280, height: 720, stride: frame.picture.stride)
            for k in 0..<6 {
                XCTAssertEqual(scanner.scan(view).map(\.text), ["Region 2026"], "frame \(k)")
            }
        }
    }

    /// The rest of a frame with an active region is looked at a tile at a
    /// time, and each tile gets every search whichever frame's turn it is:
    /// a light-on-dark code, and a Data Matrix symbol in a frame below HD
    /// (where the full-size Data Matrix search has a turn of its own), are
    /// both read there within a round of tiles, besides the region's code
    /// in every frame.
    func testTilesOfTheRestGetEverySearch() throws {
        guard let dm = try ZintMatrix.make(.dataMatrix, "TILE 42") else { return }
        var frame = QRPicture(width: 640, height: 360, background: 230)
        _ = frame.draw(matrix: dm, QRPicture.Placement(cx: 80, cy: 60, module: 4, angle: 0))
        frame.picture.draw(try ZintRow.make(.eanx, "590123412345"), .init(cx: 320, cy: 180, module: 2, barHeight: 40))
        frame.picture.draw(
            try ZintRow.make(.eanx, "400638133393"),
            .init(cx: 520, cy: 310, module: 2, barHeight: 30, dark: 235, light: 25))
        var options = ScanOptions(symbologies: .all, effort: .balanced)
        options.activeRegion = NormalizedRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        let scanner = Scanner(options: options)
        var seen: [String: Int] = [:]
        frame.picture.pixels.withUnsafeBufferPointer { p in
            let view = LumaView(base: p.baseAddress!, width: 640, height: 360, stride: frame.picture.stride)
            for k in 0..<24 {
                let texts = scanner.scan(view).map(\.text)
                XCTAssertTrue(texts.contains("5901234123457"), "frame \(k): \(texts)")
                for t in texts { seen[t, default: 0] += 1 }
            }
        }
        XCTAssertEqual(Set(seen.keys), ["5901234123457", "4006381333931", "TILE 42"])
        XCTAssertLessThanOrEqual(seen["TILE 42", default: 0], 4, "the rest of the frame is looked at sparsely")
    }

    /// A wide, short Data Matrix of large modules (38 pixels) in an HD
    /// frame: the half-size copy of its texture is under 256 pixels tall,
    /// and its modules (19 pixels there) need the search's coarse cells.
    func testShortDataMatrixOfLargeModulesInHDFrame() throws {
        guard let dm = try ZintMatrix.make(.dataMatrix, "WIDE 0123", arguments: ["--vers=26"]) else { return }
        XCTAssertLessThan(dm.height, dm.width / 2, "a rectangular symbol")
        var frame = QRPicture(width: 1280, height: 720)
        frame.draw(matrix: dm, QRPicture.Placement(cx: 640, cy: 360, module: 38, angle: 0))
        assertRead(frame, frames: 2, ["WIDE 0123"])
    }

    /// A PDF417 symbol in video frames: the linear stage's lines cross its
    /// start and stop patterns, so it is looked for and read in every
    /// frame, not only in its turn among the frames (one in four).
    func testPDF417ReadInEveryVideoFrame() throws {
        guard let z = try ZintPDF417.make("PDF417 in every frame", arguments: ["--cols=3"]) else { return }
        var frame = QRPicture(width: 640, height: 360)
        frame.draw(
            matrix: z.matrix(rowHeight: 3), QRPicture.Placement(cx: 320, cy: 180, module: 4, angle: 4, quietZone: 2))
        assertRead(frame, frames: 5, ["PDF417 in every frame"])
    }

    /// PDF417 symbols of large modules in HD video frames, turned and
    /// blurred: their lines are sampled a third of a module apart (several
    /// pixels), and still read.
    func testPDF417OfLargeModulesInVideoFrames() throws {
        guard let z = try ZintPDF417.make("Large modules 0123456789", arguments: ["--cols=2"]) else { return }
        for (module, angle) in [(7.0, 0.0), (9.0, 8.0), (11.0, -10.0)] {
            var frame = QRPicture(width: 1280, height: 720)
            frame.draw(
                matrix: z.matrix(rowHeight: 3),
                QRPicture.Placement(
                    cx: 640, cy: 360, module: module, angle: angle,
                    quietZone: 2))
            frame.picture.blur(radius: 2, passes: 1)
            assertRead(frame, frames: 2, ["Large modules 0123456789"])
        }
    }

    /// A code already read is taken out of the areas the matrix searches
    /// look through: a region it overlaps gives way, in its place in the
    /// list, to its parts above, below, left and right of the code, each
    /// as wide or tall as the region (those under 12 pixels either way
    /// left out); a region it does not touch stays as it was.
    func testCarvingLeavesThePartsAroundTheCode() {
        var regions = MatrixRegionDetector()
        defer { regions.free() }
        let apart = PixelRect(x0: 1000, y0: 40, x1: 1200, y1: 200)
        regions.add(PixelRect(x0: 100, y0: 100, x1: 900, y1: 500))
        regions.add(apart)
        regions.carve(PixelRect(x0: 200, y0: 150, x1: 700, y1: 492))
        let after = (0..<regions.regionCount).map { regions.regions[$0] }
        func key(_ r: PixelRect) -> [Int] { [r.x0, r.y0, r.x1, r.y1] }
        // In the carved region's place, before the region after it (the
        // searches take the regions in order, and some stop at a budget).
        // Each part as tall or wide as the region: a code beside the box
        // lies wholly in one of them.
        XCTAssertEqual(
            after.map(key),
            [
                PixelRect(x0: 100, y0: 100, x1: 900, y1: 150),  // above
                PixelRect(x0: 100, y0: 100, x1: 200, y1: 500),  // left
                PixelRect(x0: 700, y0: 100, x1: 900, y1: 500),  // right (below: 8 rows, left out)
                apart
            ].map(key))
        // Carved away whole: the regions after it move up.
        regions.carve(PixelRect(x0: 0, y0: 0, x1: 950, y1: 600))
        XCTAssertEqual((0..<regions.regionCount).map { key(regions.regions[$0]) }, [key(apart)])
    }

    /// A frame tiled with codes read: carving each out of one large area
    /// splits it into overlapping parts, which would multiply with every
    /// code; the count stays bounded and every region still lies inside
    /// the area carved.
    func testCarvingAFrameFullOfCodesStaysBounded() {
        var regions = MatrixRegionDetector()
        defer { regions.free() }
        let area = PixelRect(x0: 0, y0: 0, x1: 3840, y1: 2160)
        regions.add(area)
        for y in stride(from: 20, to: 2100, by: 70) {
            for x in stride(from: 20, to: 3780, by: 70) {
                regions.carve(PixelRect(x0: x, y0: y, x1: x + 40, y1: y + 40))
            }
        }
        XCTAssertGreaterThan(regions.regionCount, 16)
        XCTAssertLessThanOrEqual(regions.regionCount, MatrixRegionDetector.maxCarvedRegions)
        for k in 0..<regions.regionCount {
            let r = regions.regions[k]
            XCTAssertTrue(r.x0 >= area.x0 && r.y0 >= area.y0 && r.x1 <= area.x1 && r.y1 <= area.y1)
        }
    }

    /// A QR Code beside a PDF417 symbol in an HD video frame, one stage
    /// after another (one thread): the PDF417 symbol, read first, is taken
    /// out of the area of 2D texture that holds both, and the QR Code is
    /// still read in every frame, as with two threads (whose matrix
    /// searches start before PDF417 is read, and take nothing out).
    func testCodeBesideAReadPDF417IsStillRead() throws {
        guard let z = try ZintPDF417.make("PDF417 beside a QR Code", arguments: ["--cols=4"]),
            let qr = try ZintMatrix.make(.qrCode, "QR beside PDF417")
        else { return }
        var frame = QRPicture(width: 1280, height: 720)
        let pdf = frame.draw(
            matrix: z.matrix(rowHeight: 3),
            QRPicture.Placement(
                cx: 560, cy: 360, module: 4, angle: 0,
                quietZone: 2))
        let right = pdf.map(\.x).max() ?? 0
        // The QR Code's quiet zone and the PDF417 symbol's apart: one area of texture.
        frame.draw(matrix: qr, QRPicture.Placement(cx: right + 24 + 2 * Double(qr.width), cy: 360, module: 4, angle: 0))
        for threads in [1, 2] {
            let scanner = Scanner(options: ScanOptions(symbologies: .all, effort: .balanced, threads: threads))
            frame.picture.pixels.withUnsafeBufferPointer { p in
                let view = LumaView(base: p.baseAddress!, width: 1280, height: 720, stride: frame.picture.stride)
                for k in 0..<3 {
                    XCTAssertEqual(
                        scanner.scan(view).map(\.text).sorted(), ["PDF417 beside a QR Code", "QR beside PDF417"],
                        "\(threads) threads, frame \(k)")
                }
            }
        }
    }

    /// A QR Code and a Data Matrix symbol side by side in an HD video
    /// frame, in one area of 2D texture: with one thread the searches run
    /// one after another, and each code read is taken out of the areas the
    /// searches after it look through, in the frame and in its half-size
    /// copy; both codes are still read in every frame, as with two threads
    /// (whose searches take nothing out).
    func testMatrixSearchesSkipTheCodesReadBeforeThem() throws {
        guard let qr = try ZintMatrix.make(.qrCode, "QR first, then the rest"),
            let dm = try ZintMatrix.make(.dataMatrix, "Data Matrix after QR")
        else { return }
        var frame = QRPicture(width: 1280, height: 720)
        let q = frame.draw(matrix: qr, QRPicture.Placement(cx: 560, cy: 360, module: 5, angle: 0))
        let right = q.map(\.x).max() ?? 0
        let d = frame.draw(
            matrix: dm,
            QRPicture.Placement(
                cx: right + 30 + 3 * Double(dm.width), cy: 380, module: 6,
                angle: 0))
        for threads in [1, 2] {
            let scanner = Scanner(options: ScanOptions(symbologies: .all, effort: .balanced, threads: threads))
            try frame.picture.pixels.withUnsafeBufferPointer { p in
                let view = LumaView(base: p.baseAddress!, width: 1280, height: 720, stride: frame.picture.stride)
                for k in 0..<3 {
                    XCTAssertEqual(
                        scanner.scan(view).map(\.text).sorted(), ["Data Matrix after QR", "QR first, then the rest"],
                        "\(threads) threads, frame \(k)")
                    guard threads == 1 else { continue }
                    let areas = scanner.matrixSearchAreas
                    let half = try XCTUnwrap(areas.halfRect, "frame \(k)")
                    XCTAssertFalse(areas.frame.isEmpty)
                    XCTAssertFalse(areas.half.isEmpty)
                    for corners in [q, d] {
                        let inside = try XCTUnwrap(MatrixReaders.inside(corners))
                        // Away from the edges by more than the carving's rounding.
                        let core = PixelRect(x0: inside.x0 + 4, y0: inside.y0 + 4, x1: inside.x1 - 4, y1: inside.y1 - 4)
                        let halfCore = PixelRect(
                            x0: (core.x0 - half.x0) / 2, y0: (core.y0 - half.y0) / 2,
                            x1: (core.x1 - half.x0) / 2, y1: (core.y1 - half.y0) / 2)
                        func overlaps(_ a: PixelRect, _ b: PixelRect) -> Bool {
                            a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
                        }
                        XCTAssertFalse(areas.frame.contains { overlaps($0, core) }, "frame \(k): \(areas.frame)")
                        XCTAssertFalse(areas.half.contains { overlaps($0, halfCore) }, "frame \(k): \(areas.half)")
                    }
                }
            }
        }
    }

    /// Scans `frame` as that many video frames in a row (every symbology,
    /// `balanced`) and checks that each reads `texts`.
    private func assertRead(
        _ frame: QRPicture, frames: Int, _ texts: [String],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let scanner = Scanner(options: ScanOptions(symbologies: .all, effort: .balanced))
        let picture = frame.picture
        picture.pixels.withUnsafeBufferPointer { p in
            let view = LumaView(
                base: p.baseAddress!, width: picture.width, height: picture.height, stride: picture.stride)
            for k in 0..<frames {
                XCTAssertEqual(scanner.scan(view).map(\.text), texts, "frame \(k)", file: file, line: line)
            }
        }
    }

    /// A DataBar Expanded symbol as wide as the frame, with modules of 8
    /// pixels: its widest elements leave stretches of cells without edges
    /// wider than the grouping of cells reaches, but it is one candidate,
    /// read at video effort.
    func testLargeCodeWithWideElementsIsOneCandidate() throws {
        let row = try ZintRow.make(symbology: 31, "[01]98898765432106")
        guard !row.modules.isEmpty else { return }
        var picture = TestPicture(width: 1280, height: 720)
        picture.draw(row, TestPicture.Placement(cx: 640, cy: 360, module: 8, barHeight: 34, quietZone: 4))
        let results = picture.scan(ScanOptions(symbologies: .dataBarExpanded, effort: .balanced))
        XCTAssertEqual(results.map(\.text), ["0198898765432106"])
    }

    /// The half-size copy's areas of 2D texture are the frame's own,
    /// halved, with a margin of 16 pixels of the copy: every area of the
    /// frame lies inside one area of the copy, no two areas of the copy
    /// come nearer than the margin, and each holds an area of the frame.
    func testHalfSizeAreasAreTheFramesOwnHalved() throws {
        guard let dm = try ZintMatrix.make(.dataMatrix, "Halved areas 19") else { return }
        var frame = QRPicture(width: 1920, height: 1080)
        frame.draw(matrix: dm, QRPicture.Placement(cx: 640, cy: 520, module: 22, angle: 0))
        frame.draw(matrix: dm, QRPicture.Placement(cx: 1500, cy: 300, module: 4, angle: 30))
        frame.draw(matrix: dm, QRPicture.Placement(cx: 1580, cy: 420, module: 4, angle: -10))
        frame.picture.addNoise(amplitude: 6)
        frame.picture.pixels.withUnsafeBufferPointer { p in
            let view = LumaView(base: p.baseAddress!, width: 1920, height: 1080, stride: frame.picture.stride)
            var regions = MatrixRegionDetector(), half = MatrixRegionDetector()
            defer { regions.free(); half.free() }
            regions.findAll(view, bounds: nil)
            XCTAssertGreaterThanOrEqual(regions.regionCount, 2)
            let rect = PixelRect(x0: 100, y0: 40, x1: 1900, y1: 1060)
            let w = rect.width / 2, h = rect.height / 2
            half.halve(regions, rect: rect, width: w, height: h)
            let areas = (0..<half.regionCount).map { half.regions[$0] }
            XCTAssertGreaterThan(areas.count, 0)
            XCTAssertLessThanOrEqual(areas.count, regions.regionCount)
            var mapped: [PixelRect] = []
            for k in 0..<regions.regionCount {
                let r = regions.regions[k]
                let m = PixelRect(
                    x0: max(0, (r.x0 - rect.x0) / 2 - 16), y0: max(0, (r.y0 - rect.y0) / 2 - 16),
                    x1: min(w, (r.x1 - rect.x0 + 1) / 2 + 16), y1: min(h, (r.y1 - rect.y0 + 1) / 2 + 16))
                guard m.width > 0, m.height > 0 else { continue }
                mapped.append(m)
                XCTAssertTrue(
                    areas.contains { $0.x0 <= m.x0 && $0.y0 <= m.y0 && $0.x1 >= m.x1 && $0.y1 >= m.y1 },
                    "area \(r) of the frame is inside one of the copy's \(areas)")
            }
            for a in areas {
                XCTAssertTrue(a.x0 >= 0 && a.y0 >= 0 && a.x1 <= w && a.y1 <= h, "\(a) inside the copy")
                XCTAssertTrue(
                    mapped.contains { $0.x0 >= a.x0 && $0.y0 >= a.y0 && $0.x1 <= a.x1 && $0.y1 <= a.y1 },
                    "\(a) holds an area of the frame")
                for b in areas where a.x0 != b.x0 || a.y0 != b.y0 || a.x1 != b.x1 || a.y1 != b.y1 {
                    let apart = b.x0 >= a.x1 + 16 || a.x0 >= b.x1 + 16 || b.y0 >= a.y1 + 16 || a.y0 >= b.y1 + 16
                    XCTAssertTrue(apart, "\(a) and \(b) are one area")
                }
            }
        }
    }

    /// Data Matrix symbols of large modules in HD frames, whose insides
    /// leave the frame's small cells flat so that their texture comes in
    /// parts: the half-size copy searches them whole, in every frame.
    func testDataMatrixOfLargeModulesInEveryHDFrame() throws {
        guard let dm = try ZintMatrix.make(.dataMatrix, "WUPV001DS81KA123") else { return }
        for module in [18.0, 24, 30] {
            var frame = QRPicture(width: 1920, height: 1080)
            frame.draw(matrix: dm, QRPicture.Placement(cx: 900, cy: 520, module: module, angle: 4))
            frame.picture.addNoise(amplitude: 6)
            assertRead(frame, frames: 4, ["WUPV001DS81KA123"])
        }
    }
}

/// The coarse pass of the areas of 2D texture, a whole cell at once.
final class CoarseCellTests: XCTestCase {
    /// The vector sums of a whole 64-pixel cell equal the sums taken a
    /// sample at a time, on pixels of every value (the extremes too), for
    /// every row count the pass uses and strides wider than the rows.
    func testWholeCellSumsAreTheSamplesSums() {
        let width = 200, stride = 211, height = 150
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var pixels = [UInt8](repeating: 0, count: stride * height)
        for i in pixels.indices {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let r = Int(state >> 56)
            pixels[i] = r < 40 ? 0 : r > 215 ? 255 : UInt8(r)
        }
        pixels.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            for (x0, y0, rows, rowSkip) in [(2, 2, 8, 8), (37, 5, 16, 8), (130, 2, 1, 8), (70, 20, 12, 8)] {
                XCTAssertTrue(y0 + (rows - 1) * rowSkip + 2 < height && x0 + 66 <= width, "inside the picture")
                var xx = 0, yy = 0, xy = 0
                for r in 0..<rows {
                    let y = y0 + r * rowSkip
                    for k in 0..<16 {
                        let x = x0 + 4 * k
                        let gx = Int(base[y * stride + x + 2]) - Int(base[y * stride + x - 2])
                        let gy = Int(base[(y + 2) * stride + x]) - Int(base[(y - 2) * stride + x])
                        xx += gx * gx; yy += gy * gy; xy += gx * gy
                    }
                }
                let (a, b, c) = MatrixRegionDetector.coarseTensor(
                    base + y0 * stride + x0, stride: stride,
                    rows: rows, rowSkip: rowSkip)
                XCTAssertEqual(a, xx, "at \(x0),\(y0), \(rows) rows")
                XCTAssertEqual(b, yy, "at \(x0),\(y0), \(rows) rows")
                XCTAssertEqual(c, xy, "at \(x0),\(y0), \(rows) rows")
                XCTAssertGreaterThan(xx, 0)
            }
        }
    }
}

extension VideoSearchTests {
    /// A PDF417 of 2-pixel modules across the middle of an HD video frame:
    /// the linear stage's regions of bars end where the frame's halves
    /// meet, one holding the start pattern, the other the stop pattern;
    /// a region that shows a pattern but no symbol is searched again,
    /// widened along its rows.
    func testPDF417AcrossTheMiddleOfAnHDFrame() throws {
        guard let z = try ZintPDF417.make("PDF 0bXP23UD37", arguments: ["--cols=4"]) else { return }
        let m = z.matrix(rowHeight: 3)
        // 720p upright, and 1080p turned by 10 degrees (the widened box,
        // taller then, keeps the search lines as close as the region's).
        for (width, height, module, angle) in [(1280, 720, 2.0, 0.0), (1920, 1080, 3, -10)] {
            var frame = QRPicture(width: width, height: height, background: 150)
            frame.draw(
                matrix: m,
                QRPicture.Placement(
                    cx: Double(width) / 2 + 60, cy: Double(height) / 2 + 40, module: module, angle: angle, quietZone: 3)
            )
            let scanner = Scanner(options: ScanOptions(symbologies: .all, effort: .balanced))
            frame.picture.pixels.withUnsafeBufferPointer { p in
                let view = LumaView(base: p.baseAddress!, width: width, height: height, stride: frame.picture.stride)
                var texts = Set<String>()
                for _ in 0..<4 { texts.formUnion(scanner.scan(view).map(\.text)) }
                XCTAssertEqual(texts, ["PDF 0bXP23UD37"], "\(width)x\(height)")
            }
        }
    }
}
