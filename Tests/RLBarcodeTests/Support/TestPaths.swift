import Foundation

/// Folders the engine tests read from, found from this file's place.
enum TestPaths {
    /// The package's root (`Tests/RLBarcodeTests/Support/` is three levels below it).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The shared corpus beside the package (`../shared/corpus`), which may be absent.
    static let corpus = packageRoot.appendingPathComponent("../shared/corpus").standardized
}
