// swift-tools-version:6.0
import PackageDescription

/// rlbarcode: a barcode reader for GStreamer pipelines.
///
/// - `RLBarcode`: the decoding engine, pure Swift, no GStreamer dependency.
/// - `CGStreamer`: the system library module for GStreamer's C API.
/// - `gstrlbarcode`: the GStreamer plugin (`libgstrlbarcode.so`), with the
///   Swift runtime linked in statically so that it loads in any application.
/// - `rlbarcode-scan`: the command-line scanner.
/// - `rlbarcode-bench`: micro benchmarks of the engine (run in release).
/// - `RLBarcodeFuzzing`: narrow entry points into the engine's decoding
///   stages, for the fuzz targets and their regression tests.
/// - `FuzzDriver`: the libFuzzer driver and the replay of inputs that both
///   fuzz tools share.
/// - `rlbarcode-fuzz`: libFuzzer targets for the engine's decoding stages,
///   built by `scripts/fuzz.sh` with `-sanitize=fuzzer,address`; a normal
///   build replays inputs through them.
/// - `rlbarcode-fuzz-element`: libFuzzer targets for the element, with the
///   plugin's code linked in and registered in the process, built the same way.
let package = Package(
    name: "rlbarcode",
    products: [
        .library(name: "RLBarcode", targets: ["RLBarcode"]),
        .library(name: "gstrlbarcode", type: .dynamic, targets: ["GstRLBarcode"]),
        .executable(name: "rlbarcode-scan", targets: ["rlbarcode-scan"])
    ],
    targets: [
        .target(
            name: "RLBarcode",
            swiftSettings: [.unsafeFlags(["-Ounchecked"], .when(configuration: .release))],
            linkerSettings: [.linkedLibrary("m")]
        ),
        .target(
            name: "RLBarcodeFuzzing",
            dependencies: ["RLBarcode"]
        ),
        .systemLibrary(
            name: "CGStreamer",
            pkgConfig: "gstreamer-video-1.0",
            providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]
        ),
        .target(
            name: "GstRLBarcode",
            dependencies: ["RLBarcode", "CGStreamer"],
            linkerSettings: [.unsafeFlags(["-static-stdlib"])]
        ),
        .executableTarget(
            name: "rlbarcode-scan",
            dependencies: ["RLBarcode", "CGStreamer"]
        ),
        .executableTarget(
            name: "rlbarcode-bench",
            dependencies: ["RLBarcode"]
        ),
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "rlbarcode-fuzz",
            dependencies: ["RLBarcode", "RLBarcodeFuzzing", "FuzzDriver"]
        ),
        .executableTarget(
            name: "rlbarcode-fuzz-element",
            dependencies: ["GstRLBarcode", "CGStreamer", "FuzzDriver"]
        ),
        .testTarget(
            name: "RLBarcodeTests",
            dependencies: ["RLBarcode", "RLBarcodeFuzzing"]
        ),
        .testTarget(
            name: "ElementTests",
            dependencies: ["CGStreamer", "RLBarcode"]
        ),
        .target(
            name: "Subprocess",
            path: "Tests/Subprocess"
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["Subprocess"]
        ),
        .testTarget(
            name: "CorpusTests",
            dependencies: ["Subprocess"]
        )
    ],
    swiftLanguageModes: [.v6]
)
