@testable import RLBarcode

extension TestPicture {
    /// Runs `body` on a view of the picture's pixels.
    func withLumaView<R>(_ body: (LumaView) throws -> R) rethrows -> R {
        try pixels.withUnsafeBufferPointer {
            try body(LumaView(base: $0.baseAddress!, width: width, height: height, stride: stride))
        }
    }

    /// Scans the picture with `scanner` (which keeps what it learnt for the next frame).
    func scan(with scanner: RLBarcode.Scanner) -> [BarcodeResult] {
        withLumaView { scanner.scan($0) }
    }

    /// Scans the picture with the given linear readers only.
    func scan(_ options: ScanOptions, readers: [any LinearReader]) -> [BarcodeResult] {
        scan(with: RLBarcode.Scanner(options: options, linearReaders: readers))
    }
}
