import XCTest
@testable import RLBarcode

/// ``ScanOptions/timeLimit``: a frame's analysis stops once its time has
/// passed, says so, and the next frame starts afresh.
final class TimeLimitTests: XCTestCase {
    /// A picture of noise over the whole frame: every part of it looks
    /// like texture worth a look, so a thorough scan takes long.
    private func noise(size: Int = 96) -> TestPicture {
        var pic = TestPicture(width: size, height: size, background: 128)
        pic.addNoise(amplitude: 127, seed: 11)
        return pic
    }

    private func scan(_ pic: TestPicture, _ scanner: RLBarcode.Scanner) -> [BarcodeResult] {
        pic.scan(with: scanner)
    }

    func testAnExpiredLimitStopsTheScanAndSaysSo() {
        let pic = noise()
        let limited = RLBarcode.Scanner(options: ScanOptions(effort: .thorough, timeLimit: 0))
        XCTAssertEqual(scan(pic, limited).count, 0)
        XCTAssertTrue(limited.lastScanTimedOut, "a limit of 0 s must stop the scan of a noisy frame")
        // The same frame without a limit is scanned to the end.
        let free = RLBarcode.Scanner(options: ScanOptions(effort: .thorough))
        XCTAssertEqual(scan(pic, free).count, 0)
        XCTAssertFalse(free.lastScanTimedOut)
    }

    func testAGenerousLimitStillReadsTheCode() throws {
        var pic = TestPicture(width: 320, height: 200)
        pic.draw(try ZintRow.make(.eanx, "978020137962"), .init(cx: 160, cy: 100, module: 2, barHeight: 40, angle: 20))
        let scanner = RLBarcode.Scanner(options: ScanOptions(timeLimit: 60))
        XCTAssertEqual(scan(pic, scanner).map(\.text), ["9780201379624"])
        XCTAssertFalse(scanner.lastScanTimedOut)
        // After a frame that ran out of time, the next one has its own limit.
        scanner.options.timeLimit = 0
        _ = scan(noise(), scanner)
        XCTAssertTrue(scanner.lastScanTimedOut)
        scanner.options.timeLimit = 60
        XCTAssertEqual(scan(pic, scanner).map(\.text), ["9780201379624"])
        XCTAssertFalse(scanner.lastScanTimedOut)
    }
}
