import Foundation
import XCTest

/// The element in a real pipeline (the demo clip: decoding, drawing,
/// attached frames, a message per code and frame) under GStreamer's leaks
/// tracer and under valgrind's memcheck: nothing of the project's is left
/// alive or lost at the end.
final class LeakTests: XCTestCase {
    /// The pipeline: the demo clip's first `frames` frames through the
    /// element with drawing, labels and a message per code and frame
    /// (`attach-frame` too when `attachFrame`; gst-launch -m prints each
    /// attached frame whole, too slow under valgrind).
    func pipeline(frames: Int, attachFrame: Bool) -> [String] {
        let clip = Env.root.appendingPathComponent("pipelines/media/demo.mp4").path
        return [
            "-m", "filesrc", "location=\(clip)", "!", "qtdemux", "!", "decodebin", "!", "videoconvert", "!",
            "video/x-raw,format=NV12", "!", "identity", "eos-after=\(frames)", "!",
            "rlbarcode", "draw=true", "draw-labels=true", "attach-frame=\(attachFrame)", "report=every-frame", "!",
            "fakesink"
        ]
    }

    /// An environment that finds the plugin, with a registry of its own
    /// built beforehand (so that valgrind does not watch a registry scan).
    func environment(_ dir: URL) throws -> [String: String] {
        let env = [
            "GST_PLUGIN_PATH": try Env.pluginFolder().path,
            "GST_REGISTRY": dir.appendingPathComponent("registry.bin").path
        ]
        let inspect = try Env.require("gst-inspect-1.0", "gstreamer1.0-tools")
        XCTAssertEqual(try Env.run(inspect, ["rlbarcode"], environment: env).status, 0)
        return env
    }

    /// `GST_TRACERS=leaks`: at exit no GStreamer object (buffer, caps,
    /// event, message, sample, meta structure) is still alive.
    func testLeaksTracerFindsNothingAlive() throws {
        let launch = try Env.require("gst-launch-1.0", "gstreamer1.0-tools")
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var env = try environment(dir)
        env["GST_TRACERS"] = "leaks"
        env["GST_DEBUG"] = "GST_TRACER:7"
        env["GST_DEBUG_NO_COLOR"] = "1"
        let out = try Env.run(launch, pipeline(frames: 40, attachFrame: true), environment: env, timeout: 300)
        XCTAssertEqual(out.status, 0, out.summary)
        XCTAssertTrue(out.stdout.contains("barcode"), "no barcode message: the element did not read: \(out.summary)")
        let alive = (out.stdout + out.stderr).split(separator: "\n")
            .filter { $0.contains("object-alive, type-name=(string)") && !$0.contains("(string)%s") }
        XCTAssertEqual(alive.count, 0, "objects left alive:\n" + alive.prefix(20).joined(separator: "\n"))
    }

    /// valgrind's memcheck: no block definitely lost was allocated by the
    /// plugin (the libraries that GStreamer loads lose some of their own,
    /// once, at start-up; those are not the project's).
    func testValgrindFindsNoDefiniteLeakOfThePlugin() throws {
        let launch = try Env.require("gst-launch-1.0", "gstreamer1.0-tools")
        let valgrind = try Env.require("valgrind", "valgrind")
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = try environment(dir)
        let out = try Env.run(
            valgrind,
            [
                "--leak-check=full", "--show-leak-kinds=definite", "--num-callers=40",
                launch.path
            ] + pipeline(frames: 12, attachFrame: false),
            environment: env, timeout: 1200)
        XCTAssertEqual(out.status, 0, out.summary)
        XCTAssertTrue(out.stdout.contains("barcode"), "no barcode message: the element did not read: \(out.summary)")
        XCTAssertTrue(
            out.stderr.contains("LEAK SUMMARY") || out.stderr.contains("All heap blocks were freed"),
            "valgrind printed no leak summary: \(out.summary)")
        // Each record: its heading line and the stack below it, up to the
        // next blank report line.
        var records: [[Substring]] = []
        for line in out.stderr.split(separator: "\n") {
            let text = line.drop { $0 != " " }
            if text.contains("definitely lost in loss record") {
                records.append([text])
            } else if !records.isEmpty, text.trimmingCharacters(in: .whitespaces).isEmpty == false,
                text.contains("at 0x") || text.contains("by 0x")
            {
                records[records.count - 1].append(text)
            }
        }
        let ours = records.filter { $0.contains { $0.contains("libgstrlbarcode") || $0.contains("RLBarcode") } }
        XCTAssertEqual(
            ours.count, 0,
            "blocks lost by the plugin:\n"
                + ours.prefix(5).map { $0.joined(separator: "\n") }.joined(separator: "\n\n"))
    }
}
