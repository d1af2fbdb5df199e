import XCTest
import RLBarcode
import RLBarcodeFuzzing

/// Inputs that the fuzz targets (`scripts/fuzz.sh`) found to crash, hang or
/// allocate without bound, replayed through the same entry points
/// (`FuzzEntryPoints`): each must now give a sensible outcome.
final class FuzzRegressionTests: XCTestCase {
    private typealias Target = FuzzEntryPoints.Target

    /// Input too short to build a stage's input from is rejected, and an
    /// empty bit stream or codeword list decodes to nothing or fails.
    func testEmptyAndShortInputs() {
        for target in Target.allCases {
            let outcome = FuzzEntryPoints.run(target, [])
            switch target {
            case .dmBitstream: XCTAssertEqual(outcome, .decoded(""), "\(target)")
            case .qrBitstream, .dmMatrix, .qrMatrix, .aztecMatrix, .aztecBitstream, .pdf417Codewords,
                .pdf417Bitstream, .microPDF417Codewords, .linear, .text, .scanner:
                XCTAssertEqual(outcome, .rejected, "\(target)")
            }
        }
    }

    /// The entry points read what they are meant to: a Data Matrix ASCII
    /// bit stream, a PDF417 text compaction bit stream with its length
    /// descriptor, a GS1 element string.
    func testEntryPointsDecodeValidInput() {
        XCTAssertEqual(FuzzEntryPoints.run(.dmBitstream, Array("HI".utf8).map { $0 + 1 } + [129]), .decoded("HI"))
        // 3 codewords: length, text compaction latch, "AB" (0 * 30 + 1).
        XCTAssertEqual(FuzzEntryPoints.run(.pdf417Bitstream, [0, 3, 3, 132, 0, 1]), .decoded("AB"))
        XCTAssertEqual(
            FuzzEntryPoints.run(.text, [0] + Array("0109501101530003".utf8)),
            .decoded("(01)09501101530003"))
    }

    /// The MicroPDF417 target reads a 4-column, 4-row symbol's codewords
    /// (size 23 of ISO/IEC 24728 Table 1: 8 data and 8 check codewords),
    /// corrects erasures and errors within its check codewords, and fails
    /// beyond them rather than giving a wrong text.
    func testMicroPDF417Codewords() {
        // Text compaction "HELLO WORLD" (pairs of values 30 * a + b), padded with 900.
        let data = [214, 341, 446, 674, 521, 119, 900, 900]
        let words = data + pdf417CheckWords(data, count: 8)
        func input(_ words: [Int], margin: Int32 = 7) -> [UInt8] {
            [23] + words.flatMap { [UInt8($0 >> 8), UInt8($0 & 255), UInt8(margin)] }
        }
        XCTAssertEqual(FuzzEntryPoints.run(.microPDF417Codewords, input(words)), .decoded("HELLO WORLD"))
        var damaged = words
        damaged[1] = 1000; damaged[9] = 1023  // two erasures
        damaged[3] = 5; damaged[12] = 7  // two errors
        XCTAssertEqual(FuzzEntryPoints.run(.microPDF417Codewords, input(damaged)), .decoded("HELLO WORLD"))
        var ruined = words
        for k in [0, 2, 4, 6, 8] { ruined[k] = (ruined[k] + 1) % 929 }
        XCTAssertEqual(FuzzEntryPoints.run(.microPDF417Codewords, input(ruined)), .failed("codewords"))
        // Only the size: every codeword is erased.
        XCTAssertEqual(FuzzEntryPoints.run(.microPDF417Codewords, [23]), .failed("codewords"))
    }

    /// The `count` Reed-Solomon check codewords of `data` over GF(929)
    /// (ISO/IEC 15438:2015, 5.7.2; ISO/IEC 24728:2006, 5.7.2).
    private func pdf417CheckWords(_ data: [Int], count k: Int) -> [Int] {
        var g = [1]
        var root = 1
        for _ in 1...k {
            root = root * 3 % 929
            var next = g + [0]
            for j in 0..<g.count { next[j + 1] = ((next[j + 1] - g[j] * root) % 929 + 929) % 929 }
            g = next
        }
        var work = data + [Int](repeating: 0, count: k)
        for i in 0..<data.count where work[i] != 0 {
            let c = work[i]
            for j in 1...k { work[i + j] = ((work[i + j] - c * g[j]) % 929 + 929) % 929 }
        }
        return work[data.count...].map { (929 - $0) % 929 }
    }

    /// The largest inputs the targets build: a 255 x 255 matrix of dark
    /// modules and a 256 x 256 black picture.
    func testLargestInputs() {
        let matrix: [UInt8] = [255, 255, 1] + [UInt8](repeating: 255, count: 255 * 255 / 8 + 1)
        for target in [Target.qrMatrix, .dmMatrix, .aztecMatrix] {
            guard case .failed = FuzzEntryPoints.run(target, matrix) else {
                return XCTFail("\(target) read a code in a black matrix")
            }
        }
        let picture: [UInt8] = [255, 255, 15, 2] + [UInt8](repeating: 0, count: 271 * 256)
        XCTAssertEqual(FuzzEntryPoints.run(.scanner, picture), .failed("no code"))
    }
}
