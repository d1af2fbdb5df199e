import Foundation
import Subprocess
import XCTest

/// Runs the Python examples of README.md and docs/ELEMENT.md on the demo
/// clip, so that what users copy from the docs works.
final class ReadmeExampleTests: XCTestCase {
    /// The Python code block that follows the line starting with `lead` in
    /// `document` (a path from the package root).
    func pythonBlock(after lead: String, in document: String = "README.md") throws -> String {
        let readme = try String(contentsOf: Env.root.appendingPathComponent(document), encoding: .utf8)
        guard let start = readme.range(of: lead),
            let open = readme.range(of: "```python\n", range: start.upperBound..<readme.endIndex),
            let close = readme.range(of: "\n```", range: open.upperBound..<readme.endIndex)
        else {
            XCTFail("\(document) has no Python example after \"\(lead)\"")
            return ""
        }
        return String(readme[open.upperBound..<close.lowerBound])
    }

    /// Runs `code` with `/usr/bin/python3` on the demo clip (plus `extra`
    /// arguments) and returns its output.
    func runExample(_ code: String, _ extra: [String] = []) throws -> ProcessOutput {
        let python = URL(fileURLWithPath: "/usr/bin/python3")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw XCTSkip("/usr/bin/python3 is not installed")
        }
        let probe = try Env.run(
            python,
            [
                "-c",
                "import gi; gi.require_version('Gst', '1.0'); from gi.repository import Gst; import gi.overrides.Gst"
            ])
        if probe.status != 0 { throw XCTSkip("python3-gi and python3-gst-1.0 are needed: \(probe.stderr)") }
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("example.py")
        try code.write(to: script, atomically: true, encoding: .utf8)
        let clip = Env.root.appendingPathComponent("pipelines/media/demo.mp4")
        return try Env.run(
            python, [script.path, clip.path] + extra,
            environment: ["GST_PLUGIN_PATH": try Env.pluginFolder().path], timeout: 600)
    }

    func testMessageExamplePrintsTheDemoCodes() throws {
        let out = try runExample(try pythonBlock(after: "Reading the messages from Python"))
        XCTAssertEqual(out.status, 0, out.summary)
        XCTAssertTrue(out.stdout.contains("EAN-13 5901234123457"), out.summary)
    }

    func testSessionExampleReportsNewCodesAndTheSession() throws {
        let out = try runExample(
            try pythonBlock(after: "A Python application that follows a session", in: "docs/ELEMENT.md"))
        XCTAssertEqual(out.status, 0, out.summary)
        let lines = out.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("new code: EAN-13 5901234123457"), out.summary)
        // The session summary comes last: one line per code, each seen at least once.
        let summary = lines.filter { $0.hasSuffix("time(s)") }
        XCTAssertFalse(summary.isEmpty, out.summary)
        XCTAssertTrue(summary.contains { $0.hasPrefix("EAN-13 5901234123457 seen ") }, out.summary)
        XCTAssertEqual(Set(summary).count, summary.count, "each code once in the session")
    }

    /// The zbar migration example: a zbar application's handler prints a
    /// line per message with rlbarcode report=every-frame, as it does with
    /// zbar; every symbol zbar reads in the demo clip rlbarcode reports too.
    func testZbarHandlerWorksWithRlbarcode() throws {
        let code = try pythonBlock(after: "## Coming from the zbar element", in: "docs/ELEMENT.md")
        let ours = try runExample(code)
        XCTAssertEqual(ours.status, 0, ours.summary)
        /// The (type, symbol) pairs of the handler's lines `TIMESTAMP TYPE SYMBOL QUALITY`.
        func pairs(_ text: String) -> [(String, String)] {
            text.split(separator: "\n").compactMap { row in
                let w = row.split(separator: " ").map(String.init)
                guard w.count == 4, UInt64(w[0]) != nil, Int(w[3]) != nil else { return nil }
                return (w[1], w[2])
            }
        }
        let ourPairs = pairs(ours.stdout)
        XCTAssertGreaterThan(ourPairs.count, 300, "every-frame: a line per code and frame: \(ours.summary)")
        let ourSymbols = Set(ourPairs.map(\.1))
        let clipSymbols = Set(try ExampleTests.demoCodes().map { String($0.split(separator: " ")[1]) })
        XCTAssertEqual(ourSymbols, clipSymbols, ours.summary)
        XCTAssertTrue(ourPairs.contains { $0 == ("UPC-A", "0036000291452") }, ours.summary)
        guard Env.hasElement("zbar") else { throw XCTSkip("the zbar element is missing (gstreamer1.0-plugins-bad)") }
        let theirs = try runExample(code, ["zbar"])
        XCTAssertEqual(theirs.status, 0, theirs.summary)
        let theirSymbols = Set(pairs(theirs.stdout).map(\.1))
        XCTAssertFalse(theirSymbols.isEmpty, theirs.summary)
        XCTAssertTrue(theirSymbols.isSubset(of: ourSymbols), "zbar read \(theirSymbols.subtracting(ourSymbols))")
    }
}
