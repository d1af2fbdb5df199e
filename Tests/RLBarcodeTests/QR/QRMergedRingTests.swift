import XCTest
@testable import RLBarcode

/// QR Code symbols without a quiet zone on a surface of their dark colour
/// (or, inverted, of their light colour): the finder patterns' outer rings
/// merge with what surrounds the symbol, so that a line through a pattern
/// meets a long dark run, not a ring one module wide, on the outer side.
/// Pictures letterboxed into a video frame put a code cropped to its edge
/// against a black border in the same way.
final class QRMergedRingTests: XCTestCase {
    static let text = "RLBARCODE MERGED RING 2026"

    /// Draws the symbol on `background`, with no quiet zone, and scans the
    /// picture: two video frames (balanced effort) and as a still picture.
    func read(
        width: Int, height: Int, background: UInt8, _ placement: QRPicture.Placement,
        label: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let symbol = try QRTestSymbol.qr(QRMergedRingTests.text, version: 3)
        guard symbol.size > 0 else { return }
        var picture = QRPicture(width: width, height: height, background: background)
        var p = placement
        p.quietZone = 0
        picture.draw(symbol, p)
        let scanner = Scanner(options: ScanOptions(symbologies: .qrCode, effort: .balanced))
        var video: [String] = []
        picture.picture.pixels.withUnsafeBufferPointer { b in
            let view = LumaView(base: b.baseAddress!, width: width, height: height, stride: picture.picture.stride)
            for _ in 0..<2 { video += scanner.scan(view).map(\.text) }
        }
        XCTAssertTrue(
            video.contains(QRMergedRingTests.text), "\(label): video frames read \(video)", file: file, line: line)
        let still = picture.picture.scan(ScanOptions(symbologies: .qrCode, effort: .thorough)).map(\.text)
        XCTAssertEqual(still, [QRMergedRingTests.text], "\(label): still picture", file: file, line: line)
    }

    /// A symbol flush with the top and bottom of a frame, between black
    /// bars left and right (a square picture letterboxed into 16:9): the
    /// outer rings on the left and right run into the bars.
    func testSymbolFlushWithTheFrameBetweenBlackBars() throws {
        // Version 3: 29 modules of 12 pixels fill the 348 rows.
        try read(
            width: 620, height: 348, background: 16,
            QRPicture.Placement(cx: 310, cy: 174, module: 12, dark: 16, light: 235), label: "letterboxed")
    }

    /// A symbol printed without a quiet zone on a dark surface, whole in
    /// the frame, upright and turned: every outer ring merges with the
    /// surface on its outer sides. (Not near 45 degrees: there a line
    /// through the pattern at the symbol's top corner meets the surface on
    /// both sides, and a pattern open on both sides is not looked for.)
    func testSymbolOnADarkSurface() throws {
        for angle in [0.0, 17, 30, 200, 290] {
            try read(
                width: 480, height: 400, background: 20,
                QRPicture.Placement(cx: 240, cy: 200, module: 7, angle: angle, dark: 20, light: 225),
                label: "dark surface, \(angle) degrees")
        }
    }

    /// Light on dark, on a light surface: the same with the colours swapped.
    func testInvertedSymbolOnALightSurface() throws {
        try read(
            width: 480, height: 400, background: 230,
            QRPicture.Placement(cx: 240, cy: 200, module: 7, angle: 10, dark: 230, light: 30),
            label: "inverted on light")
    }

    /// Finder look-alikes with one long outer run inside another symbol's
    /// modules must not hide the real finder patterns of a small symbol
    /// printed in its middle: both are read.
    func testSmallSymbolInsideALargeOne() throws {
        let outer = try QRTestSymbol.qr("OUTER SYMBOL OF LARGE MODULES 0123456789", version: 4, ecc: 4)
        let inner = try QRTestSymbol.qr("INNER", version: 1)
        guard outer.size > 0, inner.size > 0 else { return }
        var picture = QRPicture(width: 400, height: 400)
        picture.draw(outer, QRPicture.Placement(cx: 200, cy: 200, module: 9))
        // A light square in the middle, then the small symbol in it.
        picture.draw(
            QRTestSymbol(modules: Array(repeating: Array(repeating: false, count: 11), count: 11)),
            QRPicture.Placement(cx: 200, cy: 200, module: 9, quietZone: 0))
        picture.draw(inner, QRPicture.Placement(cx: 200, cy: 200, module: 3, quietZone: 0))
        let texts = picture.picture.scan(ScanOptions(symbologies: .qrCode, effort: .thorough, exhaustive: true))
            .map(\.text).sorted()
        XCTAssertEqual(texts, ["INNER", "OUTER SYMBOL OF LARGE MODULES 0123456789"])
    }
}
