import XCTest
@testable import RLBarcode

/// Text of QR byte data without an ECI (ISO/IEC 18004:2015, 7.4.5): UTF-8
/// when valid, else Shift JIS when it reads as Japanese, else ISO-8859-1.
final class QRCharacterSetTests: XCTestCase {
    func testHalfWidthKatakanaWordIsShiftJIS() {
        // "ﾃﾞｻﾞｲﾝQR" in Shift JIS: single-byte katakana only, no double-byte pair.
        let bytes: [UInt8] = [0xC3, 0xDE, 0xBB, 0xDE, 0xB2, 0xDD, 0x51, 0x52]
        XCTAssertEqual(QRCharacterSet.guess(bytes[...]), 20)
        XCTAssertEqual(QRCharacterSet.text(bytes[...], .eci(20)), "ﾃﾞｻﾞｲﾝQR")
    }

    func testLatinTextWithAccentedCapitalsStaysLatin1() {
        // "Ça Été" in ISO-8859-1: accented capitals, never three in a row.
        let bytes: [UInt8] = [0xC7, 0x61, 0x20, 0xC9, 0x74, 0xC9]
        XCTAssertEqual(QRCharacterSet.guess(bytes[...]), 3)
        // Double-byte Kanji pairs read as Shift JIS.
        let kanji: [UInt8] = [0x93, 0xFA, 0x96, 0x7B]  // 日本
        XCTAssertEqual(QRCharacterSet.guess(kanji[...]), 20)
    }

    /// A MECARD in Shift JIS escapes its colons with 0x5C: read as the
    /// backslash (ASCII), not JIS X 0201's yen sign; 0x7E as a tilde.
    func testShiftJISSingleBytesAreASCII() {
        // "MECARD:N:山田\:太郎;~" in Shift JIS.
        let bytes: [UInt8] =
            Array("MECARD:N:".utf8) + [0x8E, 0x52, 0x93, 0x63, 0x5C, 0x3A, 0x91, 0xBE, 0x98, 0x59]
            + Array(";~".utf8)
        let expected = "MECARD:N:山田\\:太郎;~"
        XCTAssertEqual(QRCharacterSet.text(bytes[...], .shiftJIS), expected)
        XCTAssertEqual(QRCharacterSet.text(bytes[...], .eci(20)), expected)
        XCTAssertEqual(QRCharacterSet.guess(bytes[...]), 20)
    }
}
