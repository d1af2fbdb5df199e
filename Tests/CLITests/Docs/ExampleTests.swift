import Foundation
import Subprocess
import XCTest

/// Builds and runs the embedding examples in examples/ on the demo clip: the
/// Python (PyGObject) and C applications that read `barcode` messages and
/// the region-of-interest metadata from an appsink.
final class ExampleTests: XCTestCase {
    /// The demo clip, or a skip.
    func demoClip() throws -> URL {
        let clip = Env.root.appendingPathComponent("pipelines/media/demo.mp4")
        guard FileManager.default.fileExists(atPath: clip.path) else { throw XCTSkip("\(clip.path) is missing") }
        return clip
    }

    /// The codes demo-codes.txt lists, as "TYPE SYMBOL[ +ADDON]".
    static func demoCodes() throws -> Set<String> {
        let list = try String(
            contentsOf: Env.root.appendingPathComponent("pipelines/media/demo-codes.txt"),
            encoding: .utf8)
        var codes = Set<String>()
        for row in list.split(separator: "\n") where !row.hasPrefix("#") {
            let f = row.split(separator: "\t").map(String.init)
            guard f.count >= 3 else { continue }
            codes.insert("\(f[0]) \(f[1])" + (f[2] == "-" ? "" : " +\(f[2])"))
        }
        XCTAssertEqual(codes.count, 11, "demo-codes.txt lists eleven codes")
        return codes
    }

    /// One printed line of an example: `message 0.000s TYPE SYMBOL [+ADDON] id=N`
    /// or `meta    0.000s TYPE SYMBOL [+ADDON] id=N box=X,Y WxH`.
    struct Line: Hashable {
        var kind: String
        var time: String
        var code: String
        var id: Int
        var box: [Int]
    }

    /// Parses the examples' output; lines of another shape fail the test.
    func parse(_ text: String) -> (lines: [Line], frames: Int?) {
        var lines: [Line] = []
        var frames: Int? = nil
        for row in text.split(separator: "\n") {
            let words = row.split(separator: " ").map(String.init)
            if words.first == "frames", words.count == 2 { frames = Int(words[1]); continue }
            guard let kind = words.first, ["message", "meta"].contains(kind), words.count >= 5,
                let idWord = words.first(where: { $0.hasPrefix("id=") }), let id = Int(idWord.dropFirst(3)),
                let idIndex = words.firstIndex(of: idWord)
            else {
                XCTFail("unexpected line: \(row)")
                continue
            }
            let code = words[2..<idIndex].joined(separator: " ")
            var box: [Int] = []
            if let b = words.firstIndex(where: { $0.hasPrefix("box=") }), b + 1 < words.count {
                box = (words[b].dropFirst(4) + "," + words[b + 1])
                    .split(whereSeparator: { $0 == "," || $0 == "x" }).compactMap { Int($0) }
            }
            lines.append(Line(kind: kind, time: words[1], code: code, id: id, box: box))
        }
        return (lines, frames)
    }

    /// Checks an example's output on the demo clip: every code of the clip
    /// is announced by a message, every meta belongs to an announced id with
    /// the same code and lies inside the 1280x720 frame, every announced
    /// code has metas, and all 360 frames were seen.
    func checkDemoOutput(_ out: ProcessOutput, file: StaticString = #filePath, line: UInt = #line) throws -> Set<Line> {
        XCTAssertEqual(out.status, 0, out.summary, file: file, line: line)
        let (lines, frames) = parse(out.stdout)
        XCTAssertEqual(frames, 360, "frames: \(out.summary)", file: file, line: line)
        let messages = lines.filter { $0.kind == "message" }, metas = lines.filter { $0.kind == "meta" }
        XCTAssertEqual(
            Set(messages.map(\.code)), try Self.demoCodes(), "codes announced: \(out.summary)",
            file: file, line: line)
        let announced = Dictionary(messages.map { ($0.id, $0.code) }, uniquingKeysWith: { a, _ in a })
        /// The code without its add-on: a frame may show the main code while
        /// its add-on is not read in that frame.
        func main(_ code: String?) -> String? { code.map { String($0.split(separator: " +").first ?? "") } }
        let strays = metas.filter { main(announced[$0.id]) != main($0.code) }
        XCTAssertTrue(
            strays.isEmpty, "\(strays.count) metas of unannounced codes, e.g. \(strays.prefix(3))",
            file: file, line: line)
        let outside = metas.filter { m in
            m.box.count != 4 || m.box[2] <= 0 || m.box[3] <= 0 || m.box[0] + m.box[2] > 1280
                || m.box[1] + m.box[3] > 720
        }
        XCTAssertTrue(
            outside.isEmpty, "\(outside.count) boxes outside the frame, e.g. \(outside.prefix(3))",
            file: file, line: line)
        for (id, code) in announced {
            XCTAssertTrue(metas.contains { $0.id == id }, "no meta for \(code) id=\(id)", file: file, line: line)
        }
        XCTAssertFalse(out.stderr.contains("warning"), out.summary, file: file, line: line)
        return Set(lines)
    }

