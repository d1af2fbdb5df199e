import Foundation
import XCTest

/// The element as the standard GStreamer tools show it: `gst-inspect-1.0`
/// (`--exists`, every property documented), `gst-launch-1.0 -m` (the
/// `barcode` messages) and `GST_DEBUG` (warnings a user can act on).
final class GStreamerToolsTests: XCTestCase {
    /// The element's own properties, as the element spec names them.
    static let properties = [
        "symbologies", "active-region", "region-only", "orientation", "effort", "message",
        "report", "lost-after", "attach-meta", "attach-frame", "frame-clean", "frame-max-size",
        "draw", "draw-labels",
        "outline-color", "unwanted-color", "paused", "n-threads"
    ]
    /// The element's read-only counters.
    static let counters = ["frames-analysed", "frames-skipped", "frames-rejected"]

    /// The environment that finds the plugin under test.
    func environment() throws -> [String: String] {
        ["GST_PLUGIN_PATH": try Env.pluginFolder().path]
    }

    /// `gst-inspect-1.0 --exists --atleast-version=0.1` finds the element
    /// (and not a made-up one; without a version `--exists` asks for the
    /// plugin to be at least GStreamer's own version, 1.x);
    /// the inspection shows the klass, a long description with an example
    /// pipeline, and a blurb and a default for every property.
    func testInspect() throws {
        let inspect = try Env.require("gst-inspect-1.0", "gstreamer1.0-tools")
        let env = try environment()
        XCTAssertEqual(
            try Env.run(inspect, ["--exists", "--atleast-version=0.1", "rlbarcode"], environment: env).status, 0)
        XCTAssertNotEqual(
            try Env.run(inspect, ["--exists", "--atleast-version=0.1", "rlbarcodex"], environment: env).status, 0)
        let out = try Env.run(inspect, ["rlbarcode"], environment: env)
        XCTAssertEqual(out.status, 0, out.summary)
        XCTAssertTrue(out.stdout.contains("Filter/Analyzer/Video"), out.summary)
        guard let description = out.stdout.split(separator: "\n").first(where: { $0.contains("Description") }) else {
            return XCTFail("no description: \(out.summary)")
        }
        XCTAssertTrue(description.contains("Example: gst-launch-1.0"), String(description))
        for name in [
            "EAN-13", "UPC-A", "UPC-E", "EAN-8", "EAN-2", "EAN-5", "Code 128", "Code 39", "Code 93", "ITF",
            "Codabar", "DataBar", "Expanded", "QR Code", "Data Matrix", "PDF417", "Aztec", "barcode",
            "GstVideoRegionOfInterestMeta"
        ] {
            XCTAssertTrue(description.contains(name), "the description does not mention \(name)")
        }
        let lines = out.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for name in Self.properties + Self.counters {
            guard let i = lines.firstIndex(where: { $0.hasPrefix("  \(name) ") && $0.contains(" : ") }) else {
                XCTFail("gst-inspect shows no property \(name)")
                continue
            }
            let blurb = lines[i].components(separatedBy: " : ").last ?? ""
            XCTAssertGreaterThan(blurb.count, 15, "\(name) has no useful blurb: \(lines[i])")
            let block = lines[(i + 1)...].prefix { !$0.hasPrefix("  ") || $0.hasPrefix("   ") }
            XCTAssertTrue(block.contains { $0.contains("Default:") }, "\(name) shows no default")
            if Self.counters.contains(name) {
                XCTAssertTrue(
                    block.contains { $0.contains("flags: readable") && !$0.contains("writable") },
                    "\(name) is not read-only: \(block)")
            } else {
                XCTAssertTrue(
                    block.contains { $0.contains("changeable in NULL, READY, PAUSED or PLAYING state") },
                    "\(name) is not marked changeable while playing")
            }
        }
    }

    /// `gst-launch-1.0 -m` prints the `barcode` messages with zbar's fields
    /// and rlbarcode's, for the demo clip's EAN-8 at 2 s.
    func testLaunchPrintsMessages() throws {
        let launch = try Env.require("gst-launch-1.0", "gstreamer1.0-tools")
        let clip = Env.root.appendingPathComponent("pipelines/media/demo.mp4").path
        let out = try Env.run(
            launch,
            [
                "-m", "filesrc", "location=\(clip)", "!", "decodebin", "!", "videoconvert", "!",
                "rlbarcode", "symbologies=ean-8", "!", "fakesink"
            ], environment: try environment(),
            timeout: 300)
        XCTAssertEqual(out.status, 0, out.summary)
        let messages = out.stdout.split(separator: "\n").filter { $0.contains("(element): barcode, ") }
        XCTAssertFalse(messages.isEmpty, out.summary)
        guard let first = messages.first else { return }
        for field in [
            "timestamp=(guint64)2000000000", "stream-time=(guint64)", "running-time=(guint64)",
            "type=(string)EAN-8", "symbol=(string)96385074", "quality=(int)", "symbology-id=(string)",
            "corners=(int)<", "id=(uint)", "new=(boolean)true"
        ] {
            XCTAssertTrue(first.contains(field), "no \(field) in \(first)")
        }
    }

    /// A refused property value is named at GST_DEBUG=rlbarcode:2 with the
    /// reason and what happens instead, and the pipeline runs on.
    func testDebugWarningForARefusedValue() throws {
        let launch = try Env.require("gst-launch-1.0", "gstreamer1.0-tools")
        var env = try environment()
        env["GST_DEBUG"] = "rlbarcode:2"
        env["GST_DEBUG_NO_COLOR"] = "1"
        let out = try Env.run(
            launch,
            [
                "-q", "videotestsrc", "num-buffers=3", "!", "video/x-raw,width=160,height=120",
                "!", "rlbarcode", "active-region=0.5,0.5,0.9,0.9", "!", "fakesink"
            ], environment: env)
        XCTAssertEqual(out.status, 0, out.summary)
        let warnings = out.stderr.split(separator: "\n").filter { $0.contains("WARN") && $0.contains("rlbarcode") }
        XCTAssertTrue(
            warnings.contains { $0.contains("active-region") && $0.contains("keeping the old value") },
            "no actionable warning: \(out.summary)")
        env["GST_DEBUG"] = "rlbarcode:5"
        let debug = try Env.run(
            launch,
            [
                "-q", "videotestsrc", "num-buffers=3", "!", "video/x-raw,width=160,height=120",
                "!", "rlbarcode", "effort=fast", "!", "fakesink"
            ], environment: env)
        XCTAssertEqual(debug.status, 0, debug.summary)
        XCTAssertTrue(
            debug.stderr.contains("effort: balanced -> fast") || debug.stderr.contains("effort"),
            "property changes are not logged at level 5: \(debug.summary)")
        XCTAssertTrue(debug.stderr.contains("160x120"), "the negotiated size is not logged: \(debug.summary)")
    }
}
