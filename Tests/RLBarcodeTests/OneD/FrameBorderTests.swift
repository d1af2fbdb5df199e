import Foundation
import XCTest
@testable import RLBarcode

/// Linear symbols that reach the frame's border or are cut tight, at one
/// pixel a module, from zint's module rows: read where the picture ends
/// where the symbol does, and not read (nor read as a shorter code) where
/// the border cuts bars off.
final class FrameBorderTests: XCTestCase {
    /// A symbol as zint makes it and the text the scanner reports for it.
    struct Sample {
        var zint: Int
        var data: String
        var symbology: Symbology
        var text: String
        /// Whether the frame's border may stand for its quiet zone (UPC-E
        /// keeps half a module of margin).
        var border = true
    }

    /// One symbol of each linear symbology with a check or a full structure
    /// at both ends (ITF with a valid modulo-10 check digit).
    static let samples: [Sample] = [
        Sample(zint: 20, data: "EDGE-128x", symbology: .code128, text: "EDGE-128x"),
        Sample(zint: 8, data: "EDGE39", symbology: .code39, text: "EDGE39"),
        Sample(zint: 25, data: "EDGE93", symbology: .code93, text: "EDGE93"),
        Sample(zint: 3, data: "12345670", symbology: .itf, text: "12345670"),
        Sample(zint: 18, data: "A123456B", symbology: .codabar, text: "A123456B"),
        Sample(zint: 13, data: "590123412345", symbology: .ean13, text: "5901234123457"),
        Sample(zint: 13, data: "9638507", symbology: .ean8, text: "96385074"),
        Sample(zint: 34, data: "03600029145", symbology: .upcA, text: "0036000291452"),
        Sample(zint: 37, data: "0123456", symbology: .upcE, text: "0012345000065", border: false),
        Sample(zint: 29, data: "0950110153001", symbology: .dataBar, text: "0109501101530010"),
        Sample(
            zint: 31, data: "[01]98898765432106[3202]012345", symbology: .dataBarExpanded,
            text: "01988987654321063202012345")
    ]

    /// A picture of `modules` upright, `module` pixels a module, with
    /// `left` and `right` pixels of background beside it and `vertical`
    /// above and below.
    static func picture(
        _ modules: [Bool], module: Double = 1, left: Int, right: Int, vertical: Int = 4,
        barHeight: Int = 40
    ) -> TestPicture {
        let length = Int((Double(modules.count) * module).rounded())
        var pic = TestPicture(width: left + length + right, height: barHeight + 2 * vertical)
        // Pixel x covers x - 1/2 ... x + 1/2 in the drawing's coordinates:
        // the symbol from the left edge of pixel `left`, modules on whole pixels.
        pic.draw(
            ZintRow(modules: modules),
            .init(
                cx: Double(left) + Double(length) / 2 - 0.5,
                cy: Double(pic.height) / 2 - 0.5, module: module,
                barHeight: Double(barHeight) / module, quietZone: 0))
        return pic
    }

    /// The texts the still-picture scan reads in `pic`.
    private func read(_ pic: TestPicture, _ symbologies: Symbology) -> [String] {
        pic.scan(ScanOptions(symbologies: symbologies, effort: .thorough)).map(\.text)
    }

    private func row(_ s: Sample) throws -> [Bool] {
        let modules = try ZintRow.make(symbology: s.zint, s.data).modules
        XCTAssertFalse(modules.isEmpty)
        // zint's rows start with the first bar; the end is trimmed already.

        return modules
    }

    func testSymbolsReachingTheLeftTheRightAndBothBordersAtOnePixelAModule() throws {
        for s in FrameBorderTests.samples where s.border {
            let modules = try row(s)
            for (left, right, vertical) in [(0, 12, 4), (12, 0, 4), (0, 0, 4), (0, 0, 0)] {
                let pic = FrameBorderTests.picture(modules, left: left, right: right, vertical: vertical)
                XCTAssertEqual(
                    read(pic, s.symbology), [s.text],
                    "\(s.data): margins left \(left), right \(right), above and below \(vertical)")
            }
        }
    }

    func testSymbolsCutTightWithMarginsOfNoneToTenPixels() throws {
        for s in FrameBorderTests.samples {
            let modules = try row(s)
            for margin in [1, 2, 5, 10] {
                let pic = FrameBorderTests.picture(modules, left: margin, right: margin, vertical: min(margin, 4))
                XCTAssertEqual(read(pic, s.symbology), [s.text], "\(s.data): margins of \(margin) pixels")
            }
            // Two pixels a module, nothing around.
            let pic = FrameBorderTests.picture(modules, module: 2, left: 0, right: 0, vertical: 0)
            XCTAssertEqual(read(pic, s.symbology), s.border ? [s.text] : [], "\(s.data): 2 pixels a module, cut tight")
        }
    }

    /// The symbologies whose readers take the frame's border for a quiet
    /// zone, every reader of the scanner on.
    private static let linear: Symbology = Symbology.eanUPC.union([.code128, .code39, .code93, .itf, .codabar])