    /// examples/python/scan_appsink.py prints the demo clip's codes from the
    /// messages and from the region metas of the appsink's buffers.
    func testPythonAppsinkExample() throws {
        let python = URL(fileURLWithPath: "/usr/bin/python3")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw XCTSkip("/usr/bin/python3 is missing")
        }
        let probe = try Env.run(
            python, ["-c", "import gi; gi.require_version('GstVideo', '1.0'); gi.require_version('GstApp', '1.0')"])
        if probe.status != 0 {
            throw XCTSkip("python3-gi with the GstVideo and GstApp typelibs is needed: \(probe.stderr)")
        }
        let script = Env.root.appendingPathComponent("examples/python/scan_appsink.py")
        let out = try Env.run(
            python, [script.path, try demoClip().path],
            environment: ["GST_PLUGIN_PATH": try Env.pluginFolder().path], timeout: 600)
        _ = try checkDemoOutput(out)
        let usage = try Env.run(python, [script.path], environment: ["GST_PLUGIN_PATH": try Env.pluginFolder().path])
        XCTAssertEqual(usage.status, 2, usage.summary)
        XCTAssertTrue(usage.stderr.contains("Usage"), usage.summary)
    }

    /// examples/c/scan_appsink.c builds with gcc and pkg-config, prints the
    /// demo clip's codes, and agrees line for line with the Python example
    /// (the order of metas within a frame aside).
    func testCAppsinkExample() throws {
        let gcc = try Env.require("gcc", "apt-get install gcc")
        let pkgConfig = try Env.require("pkg-config", "apt-get install pkg-config")
        let flags = try Env.run(
            pkgConfig, ["--cflags", "--libs", "gstreamer-1.0", "gstreamer-video-1.0", "gstreamer-app-1.0"])
        guard flags.status == 0 else { throw XCTSkip("GStreamer development files are missing: \(flags.stderr)") }
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let exe = dir.appendingPathComponent("scan_appsink")
        let source = Env.root.appendingPathComponent("examples/c/scan_appsink.c")
        let words = flags.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        let build = try Env.run(gcc, ["-Wall", "-Wextra", "-Werror", "-o", exe.path, source.path] + words, timeout: 300)
        XCTAssertEqual(build.status, 0, build.summary)
        let plugins = try Env.pluginFolder().path
        let out = try Env.run(exe, [try demoClip().path], environment: ["GST_PLUGIN_PATH": plugins], timeout: 600)
        let cLines = try checkDemoOutput(out)

        let python = URL(fileURLWithPath: "/usr/bin/python3")
        if FileManager.default.isExecutableFile(atPath: python.path) {
            let script = Env.root.appendingPathComponent("examples/python/scan_appsink.py")
            let py = try Env.run(
                python, [script.path, try demoClip().path], environment: ["GST_PLUGIN_PATH": plugins],
                timeout: 600)
            if py.status == 0 {
                XCTAssertEqual(cLines, Set(parse(py.stdout).lines), "the C and Python examples disagree")
            }
        }
        // MAX_FRAMES stops early.
        let short = try Env.run(exe, [try demoClip().path, "5"], environment: ["GST_PLUGIN_PATH": plugins])
        XCTAssertEqual(short.status, 0, short.summary)
        XCTAssertEqual(parse(short.stdout).frames, 5, short.summary)
    }
}
