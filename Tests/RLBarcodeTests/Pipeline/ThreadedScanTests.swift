import XCTest
@testable import RLBarcode

/// A scan split between the calling thread and the scanner's helper thread
/// (``ScanOptions/threads``): the hand-over of tasks, and results that do
/// not depend on the number of threads.
final class ThreadedScanTests: XCTestCase {
    /// Over many runs, every task a run opens is taken exactly once, by
    /// one thread or the other, and ``HelperThread/wait()`` returns only
    /// once all of them are done; both threads take some.
    func testEveryTaskRunsOnceAndBeforeWaitReturns() throws {
        let tasks = 40, runs = 300
        let done = UnsafeMutablePointer<Int>.allocate(capacity: tasks)
        let byHelper = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        defer { done.deallocate(); byHelper.deallocate() }
        byHelper.pointee = 0
        // Each task spins a little, so that neither thread takes them all.
        func work(_ k: Int) {
            var x = UInt64(k)
            for _ in 0..<2_000 { x = x &* 6364136223846793005 &+ 1442695040888963407 }
            done[k] += x == 0 ? 2 : 1
        }
        var helper: HelperThread?
        helper = HelperThread { [byHelper] in
            guard let h = helper else { return }
            h.openTasks(tasks)
            while let k = h.nextTask() { work(k); byHelper.pointee += 1 }
        }
        let h = try XCTUnwrap(helper)
        var byCaller = 0
        for run in 0..<runs {
            done.initialize(repeating: 0, count: tasks)
            h.start()
            while let k = h.nextTask() { work(k); byCaller += 1 }
            h.wait()
            let counts = (0..<tasks).map { done[$0] }
            XCTAssertEqual(counts, [Int](repeating: 1, count: tasks), "run \(run)")
            if counts != [Int](repeating: 1, count: tasks) { break }
        }
        h.stop()
        XCTAssertEqual(byCaller + byHelper.pointee, tasks * runs)
        XCTAssertGreaterThan(byHelper.pointee, 0, "the helper took no task")
        XCTAssertGreaterThan(byCaller, 0, "the calling thread took no task")
        // Waiting with no run asked for, and stopping twice, return at once.
        h.wait()
        h.stop()
        helper = nil
    }

    /// ``HelperThread/prewake()`` before a run, long before one (the
    /// thread spins, gives up and sleeps again), during one (ignored) and
    /// with none after it: every run still runs its tasks once each, and
    /// the thread stops.
    func testPrewakeBeforeDuringAndWithoutARun() throws {
        let tasks = 8
        let done = UnsafeMutablePointer<Int>.allocate(capacity: tasks)
        defer { done.deallocate() }
        var helper: HelperThread?
        helper = HelperThread {
            guard let h = helper else { return }
            h.prewake()
            h.openTasks(tasks)
            while let k = h.nextTask() { done[k] += 1 }
        }
        let h = try XCTUnwrap(helper)
        for run in 0..<200 {
            done.initialize(repeating: 0, count: tasks)
            if run % 2 == 0 { h.prewake() }
            // Past the thread's spin: it sleeps again before the start.
            if run % 20 == 0 { usleep(2_000) }
            h.start()
            while let k = h.nextTask() { done[k] += 1 }
            h.wait()
            let counts = (0..<tasks).map { done[$0] }
            XCTAssertEqual(counts, [Int](repeating: 1, count: tasks), "run \(run)")
            if counts != [Int](repeating: 1, count: tasks) { break }
        }
        h.prewake()
        h.stop()
        helper = nil
    }

