import Dispatch
import XCTest
@testable import RLBarcode

/// Whole scans: one cancelled from another thread while it runs stops
/// before its work is done and says so; a time limit that has passed
/// stops a scan of a picture it would read, at every effort.
final class ScanCancelTests: XCTestCase {
    private func scan(_ pic: TestPicture, _ scanner: RLBarcode.Scanner) -> [BarcodeResult] {
        pic.pixels.withUnsafeBufferPointer {
            scanner.scan(LumaView(base: $0.baseAddress!, width: pic.width, height: pic.height, stride: pic.stride))
        }
    }

    /// Noise over the whole frame: every part of it is worth a look.
    private func noise() -> TestPicture {
        var pic = TestPicture(width: 320, height: 240, background: 128)
        pic.addNoise(amplitude: 127, seed: 46)
        return pic
    }

    func testACancellationFromAnotherThreadEndsARunningScan() {
        let pic = noise()
        let options = ScanOptions(effort: .thorough, threads: 2, exhaustive: true)
        // The whole scan's work.
        let whole = RLBarcode.Scanner(options: options)
        let t0 = MonotonicClock.now
        _ = scan(pic, whole)
        let wholeTime = MonotonicClock.now - t0
        XCTAssertFalse(whole.lastScanTimedOut)
        // The same scan, cancelled from another thread once it has begun.
        let scanner = RLBarcode.Scanner(options: options)
        let stop = ScanCancellation()
        scanner.cancellation = stop
        let started = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            started.wait()
            // Some of the scan first: the stop must reach it in its loops.
            usleep(20_000)
            stop.cancel()
            done.signal()
        }
        started.signal()
        let t1 = MonotonicClock.now
        XCTAssertEqual(scan(pic, scanner).count, 0)
        let cancelledTime = MonotonicClock.now - t1
        done.wait()
        XCTAssertTrue(scanner.lastScanTimedOut, "a cancelled scan says it stopped")
        // Against the same scan's whole time on this machine, not a fixed
        // time: here 40 ms of 1.5 s in a debug build.
        XCTAssertLessThan(cancelledTime, wholeTime / 2, "a cancelled scan stops before its work is done")
        // It stays stopped until the cancellation is reset.
        _ = scan(pic, scanner)
        XCTAssertTrue(scanner.lastScanTimedOut)
        stop.reset()
        _ = scan(pic, scanner)
        XCTAssertFalse(scanner.lastScanTimedOut)
    }

    func testAPassedLimitStopsAScanAtEveryEffort() throws {
        let symbol = try QRTestSymbol.qr("time limit")
        guard symbol.size > 0 else { return }
        var qr = QRPicture(width: 400, height: 400)
        qr.draw(symbol, QRPicture.Placement(cx: 200, cy: 200, module: 4))
        let pic = qr.picture
        for effort in Effort.allCases {
            let free = RLBarcode.Scanner(options: ScanOptions(effort: effort))
            XCTAssertEqual(scan(pic, free).map(\.text), ["time limit"], "\(effort)")
            XCTAssertFalse(free.lastScanTimedOut)
            let limited = RLBarcode.Scanner(options: ScanOptions(effort: effort, timeLimit: 0))
            XCTAssertEqual(scan(pic, limited).count, 0, "\(effort)")
            XCTAssertTrue(limited.lastScanTimedOut, "\(effort)")
        }
    }
}
