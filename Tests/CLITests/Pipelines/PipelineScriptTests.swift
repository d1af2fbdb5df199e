import Foundation
import Subprocess
import XCTest

/// Runs every example pipeline in pipelines/ and the demo-video maker.
final class PipelineScriptTests: XCTestCase {
    /// The example scripts, by name.
    static let scripts = [
        "demo.sh", "webcam-preview.sh", "scan-file.sh", "record-annotated.sh",
        "scan-stream.sh", "scan-region.sh", "overlay-labels.sh", "streams-bench.sh"
    ]
    /// The Python helpers in pipelines/, by name.
    static let pythonScripts = ["bench.py", "rtsp-serve.py"]

    /// The environment that points the scripts at the plugin under test and
    /// keeps them away from a display.
    func scriptEnvironment() throws -> [String: String] {
        _ = try Env.require("gst-launch-1.0", "gstreamer1.0-tools")
        let plugins = try Env.pluginFolder()
        return ["GST_PLUGIN_PATH": plugins.path, "SINK": "fakesink", "DISPLAY": "", "WAYLAND_DISPLAY": ""]
    }

    /// Runs `pipelines/NAME` with `args`.
    func runScript(_ name: String, _ args: [String], env: [String: String] = [:], timeout: Double = 900) throws
        -> ProcessOutput
    {
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
        let python = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".py") }
        XCTAssertEqual(
            Set(python), Set(Self.pythonScripts), "a Python script without a test, or a test without a script")
        for name in names + python {
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
        let result = try Env.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
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

    /// streams-bench.sh runs live streams through the element and prints a
    /// JSON row per stream count with the codes read of those shown.
    func testStreamsBenchScript() throws {
        let env = try scriptEnvironment()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw XCTSkip("/usr/bin/python3 is missing")
        }
        let result = try runScript(
            "streams-bench.sh",
            ["--elements", "rlbarcode", "--streams", "1", "--seconds", "2", "--size", "1280x720", "--frames", "2"],
            env: env, timeout: 300)
        XCTAssertEqual(result.status, 0, result.summary)
        let rows = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let row = try XCTUnwrap(rows.first { $0["streams"] as? Int == 1 }, result.summary)
        XCTAssertEqual(row["pushed"] as? Int, 60, "\(row)")
        XCTAssertEqual(row["codes"] as? String, "2/2", "both codes shown and read: \(row)")
        XCTAssertTrue(rows.contains { $0["largest-real-time-N"] != nil }, result.summary)
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
            let result = try Env.run(
                URL(fileURLWithPath: "/usr/bin/python3"),
                [script, "--out", dir.path, "--seconds", "1"], timeout: 600)
            if result.stderr.contains("Pillow is missing") { throw XCTSkip("python3-pil is missing") }
            XCTAssertEqual(result.status, 0, result.summary)
            let video = try Data(contentsOf: dir.appendingPathComponent("demo.mp4"))
            XCTAssertGreaterThan(video.count, 1000)
            let codes = try String(contentsOf: dir.appendingPathComponent("demo-codes.txt"), encoding: .utf8)
            XCTAssertEqual(codes.split(separator: "\n").filter { !$0.hasPrefix("#") }.count, 11, codes)
            digests.append(video)
        }
        XCTAssertEqual(digests.first, digests.last, "two runs made different files")
    }

    /// The lines of the scripts' output: `barcode TIME TYPE SYMBOL [+ADDON] id=N`,
    /// as (time, "TYPE SYMBOL[ +ADDON]").
    func barcodeLines(_ text: String) -> [(time: String, code: String)] {
        text.split(separator: "\n").compactMap { row in
            let w = row.split(separator: " ").map(String.init)
            guard w.first == "barcode", w.count >= 4 else { return nil }
            let code = w[2...].filter { !$0.hasPrefix("id=") }.joined(separator: " ")
            return (w[1], code)
        }
    }

    /// /usr/bin/python3 with PyGObject's GStreamer bindings, or a skip.
    func pythonWithGst(_ module: String = "Gst") throws -> URL {
        let python = URL(fileURLWithPath: "/usr/bin/python3")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw XCTSkip("/usr/bin/python3 is missing")
        }
        let probe = try Env.run(python, ["-c", "import gi; gi.require_version('\(module)', '1.0')"])
        if probe.status != 0 { throw XCTSkip("the \(module) typelib for python3-gi is missing: \(probe.stderr)") }
        return python
    }

    /// scan-stream.sh reads the demo clip from a local HTTP server
    /// (souphttpsrc, through uridecodebin) and prints its codes; property
    /// words reach the element. A word that is not a URI is a usage error.
    func testScanStreamOverHTTP() throws {
        let env = try scriptEnvironment()
        guard Env.hasElement("souphttpsrc") else { throw XCTSkip("souphttpsrc is missing (gstreamer1.0-plugins-good)") }
        let python = URL(fileURLWithPath: "/usr/bin/python3")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw XCTSkip("/usr/bin/python3 is missing")
        }
        let media = Env.root.appendingPathComponent("pipelines/media")
        let (server, port) = try Env.startServer(
            python,
            [
                "-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
                "--directory", media.path
            ],
            ready: "port ([0-9]+)")
        defer { Env.stop(server) }
        let result = try runScript(
            "scan-stream.sh", ["http://127.0.0.1:\(port)/demo.mp4", "symbologies=ean-8+upc-e"],
            env: env, timeout: 300)
        XCTAssertEqual(result.status, 0, result.summary)
        let codes = Set(barcodeLines(result.stdout).map(\.code))
        XCTAssertEqual(codes, ["EAN-8 96385074", "UPC-E 0012345000065"], result.summary)
        XCTAssertTrue(
            barcodeLines(result.stdout).contains { $0.time == "2.000s" && $0.code == "EAN-8 96385074" },
            "EAN-8 comes into view at 2 s: \(result.summary)")

        let notURI = try runScript("scan-stream.sh", [media.appendingPathComponent("demo.mp4").path], env: env)
        XCTAssertEqual(notURI.status, 2, notURI.summary)
        XCTAssertTrue(notURI.stderr.contains("not a URI"), notURI.summary)
    }

    /// rtsp-serve.py serves the demo clip over RTSP on loopback, and
    /// scan-stream.sh (rtspsrc) reads the codes in view at the start of it
    /// and stops after DURATION seconds.
    func testScanStreamOverRTSP() throws {
        var env = try scriptEnvironment()
        guard Env.hasElement("rtspsrc") else { throw XCTSkip("rtspsrc is missing (gstreamer1.0-plugins-good)") }
        let python = try pythonWithGst("GstRtspServer")
        let clip = Env.root.appendingPathComponent("pipelines/media/demo.mp4").path
        let (server, url) = try Env.startServer(
            python,
            [
                Env.root.appendingPathComponent("pipelines/rtsp-serve.py").path,
                clip, "--port", "0"
            ],
            ready: "rtsp://127\\.0\\.0\\.1:[0-9]+/stream",
            environment: ["GST_PLUGIN_PATH": env["GST_PLUGIN_PATH"] ?? ""])
        defer { Env.stop(server) }
        // Long enough for rtspsrc to fall back to TCP (after 5 s) where
        // RTP over UDP does not get through.
        env["DURATION"] = "10"
        let result = try runScript("scan-stream.sh", [url], env: env, timeout: 120)
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertLessThan(result.seconds, 30, "DURATION did not stop the stream")
        let codes = Set(barcodeLines(result.stdout).map(\.code))
        // In view during the first two seconds of the clip: an EAN-13 and a UPC-A.
        XCTAssertTrue(codes.isSuperset(of: ["EAN-13 5901234123457", "UPC-A 0036000291452"]), result.summary)
        // Nothing but the clip's codes.
        XCTAssertTrue(codes.isSubset(of: try ExampleTests.demoCodes()), result.summary)
    }

    /// scan-region.sh reports only codes inside the region: at the start of
    /// the clip the EAN-13 at the top left, not the UPC-A to the right that
    /// scan-file.sh reports at the same moment.
    func testScanRegionScript() throws {
        let env = try scriptEnvironment()
        let clip = Env.root.appendingPathComponent("pipelines/media/demo.mp4").path
        let region = try runScript("scan-region.sh", [clip, "0,0,0.45,0.6"], env: env)
        XCTAssertEqual(region.status, 0, region.summary)
        let atStart = barcodeLines(region.stdout).filter { $0.time == "0.000s" }.map(\.code)
        XCTAssertEqual(atStart, ["EAN-13 5901234123457"], region.summary)
        let whole = try runScript("scan-file.sh", [clip], env: env)
        XCTAssertEqual(whole.status, 0, whole.summary)
        XCTAssertTrue(
            barcodeLines(whole.stdout).contains { $0.time == "0.000s" && $0.code == "UPC-A 0036000291452" },
            "the UPC-A is in view at the start: \(whole.summary)")
        let bad = try runScript("scan-region.sh", [clip, "left-half"], env: env)
        XCTAssertEqual(bad.status, 2, bad.summary)
    }

    /// overlay-labels.sh writes a snapshot a second of the labelled video:
    /// the codes are still readable in them, and the labels change pixels
    /// compared with the same run without labels.
    func testOverlayLabelsScript() throws {
        let env = try scriptEnvironment()
        let clip = Env.root.appendingPathComponent("pipelines/media/demo.mp4").path
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let labelled = dir.appendingPathComponent("labelled"), plain = dir.appendingPathComponent("plain")
        let result = try runScript("overlay-labels.sh", [clip, labelled.path], env: env)
        XCTAssertEqual(result.status, 0, result.summary)
        let snapshots = try FileManager.default.contentsOfDirectory(atPath: labelled.path).filter {
            $0.hasSuffix(".png")
        }
        XCTAssertEqual(snapshots.count, 12, "one snapshot a second of a 12 s clip: \(snapshots.sorted())")
        XCTAssertTrue(barcodeLines(result.stdout).contains { $0.code == "EAN-13 9780201379624 +51299" }, result.summary)

        let first = labelled.appendingPathComponent("frame-00000.png")
        let read = try Env.run(try Env.cli(), ["--jsonl", first.path])
        XCTAssertEqual(read.status, 0, read.summary)
        let texts = Set(Env.jsonLines(read.stdout).compactMap { $0["text"] as? String })
        XCTAssertTrue(texts.isSuperset(of: ["5901234123457", "0036000291452"]), read.summary)

        var plainEnv = env
        plainEnv["EVERY"] = "5"
        let without = try runScript("overlay-labels.sh", [clip, plain.path, "draw-labels=false"], env: plainEnv)
        XCTAssertEqual(without.status, 0, without.summary)
        let plainFirst = try Data(contentsOf: plain.appendingPathComponent("frame-00000.png"))
        XCTAssertNotEqual(try Data(contentsOf: first), plainFirst, "draw-labels made no difference")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: plain.path).count, 3,
            "EVERY=5: snapshots at 0, 5 and 10 s of the 12 s clip")
    }
}
