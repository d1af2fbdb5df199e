import XCTest
@testable import RLBarcode

/// Video frames: a QR Code symbol found whose first readings all fail
/// Reed-Solomon decoding (bent by a lens and blurred) is sampled again in
/// the other ways of still pictures, a few such symbols a frame.
final class QRResampleTests: XCTestCase {
    static let text = "http://rlbarcode.example/resample"

    /// Symbols that the first grid reading does not decode, and the rules
    /// that sample them again do.
    static let hard: [(distortion: Double, blur: Int, taper: Double)] = [(0.16, 4, 0.15), (-0.08, 6, 0)]

    func picture(_ hard: (distortion: Double, blur: Int, taper: Double), copies: Int = 1) throws -> QRPicture? {
        let symbol = try QRTestSymbol.qr(QRResampleTests.text, version: 3)
        guard symbol.size > 0 else { return nil }
        var picture = QRPicture(width: 640 * copies, height: 640)
        for k in 0..<copies {
            picture.draw(
                symbol,
                QRPicture.Placement(
                    cx: 320 + 640 * Double(k), cy: 320, module: 14, angle: 8,
                    taper: hard.taper, distortion: hard.distortion))
        }
        if hard.blur > 0 { picture.picture.blur(radius: hard.blur) }
        return picture
    }

    /// A video scanner reads each in its first frame.
    func testVideoFrameReadsABentBlurredSymbol() throws {
        for h in QRResampleTests.hard {
            guard let picture = try picture(h) else { return }
            let texts = picture.picture.scan(ScanOptions(symbologies: .qrCode, effort: .balanced)).map(\.text)
            XCTAssertEqual(texts, [QRResampleTests.text], "\(h)")
        }
    }

    /// The first reading fails on these symbols, so that the resampling is
    /// what reads them; and a scan resamples no more symbols than its
    /// budget: of two such symbols, one.
    func testResamplesPerScanBoundTheWork() throws {
        for h in QRResampleTests.hard {
            guard let picture = try picture(h, copies: 2) else { return }
            func decoded(resamples: Int) -> Int {
                let d = QRDetector()
                d.options.rescueFailedSymbols = false
                d.options.rowStep = 3
                d.options.resamplesPerScan = resamples
                return picture.detect(d).filter { $0.decoded != nil }.count
            }
            XCTAssertEqual(decoded(resamples: 0), 0, "\(h): the first reading")
            XCTAssertEqual(decoded(resamples: 1), 1, "\(h): one resampled")
            XCTAssertEqual(decoded(resamples: 2), 2, "\(h): both resampled")
        }
    }
}