    /// Readings of one scan line across `modules` (`unit` pixels a module)
    /// that starts and ends on the frame's border, both ways, both
    /// polarities, by every linear reader.
    private func lineReadings(_ modules: [Bool], unit: Int, leading: Int, trailing: Int) -> [String] {
        var p = [Float](repeating: 220, count: leading)
        for m in modules { p += [Float](repeating: m ? 30 : 220, count: unit) }
        p += [Float](repeating: 220, count: trailing)
        var edges = EdgeExtractor(), run = ElementRun()
        var sink = LinearHitSink()
        defer { edges.free(); run.free(); sink.free() }
        let readers = makeLinearReaders()
        var texts: [String] = []
        p.withUnsafeBufferPointer { profile in
            edges.extract(profile.baseAddress!, count: p.count, relative: 0.1, floor: 2)
            for inverted in [false, true] {
                run.fill(from: edges, lineLength: p.count, inverted: inverted)
                run.profile = profile.baseAddress
                for reverse in [false, true] {
                    if reverse { run.reverse() }
                    sink.reset()
                    for r in readers { r.decode(run, enabled: FrameBorderTests.linear, into: &sink) }
                    texts += (0..<sink.hitCount).map { String(decoding: sink.text(of: sink.hits[$0]), as: UTF8.self) }
                }
            }
        }
        return texts
    }

    func testWholeSymbolReadOnALineFromBorderToBorder() throws {
        // The same lines as below, the symbol whole: read, so that the
        // truncated ones reading nothing is the truncation's doing.
        for s in FrameBorderTests.samples where FrameBorderTests.linear.contains(s.symbology) && s.border {
            let modules = try row(s)
            for unit in [1, 2] {
                for (leading, trailing) in [(0, 0), (0, 20), (20, 0)] {
                    XCTAssertTrue(
                        lineReadings(modules, unit: unit, leading: leading, trailing: trailing).contains(s.text),
                        "\(s.data), \(unit) pixels a module, margins \(leading) and \(trailing)")
                }
            }
        }
    }

    func testSymbolTruncatedByTheBorderIsNotReadAsAShorterCode() throws {
        // Every cut between modules in the outer two fifths of each symbol,
        // at either end: the border takes bars away, and what is left must
        // not read as another code (each reader sees the rest reach the
        // border). An outer bar cut only in part may still give the
        // symbol's own text; from a whole character cut off on, nothing.
        for s in FrameBorderTests.samples where FrameBorderTests.linear.contains(s.symbology) {
            let modules = try row(s)
            let reach = modules.count * 2 / 5
            for cut in 1...reach {
                for fromStart in [true, false] {
                    let rest = fromStart ? Array(modules[cut...]) : Array(modules[..<(modules.count - cut)])
                    let margin = fromStart ? (0, 20) : (20, 0)
                    let texts = lineReadings(rest, unit: 2, leading: margin.0, trailing: margin.1)
                    let allowed = cut < 3 ? [s.text] : []
                    XCTAssertEqual(
                        texts.filter { !allowed.contains($0) }, [],
                        "\(s.data): \(cut) modules cut off its \(fromStart ? "start" : "end")")
                }
            }
        }
    }

    func testTruncatedSymbolInAPictureIsNotRead() throws {
        // A picture whose border cuts a third of the symbol off, at one
        // pixel a module: nothing read by any reader.
        for s in FrameBorderTests.samples {
            let modules = try row(s)
            let cut = modules.count / 3
            for fromStart in [true, false] {
                let rest = fromStart ? Array(modules[cut...]) : Array(modules[..<(modules.count - cut)])
                let pic = FrameBorderTests.picture(rest, left: fromStart ? 0 : 12, right: fromStart ? 12 : 0)
                XCTAssertEqual(read(pic, .all), [], "\(s.data): a third cut off its \(fromStart ? "start" : "end")")
            }
        }
    }

    func testITFOnOneBorderNeedsItsCheckDigit() throws {
        // 12345678 has no valid modulo-10 check digit (it would be 0): a
        // longer symbol cut by the border between pairs looks the same. With
        // one end on the border and the other inside the picture (a quiet
        // zone, then a mark: the line does not run on to the far border on
        // background), only the symbol with a valid check digit is read.
        for (data, expected) in [("12345678", [String]()), ("12345670", ["12345670"])] {
            let modules = try row(Sample(zint: 3, data: data, symbology: .itf, text: data))
            let marked = modules + [Bool](repeating: false, count: 14) + [Bool](repeating: true, count: 6)
            let pic = FrameBorderTests.picture(marked, left: 0, right: 12)
            XCTAssertEqual(read(pic, .itf), expected, "\(data) from the left border")
            let markedBefore = FrameBorderTests.picture(
                [Bool](repeating: true, count: 6)
                    + [Bool](repeating: false, count: 14) + modules, left: 12, right: 0)
            XCTAssertEqual(read(markedBefore, .itf), expected, "\(data) to the right border")
            // Cropped to the symbol on both sides: read either way.
            XCTAssertEqual(read(FrameBorderTests.picture(modules, left: 0, right: 0), .itf), [data])
        }
    }
}
