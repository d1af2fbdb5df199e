import XCTest
import RLBarcode

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
                 .pdf417Bitstream, .linear, .text, .scanner:
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
        XCTAssertEqual(FuzzEntryPoints.run(.text, [0] + Array("0109501101530003".utf8)),
                       .decoded("(01)09501101530003"))
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