    /// An HD frame with a linear code, a QR Code, a Data Matrix and an
    /// Aztec symbol: scanned with one thread, two, or one per processor,
    /// frame after frame, the results are the same codes in the same
    /// order with the same corners.
    func testResultsDoNotDependOnTheNumberOfThreads() throws {
        guard let dm = try ZintMatrix.make(.dataMatrix, "Threads DM 2026"),
            let aztec = try ZintAztec.make("Threads Aztec", arguments: ["--vers=4"])
        else { return }
        let row = try ZintRow.make(.eanx, "590123412345")
        guard !row.modules.isEmpty else { return }
        var frame = QRPicture(width: 1280, height: 720)
        frame.draw(matrix: dm, QRPicture.Placement(cx: 300, cy: 200, module: 10, angle: 12))
        let az = QRTestSymbol(modules: (0..<aztec.height).map { y in (0..<aztec.width).map { aztec[$0, y] } })
        frame.draw(az, QRPicture.Placement(cx: 950, cy: 200, module: 8, angle: -20))
        frame.draw(try QRTestSymbol.qr("Threads QR"), QRPicture.Placement(cx: 950, cy: 540, module: 6, angle: 30))
        var bars = BitMatrix(width: row.modules.count, height: 60)
        for y in 0..<60 { for (x, m) in row.modules.enumerated() where m { bars[x, y] = true } }
        frame.draw(matrix: bars, QRPicture.Placement(cx: 330, cy: 540, module: 3, angle: -8, quietZone: 12))
        let picture = frame.picture
        var readings: [Int: [String]] = [:]
        picture.pixels.withUnsafeBufferPointer { p in
            let view = LumaView(
                base: p.baseAddress!, width: picture.width, height: picture.height, stride: picture.stride)
            for threads in [1, 2, 0] {
                let scanner = Scanner(options: ScanOptions(symbologies: .all, effort: .balanced, threads: threads))
                var all: [String] = []
                for k in 0..<3 {
                    for r in scanner.scan(view) {
                        let corners = r.corners.map { "\(Int($0.x.rounded())),\(Int($0.y.rounded()))" }
                        all.append("\(k)|\(r.symbology)|\(r.text)|\(corners.joined(separator: " "))")
                    }
                }
                readings[threads] = all
            }
        }
        let one = try XCTUnwrap(readings[1])
        for k in 0..<3 {
            let texts = one.filter { $0.hasPrefix("\(k)|") }.map { String($0.split(separator: "|")[2]) }
            XCTAssertEqual(
                texts.sorted(), ["5901234123457", "Threads Aztec", "Threads DM 2026", "Threads QR"],
                "frame \(k): \(one)")
        }
        XCTAssertEqual(readings[2], one)
        XCTAssertEqual(readings[0], one)
    }

    /// A frame of linear codes only (five, one of them a stacked DataBar
    /// Expanded symbol, whose rows different candidates read, and two
    /// identical EAN-13 codes side by side), scanned for linear codes only,
    /// so that the helper thread has no matrix search to make first: both
    /// threads read candidates, and the codes, with their corners, are the
    /// same as with one thread, frame after frame.
    func testLinearCandidatesSharedByTwoThreadsReadAsOne() throws {
        let ean = try ZintRow.make(.eanx, "590123412345")
        let code128 = try ZintRow.make(symbology: 20, "THREADS-128")
        let itf = try ZintRow.make(symbology: 3, "12345678901231")
        let stacked = try ZintStack.make(
            symbology: 81, "[01]98898765432106[3103]000123[15]991231",
            arguments: ["--cols=2"])
        guard !ean.modules.isEmpty, !code128.modules.isEmpty, !itf.modules.isEmpty, !stacked.rows.isEmpty else {
            return
        }
        var frame = TestPicture(width: 1280, height: 720)
        frame.draw(ean, .init(cx: 200, cy: 150, module: 2.5, angle: 5))
        frame.draw(ean, .init(cx: 560, cy: 150, module: 2.5, angle: -4))
        frame.draw(code128, .init(cx: 1150, cy: 300, module: 2.5, angle: 80))
        frame.draw(itf, .init(cx: 300, cy: 520, module: 3, angle: -15))
        frame.draw(stacked, .init(cx: 860, cy: 520, module: 2.5, angle: 10))
        frame.addNoise(amplitude: 6)
        let (readings, byHelper) = ThreadedScanTests.linearReadings(frame, effort: .balanced, frames: 6) {
            $0.lastCandidatesReadByHelper
        }
        let one = try XCTUnwrap(readings[1])
        let texts = one.filter { $0.hasPrefix("0|") }.map { String($0.split(separator: "|")[2]) }
        XCTAssertEqual(
            texts.sorted(),
            [
                "0198898765432106310300012315991231", "12345678901231", "5901234123457",
                "5901234123457", "THREADS-128"
            ], "\(one)")
        XCTAssertEqual(readings[2], one)
        XCTAssertGreaterThan(byHelper, 0, "the helper thread read no candidate")
    }

    /// Still pictures at full depth: the sweeps over the whole picture at
    /// twelve angles are shared by both threads, and the codes, with their
    /// corners, are the same as with one thread.
    func testSweepsSharedByTwoThreadsReadAsOne() throws {
        let ean = try ZintRow.make(.eanx, "590123412345")
        let code128 = try ZintRow.make(symbology: 20, "SWEEPS-128")
        guard !ean.modules.isEmpty, !code128.modules.isEmpty else { return }
        var picture = TestPicture(width: 800, height: 600)
        picture.draw(ean, .init(cx: 250, cy: 200, module: 2, angle: 33))
        picture.draw(code128, .init(cx: 560, cy: 400, module: 2, angle: -58))
        picture.addNoise(amplitude: 8)
        let (readings, byHelper) = ThreadedScanTests.linearReadings(
            picture, effort: .thorough, exhaustive: true,
            frames: 4
        ) { $0.sweepsByHelper }
        let one = try XCTUnwrap(readings[1])
        let texts = one.filter { $0.hasPrefix("0|") }.map { String($0.split(separator: "|")[2]) }
        XCTAssertEqual(texts.sorted(), ["5901234123457", "SWEEPS-128"], "\(one)")
        XCTAssertEqual(readings[2], one)
        XCTAssertGreaterThan(byHelper, 0, "the helper thread read no sweep")
    }

