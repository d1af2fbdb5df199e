import XCTest
@testable import RLBarcode

/// Codes wider than the frame, read in parts as the frame pans along them:
/// reported once whole and verified, never from a part alone.
final class PartialReadingTests: XCTestCase {
    /// A picture of the codes side by side, `module` pixels a module.
    private func strip(_ rows: [ZintRow], module: Double, height: Int = 160) -> TestPicture {
        let widths = rows.map { Double($0.modules.count + 24) * module }
        var pic = TestPicture(width: Int(widths.reduce(0, +)) + 40, height: height)
        var x = 20.0
        for (row, w) in zip(rows, widths) {
            pic.draw(row, .init(cx: x + w / 2, cy: Double(height) / 2, module: module, barHeight: 50))
            x += w
        }
        return pic
    }

    /// Scans frames of `frameWidth` pixels cut from `pic` (no copy: a view
    /// with the picture's stride), the view moving `step` pixels a frame.
    /// - Returns: the texts reported in each frame and the partial texts.
    private func pan(
        _ pic: TestPicture, frameWidth: Int, step: Int, backwards: Bool = false,
        options: ScanOptions = ScanOptions(symbologies: .code128)
    )
        -> (texts: [[String]], partials: [String])
    {
        let scanner = Scanner(options: options)
        var texts: [[String]] = [], partials: [String] = []
        var offsets = Array(stride(from: 0, through: pic.width - frameWidth, by: step))
        if backwards { offsets.reverse() }
        pic.pixels.withUnsafeBufferPointer { p in
            for x in offsets {
                let view = LumaView(base: p.baseAddress! + x, width: frameWidth, height: pic.height, stride: pic.stride)
                texts.append(scanner.scan(view).map(\.text))
                partials.append(scanner.partialText)
            }
        }
        return (texts, partials)
    }

    func testLongCode128PannedAcrossNarrowFrame() throws {
        try panAcross("PARTS-OF-A-LONG-CODE-128-JOINED-AS-IT-PANS", LinearSymbolTestKit.code128, .code128)
    }

    func testLongCode93PannedAcrossNarrowFrame() throws {
        try panAcross("PARTS OF A LONG CODE 93 JOINED/PANNED", LinearSymbolTestKit.code93, .code93)
    }

    func testLongCode39WithCheckCharacterPannedAcrossNarrowFrame() throws {
        // zint's --vers=1 appends the modulo-43 check character, which the
        // joined whole transmits as a whole reading would.
        let data = "PARTS-OF-A-LONG-CODE-39-PANNED"
        let set = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%")
        let check = set[data.reduce(0) { $0 + set.firstIndex(of: $1)! } % 43]
        try panAcross(data, 8, .code39, arguments: ["--vers=1"], expected: data + String(check))
    }

    /// A Code 39 code without a check character shows its parts as partial
    /// text but is never reported: nothing would verify the joined whole.
    func testLongCode39WithoutCheckCharacterIsNeverJoined() throws {
        let text = "PARTS-OF-A-LONG-CODE-39-UNCHECKED"
        // The last character must not happen to be a check character of the others.
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%")
        let values = text.map { alphabet.firstIndex(of: $0)! }
        XCTAssertNotEqual(values.dropLast().reduce(0, +) % 43, values.last!)
        try panWithoutJoining(text, 8, .code39)
    }

    func testLongITFWithCheckDigitPannedAcrossNarrowFrame() throws {
        let data = "123456789012345678901234567890123456789"
        // The last of the 40 digits is the modulo-10 check digit of the others.
        try panAcross(data + String(itfCheckDigit(data)), 3, .itf)
    }

    /// An ITF code whose last digit is not a check digit of the others
    /// shows its parts as partial text but is never reported.
    func testLongITFWithoutCheckDigitIsNeverJoined() throws {
        let text = "1234567890123456789012345678901234567891"
        XCTAssertNotEqual(itfCheckDigit(String(text.dropLast())), Int(String(text.last!))!)
        try panWithoutJoining(text, 3, .itf)
    }

