import Dispatch
import XCTest
@testable import RLBarcode

/// A frame's time limit and stop as the matrix searches look at them
/// inside their loops (``ScanStop``): a search given a deadline that has
/// passed, or a cancelled stop, examines nothing; the same search without
/// one reads its symbol.
final class ScanStopTests: XCTestCase {
    /// A stop whose deadline has passed.
    private let passed = ScanStop(deadline: 0)
    /// A stop cancelled from another thread, with no deadline.
    private var cancelled: ScanStop {
        let c = ScanCancellation()
        c.cancel()
        return ScanStop(cancellation: c)
    }

    /// `matrix` drawn upright with 3-pixel modules in a picture with room around it.
    private func picture(_ matrix: BitMatrix) -> QRPicture {
        let size = Int(Double(max(matrix.width, matrix.height)) * 3 * 1.2) + 60
        var p = QRPicture(width: size, height: size)
        p.draw(
            matrix: matrix, QRPicture.Placement(cx: Double(size) / 2, cy: Double(size) / 2, module: 3, quietZone: 4))
        return p
    }

    private func withView<T>(_ p: QRPicture, _ body: (LumaView) -> T) -> T {
        p.picture.pixels.withUnsafeBufferPointer {
            body(
                LumaView(
                    base: $0.baseAddress!, width: p.picture.width, height: p.picture.height, stride: p.picture.stride))
        }
    }

    func testQRCodeSearch() throws {
        let symbol = try QRTestSymbol.qr("QR Code under a time limit")
        guard symbol.size > 0 else { return }
        let p = picture(symbol.bitMatrix)
        func candidates(_ stop: ScanStop) -> Int {
            let detector = QRDetector()
            detector.stop = stop
            var out: [QRCandidate] = []
            withView(p) { detector.scan($0, into: &out) }
            return out.count
        }
        XCTAssertGreaterThan(candidates(ScanStop()), 0)
        XCTAssertEqual(candidates(passed), 0)
        XCTAssertEqual(candidates(cancelled), 0)
    }

    /// `read` (a reader given a stop) reads `text` in `p` without a stop,
    /// and nothing with a passed deadline or a cancellation.
    private func assertStops(
        _ p: QRPicture, reads text: String, file: StaticString = #filePath, line: UInt = #line,
        _ read: (ScanStop, LumaView, inout [BarcodeResult]) -> Void
    ) {
        for (stop, want) in [(ScanStop(), [text]), (passed, []), (cancelled, [])] {
            var out: [BarcodeResult] = []
            withView(p) { read(stop, $0, &out) }
            XCTAssertEqual(out.map(\.text), want, file: file, line: line)
        }
    }

    func testAztecSearch() throws {
        guard let m = try ZintAztec.make("Aztec Code under a time limit") else { return }
        assertStops(picture(m), reads: "Aztec Code under a time limit") { stop, view, out in
            let reader = AztecReader()
            reader.stop = stop
            reader.read(view, bounds: nil, thorough: true, into: &out)
        }
    }

    func testDataMatrixSearch() throws {
        guard let m = try ZintMatrix.make(.dataMatrix, "Data Matrix under a time limit") else { return }
        assertStops(picture(m), reads: "Data Matrix under a time limit") { stop, view, out in
            let reader = DataMatrixReader()
            reader.stop = stop
            reader.read(view, bounds: nil, thorough: true, into: &out)
        }
    }

    func testPDF417Search() throws {
        guard let z = try ZintPDF417.make("PDF417 under a time limit") else { return }
        assertStops(picture(z.matrix()), reads: "PDF417 under a time limit") { stop, view, out in
            let reader = PDF417Reader()
            reader.stop = stop
            reader.read(view, bounds: nil, thorough: true, into: &out)
        }
    }

    func testMicroPDF417Search() throws {
        guard let z = try ZintPDF417.make("MicroPDF417 limit", symbology: 84) else { return }
        assertStops(picture(z.matrix(rowHeight: 2)), reads: "MicroPDF417 limit") { stop, view, out in
            let reader = MicroPDF417Reader()
            reader.stop = stop
            reader.read(view, bounds: nil, thorough: true, into: &out)
        }
    }
    /// The Data Matrix search's component pass (millions of runs in a
    /// frame of noise at 8K) looks at the stop inside its loops: given one
    /// that has passed after the labelling, it picks nothing.
    func testDataMatrixComponentsStopInsideTheirPass() throws {
        guard let m = try ZintMatrix.make(.dataMatrix, "Data Matrix components") else { return }
        let p = picture(m)
        let detector = DMDetector()
        detector.options.thorough = true
        withView(p) { view in
            let r = PixelRect(x0: 0, y0: 0, x1: view.width, y1: view.height)
            detector.thresholds.prepare(
                view, rect: r, blockSize: AreaThresholds.blockSize(r), minContrast: detector.options.minContrast,
                reusing: nil)
            detector.label(view, r)
            detector.pickCandidates(r, dark: true)
            XCTAssertGreaterThan(detector.candidateCount, 0)
            detector.stop = passed
            detector.pickCandidates(r, dark: true)
            XCTAssertEqual(detector.candidateCount, 0)
        }
    }
}
