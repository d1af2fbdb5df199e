import CGStreamer
import Foundation
import RLBarcode
import XCTest

/// Tracking in the `rlbarcode` element: codes looked at seldom (outside
/// an active region) and identical codes side by side.
final class TrackingTests: XCTestCase {
    override func setUpWithError() throws {
        switch gstreamerReady {
        case .success: break
        case .failure(let error): XCTFail("\(error)"); throw error
        }
    }

    /// 15 s at 10 fps of an EAN-13 standing still above the active region
    /// of a 640x360 frame: it is read only when the tile of the frame that
    /// holds it takes its turn (one tile in four frames, 13 tiles), over
    /// 5 s apart, yet it is one code: one id, one report.
    func testCodeOutsideTheRegionKeepsItsTrackBetweenTiles() throws {
        var canvas = Canvas(width: 640, height: 360)
        let modules = try Zint.modules(symbology: 13, data: Codes.ean13Data)
        // Above the region (rows 90..270): whole only in the shifted grid's tile 160..480 x 0..90.
        canvas.drawLinear(modules, x: 195, y: 14, moduleWidth: 2, barHeight: 60)
        let frames = Array(repeating: canvas.frame("GRAY8"), count: 150)
        let region = "active-region=0.25,0.25,0.5,0.5"
        let out = try runPipeline(
            frames, properties: "\(region) report=every-frame", live: true,
            frameDuration: 100_000_000)
        let times = out.messages.compactMap { $0["timestamp"]?.uint64 }
        XCTAssertGreaterThanOrEqual(times.count, 2, "read in several of its tile's turns, needs the engine")
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        XCTAssertGreaterThan(gaps.max() ?? 0, 1_000_000_000, "sightings further apart than lost-after")
        XCTAssertEqual(Set(out.messages.compactMap { $0["id"]?.uint }), [1], "one id all along")
        let new = try runPipeline(frames, properties: region, live: true, frameDuration: 100_000_000)
        XCTAssertEqual(new.messages.count, 1, "reported once")
        let session = new.allElementMessages.first { $0.name == "barcode-session" }
        XCTAssertEqual(session?["codes"]?.structures?.first?["appearances"]?.uint, 1)
    }

    /// What tracking relies on: the scanner says where each video frame's
    /// scan looked. The active region in every frame; a point outside it
    /// only in the frames whose tile holds it (one tile in four frames),
    /// and every part of the frame within a round of tiles.
    func testScannerReportsWhereItLooked() {
        let pixels = [UInt8](repeating: 200, count: 640 * 360)
        let region = NormalizedRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        let scanner = Scanner(options: ScanOptions(activeRegion: region))
        var looked: [Int] = []
        pixels.withUnsafeBufferPointer { p in
            let luma = LumaView(base: p.baseAddress!, width: 640, height: 360, stride: 640)
            for n in 1...104 {
                _ = scanner.scan(luma, frameNumber: n)
                XCTAssertTrue(scanner.lastScannedArea.contains(x: 320, y: 180), "the region, frame \(n)")
                if scanner.lastScannedArea.contains(x: 40, y: 320) { looked.append(n) }
            }
        }
        XCTAssertFalse(looked.isEmpty, "the corner is looked at within a round")
        XCTAssertTrue(looked.allSatisfy { $0 % 4 == 0 }, "only in tile frames: \(looked)")
        XCTAssertLessThan(looked.count, 104 / 4, "not in every tile frame")
        let whole = Scanner()
        pixels.withUnsafeBufferPointer { p in
            _ = whole.scan(LumaView(base: p.baseAddress!, width: 640, height: 360, stride: 640), frameNumber: 1)
        }
        XCTAssertTrue(whole.lastScannedArea.contains(x: 40, y: 320) && whole.lastScannedArea.contains(x: 639, y: 359))
        XCTAssertFalse(whole.lastScannedArea.contains(x: 640, y: 0), "outside the frame")
    }

    /// The same code moved into the active region's blind spot is lost as
    /// usual: a code in the region that disappears is new when it returns.
    func testCodeInTheRegionIsStillLostAfterLostAfter() throws {
        var canvas = Canvas(width: 640, height: 360)
        let modules = try Zint.modules(symbology: 13, data: Codes.ean13Data)
        canvas.drawLinear(modules, x: 205, y: 150, moduleWidth: 2, barHeight: 60)
        let code = canvas.frame("GRAY8"), blank = Canvas(width: 640, height: 360).frame("GRAY8")
        let frames = [code, code] + Array(repeating: blank, count: 12) + [code, code]
        let out = try runPipeline(
            frames, properties: "active-region=0.25,0.25,0.5,0.5", live: true,
            frameDuration: 100_000_000)
        XCTAssertEqual(out.messages.compactMap { $0["id"]?.uint }, [1, 2], "lost after 1 s unseen, needs the engine")
    }

    /// A shelf of one product: four identical EAN-13 codes in a 2x2 grid,
    /// moving together a little, the top-left one hidden for a few frames.
    /// Each keeps its own id in every frame, and report=new reports each
    /// once.
    func testIdenticalCodesSideBySideKeepTheirOwnIDs() throws {
        let modules = try Zint.modules(symbology: 13, data: Codes.ean13Data)
        var frames: [TestFrame] = []
        for k in 0..<40 {
            var canvas = Canvas(width: 480, height: 240)
            let dx = k % 20 < 10 ? k % 10 : 10 - k % 10, dy = dx / 3
            for (i, (x, y)) in [(6, 22), (244, 22), (6, 146), (244, 146)].enumerated()
            where i > 0 || !(15..<19).contains(k) {
                canvas.drawLinear(modules, x: x + dx, y: y + dy, moduleWidth: 2, barHeight: 60)
            }
            frames.append(canvas.frame("GRAY8"))
        }
        let every = try runPipeline(frames, properties: "report=every-frame", live: true)
        // Which place (column, row) each id was read at: always the same one.
        var places: [UInt64: Set<Int>] = [:]
        for m in every.messages {
            guard let id = m["id"]?.uint, let c = m["corners"]?.intArray, c.count == 8 else { continue }
            let cx = (c[0] + c[2] + c[4] + c[6]) / 4, cy = (c[1] + c[3] + c[5] + c[7]) / 4
            places[id, default: []].insert((cx < 240 ? 0 : 1) + (cy < 120 ? 0 : 2))
        }
        XCTAssertEqual(places.count, 4, "four ids, needs the engine: \(places)")
        XCTAssertTrue(places.values.allSatisfy { $0.count == 1 }, "no id switches places: \(places)")
        XCTAssertEqual(Set(places.values.flatMap { $0 }).count, 4, "one id per place")
        XCTAssertGreaterThan(every.messages.count, 4 * 28, "each read in most frames")
        let new = try runPipeline(frames, live: true)
        XCTAssertEqual(new.messages.count, 4, "one appearance each")
        XCTAssertEqual(Set(new.messages.compactMap { $0["id"]?.uint }).count, 4)
    }
}
