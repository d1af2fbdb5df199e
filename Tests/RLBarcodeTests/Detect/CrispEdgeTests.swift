import XCTest
@testable import RLBarcode

/// Codes drawn rather than filmed (screen captures, overlays, generated
/// pictures): crisp edges, modules a whole number of pixels. The detection
/// pass's coarse samples (central differences at every fourth pixel of every
/// fourth row) see a crisp edge only where it lies between two of a
/// sample's three pixels; with modules a multiple of 4 pixels every edge
/// of a code can fall between the samples, and the code must still be
/// found, at every offset.
final class CrispEdgeTests: XCTestCase {
    /// The balanced plan's thresholds for 16-pixel cells (``Scanner``).
    private let minEnergy: Float = 40
    private var flatBelow: Float { 0.25 * minEnergy }

    /// A light 320x240 picture with a 128x96 block of crisp 8-pixel bars
    /// from (96 + `offset`, 64 + `offset`), upright or turned a quarter.
    private func bars(offset: Int, upright: Bool) -> [UInt8] {
        let w = 320, h = 240
        var pixels = [UInt8](repeating: 230, count: w * h)
        for y in (64 + offset)..<(160 + offset) {
            for x in (96 + offset)..<(224 + offset) {
                let k = upright ? (x - 96 - offset) / 8 : (y - 64 - offset) / 8
                if k % 2 == 0 { pixels[y * w + x] = 30 }
            }
        }
        return pixels
    }

    /// Crisp bars of 8-pixel modules are measured and grouped into one
    /// candidate across them at each of 8 offsets, upright and turned: at
    /// half of them the coarse samples proper see none of their edges.
    func testCrispBarsAreFoundAtEveryOffset() {
        for upright in [true, false] {
            for offset in 0..<8 {
                let pixels = bars(offset: offset, upright: upright)
                pixels.withUnsafeBufferPointer { p in
                    let image = LumaView(base: p.baseAddress!, width: 320, height: 240, stride: 320)
                    var detector = RegionDetector()
                    defer { detector.free() }
                    detector.measure(image, cellSize: 16, x0: 0, y0: 0, x1: 320, y1: 240, flatBelow: flatBelow)
                    detector.group(minEnergy: minEnergy, minCoherence: 0.55, minCells: 2)
                    let across =
                        (0..<detector.candidateCount).map { detector.candidates[$0] }
                        .filter { abs(upright ? $0.ux : $0.uy) > 0.9 }
                        .map(\.lengthU).max() ?? 0
                    XCTAssertGreaterThanOrEqual(
                        across, upright ? 112 : 80,
                        "bars \(upright ? "upright" : "turned") at offset \(offset)")
                }
            }
        }
    }

    /// A lone crisp straight edge (the border of a black frame around a
    /// picture) is measured where the coarse samples proper see it, and
    /// nowhere else: the second look two pixels on takes more than one edge
    /// of one sign for bars. An edge between pixels `e - 1` and `e` meets a
    /// sample at a column `c` (1 more than a multiple of 4) when `e` is `c`
    /// or `c + 1`.
    func testLoneCrispEdgeOnlyWhereTheSamplesSeeIt() {
        let w = 320, h = 240
        for offset in 0..<4 {
            let e = 100 + offset
            var pixels = [UInt8](repeating: 200, count: w * h)
            for y in 0..<h { for x in 0..<e { pixels[y * w + x] = 16 } }
            pixels.withUnsafeBufferPointer { p in
                let image = LumaView(base: p.baseAddress!, width: w, height: h, stride: w)
                var detector = RegionDetector()
                defer { detector.free() }
                detector.measure(image, cellSize: 16, x0: 0, y0: 0, x1: w, y1: h, flatBelow: flatBelow)
                guard let cells = detector.tensors else { return XCTFail("no cells") }
                let measured = (0..<(cells.cols * cells.rows)).filter { cells.sxx[$0] + cells.syy[$0] > 0 }.count
                let seen = e % 4 == 1 || e % 4 == 2
                XCTAssertEqual(measured > 0, seen, "edge at \(e): \(measured) cells measured")
            }
        }
    }

    /// Scans `picture` as the third frame of a video scanner (past the
    /// first frames, which get every search), after two blank ones.
    private func videoScan(_ picture: [UInt8], width: Int, height: Int) -> [BarcodeResult] {
        let scanner = Scanner(options: ScanOptions(symbologies: .all, effort: .balanced))
        let blank = [UInt8](repeating: 200, count: width * height)
        blank.withUnsafeBufferPointer { p in
            let image = LumaView(base: p.baseAddress!, width: width, height: height, stride: width)
            _ = scanner.scan(image)
            _ = scanner.scan(image)
        }
        return picture.withUnsafeBufferPointer { p in
            scanner.scan(LumaView(base: p.baseAddress!, width: width, height: height, stride: width))
        }
    }

    /// An EAN-13 symbol of 8-pixel modules and a QR Code symbol of 8-pixel
    /// modules, drawn pixel-exact in HD video frames, are read at each
    /// offset modulo 4 (the EAN-13 symbol across, the QR Code symbol both
    /// ways at once). Without the second look the QR Code symbol is not
    /// found at two of the four offsets (the EAN-13 symbol's lines find
    /// it at each).
    func testDrawnCodesAreReadAtEveryOffset() throws {
        let ean = try ZintRow.make(.eanx, "978020175284")
        guard !ean.modules.isEmpty, let qr = try ZintMatrix.make(.qrCode, "CRISP 2026") else { return }
        for offset in 0..<4 {
            var picture = TestPicture(width: 1280, height: 720, background: 200)
            // Module edges fall on pixel boundaries: the centre is half a
            // pixel off when the symbol has an odd number of modules.
            let half = ean.modules.count % 2 == 1 ? 0.5 : 0
            picture.draw(
                ean,
                TestPicture.Placement(
                    cx: 640 + Double(offset) + half, cy: 360, module: 8,
                    barHeight: 40, dark: 20, light: 235, quietZone: 10))
            let read = videoScan(picture.pixels, width: 1280, height: 720)
            XCTAssertTrue(
                read.contains { $0.text == "9780201752847" }, "EAN-13 at offset \(offset): \(read.map(\.text))")
        }
        for offset in 0..<4 {
            var frame = QRPicture(width: 1280, height: 720)
            let half = qr.width % 2 == 1 ? 0.5 : 0
            let at = Double(offset) + half
            frame.draw(matrix: qr, QRPicture.Placement(cx: 640 + at, cy: 360 + at, module: 8))
            let read = videoScan(frame.picture.pixels, width: 1280, height: 720)
            XCTAssertTrue(read.contains { $0.text == "CRISP 2026" }, "QR Code at offset \(offset): \(read.map(\.text))")
        }
    }
}
