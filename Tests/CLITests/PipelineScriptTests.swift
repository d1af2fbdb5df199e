import Foundation
import XCTest

/// Runs every example pipeline in pipelines/ and the demo-video maker.
final class PipelineScriptTests: XCTestCase {
    /// The example scripts, by name.
    static let scripts = ["demo.sh", "webcam-preview.sh", "scan-file.sh", "record-annotated.sh"]

    /// The environment that points the scripts at the plugin under test and
    /// keeps them away from a display.
    func scriptEnvironment() throws -> [String: String] {
        _ = try Env.require("gst-launch-1.0", "gstreamer1.0-tools")
        let plugins = try Env.pluginFolder()
        return ["GST_PLUGIN_PATH": plugins.path, "SINK": "fakesink", "DISPLAY": "", "WAYLAND_DISPLAY": ""]
    }

    /// Runs `pipelines/NAME` with `args`.
    func runScript(_ name: String, _ args: [String], env: [String: String] = [:], timeout: Double = 900) throws -> ProcessOutput {
        let bash = try Env.require("bash", "needed for the scripts")
        let script = Env.root.appendingPathComponent("pipelines").appendingPathComponent(name)
        return try Env.run(bash, [script.path] + args, environment: env, timeout: timeout)
    }

    /// Every script in pipelines/ is executable, starts with a shebang and a
    /// header comment, and is covered by a test here.
    func testScriptsAreExecutableWithHeaders() throws {
        let dir = Env.root.appendingPathComponent("pipelines")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".sh") }
        XCTAssertEqual(Set(names), Set(Self.scripts), "a script without a test, or a test without a script")
        for name in names {
            let path = dir.appendingPathComponent(name).path
            XCTAssertTrue(FileManager.default.isExecutableFile(atPath: path), "\(name) is not executable")
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            XCTAssertTrue(lines.first?.hasPrefix("#!") ?? false, "\(name) has no shebang")
            XCTAssertTrue(lines.count > 2 && lines[1].hasPrefix("# "), "\(name) has no header comment")
        }
    }

    /// demo.sh plays the demo clip with outlines and writes an annotated MP4.
    func testDemoScript() throws {
        let env = try scriptEnvironment()
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("annotated.mp4")
        let result = try runScript("demo.sh", [out.path], env: env)
        XCTAssertEqual(result.status, 0, result.summary)
        let size = (try? FileManager.default.attributesOfItem(atPath: out.path)[.size] as? Int) ?? 0
        XCTAssertGreaterThan(size, 10_000, "no annotated video written")
        let lines = result.stdout.split(separator: "\n").filter { $0.hasPrefix("barcode ") }
        XCTAssertFalse(lines.isEmpty, "no barcode lines printed: \(result.summary)")
        XCTAssertTrue(result.stdout.contains("5901234123457"), result.summary)
    }

    /// webcam-preview.sh runs on the live test pattern for a few frames.
    func testWebcamPreviewWithTestSource() throws {
        var env = try scriptEnvironment()
        env["NUM_BUFFERS"] = "20"
        let result = try runScript("webcam-preview.sh", ["--test"], env: env, timeout: 300)
        XCTAssertEqual(result.status, 0, result.summary)
    }

    /// webcam-preview.sh also plays a file as if it came from a camera.
    func testWebcamPreviewWithFileSource() throws {
        var env = try scriptEnvironment()
        env["NUM_BUFFERS"] = "15"
        let clip = Env.root.appendingPathComponent("pipelines/media/demo.mp4").path
        let result = try runScript("webcam-preview.sh", ["--file", clip], env: env, timeout: 300)
        XCTAssertEqual(result.status, 0, result.summary)
    }

    /// scan-file.sh prints barcode lines for the demo clip; without a file it
    /// prints its usage and exits 2.
    func testScanFileScript() throws {
        let env = try scriptEnvironment()
        let clip = Env.root.appendingPathComponent("pipelines/media/demo.mp4").path
        let result = try runScript("scan-file.sh", [clip, "symbologies=ean-8"], env: env)
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertTrue(result.stdout.contains("EAN-8    96385074"), result.summary)
        XCTAssertFalse(result.stdout.contains("EAN-13"), "symbologies=ean-8 was not applied: \(result.stdout)")
        let usage = try runScript("scan-file.sh", [], env: env)
        XCTAssertEqual(usage.status, 2, usage.summary)
        XCTAssertTrue(usage.stdout.contains("Usage"), usage.summary)
    }

    /// record-annotated.sh writes an annotated MP4 of any input file.
    func testRecordAnnotatedScript() throws {
        let env = try scriptEnvironment()
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = Env.root.appendingPathComponent("pipelines/media/demo.mp4").path
        let out = dir.appendingPathComponent("rec.mp4")
        let result = try runScript("record-annotated.sh", [clip, out.path], env: env)
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.path), result.summary)
    }

    /// bench.py times rlbarcode beside the peer elements on the same raw
    /// frames and prints a row per element and size.
    func testBenchScript() throws {
        let env = try scriptEnvironment()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw XCTSkip("/usr/bin/python3 is missing")
        }
        let script = Env.root.appendingPathComponent("pipelines/bench.py")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: script.path), "bench.py is not executable")
        let result = try Env.run(URL(fileURLWithPath: "/usr/bin/python3"),
                                 [script.path, "--frames", "12", "--rounds", "1", "--sizes", "640x360,320x180"],
                                 environment: env, timeout: 600)
        XCTAssertEqual(result.status, 0, result.summary)
        let rows = result.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        for size in ["640x360", "320x180"] {
            guard let row = rows.first(where: { $0.count == 7 && $0[0] == "rlbarcode" && $0[1] == size }) else {
                XCTFail("no rlbarcode row for \(size): \(result.summary)")
                continue
            }
            XCTAssertGreaterThan(Double(row[2]) ?? 0, 0, "fps: \(row)")
            XCTAssertGreaterThan(Double(row[3]) ?? 0, 0, "median ms: \(row)")
            XCTAssertGreaterThanOrEqual(Double(row[4]) ?? 0, Double(row[3]) ?? 0, "p99 below the median: \(row)")
            XCTAssertEqual(row[6], "12", "frames: \(row)")
        }
        // The peers are rows too, timed or reported missing.
        for peer in ["zbar", "zxing"] {
            XCTAssertTrue(rows.contains { $0.first == peer }, "no \(peer) row: \(result.summary)")
        }
    }

    /// make-demo-video.py makes a short clip deterministically and lists its codes.
    func testDemoVideoMaker() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw XCTSkip("/usr/bin/python3 is missing")
        }
        _ = try Env.require("zint", "apt-get install zint")
        _ = try Env.require("gst-launch-1.0", "gstreamer1.0-tools")
        guard Env.hasElement("openh264enc") || Env.hasElement("x264enc") else {
            throw XCTSkip("no H.264 encoder (gstreamer1.0-plugins-bad)")
        }
        let script = Env.root.appendingPathComponent("scripts/make-demo-video.py").path
        var digests: [Data] = []
        for _ in 0..<2 {
            let dir = try Env.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: dir) }
            let result = try Env.run(URL(fileURLWithPath: "/usr/bin/python3"),
                                     [script, "--out", dir.path, "--seconds", "1"], timeout: 300)
            if result.stderr.contains("Pillow is missing") { throw XCTSkip("python3-pil is missing") }
            XCTAssertEqual(result.status, 0, result.summary)
            let video = try Data(contentsOf: dir.appendingPathComponent("demo.mp4"))
            XCTAssertGreaterThan(video.count, 1000)
            let codes = try String(contentsOf: dir.appendingPathComponent("demo-codes.txt"), encoding: .utf8)
            XCTAssertEqual(codes.split(separator: "\n").filter { !$0.hasPrefix("#") }.count, 5, codes)
            digests.append(video)
        }
        XCTAssertEqual(digests.first, digests.last, "two runs made different files")
    }
}
