import Foundation
import XCTest
@testable import RLBarcode

/// The search plan serves whatever configuration users pick: each
/// symbology enabled alone is read wherever its code lies in an HD frame,
/// several matrix codes in one frame are all read within a few frames,
/// and codes outside an active region are found whatever their size.
final class SearchPlanTests: XCTestCase {
    /// A code drawn by a test: what it is, the text it must read as, and
    /// its half extents in pixels (to place it inside the frame).
    private struct Drawn {
        var symbology: Symbology
        var text: String
        var halfWidth: Double
        var halfHeight: Double
        var draw: (inout QRPicture, Double, Double) -> Void
    }

    /// A matrix symbol of `m`, `module` pixels a module.
    private func matrix(_ m: BitMatrix, _ symbology: Symbology, _ text: String, module: Double) -> Drawn {
        Drawn(
            symbology: symbology, text: text, halfWidth: (Double(m.width) / 2 + 4) * module,
            halfHeight: (Double(m.height) / 2 + 4) * module
        ) { frame, x, y in
            frame.draw(matrix: m, QRPicture.Placement(cx: x, cy: y, module: module))
        }
    }

    /// A linear symbol, zint symbology `zint`, `module` pixels a module.
    private func linear(
        _ zint: Int, _ data: String, _ symbology: Symbology, _ text: String, module: Double,
        barHeight: Double = 30
    ) throws -> Drawn {
        let row = try ZintRow.make(symbology: zint, data)
        let width = (Double(row.modules.count) / 2 + 12) * module
        return Drawn(
            symbology: symbology, text: text, halfWidth: width,
            halfHeight: (barHeight / 2 + 12) * module
        ) { frame, x, y in
            frame.picture.draw(row, .init(cx: x, cy: y, module: module, barHeight: barHeight))
        }
    }

    private func qr(_ text: String, module: Double = 4) throws -> Drawn {
        matrix(try QRTestSymbol.qr(text).bitMatrix, .qrCode, text, module: module)
    }

    private func dataMatrix(_ text: String, module: Double = 4) throws -> Drawn? {
        guard let m = try ZintMatrix.make(.dataMatrix, text) else { return nil }
        return matrix(m, .dataMatrix, text, module: module)
    }

    private func aztec(_ text: String, module: Double = 4) throws -> Drawn? {
        guard let m = try ZintAztec.make(text) else { return nil }
        return matrix(m, .aztec, text, module: module)
    }

    private func pdf417(_ text: String, module: Double = 3) throws -> Drawn? {
        guard let s = try ZintPDF417.make(text, arguments: ["--cols=4"]) else { return nil }
        return matrix(s.matrix(rowHeight: 4), .pdf417, text, module: module)
    }

    /// One of every symbology the scanner reads in video frames.
    private func everySymbology() throws -> [Drawn] {
        var all = [try qr("PLAN QR 2026")]
        for d in [
            try dataMatrix("Plan DM 2026"), try dataMatrix("A Data Matrix with a good deal of text, 1234567890"),
            try aztec("Plan Aztec 2026"),
            try aztec("Aztec code with a good deal of text in it to make it bigger, 1234567890"),
            try pdf417("Plan PDF417 2026")
        ] {
            if let d { all.append(d) }
        }
        all += [
            try linear(13, "590123412345", .ean13, "5901234123457", module: 3),
            try linear(34, "03600029145", .upcA, "036000291452", module: 3),
            try linear(8, "PLAN39", .code39, "PLAN39", module: 2),
            try linear(20, "Plan-128", .code128, "Plan-128", module: 2),
            try linear(25, "PLAN93", .code93, "PLAN93", module: 2),
            try linear(3, "01234567", .itf, "01234567", module: 3),
            try linear(18, "A40156B", .codabar, "40156", module: 2)
        ]
        return all
    }

    /// Scans `frame` as video frames `numbers` with `scanner` and returns
    /// the frames (their numbers) in which each of `codes` was read.
    private func framesReading(
        _ codes: [Drawn], in frame: QRPicture, scanner: RLBarcode.Scanner,
        numbers: ClosedRange<Int>, stopWhenAllRead: Bool = true
    ) -> [[Int]] {
        var readIn = [[Int]](repeating: [], count: codes.count)
        frame.picture.pixels.withUnsafeBufferPointer { p in
            let view = LumaView(
                base: p.baseAddress!, width: frame.picture.width, height: frame.picture.height,
                stride: frame.picture.stride)
            for n in numbers {
                let results = scanner.scan(view, frameNumber: n)
                for (k, c) in codes.enumerated()
                where results.contains(where: { $0.symbology == c.symbology && $0.text.contains(c.text) }) {
                    readIn[k].append(n)
                }
                if stopWhenAllRead && readIn.allSatisfy({ !$0.isEmpty }) { break }
            }
        }
        return readIn
    }

