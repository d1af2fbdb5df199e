import Foundation
import XCTest

/// The output forms of `rlbarcode-scan`: CSV, annotated PNG pictures, the
/// progress bar on a terminal, and the help.
final class ScanToolOutputTests: XCTestCase {
    /// The rows of RFC 4180 CSV text (quoted fields with doubled quotes).
    func csvRows(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = ""
        var quoted = false, wasQuoted = false
        var chars = Array(text)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { field.append("\""); chars.removeFirst() } else { quoted = false }
                } else {
                    field.append(c)
                }
            } else if c == "\"" && field.isEmpty && !wasQuoted {
                quoted = true; wasQuoted = true
            } else if c == "," {
                row.append(field); field = ""; wasQuoted = false
            } else if c == "\n" {
                row.append(field); rows.append(row); row = []; field = ""; wasQuoted = false
            } else {
                field.append(c)
            }
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }

    /// `--csv` prints a header and one row per code with the same fields as
    /// `--jsonl`, quoting texts with commas and quotes.
    func testCSVMatchesJSONLines() throws {
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ean = dir.appendingPathComponent("ean.png"), qr = dir.appendingPathComponent("qr,1.png")
        try Env.zint(["-b", "13", "-d", "978020137962+51299", "--scale=2"], to: ean)
        try Env.zint(["-b", "58", "-d", "Hello, \"world\"", "--scale=3"], to: qr)
        let cli = try Env.cli()
        let csv = try Env.run(cli, ["--csv", ean.path, qr.path])
        XCTAssertEqual(csv.status, 0, csv.summary)
        let rows = csvRows(csv.stdout)
        let header = [
            "file", "symbology", "text", "bytes", "addon", "extended", "corners", "orientation", "frame",
            "pts", "id", "first_seen", "last_seen"
        ]
        XCTAssertEqual(rows.first, header, csv.summary)
        let records = rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
        XCTAssertTrue(rows.dropFirst().allSatisfy { $0.count == header.count }, csv.summary)

        let json = try Env.run(cli, ["--jsonl", ean.path, qr.path])
        XCTAssertEqual(json.status, 0, json.summary)
        let objects = Env.jsonLines(json.stdout)
        XCTAssertEqual(records.count, objects.count, "\(csv.stdout)\n\(json.stdout)")
        XCTAssertEqual(Set(records.compactMap { $0["text"] }), ["9780201379624", "Hello, \"world\""], csv.summary)
        for (record, object) in zip(records, objects) {
            XCTAssertEqual(record["file"], object["file"] as? String)
            XCTAssertEqual(record["symbology"], object["symbology"] as? String)
            XCTAssertEqual(record["text"], object["text"] as? String)
            XCTAssertEqual(record["bytes"], object["bytes"] as? String)
            XCTAssertEqual(record["addon"], object["addon"] as? String ?? "")
            XCTAssertEqual(
                record["corners"], (object["corners"] as? [Int] ?? []).map(String.init).joined(separator: " "))
            XCTAssertEqual(record["orientation"], (object["orientation"] as? Int).map(String.init) ?? "")
            XCTAssertEqual(record["frame"], "", "no frame for a picture")
        }

        let both = try Env.run(cli, ["--csv", "--jsonl", ean.path])
        XCTAssertEqual(both.status, 2, both.summary)
        XCTAssertTrue(both.stdout.isEmpty, both.summary)
    }

    /// `--csv` on the demo clip has the video columns filled.
    func testCSVOfAVideo() throws {
        _ = try Env.pluginFolder()
        let clip = Env.root.appendingPathComponent("pipelines/media/demo.mp4")
        let result = try Env.run(try Env.cli(), ["--csv", "--symbologies", "ean-8", clip.path], timeout: 600)
        XCTAssertEqual(result.status, 0, result.summary)
        let rows = csvRows(result.stdout)
        XCTAssertGreaterThan(rows.count, 1, result.summary)
        for row in rows.dropFirst() {
            XCTAssertEqual(row.count, 13, "\(row)")
            guard row.count == 13 else { continue }
            XCTAssertEqual(row[1], "EAN-8"); XCTAssertEqual(row[2], "96385074")
            XCTAssertNotNil(Int(row[8]), "frame: \(row)"); XCTAssertNotNil(Int(row[9]), "pts: \(row)")
            XCTAssertNotNil(Int(row[10]), "id: \(row)")
        }
    }

    /// The RGB pixels of a PNG (decoded with GStreamer), with its size.
    func rgb(of png: URL, in dir: URL) throws -> (pixels: [UInt8], width: Int, height: Int) {
        let launch = try Env.require("gst-launch-1.0", "gstreamer1.0-tools")
        let raw = dir.appendingPathComponent(png.lastPathComponent + ".rgb")
        let out = try Env.run(
            launch,
            [
                "-q", "filesrc", "location=\(png.path)", "!", "pngdec", "!", "videoconvert", "!",
                "video/x-raw,format=RGBx", "!", "filesink", "location=\(raw.path)"
            ])
        XCTAssertEqual(out.status, 0, out.summary)
        let probe = try Env.run(launch, ["-v", "filesrc", "location=\(png.path)", "!", "pngdec", "!", "fakesink"])
        let caps = probe.stdout
        guard let w = caps.range(of: #"width=\(int\)([0-9]+)"#, options: .regularExpression),
            let h = caps.range(of: #"height=\(int\)([0-9]+)"#, options: .regularExpression),
            let width = Int(caps[w].filter(\.isNumber)), let height = Int(caps[h].filter(\.isNumber))
        else {
            XCTFail("no size for \(png.path): \(probe.summary)")
            return ([], 0, 0)
        }
        return (Array(try Data(contentsOf: raw)), width, height)
    }

    /// `--annotate DIR` on still pictures writes NAME.png for each picture
    /// with codes, with green outlines along the reported corners; a
    /// picture without codes gets none, and the outlined code is still read.
    func testAnnotateStillPictures() throws {
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let picture = dir.appendingPathComponent("wide.png")
        try Env.zint(["-b", "13", "-d", "590123412345", "--scale=3", "--whitesp=40", "--vwhitesp=40"], to: picture)
        let launch = try Env.require("gst-launch-1.0", "gstreamer1.0-tools")
        let blank = dir.appendingPathComponent("blank.png")
        let made = try Env.run(
            launch,
            [
                "-q", "videotestsrc", "pattern=white", "num-buffers=1", "!",
                "video/x-raw,width=160,height=120", "!", "pngenc", "!", "filesink", "location=\(blank.path)"
            ])
        XCTAssertEqual(made.status, 0, made.summary)
        let out = dir.appendingPathComponent("annotated/sub")
        let result = try Env.run(try Env.cli(), ["--jsonl", "--annotate", out.path, picture.path, blank.path])
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path), ["wide.png"])
        guard let code = Env.jsonLines(result.stdout).first, let c = code["corners"] as? [Int], c.count == 8 else {
            return XCTFail("no code with corners: \(result.summary)")
        }
        let annotated = out.appendingPathComponent("wide.png")
        let (pixels, width, height) = try rgb(of: annotated, in: dir)
        XCTAssertEqual(pixels.count, width * height * 4)
        /// Whether a pixel near (x, y) is the outline's green.
        func greenNear(_ x: Int, _ y: Int) -> Bool {
            for yy in max(0, y - 2)...min(height - 1, y + 2) {
                for xx in max(0, x - 2)...min(width - 1, x + 2) {
                    let i = (yy * width + xx) * 4
                    if pixels[i] < 40 && pixels[i + 1] > 200 && pixels[i + 2] < 40 { return true }
                }
            }
            return false
        }
        for k in 0..<4 {
            let x0 = c[2 * k], y0 = c[2 * k + 1], x1 = c[(2 * k + 2) % 8], y1 = c[(2 * k + 3) % 8]
            XCTAssertTrue(greenNear((x0 + x1) / 2, (y0 + y1) / 2), "no outline on edge \(k) of \(c)")
        }
        let greens = stride(from: 0, to: pixels.count, by: 4).filter {
            pixels[$0] < 40 && pixels[$0 + 1] > 200 && pixels[$0 + 2] < 40
        }
        XCTAssertLessThan(greens.count, width * height / 4, "far more green than outlines")
        let again = try Env.run(try Env.cli(), ["--jsonl", annotated.path])
        XCTAssertEqual(
            Env.jsonLines(again.stdout).compactMap { $0["text"] as? String }, ["5901234123457"], again.summary)

        let notFolder = try Env.run(try Env.cli(), ["--annotate", picture.path, picture.path])
        XCTAssertEqual(notFolder.status, 2, notFolder.summary)
    }

    /// `--annotate DIR` on a video writes one PNG per frame in which a code
    /// was reported, named by the frame index, with the code drawn and readable.
    func testAnnotateVideo() throws {
        _ = try Env.pluginFolder()
        let clip = Env.root.appendingPathComponent("pipelines/media/demo.mp4")
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try Env.run(
            try Env.cli(), ["--jsonl", "--symbologies", "ean-8", "--annotate", dir.path, clip.path],
            timeout: 600)
        XCTAssertEqual(result.status, 0, result.summary)
        let frames = Set(Env.jsonLines(result.stdout).compactMap { $0["frame"] as? Int })
        XCTAssertFalse(frames.isEmpty, result.summary)
        let expected = Set(frames.map { String(format: "demo-frame%06d.png", $0) })
        let written = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
        XCTAssertEqual(written, expected)
        guard let first = written.sorted().first else { return }
        let read = try Env.run(
            try Env.cli(), ["--jsonl", "--symbologies", "ean-8", dir.appendingPathComponent(first).path])
        XCTAssertEqual(Env.jsonLines(read.stdout).compactMap { $0["text"] as? String }, ["96385074"], read.summary)
    }

    /// On a terminal, a video gets a progress bar on standard error (time
    /// played, a bar, the percentage); `--no-progress` gets none (nor does a
    /// standard error that is no terminal: every other test reads one).
    func testProgressBarOnTerminal() throws {
        _ = try Env.pluginFolder()
        let script = try Env.require("script", "bsdutils, to give the tool a terminal")
        let clip = Env.root.appendingPathComponent("pipelines/media/demo.mp4").path
        let cli = try Env.cli().path
        let plugins = try Env.pluginFolder().path
        let command = "GST_PLUGIN_PATH='\(plugins)' '\(cli)' --symbologies ean-8 '\(clip)'"
        let tty = try Env.run(script, ["-qfec", command, "/dev/null"], timeout: 600)
        XCTAssertEqual(tty.status, 0, tty.summary)
        XCTAssertTrue(tty.stdout.contains("%\u{1B}[K"), "no progress bar: \(tty.stdout.debugDescription.prefix(400))")
        XCTAssertTrue(tty.stdout.contains("[#"), "no bar: \(tty.stdout.debugDescription.prefix(400))")
        XCTAssertTrue(tty.stdout.contains("EAN-8 96385074"), tty.summary)

        let quiet = try Env.run(
            script,
            [
                "-qfec", command.replacingOccurrences(of: " --symbologies", with: " --no-progress --symbologies"),
                "/dev/null"
            ], timeout: 600)
        XCTAssertEqual(quiet.status, 0, quiet.summary)
        XCTAssertFalse(quiet.stdout.contains("[#"), "--no-progress drew a bar")
    }

    /// `--help` documents every option, the output formats with their
    /// fields, examples and the exit statuses.
    func testHelpIsComplete() throws {
        let result = try Env.run(try Env.cli(), ["--help"])
        XCTAssertEqual(result.status, 0, result.summary)
        for word in [
            "--csv", "--annotate DIR", "--no-progress", "JSON lines", "CSV", "first_seen",
            "Examples:", "Exit status", "  0  ", "  1  ", "  2  ", "  4  ", "GST_PLUGIN_PATH", "--max-pixels N",
            "symbology_id", "standard input", "\\x{1D}", "\\u{202E}"
        ] {
            XCTAssertTrue(result.stdout.contains(word), "--help does not mention \(word)")
        }
        let header =
            "file,symbology,text,bytes,addon,extended,corners,orientation,\n  frame,pts,id,first_seen,last_seen"
        XCTAssertTrue(result.stdout.contains(header), "--help does not show the CSV columns")
        XCTAssertLessThanOrEqual(
            result.stdout.split(separator: "\n").map(\.count).max() ?? 0, 80, "lines over 80 columns")
    }

    /// The readable output and standard error escape control characters
    /// (C0, DEL, C1), bidirectional controls and backslashes, in the text
    /// and in file names, each escape closed by a brace (U+0001 then "0" is
    /// `\x{1}0`, not `\x{10}`); `--jsonl` keeps both exactly.
    func testControlAndBidiCharactersAreEscaped() throws {
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = "A\u{1}0\u{202E}\u{85}\\B\u{7F}\n"
        let input = dir.appendingPathComponent("text.bin")
        try Data(text.utf8).write(to: input)
        let name = "q\nr\u{202E}\u{1B}[2J.png"
        let picture = dir.appendingPathComponent(name)
        try Env.zint(["-b", "58", "--binary", "--input=\(input.path)", "--scale=2"], to: picture)
        let cli = try Env.cli()

        let readable = try Env.run(cli, [name], currentDirectory: dir)
        XCTAssertEqual(readable.status, 0, readable.summary)
        XCTAssertTrue(
            readable.stdout.hasPrefix(
                "q\\x{A}r\\u{202E}\\x{1B}[2J.png: QR-Code A\\x{1}0\\u{202E}\\x{85}\\\\B\\x{7F}\\x{A} at "),
            readable.stdout.debugDescription)
        XCTAssertEqual(
            readable.stdout.filter { $0.isNewline }.count, 1, "one line: \(readable.stdout.debugDescription)")
        for scalar in readable.stdout.unicodeScalars.dropLast() {
            XCTAssertFalse(
                scalar.properties.generalCategory == .control || scalar.properties.isBidiControl,
                "raw U+\(String(scalar.value, radix: 16)) in \(readable.stdout.debugDescription)")
        }

        let json = try Env.run(cli, ["--jsonl", name], currentDirectory: dir)
        XCTAssertEqual(json.status, 0, json.summary)
        let object = Env.jsonLines(json.stdout).first
        XCTAssertEqual(object?["text"] as? String, text, json.stdout.debugDescription)
        XCTAssertEqual(object?["file"] as? String, name, json.stdout.debugDescription)
        XCTAssertEqual(object?["bytes"] as? String, Data(text.utf8).base64EncodedString())

        let missing = "gone\n\u{9B}31m.png"
        let message = try Env.run(cli, [missing])
        XCTAssertEqual(message.status, 1, message.summary)
        XCTAssertEqual(
            message.stderr, "rlbarcode-scan: gone\\x{A}\\x{9B}31m.png: no such file\n", message.stderr.debugDescription)
    }

    /// `--jsonl` lines carry the `barcode` message's fields under the
    /// documented keys, sorted: a still picture the ones that apply to it
    /// (no video keys, no nulls), a video frame all of them.
    func testJSONLinesCarryEveryField() throws {
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let picture = dir.appendingPathComponent("inverted.png")
        try Env.zint(["-b", "13", "-d", "590123412345", "--scale=2", "--fg=ffffff", "--bg=000000"], to: picture)
        let cli = try Env.cli()
        let still = try Env.run(cli, ["--jsonl", picture.path])
        XCTAssertEqual(still.status, 0, still.summary)
        let stillKeys = [
            "addon", "bytes", "corners", "extended", "file", "inverted", "mirrored", "orientation", "quality",
            "symbology", "symbology_id", "text"
        ]
        guard let line = still.stdout.split(separator: "\n").first, let code = Env.jsonLines(String(line)).first else {
            return XCTFail("no code: \(still.summary)")
        }
        XCTAssertEqual(code.keys.sorted(), stillKeys, still.stdout)
        XCTAssertEqual(keyOrder(String(line)), stillKeys, "keys in sorted order: \(line)")
        XCTAssertEqual(code["symbology_id"] as? String, "]E0")
        XCTAssertEqual(code["inverted"] as? Bool, true)
        XCTAssertEqual(code["mirrored"] as? Bool, false)
        XCTAssertEqual(code["addon"] as? String, "")
        XCTAssertEqual(code["extended"] as? String, "")
        XCTAssertTrue((0...100).contains(code["quality"] as? Int ?? -1), still.stdout)
        let again = try Env.run(cli, ["--jsonl", picture.path])
        XCTAssertEqual(again.stdout, still.stdout, "the same bytes each run")

        _ = try Env.pluginFolder()
        let upright = dir.appendingPathComponent("ean.png"), clip = dir.appendingPathComponent("clip.mkv")
        try Env.zint(["-b", "13", "-d", "590123412345", "--scale=2"], to: upright)
        try Env.clip(from: upright, frames: 10, to: clip)
        let video = try Env.run(cli, ["--jsonl", clip.path], timeout: 300)
        XCTAssertEqual(video.status, 0, video.summary)
        guard let first = video.stdout.split(separator: "\n").first, let seen = Env.jsonLines(String(first)).first
        else {
            return XCTFail("no code: \(video.summary)")
        }
        let videoKeys =
            (stillKeys + [
                "duration", "first_seen", "frame", "id", "last_seen", "new", "pts", "running_time",
                "stream_time"
            ]).sorted()
        XCTAssertEqual(seen.keys.sorted(), videoKeys, video.stdout)
        XCTAssertEqual(keyOrder(String(first)), videoKeys, "keys in sorted order: \(first)")
        XCTAssertEqual(seen["frame"] as? Int, 0)
        XCTAssertEqual(seen["pts"] as? Int, 0)
        XCTAssertEqual(seen["duration"] as? Int, 100_000_000, "10 fps")
        XCTAssertEqual(seen["new"] as? Bool, true)
        XCTAssertEqual(seen["inverted"] as? Bool, false)
        XCTAssertEqual(seen["symbology_id"] as? String, "]E0")
    }

    /// The top-level keys of a one-line JSON object, in the order written
    /// (for objects whose strings hold no `"`).
    func keyOrder(_ line: String) -> [String] {
        var keys: [String] = [], depth = 0, inString = false, current = "", afterKey = false
        for c in line {
            if inString {
                if c == "\"" { inString = false; afterKey = true } else { current.append(c) }
                continue
            }
            switch c {
            case "{", "[": depth += 1
            case "}", "]": depth -= 1
            case "\"": inString = true; current = ""
            case ":": if depth == 1 && afterKey { keys.append(current) }
            default: break
            }
            if c != "\"" { afterKey = false }
        }
        return keys
    }
}
