import XCTest
@testable import RLBarcode

/// The look-alikes a row-by-row search rejected: skipped within a pixel on
/// the remembered rows, checked again after them.
final class RejectedCentresTests: XCTestCase {
    func testOneRowRemembered() {
        var r = RejectedCentres()
        defer { r.free() }
        r.start(width: 64, rows: 1)
        XCTAssertFalse(r.wasRejected(at: 10.5))
        r.reject(at: 10.5)
        r.reject(at: 30.2)
        r.nextRow()
        // Within a pixel of a rejected centre, in ascending order.
        XCTAssertFalse(r.wasRejected(at: 8.0))
        XCTAssertTrue(r.wasRejected(at: 9.0))
        XCTAssertTrue(r.wasRejected(at: 11.9))
        XCTAssertFalse(r.wasRejected(at: 12.0))
        XCTAssertTrue(r.wasRejected(at: 31.0))
        XCTAssertFalse(r.wasRejected(at: 40.0))
        r.nextRow()
        // Forgotten after one row (nothing rejected on the row between).
        XCTAssertFalse(r.wasRejected(at: 10.5))
    }

    func testTwoRowsRemembered() {
        var r = RejectedCentres()
        defer { r.free() }
        r.start(width: 64, rows: 2)
        r.reject(at: 20)
        r.nextRow()
        r.reject(at: 50)
        XCTAssertTrue(r.wasRejected(at: 20))
        r.nextRow()
        XCTAssertTrue(r.wasRejected(at: 20.7))
        XCTAssertTrue(r.wasRejected(at: 50))
        r.nextRow()
        XCTAssertFalse(r.wasRejected(at: 20))
        XCTAssertTrue(r.wasRejected(at: 50))
        r.nextRow()
        XCTAssertFalse(r.wasRejected(at: 50))
        // A new search forgets the last one's rows.
        r.reject(at: 5)
        r.start(width: 16, rows: 2)
        r.nextRow()
        XCTAssertFalse(r.wasRejected(at: 5))
    }
}