    /// Scans `picture` for linear codes `frames` times with one scanner of
    /// one thread and one of two: each frame's codes as
    /// "frame|symbology|text|corners", in the scanner's order, per thread
    /// count, and the sum of `helperShare` over the two-thread scans.
    static func linearReadings(
        _ picture: TestPicture, effort: Effort, exhaustive: Bool = false, frames: Int,
        helperShare: (RLBarcode.Scanner) -> Int
    ) -> ([Int: [String]], Int) {
        var readings: [Int: [String]] = [:]
        var byHelper = 0
        picture.pixels.withUnsafeBufferPointer { p in
            let view = LumaView(
                base: p.baseAddress!, width: picture.width, height: picture.height, stride: picture.stride)
            for threads in [1, 2] {
                let linear = Symbology.all.subtracting(MatrixReaders.symbologies)
                let scanner = Scanner(
                    options: ScanOptions(
                        symbologies: linear, effort: effort, threads: threads,
                        exhaustive: exhaustive))
                var all: [String] = []
                for k in 0..<frames {
                    var codes: [String] = []
                    for r in scanner.scan(view) {
                        let corners = r.corners.map { "\(Int($0.x.rounded())),\(Int($0.y.rounded()))" }
                        codes.append("\(k)|\(r.symbology)|\(r.text)|\(corners.joined(separator: " "))")
                    }
                    if threads == 2 { byHelper += helperShare(scanner) }
                    // In the order the scanner gives them: the same whichever
                    // thread read which candidate.
                    all += codes
                }
                readings[threads] = all
            }
        }
        return (readings, byHelper)
    }

    /// Two threads' readings of one frame added together: a row or a code
    /// read by both joins its match, with the lines of both; one read
    /// elsewhere, or of other content, stays apart.
    func testTablesOfTwoThreadsJoinTheirReadings() {
        var mine = RowTable(), theirs = RowTable()
        let f = LinearFragment(
            symbology: .dataBarExpanded, valueOffset: 0, valueCount: 3, start: 0, end: 100, error: 0.2)
        let a: [Int32] = [1, 2, 3], b: [Int32] = [4, 5, 6]
        a.withUnsafeBufferPointer { va in
            b.withUnsafeBufferPointer { vb in
                mine.add(f, values: va, p0: Point(x: 0, y: 0), p1: Point(x: 100, y: 0), inverted: false, line: 1)
                mine.add(f, values: va, p0: Point(x: 0, y: 2), p1: Point(x: 100, y: 2), inverted: false, line: 2)
                // The same row two pixels lower, a row of other values, and
                // the same values far below (another row).
                theirs.add(f, values: va, p0: Point(x: 0, y: 4), p1: Point(x: 100, y: 4), inverted: false, line: 10)
                theirs.add(f, values: vb, p0: Point(x: 0, y: 40), p1: Point(x: 100, y: 40), inverted: false, line: 11)
                var better = f
                better.error = 0.1
                theirs.add(
                    better, values: va, p0: Point(x: 0, y: 90), p1: Point(x: 100, y: 90), inverted: false, line: 12)
            }
        }
        mine.absorb(theirs)
        XCTAssertEqual(mine.count, 3)
        XCTAssertEqual((0..<mine.count).map { mine[$0].support }, [3, 1, 1])
        XCTAssertEqual(mine[0].error, 0.2)
        XCTAssertEqual(mine[2].error, 0.1)
        XCTAssertEqual(Array(mine.values(of: 1)), b)

        var votes = VoteTable(), other = VoteTable()
        defer { votes.free(); other.free() }
        var sink = LinearHitSink()
        defer { sink.free() }
        func read(_ text: String, into table: inout VoteTable, x: Double, line: Int) {
            sink.reset()
            let bytes = Array(text.utf8)
            let offset = bytes.withUnsafeBufferPointer { sink.store($0) }
            let hit = LinearHit(
                symbology: .code128, textOffset: offset, textCount: bytes.count, addOnOffset: 0,
                addOnCount: 0, firstElement: 0, lastElement: 10, start: 0, end: 200, error: 0.1,
                aimModifier: 48)
            table.add(
                hit, from: sink, p0: Point(x: x, y: Double(line % 7) * 3),
                p1: Point(x: x + 200, y: Double(line % 7) * 3),
                inverted: false, line: line)
        }
        read("ONE", into: &votes, x: 0, line: 1)
        read("ONE", into: &other, x: 0, line: 100)
        read("ONE", into: &other, x: 600, line: 101)
        read("ONE", into: &other, x: 600, line: 102)
        read("TWO", into: &other, x: 0, line: 103)
        read("TWO", into: &other, x: 0, line: 104)
        votes.absorb(other)
        let codes = votes.results(minVotes: 2).map { "\($0.text)@\(Int($0.corners[0].x))" }.sorted()
        // "ONE" on the left: one line of each table, two together.
        XCTAssertEqual(codes, ["ONE@0", "ONE@600", "TWO@0"])
    }