    /// Each symbology enabled alone (only its flag) is read at 8 seeded
    /// places in a 1280x720 frame within 8 video frames, from the stream's
    /// second frame (the first gets every search): the plan searches for
    /// what is enabled, whatever else is not.
    func testEachSymbologyAloneIsReadEverywhere() throws {
        var random = DecoderTestRandom(seed: 2026)
        for code in try everySymbology() {
            var missed: [String] = []
            for _ in 0..<8 {
                let x = Double.random(in: (code.halfWidth + 8)...(1272 - code.halfWidth), using: &random)
                let y = Double.random(in: (code.halfHeight + 8)...(712 - code.halfHeight), using: &random)
                var frame = QRPicture(width: 1280, height: 720)
                code.draw(&frame, x.rounded(), y.rounded())
                let scanner = RLBarcode.Scanner(options: ScanOptions(symbologies: code.symbology, effort: .balanced))
                let readIn = framesReading([code], in: frame, scanner: scanner, numbers: 2...9)
                if readIn[0].isEmpty { missed.append("(\(Int(x.rounded())), \(Int(y.rounded())))") }
            }
            XCTAssertEqual(missed, [], "\(code.symbology) alone, not read at")
        }
    }

    /// Two matrix codes side by side in a 1280x720 frame, at several
    /// layouts: both are read within 8 video frames, every symbology on.
    func testPairsOfMatrixCodesAreAllRead() throws {
        guard let dm = try dataMatrix("Pair DM 2026 with some more text"),
            let az = try aztec("Aztec code with a good deal of text in it to make it bigger, 1234567890"),
            let pdf = try pdf417("Pair PDF417 2026")
        else { return }
        let qrCode = try qr("Pair QR 2026")
        let pairs = [(dm, az), (dm, pdf), (qrCode, dm), (qrCode, az), (az, pdf)]
        let layouts: [((Double, Double), (Double, Double))] = [
            ((320, 360), (960, 360)), ((960, 360), (320, 360)), ((640, 180), (640, 540)),
            ((250, 200), (1030, 520)), ((500, 360), (820, 360))
        ]
        for (a, b) in pairs {
            for (pa, pb) in layouts {
                var frame = QRPicture(width: 1280, height: 720)
                a.draw(&frame, pa.0, pa.1)
                b.draw(&frame, pb.0, pb.1)
                let scanner = RLBarcode.Scanner(options: ScanOptions(effort: .balanced))
                let readIn = framesReading([a, b], in: frame, scanner: scanner, numbers: 2...9)
                XCTAssertFalse(readIn[0].isEmpty, "\(a.symbology) at \(pa) beside \(b.symbology) at \(pb)")
                XCTAssertFalse(readIn[1].isEmpty, "\(b.symbology) at \(pb) beside \(a.symbology) at \(pa)")
                // The same frame as a still picture, without the full depth.
                let still = RLBarcode.Scanner(options: ScanOptions(effort: .thorough))
                let read = framesReading([a, b], in: frame, scanner: still, numbers: 1...1)
                XCTAssertFalse(read[0].isEmpty, "still: \(a.symbology) at \(pa) beside \(b.symbology) at \(pb)")
                XCTAssertFalse(read[1].isEmpty, "still: \(b.symbology) at \(pb) beside \(a.symbology) at \(pa)")
            }
        }
    }

    /// With an active region in the middle of the frame, linear codes
    /// outside it, wider than the tiles the rest of the frame is looked at
    /// in and narrower, are found within 120 video frames.
    func testCodesOfEverySizeOutsideTheRegionAreFound() throws {
        let codes = [
            try linear(8, "TILE-39", .code39, "TILE-39", module: 3, barHeight: 20),
            try linear(20, "Tiles of 128", .code128, "Tiles of 128", module: 2.5, barHeight: 20),
            try linear(13, "590123412345", .ean13, "5901234123457", module: 2, barHeight: 30)
        ]
        let region = NormalizedRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        for code in codes {
            // Above and below the region, centred, at the left and at the right.
            for (x, y) in [(320.0, 40.0), (330.0, 325.0), (code.halfWidth + 2, 45.0), (638 - code.halfWidth, 320.0)] {
                var frame = QRPicture(width: 640, height: 360)
                code.draw(&frame, x, y)
                let scanner = RLBarcode.Scanner(
                    options: ScanOptions(
                        symbologies: .all, activeRegion: region,
                        effort: .balanced))
                let readIn = framesReading([code], in: frame, scanner: scanner, numbers: 2...121)
                XCTAssertFalse(readIn[0].isEmpty, "\(code.symbology) \(Int(2 * code.halfWidth)) px at (\(x), \(y))")
            }
        }
    }
}
