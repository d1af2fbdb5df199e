import Foundation
import XCTest

/// The inputs kept from fuzzing (`Inputs/TARGET/`, found or seeded by
/// scripts/fuzz.sh) replayed through the normal build of the fuzz
/// harnesses: each must run to its end with an outcome line, without a
/// crash, an abort of the harness's own checks (a buffer lost or made up,
/// an input over its time budget) or a sanitizer report.
final class FuzzReplayTests: XCTestCase {
    /// The folder of kept inputs.
    private let inputs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Inputs")

    /// The kept inputs of `target`, sorted.
    private func kept(_ target: String) throws -> [String] {
        let dir = inputs.appendingPathComponent(target)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        return names.map { dir.appendingPathComponent($0).path }
    }

    /// Runs `tool` (built beside the plugin) on `files` with target `target`;
    /// returns its exit status and output.
    private func replay(_ tool: String, _ target: String, _ files: [String]) throws -> (Int32, String) {
        let dir = try XCTUnwrap(pluginDirectory(), "the build folder was not found")
        let path = dir + "/" + tool
        guard FileManager.default.isExecutableFile(atPath: path) else {
            XCTFail("\(path) is not built (swift build --build-tests builds it)")
            return (-1, "")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = files
        var env = ProcessInfo.processInfo.environment
        env["RLBARCODE_FUZZ_TARGET"] = target
        // Time budgets are for the fuzz builds; an unoptimised replay is slower.
        env["RLBARCODE_FUZZ_BUDGET_MS"] = "600000"
        env["RLBARCODE_FUZZ_OVERRUN"] = "record"
        env["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Checks that every kept input of `target` ran, one outcome line each.
    private func check(_ tool: String, _ target: String) throws {
        let files = try kept(target)
        XCTAssertFalse(files.isEmpty, "no kept inputs for \(target)")
        let (status, output) = try replay(tool, target, files)
        XCTAssertEqual(status, 0, "\(target): \(output.suffix(2000))")
        for file in files {
            XCTAssertTrue(output.contains(file + ": "), "\(target): no outcome for \(file)")
        }
    }

    /// Caps, sizes, strides, offsets, metas and memories per buffer.
    func testElementFramesInputs() throws { try check("rlbarcode-fuzz-element", "element-frames") }

    /// Properties, signals and state changes with frames flowing.
    func testElementPropsInputs() throws { try check("rlbarcode-fuzz-element", "element-props") }

    /// The scanner with every option on video-sized frames.
    func testScannerVideoInputs() throws { try check("rlbarcode-fuzz", "scanner-video") }
}
