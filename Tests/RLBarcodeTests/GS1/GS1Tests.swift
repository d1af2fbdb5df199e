import XCTest
@testable import RLBarcode

/// The shared GS1 element-string rules.
final class GS1Tests: XCTestCase {
    private func hri(_ s: String) -> String? {
        GS1.humanReadable(Array(s.replacingOccurrences(of: "|", with: "\u{1D}").utf8))
    }

    func testFixedAndVariableFields() {
        XCTAssertEqual(hri("0104412345678909"), "(01)04412345678909")
        XCTAssertEqual(hri("01095011015300031712312510ABC123"), "(01)09501101530003(17)123125(10)ABC123")
        XCTAssertEqual(hri("10ABC|21XYZ"), "(10)ABC(21)XYZ")
        XCTAssertEqual(hri("3103000189|3922123"), "(3103)000189(3922)123")
        XCTAssertEqual(hri("00123456789012345675"), "(00)123456789012345675")
        XCTAssertEqual(hri("8005123456"), "(8005)123456")
        // A separator after fixed-length data is tolerated.
        XCTAssertEqual(hri("0104412345678909|10X"), "(01)04412345678909(10)X")
    }

    func testMalformedStringsDoNotParse() {
        XCTAssertNil(hri(""))
        XCTAssertNil(hri("01123"), "fixed field cut short")
        XCTAssertNil(hri("05123"), "unassigned AI")
        XCTAssertNil(hri("10"), "AI without data")
        XCTAssertNil(hri("10|21X"), "empty variable field")
        XCTAssertNil(hri("AB123"), "not digits")
    }

    func testCheckDigit() {
        let gtin: [UInt8] = [0, 4, 4, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 9]
        XCTAssertTrue(gtin.withUnsafeBufferPointer { GS1.checkDigitOK($0.baseAddress!, count: 14) })
        var bad = gtin
        bad[13] = 8
        XCTAssertFalse(bad.withUnsafeBufferPointer { GS1.checkDigitOK($0.baseAddress!, count: 14) })
    }
}