    /// Pans along `text`, a code without a valid check character: its
    /// parts show as partial text, each a piece of the code, and nothing
    /// is ever reported.
    private func panWithoutJoining(_ text: String, _ zintSymbology: Int, _ symbology: Symbology) throws {
        let row = try ZintRow.make(symbology: zintSymbology, text)
        let pic = strip([row], module: 2)
        let frameWidth = pic.width * 5 / 8
        XCTAssertGreaterThan(pic.width, frameWidth + 250, "the code must be wider than the frame")
        for backwards in [false, true] {
            let (texts, partials) = pan(
                pic, frameWidth: frameWidth, step: 24, backwards: backwards,
                options: ScanOptions(symbologies: symbology))
            XCTAssertTrue(texts.allSatisfy { $0.isEmpty }, "backwards \(backwards): \(texts)")
            XCTAssertTrue(
                partials.contains { $0.count >= 6 }, "backwards \(backwards): no part shown: \(Set(partials))")
            for p in partials where !p.isEmpty {
                let shown = p.hasPrefix("…") ? String(p.dropFirst()) : p
                XCTAssertTrue(text.contains(shown), "partial text \(p) is not part of the code")
            }
        }
    }

    /// The modulo-10 check digit of `digits` (ISO/IEC 16390, weights 3 and 1 from the right).
    private func itfCheckDigit(_ digits: String) -> Int {
        let values = digits.compactMap(\.wholeNumberValue)
        var sum = 0
        for (k, d) in values.reversed().enumerated() { sum += d * (k % 2 == 0 ? 3 : 1) }
        return (10 - sum % 10) % 10
    }

    private func panAcross(
        _ text: String, _ zintSymbology: Int, _ symbology: Symbology,
        arguments: [String] = [], expected: String? = nil
    ) throws {
        let row = try ZintRow.make(symbology: zintSymbology, text, arguments: arguments)
        let whole = expected ?? text
        let pic = strip([row], module: 2)
        // The frame shows five eighths of the code.
        let frameWidth = pic.width * 5 / 8
        XCTAssertGreaterThan(pic.width, frameWidth + 250, "the code must be wider than the frame")
        for backwards in [false, true] {
            let (texts, partials) = pan(
                pic, frameWidth: frameWidth, step: 24, backwards: backwards,
                options: ScanOptions(symbologies: symbology))
            let all = texts.flatMap { $0 }
            // Nothing but the whole code, ever.
            XCTAssertEqual(Set(all), [whole], "backwards \(backwards): \(Set(all))")
            // Read before the pan ends, after a part was shown.
            guard let first = texts.firstIndex(where: { !$0.isEmpty }) else { continue }
            XCTAssertTrue(partials[..<first].contains { !$0.isEmpty }, "no partial text before the code was whole")
            if !backwards {
                XCTAssertTrue(partials.contains { whole.hasPrefix($0) && $0.count >= 5 }, "\(Set(partials))")
            }
        }
    }

    func testPartsOfDifferentCodesAreNotJoined() throws {
        // The end of the first code's visible part and the start of the
        // second's share characters, but they are two codes.
        let a = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789AB", b = "KLMNOPQRSTUVWXYZ0123456789ABCDEFGHIJ99"
        let rows = [
            try ZintRow.make(symbology: LinearSymbolTestKit.code128, a),
            try ZintRow.make(symbology: LinearSymbolTestKit.code128, b)
        ]
        let pic = strip(rows, module: 2)
        let (texts, _) = pan(pic, frameWidth: 560, step: 20)
        for t in texts.flatMap({ $0 }) { XCTAssertTrue(t == a || t == b, "read \(t)") }
    }

    func testStillPicturesKeepNoParts() throws {
        let text = "PARTS-OF-A-LONG-CODE-128-JOINED-AS-IT-PANS"
        let row = try ZintRow.make(symbology: LinearSymbolTestKit.code128, text)
        let (texts, partials) = pan(
            strip([row], module: 2), frameWidth: 640, step: 24,
            options: ScanOptions(symbologies: .code128, effort: .thorough))
        XCTAssertTrue(texts.allSatisfy { $0.isEmpty }, "\(texts)")
        XCTAssertTrue(partials.allSatisfy { $0.isEmpty })
    }
}
