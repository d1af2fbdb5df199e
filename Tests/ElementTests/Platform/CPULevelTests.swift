import CGStreamer
import Foundation
import XCTest

/// The x86-64 level of the release build (scripts/swift-flags.sh) and the
/// check the plugin and the command-line tool make before running code of
/// that level (Sources/CGStreamer/cpu.h).
final class CPULevelTests: XCTestCase {
    static let script = packageRoot.appendingPathComponent("scripts/swift-flags.sh")

    /// Runs the script with RLBARCODE_CPU = `level`: its exit status, output and error output.
    func flags(_ level: String) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["bash", CPULevelTests.script.path]
        var environment = ProcessInfo.processInfo.environment
        environment["RLBARCODE_CPU"] = level
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    #if arch(x86_64)
        /// Each level's compiler options, and a clear error for an unknown one.
        func testLevelsGiveTheirCompilerOptions() throws {
            XCTAssertEqual(try flags("x86-64-v3").out, "-Xswiftc\n-target-cpu\n-Xswiftc\nhaswell\n")
            XCTAssertEqual(try flags("x86-64-v2").out, "-Xswiftc\n-target-cpu\n-Xswiftc\nnehalem\n")
            XCTAssertEqual(try flags("baseline").out, "")
            let bad = try flags("pentium")
            XCTAssertEqual(bad.status, 2)
            XCTAssertEqual(bad.out, "")
            XCTAssertTrue(bad.err.contains("unknown RLBARCODE_CPU 'pentium'"), bad.err)
        }

        /// The level a host build gets is the level the CPU check finds: a
        /// host build always runs where it was built, and gets all it can.
        func testAHostBuildTargetsTheLevelTheCheckFinds() throws {
            let host = try flags("host")
            XCTAssertEqual(host.status, 0, host.err)
            let built: UInt32 = host.out.contains("haswell") ? 3 : host.out.contains("nehalem") ? 2 : 1
            XCTAssertEqual(built, rlbarcode_x86_64_level(), "swift-flags.sh says \(host.out)")
        }

        /// A build runs on its level and above, and is refused below it (with
        /// a message on stderr); the baseline runs everywhere.
        func testLevelsRunOnTheirLevelAndAbove() {
            for needed: UInt32 in 0...3 {
                for have: UInt32 in 1...3 {
                    XCTAssertEqual(
                        rlbarcode_cpu_runs("CPULevelTests", needed, have), needed <= max(have, 1) ? 1 : 0,
                        "needed \(needed), have \(have)")
                }
            }
        }

        /// This build runs here (the tests' own build, of whatever level).
        func testThisBuildPassesTheCheck() {
            XCTAssertEqual(rlbarcode_cpu_check("CPULevelTests"), 1)
            XCTAssertLessThanOrEqual(rlbarcode_x86_64_level_needed(), rlbarcode_x86_64_level())
        }
    #else
        /// Other architectures: always the baseline.
        func testOtherArchitecturesGetTheBaseline() throws {
            XCTAssertEqual(try flags("host").out, "")
            XCTAssertEqual(try flags("x86-64-v3").out, "")
        }
    #endif
}
