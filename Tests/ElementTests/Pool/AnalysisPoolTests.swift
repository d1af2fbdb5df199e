import Foundation
import RLBarcode
import Synchronization
import XCTest

/// The analysis pool every element of a process shares: turns go round
/// the streams one each, a wait ends at its time without a turn, and lent
/// threads never take a turn a stream waits for nor outnumber the turns.
final class AnalysisPoolTests: XCTestCase {
    /// Waits until `pool` has `count` scans waiting (each thread below
    /// joins the queue before the next starts, so their order is known).
    private func waitForWaiting(_ pool: AnalysisPool, _ count: Int) {
        let until = Date().addingTimeInterval(30)
        while pool.statistics().waiting < count && Date() < until { usleep(1000) }
        XCTAssertEqual(pool.statistics().waiting, count)
    }

    func testTurnsGoRoundTheLanesOneEach() {
        let pool = AnalysisPool(size: 1)
        let a = AnalysisPool.Lane(), b = AnalysisPool.Lane(), c = AnalysisPool.Lane()
        XCTAssertTrue(pool.acquire(a))
        let order = Mutex<[String]>([])
        let group = DispatchGroup()
        // Lane a queues two scans, then b two, then c one.
        for (i, (lane, name)) in [(a, "a1"), (a, "a2"), (b, "b1"), (b, "b2"), (c, "c1")].enumerated() {
            group.enter()
            Thread {
                XCTAssertTrue(pool.acquire(lane))
                order.withLock { $0.append(name) }
                pool.release()
                group.leave()
            }.start()
            waitForWaiting(pool, i + 1)
        }
        pool.release()
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        // One turn a lane a round, in the order the lanes joined; not the
        // order the scans came (a1 a2 b1 b2 c1).
        XCTAssertEqual(order.withLock { $0 }, ["a1", "b1", "c1", "a2", "b2"])
        XCTAssertEqual(pool.statistics(a).granted, 3)
        XCTAssertEqual(pool.statistics().mostTaken, 1)
    }

    func testAWaitEndsAtItsTimeWithoutATurn() {
        let pool = AnalysisPool(size: 1)
        let busy = AnalysisPool.Lane(), late = AnalysisPool.Lane()
        XCTAssertTrue(pool.acquire(busy))
        XCTAssertFalse(pool.acquire(late, within: 0.02))
        XCTAssertFalse(pool.acquire(late, within: 0))
        XCTAssertEqual(pool.statistics(late).missed, 2)
        XCTAssertEqual(pool.statistics().waiting, 0, "a wait that ended leaves the queue")
        pool.release()
        // A free turn is taken at once, even with no time to wait.
        XCTAssertTrue(pool.acquire(late, within: 0))
        XCTAssertEqual(pool.statistics(late).granted, 1)
        pool.release()
    }

    func testMoreTurnsServeMoreScansAtOnce() {
        let pool = AnalysisPool(size: 1)
        let a = AnalysisPool.Lane(), b = AnalysisPool.Lane()
        XCTAssertTrue(pool.acquire(a))
        XCTAssertFalse(pool.acquire(b, within: 0))
        pool.resize(2)
        XCTAssertEqual(pool.size, 2)
        XCTAssertTrue(pool.acquire(b, within: 0))
        pool.release()
        pool.release()
    }
}

/// Scanners that split frames in two borrow the pool's threads: however
/// many scan at once, the pool runs no more threads than turns.
final class PooledScannerTests: XCTestCase {
    func testManyTwoThreadScannersUseNoMoreThreadsThanTurns() {
        let pool = AnalysisPool(size: 2, threadName: "test-pool")
        let width = 320, height = 240
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { pixels[y * width + x] = (x / 4 + y / 9) % 2 == 0 ? 40 : 210 }
        }
        let picture = pixels
        let group = DispatchGroup()
        let scans = Atomic<Int>(0)
        for _ in 0..<6 {
            group.enter()
            Thread {
                let scanner = Scanner(options: ScanOptions(threads: 2))
                scanner.analysisPool = pool
                let lane = AnalysisPool.Lane()
                picture.withUnsafeBufferPointer { p in
                    let luma = LumaView(base: p.baseAddress!, width: width, height: height, stride: width)
                    for frame in 1...8 {
                        XCTAssertTrue(pool.acquire(lane))
                        _ = scanner.scan(luma, frameNumber: frame)
                        pool.release()
                        scans.wrappingAdd(1, ordering: .relaxed)
                    }
                }
                group.leave()
            }.start()
        }
        XCTAssertEqual(group.wait(timeout: .now() + 300), .success)
        XCTAssertEqual(scans.load(ordering: .relaxed), 48)
        let stats = pool.statistics()
        XCTAssertLessThanOrEqual(stats.mostThreads, 2)
        XCTAssertLessThanOrEqual(stats.mostTaken, 2)
    }

    func testAPooledScanReadsWhatAScanOfItsOwnReads() throws {
        // An EAN-13 from zint, read with a thread of the scanner's own and with a pool's.
        var canvas = Canvas(width: 320, height: 240)
        canvas.drawLinear(try Zint.modules(symbology: 13, data: Codes.ean13Data), x: 40, y: 90)
        let frame = canvas.pixels
        let reads = [AnalysisPool?.none, AnalysisPool(size: 2, threadName: "test-pool")].map { pool -> [String] in
            let scanner = Scanner(options: ScanOptions(threads: 2))
            scanner.analysisPool = pool
            return frame.withUnsafeBufferPointer { p in
                let luma = LumaView(base: p.baseAddress!, width: 320, height: 240, stride: 320)
                return scanner.scan(luma, frameNumber: 1).map(\.text)
            }
        }
        XCTAssertEqual(reads[0], [Codes.ean13Text])
        XCTAssertEqual(reads[1], reads[0])
    }
}
