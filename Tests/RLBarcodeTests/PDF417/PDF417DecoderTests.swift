import XCTest
@testable import RLBarcode

/// PDF417 codewords, error correction and data encodation on codeword
/// sequences (ISO/IEC 15438:2015, 5.3 and 5.4; 5.7).
final class PDF417DecoderTests: XCTestCase {
    /// Every codeword of every cluster decodes back from its widths, in its cluster.
    func testEveryCodewordRoundTrips() {
        for cluster in 0..<3 {
            for value in 0..<929 {
                let p = PDF417Codewords.patterns[cluster * 929 + value]
                var widths: [Float] = []
                var b = [Int]()
                for k in 0..<8 { let w = Int(p >> UInt32(28 - 4 * k) & 0xF); widths.append(Float(w)); b.append(w) }
                XCTAssertEqual(b.reduce(0, +), 17)
                XCTAssertEqual(PDF417Codewords.clusterNumber(b[0], b[2], b[4], b[6]), 3 * cluster)
                // Scaled and with a little ink spread: bars wider, spaces narrower.
                let spread = widths.enumerated().map {
                    $0.offset % 2 == 0 ? $0.element * 2.5 + 0.3 : $0.element * 2.5 - 0.3
                }
                let d = spread.withUnsafeBufferPointer { PDF417Codewords.decode($0.baseAddress!) }
                XCTAssertEqual(d?.cluster, cluster)
                XCTAssertEqual(d?.value, value)
            }
        }
    }

    /// Data codewords and their check codewords, as an encoder makes them.
    private func symbol(_ data: [Int], ecLevel: Int) -> [Int] {
        let words = [data.count + 1] + data
        return words + ReedSolomonEncoder.checkSymbols(field: .pdf417, data: words, checkCount: 2 << ecLevel)
    }

    func testTextCompaction() {
        // "PDF417 x": P D (alpha), F then ML, 4 1, 7 space, LL x: values 15 3 5 28 4 1 7 26 27 23.
        let values = [15, 3, 5, 28, 4, 1, 7, 26, 27, 23]
        let data = stride(from: 0, to: values.count, by: 2).map { 30 * values[$0] + values[$0 + 1] }
        let d = PDF417Decoder.decode(symbol(data, ecLevel: 2), ecLevel: 2)
        XCTAssertEqual(d?.text, "PDF417 x")
        XCTAssertEqual(d?.symbologyIdentifier, "]L2")
    }

    func testNumericCompaction() {
        // "1" followed by the digits, in base 900.
        let digits = "000213298174000"
        var number = Array(("1" + digits).utf8).map { Int($0) - 48 }
        var base900: [Int] = []
        while number.contains(where: { $0 != 0 }) {
            var remainder = 0
            for k in 0..<number.count {
                let v = remainder * 10 + number[k]
                number[k] = v / 900
                remainder = v % 900
            }
            base900.insert(remainder, at: 0)
        }
        XCTAssertEqual(base900, [1, 624, 434, 632, 282, 200])
        let d = PDF417Decoder.decode(symbol([902] + base900, ecLevel: 1), ecLevel: 1)
        XCTAssertEqual(d?.text, digits)
    }

    func testByteCompaction() {
        // Six bytes in five codewords (924), then 901 with one byte a codeword.
        let bytes: [UInt8] = [0x41, 0xFF, 0x00, 0x80, 0x7E, 0x31]
        var v: UInt64 = 0
        for b in bytes { v = v << 8 | UInt64(b) }
        var five: [Int] = []
        for _ in 0..<5 { five.insert(Int(v % 900), at: 0); v /= 900 }
        let d = PDF417Decoder.decode(symbol([924] + five + [901, 0xE9], ecLevel: 2), ecLevel: 2)
        XCTAssertEqual(d?.bytes, bytes + [0xE9])
    }

    func testECIAndMacro() {
        // ECI 26 (UTF-8), bytes of "é", then a Macro PDF417 control block:
        // segment 2 (numeric 100002), file ID 17 and 5, segment count 4, last segment.
        let index = [100_002 / 900, 100_002 % 900]
        let count = [104 / 900, 104 % 900].drop { $0 == 0 }
        let data = [927, 26, 901, 0xC3, 0xA9, 928] + index + [17, 5, 923, 1] + count + [922]
        let d = PDF417Decoder.decode(symbol(data, ecLevel: 3), ecLevel: 3)
        XCTAssertEqual(d?.text, "é")
        XCTAssertEqual(d?.symbologyIdentifier, "]L1")
        XCTAssertEqual(d?.macro?.segmentIndex, 2)
        XCTAssertEqual(d?.macro?.fileID, "017005")
        XCTAssertEqual(d?.macro?.segmentCount, 4)
        XCTAssertEqual(d?.macro?.isLast, true)
    }

    /// Errors and erasures up to the code's capacity less the two held back.
    func testErrorsAndErasures() {
        let data = Array(1...40).map { ($0 * 37) % 900 }
        var rng = DecoderTestRandom(seed: 5)
        for level in 1...5 {
            let clean = symbol([900] + data, ecLevel: level)
            let c = 2 << level
            for _ in 0..<10 {
                var word = clean
                let erasures = Int.random(in: 0...(c - 2), using: &rng)
                let errors = (c - 2 - erasures) / 2
                var positions = Array(0..<word.count).shuffled(using: &rng)
                for _ in 0..<erasures { word[positions.removeLast()] = -1 }
                for _ in 0..<errors {
                    let p = positions.removeLast(); word[p] = (word[p] + 1 + Int.random(in: 0..<900, using: &rng)) % 929
                }
                let d = PDF417Decoder.decode(word, ecLevel: level)
                XCTAssertNotNil(d, "level \(level), \(erasures) erasures, \(errors) errors")
            }
        }
    }

    /// zint's symbols, read straight from their modules: every codeword
    /// is in its row's cluster, and the rows make the message.
    func testZintSymbolsFromModules() throws {
        let cases: [(String, [String])] = [
            ("Hello, PDF417!", []),
            ("12345678901234567890123456789012345678901234", ["--secure=4", "--cols=3"]),
            ("Mixed: abc DEF 123 @#$ ~end", ["--secure=0", "--cols=1"]),
            (String(repeating: "The quick brown fox 0123456789 ", count: 8), ["--secure=8", "--cols=30"]),
            ("bytes \u{00E9}\u{00FC}", ["--secure=5", "--cols=7"])
        ]
        for (data, args) in cases {
            guard let z = try ZintPDF417.make(data, arguments: args) else { continue }
            let rows = z.codewords()
            var words: [Int] = []
            var ecLevel = -1
            for (r, row) in rows.enumerated() {
                for (k, cw) in row.enumerated() {
                    XCTAssertEqual(cw?.cluster, r % 3, "\(data) row \(r) codeword \(k)")
                    if k > 0 && k < row.count - 1 { words.append(cw?.value ?? -1) }
                }
                if r % 3 == 1, let left = row[0] { ecLevel = left.value % 30 / 3 }
            }
            let d = PDF417Decoder.decode(words, ecLevel: ecLevel)
            XCTAssertEqual(d?.text, data, "\(args)")
        }
    }
}
