import XCTest
@testable import RLBarcode

/// The cost of the Aztec search on video frames: 1080p frames with text
/// and a QR Code but no Aztec symbol, and with one.
final class AztecSpeedTests: XCTestCase {
    private func time(_ p: QRPicture, runs: Int = 10) -> (ms: Double, found: Int) {
        let detector = AztecDetector()
        var out: [AztecSymbol] = []
        var found = 0
        let start = Date()
        p.picture.pixels.withUnsafeBufferPointer {
            let view = LumaView(base: $0.baseAddress!, width: p.picture.width, height: p.picture.height,
                                stride: p.picture.stride)
            for _ in 0..<runs {
                out.removeAll(keepingCapacity: true)
                detector.scan(view, thorough: false, into: &out)
                found = out.count
            }
        }
        let ms = Date().timeIntervalSince(start) * 1000 / Double(runs)
        var regions = MatrixRegionDetector()
        let t0 = Date()
        var cells = 0
        p.picture.pixels.withUnsafeBufferPointer {
            let view = LumaView(base: $0.baseAddress!, width: p.picture.width, height: p.picture.height,
                                stride: p.picture.stride)
            for _ in 0..<runs {
                regions.find(view, cellSize: 16, margin: 2)
                regions.find(view, cellSize: 64, margin: 1, keep: true)
                cells = regions.markedCells
            }
        }
        print("regions", regions.regionCount, "cells", cells, "ms", Date().timeIntervalSince(t0) * 1000 / Double(runs),
              "centres", detector.lastCentreCount)
        return (ms, found)
    }

    func testVideoFrameCost() throws {
        var frame = QRPicture(width: 1920, height: 1080)
        frame.textClutter(seed: 4)
        if let qr = try? QRTestSymbol.qr("https://example.com/no-aztec-here", version: 4) {
            frame.draw(qr, QRPicture.Placement(cx: 900, cy: 500, module: 6, angle: 10))
        }
        let empty = time(frame)
        XCTAssertEqual(empty.found, 0)
        guard let m = try ZintAztec.make("Aztec in a video frame", arguments: ["--vers=6"]) else { return }
        let s = QRTestSymbol(modules: (0..<m.height).map { y in (0..<m.width).map { m[$0, y] } })
        frame.draw(s, QRPicture.Placement(cx: 1400, cy: 600, module: 5, angle: 25))
        let with = time(frame)
        XCTAssertEqual(with.found, 1)
        print(String(format: "Aztec search on 1080p: %.2f ms without a symbol, %.2f ms with one", empty.ms, with.ms))
    }
}
