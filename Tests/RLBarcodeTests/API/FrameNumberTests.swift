import RLBarcode
import XCTest

/// What alternates between video frames follows the frame's number, not
/// the number of frames a scanner has seen, so that scanners sharing a
/// stream's frames read each frame as one scanner given all of them would.
final class FrameNumberTests: XCTestCase {
    /// A light-on-dark EAN-13, which video frames look for in every other frame.
    private func lightOnDark() throws -> TestPicture {
        let row = try ZintRow.make(.eanx, "590123412345")
        var pic = TestPicture(width: 640, height: 480)
        pic.draw(row, .init(cx: 320, cy: 240, module: 3, barHeight: 50))
        pic.invert()
        return pic
    }

    private func read(_ scanner: RLBarcode.Scanner, _ pic: TestPicture, frameNumber: Int? = nil) -> Bool {
        pic.pixels.withUnsafeBufferPointer { p in
            let view = LumaView(base: p.baseAddress!, width: pic.width, height: pic.height, stride: pic.stride)
            let r = frameNumber.map { scanner.scan(view, frameNumber: $0) } ?? scanner.scan(view)
            return r.contains { $0.text == "5901234123457" }
        }
    }

    func testTwoScannersTakingTurnsReadAsOne() throws {
        let pic = try lightOnDark()
        let one = RLBarcode.Scanner(options: ScanOptions(effort: .balanced))
        let alone = (1...8).map { _ in read(one, pic) }
        // Read in every other frame: the light-on-dark frames.
        XCTAssertEqual(alone.filter { $0 }.count, 4, "\(alone)")
        XCTAssertNotEqual(alone[0], alone[1])

        // Two scanners, each every other frame, given the frames' numbers.
        let a = RLBarcode.Scanner(options: ScanOptions(effort: .balanced)),
            b = RLBarcode.Scanner(options: ScanOptions(effort: .balanced))
        let shared = (1...8).map { n in read(n % 2 == 1 ? a : b, pic, frameNumber: n) }
        XCTAssertEqual(shared, alone)

        // Without the numbers, each counts only its own frames: scanner b's
        // first frame is its first, whatever the stream's.
        let c = RLBarcode.Scanner(options: ScanOptions(effort: .balanced)),
            d = RLBarcode.Scanner(options: ScanOptions(effort: .balanced))
        let counted = (1...8).map { n in read(n % 2 == 1 ? c : d, pic) }
        XCTAssertNotEqual(counted, alone)

        // A frame's number alone decides, however many frames came before.
        let e = RLBarcode.Scanner(options: ScanOptions(effort: .balanced))
        for n in [5, 2, 9, 4, 4, 7] { XCTAssertEqual(read(e, pic, frameNumber: n), alone[(n - 1) % 8], "frame \(n)") }
    }

    /// With an active region, the tile of the rest of the frame looked at
    /// every fourth frame follows the frame's number too.
    func testTilesOutsideTheRegionFollowTheFrameNumber() throws {
        let row = try ZintRow.make(.eanx, "590123412345")
        var pic = TestPicture(width: 1280, height: 720)
        pic.draw(row, .init(cx: 1000, cy: 560, module: 2, barHeight: 40))
        let options = ScanOptions(activeRegion: NormalizedRect(x: 0, y: 0, width: 0.5, height: 0.5), effort: .balanced)
        let one = RLBarcode.Scanner(options: options)
        let alone = (1...96).map { _ in read(one, pic) }
        let readIn = alone.indices.filter { alone[$0] }.map { $0 + 1 }
        // Some frames read it, not every fourth.
        XCTAssertFalse(readIn.isEmpty)
        XCTAssertTrue(readIn.allSatisfy { $0 % 4 == 0 }, "\(readIn)")
        XCTAssertLessThan(readIn.count, 24, "\(readIn)")
        // Another scanner, given the frames in another order.
        let other = RLBarcode.Scanner(options: options)
        for n in [readIn[0], readIn[0] - 4, 96, readIn[0] + 4, readIn.last ?? 4, 8, 4] where n >= 1 {
            XCTAssertEqual(read(other, pic, frameNumber: n), alone[n - 1], "frame \(n)")
        }
    }
}