    /// The codes of two threads' tables come out in one order whichever
    /// thread read which code (with two threads, which one reads which
    /// candidate varies from run to run; an element gives new codes their
    /// tracking ids in this order).
    func testJoinedTablesGiveTheirCodesInOneOrder() {
        var sink = LinearHitSink()
        defer { sink.free() }
        func read(_ text: String, _ symbology: Symbology, into table: inout VoteTable, y: Double, line: Int) {
            sink.reset()
            let bytes = Array(text.utf8)
            let offset = bytes.withUnsafeBufferPointer { sink.store($0) }
            let hit = LinearHit(
                symbology: symbology, textOffset: offset, textCount: bytes.count, addOnOffset: 0,
                addOnCount: 0, firstElement: 0, lastElement: 10, start: 0, end: 200, error: 0.1,
                aimModifier: 48)
            for k in 0..<2 {
                table.add(
                    hit, from: sink, p0: Point(x: 10, y: y + Double(k) * 3), p1: Point(x: 210, y: y + Double(k) * 3),
                    inverted: false, line: line + k)
            }
        }
        /// "A" (Code 128, at the top), "B" (Code 39, below it) and "C" (Code
        /// 128, at the bottom), read by this thread (`mine`) or the other.
        func joined(_ mine: Set<String>) -> [String] {
            var votes = VoteTable(), other = VoteTable()
            defer { votes.free(); other.free() }
            for (k, (text, symbology, y)) in [("C", Symbology.code128, 400.0), ("B", .code39, 200), ("A", .code128, 0)]
                .enumerated()
            {
                if mine.contains(text) {
                    read(text, symbology, into: &votes, y: y, line: 10 * k)
                } else {
                    read(text, symbology, into: &other, y: y, line: 1000 + 10 * k)
                }
            }
            votes.absorb(other)
            return votes.results(minVotes: 2).map(\.text)
        }
        let all = joined(["A", "B", "C"])
        XCTAssertEqual(Set(all), ["A", "B", "C"])
        for mine: Set<String> in [[], ["A"], ["B"], ["C"], ["A", "B"], ["B", "C"], ["A", "C"]] {
            XCTAssertEqual(joined(mine), all, "this thread read \(mine.sorted())")
        }
    }

    /// Scanners that used a helper thread end it when they go away: the
    /// process has no more threads after a hundred of them than before.
    func testHelperThreadsEndWithTheirScanners() throws {
        func threadCount() -> Int? {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task"))?.count
        }
        guard let before = threadCount() else { throw XCTSkip("no /proc/self/task on this system") }
        let pixels = [UInt8](repeating: 200, count: 64 * 48)
        pixels.withUnsafeBufferPointer { p in
            let view = LumaView(base: p.baseAddress!, width: 64, height: 48, stride: 64)
            for _ in 0..<100 {
                let scanner = Scanner(options: ScanOptions(threads: 2))
                XCTAssertTrue(scanner.scan(view).isEmpty)
            }
        }
        XCTAssertEqual(threadCount(), before)
    }

    /// Out-of-range thread counts resolve to 1 or 2.
    func testThreadCountsResolve() {
        XCTAssertEqual(ScanOptions(threads: -5).threadCount, 1)
        XCTAssertEqual(ScanOptions(threads: 1).threadCount, 1)
        XCTAssertEqual(ScanOptions(threads: 2).threadCount, 2)
        XCTAssertEqual(ScanOptions(threads: 64).threadCount, 2)
        XCTAssertEqual(ScanOptions(threads: 0).threadCount, min(2, onlineProcessors))
        XCTAssertEqual(ScanOptions().threads, 1)
    }
}
