import XCTest
@testable import RLBarcode

final class SymbologyTests: XCTestCase {
    func testNicksRoundTrip() {
        for s in Symbology.allCases {
            XCTAssertEqual(Symbology(parsing: s.nick!), s)
            XCTAssertEqual(Symbology(parsing: s.name!), s)
        }
        XCTAssertEqual(Symbology(parsing: "ean-13+qr-code"), [.ean13, .qrCode])
        XCTAssertNil(Symbology(parsing: "ean-14"))
        XCTAssertEqual(Symbology(parsing: "all"), .all)
    }

    func testRegionParsing() throws {
        XCTAssertNil(try NormalizedRect.parse("").get())
        XCTAssertEqual(
            try NormalizedRect.parse("0.25, 0.25,0.5,0.5").get(),
            NormalizedRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5))
        for bad in ["1,2", "a,b,c,d", "0.5,0.5,0.6,0.1", "0,0,0,1", "nan,0,1,1"] {
            guard case .failure = NormalizedRect.parse(bad) else { return XCTFail("accepted \(bad)") }
        }
    }
}
