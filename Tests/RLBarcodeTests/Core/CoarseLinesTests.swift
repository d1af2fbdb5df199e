import XCTest
@testable import RLBarcode

/// ``readCoarseToFine(count:coarse:marks:found:read:)``: where nothing is
/// found a coarse share of the lines, around what is every line.
final class CoarseLinesTests: XCTestCase {
    private func run(count: Int, coarse: Int, hitsOn lines: Set<Int>) -> [Int] {
        var marks = ScratchBuffer<UInt8>(capacity: 4)
        defer { marks.free() }
        marks.reserve(count)
        var read: [Int] = [], found = 0
        readCoarseToFine(count: count, coarse: coarse, marks: marks.pointer, found: { found }) { k in
            read.append(k)
            if lines.contains(k) { found += 1 }
        }
        return read
    }

    func testEveryLineAroundWhatIsFound() {
        let hits = Set(41...50)  // a column 10 lines tall: coarse lines 44 and 48 cross it
        let read = run(count: 100, coarse: 4, hitsOn: hits)
        XCTAssertEqual(read.count, Set(read).count, "a line read twice")
        // Every line of the column, and 4 misses either side of it.
        XCTAssertTrue(Set(37...54).isSubset(of: Set(read)), "\(read.sorted())")
        // Elsewhere only every fourth line.
        let far = read.filter { $0 < 36 || $0 > 56 }
        XCTAssertTrue(far.allSatisfy { $0 % 4 == 0 }, "\(far)")
        XCTAssertEqual(far.count, (0..<100).filter { ($0 < 36 || $0 > 56) && $0 % 4 == 0 }.count)
    }

    func testNothingFoundReadsTheCoarseLines() {
        XCTAssertEqual(run(count: 10, coarse: 3, hitsOn: []), [0, 3, 6, 9])
        XCTAssertEqual(run(count: 0, coarse: 3, hitsOn: []), [])
    }

    func testCoarseOneReadsEveryLineInTurn() {
        XCTAssertEqual(run(count: 6, coarse: 1, hitsOn: [2, 3]), Array(0..<6))
    }

    /// A column between two coarse lines, shorter than their spacing, is
    /// not looked for: the spacing must stay under the shortest column.
    func testAColumnBetweenCoarseLinesIsMissed() {
        let read = run(count: 40, coarse: 4, hitsOn: [9, 10, 11])
        XCTAssertFalse(read.contains(10))
    }
}
