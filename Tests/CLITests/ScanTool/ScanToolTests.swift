import Foundation
import XCTest

/// Runs `rlbarcode-scan` as a subprocess, as users and the corpus tool do.
final class ScanToolTests: XCTestCase {
    /// `--help` explains the options and the exit statuses, and exits 0.
    func testHelpExitsZero() throws {
        let result = try Env.run(try Env.cli(), ["--help"])
        XCTAssertEqual(result.status, 0, result.summary)
        for word in [
            "Usage: rlbarcode-scan", "--jsonl", "--symbologies", "--region", "--region-only",
            "--orientation", "--effort", "--threads", "--timing", "--version", "Exit status"
        ] {
            XCTAssertTrue(result.stdout.contains(word), "--help does not mention \(word)")
        }
    }

    /// `--version` prints the tool's name and version.
    func testVersion() throws {
        let result = try Env.run(try Env.cli(), ["--version"])
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertTrue(result.stdout.hasPrefix("rlbarcode-scan "), result.summary)
    }

    /// Wrong command lines exit 2 with a message, before scanning anything.
    func testUsageErrorsExitTwo() throws {
        let cli = try Env.cli()
        for args in [
            [], ["--bogus", "x.png"], ["--effort", "hard", "x.png"], ["--symbologies", "nope", "x.png"],
            ["--region", "0.5,0.5,0.9,0.9", "x.png"], ["--orientation", "sideways", "x.png"],
            ["--region-only", "x.png"], ["--effort"], ["--threads", "-1", "x.png"],
            ["--threads", "many", "x.png"]
        ] {
            let result = try Env.run(cli, args)
            XCTAssertEqual(result.status, 2, "\(args): \(result.summary)")
            XCTAssertFalse(result.stderr.isEmpty, "\(args): no message")
            XCTAssertTrue(result.stdout.isEmpty, "\(args): \(result.summary)")
        }
    }

    /// A missing file and an undecodable file are named on stderr, the exit
    /// status is 1, and the files between and after them are still scanned.
    func testUnreadableFilesAreReportedAndOthersScanned() throws {
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let picture = dir.appendingPathComponent("ean13.png")
        if Env.which("zint") != nil {
            try Env.zint(["-b", "13", "-d", "590123412345", "--scale=2"], to: picture)
        } else {
            let launch = try Env.require("gst-launch-1.0", "needed to make a picture when zint is missing")
            let made = try Env.run(
                launch,
                [
                    "-q", "videotestsrc", "num-buffers=1", "!", "pngenc", "!",
                    "filesink", "location=\(picture.path)"
                ])
            XCTAssertEqual(made.status, 0, made.summary)
        }
        let text = dir.appendingPathComponent("notes.txt")
        try "not a picture\n".write(to: text, atomically: true, encoding: .utf8)
        let missing = dir.appendingPathComponent("missing.png").path

        let result = try Env.run(try Env.cli(), ["--jsonl", missing, picture.path, text.path])
        XCTAssertEqual(result.status, 1, result.summary)
        XCTAssertTrue(result.stderr.contains(missing), "the missing file is not named: \(result.summary)")
        XCTAssertTrue(result.stderr.contains(text.path), "the text file is not named: \(result.summary)")
        XCTAssertFalse(result.stderr.contains(picture.path + ":"), "the picture was refused: \(result.summary)")
        for object in Env.jsonLines(result.stdout) {
            XCTAssertEqual(object["file"] as? String, picture.path)
        }
    }

    /// A zint EAN-13 picture decodes to one JSON line with the documented
    /// fields; the same at a width that leaves row padding (stride > width).
    func testEAN13PictureDecodesToJSONLine() throws {
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for scale in [2, 3] {
            let picture = dir.appendingPathComponent("ean13-x\(scale).png")
            try Env.zint(["-b", "13", "-d", "590123412345", "--scale=\(scale)"], to: picture)
            // the path is reported exactly as given, here relative to the working folder
            let result = try Env.run(try Env.cli(), ["--jsonl", picture.lastPathComponent], currentDirectory: dir)
            XCTAssertEqual(result.status, 0, result.summary)
            let objects = Env.jsonLines(result.stdout)
            let ean = objects.filter { $0["text"] as? String == "5901234123457" }
            XCTAssertEqual(ean.count, 1, "scale \(scale): expected one EAN-13 5901234123457: \(result.summary)")
            guard let code = ean.first else { continue }
            XCTAssertEqual(code["file"] as? String, picture.lastPathComponent)
            XCTAssertEqual(code["symbology"] as? String, "EAN-13")
            XCTAssertEqual(code["bytes"] as? String, Data("5901234123457".utf8).base64EncodedString())
            XCTAssertEqual(code["addon"] as? String, "", "no add-on in this picture")
            let corners = code["corners"] as? [Int] ?? []
            XCTAssertEqual(corners.count, 8, "corners: \(String(describing: code["corners"]))")
            XCTAssertNotNil(code["orientation"] as? Int)
            XCTAssertEqual(objects.count, 1, "only one code in the picture: \(result.stdout)")
        }
    }

    /// Pictures are scanned thoroughly by default: a code turned by 90
    /// degrees and a light-on-dark code are read without options.
    func testPicturesAreScannedThoroughlyByDefault() throws {
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let turned = dir.appendingPathComponent("turned.png"), inverted = dir.appendingPathComponent("inverted.png")
        try Env.zint(["-b", "13", "-d", "590123412345", "--scale=2", "--rotate=90"], to: turned)
        try Env.zint(["-b", "13", "-d", "590123412345", "--scale=2", "--fg=ffffff", "--bg=000000"], to: inverted)
        let result = try Env.run(try Env.cli(), ["--jsonl", turned.path, inverted.path])
        XCTAssertEqual(result.status, 0, result.summary)
        let objects = Env.jsonLines(result.stdout)
        for file in [turned.path, inverted.path] {
            XCTAssertTrue(
                objects.contains { $0["file"] as? String == file && $0["text"] as? String == "5901234123457" },
                "\(file) not read: \(result.summary)")
        }
    }

    /// `--symbologies`, `--region` and `--region-only` reach the engine.
    func testOptionsReachTheEngine() throws {
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // the code sits in the middle third of a wide picture
        let picture = dir.appendingPathComponent("wide.png")
        try Env.zint(["-b", "13", "-d", "590123412345", "--scale=2", "--whitesp=100"], to: picture)
        let cli = try Env.cli()
        /// The texts found with `args` added to the command line.
        func texts(_ args: [String]) throws -> [String] {
            let result = try Env.run(cli, ["--jsonl"] + args + [picture.path])
            XCTAssertEqual(result.status, 0, "\(args): \(result.summary)")
            return Env.jsonLines(result.stdout).compactMap { $0["text"] as? String }
        }
        XCTAssertEqual(try texts(["--symbologies", "ean-13"]), ["5901234123457"])
        XCTAssertEqual(try texts(["--symbologies", "upc-a+ean-8"]), [], "an EAN-13 is not a UPC-A or EAN-8")
        XCTAssertEqual(try texts(["--region", "0.25,0,0.5,1", "--region-only"]), ["5901234123457"])
        XCTAssertEqual(try texts(["--region", "0,0,0.12,1", "--region-only"]), [], "the code is outside the region")
        XCTAssertEqual(
            try texts(["--region=0,0,0.12,1"]), ["5901234123457"], "without --region-only the region is a hint")
    }

    /// `--threads 1` and `--threads 2` read the same codes with the same
    /// corners, in still pictures of linear and matrix codes and in the
    /// demo video (where the option becomes the element's `n-threads`).
    func testThreadsDoNotChangeWhatIsRead() throws {
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var paths: [String] = []
        for (name, args) in [
            ("ean13", ["-b", "13", "-d", "590123412345", "--scale=2"]),
            ("qr", ["-b", "58", "-d", "rlbarcode threads", "--scale=4"]),
            ("datamatrix", ["-b", "71", "-d", "rlbarcode threads", "--scale=4"]),
            ("aztec", ["-b", "92", "-d", "rlbarcode threads", "--scale=4"])
        ] {
            let picture = dir.appendingPathComponent("\(name).png")
            try Env.zint(args, to: picture)
            paths.append(picture.path)
        }
        let clip = Env.root.appendingPathComponent("pipelines/media/demo.mp4")
        if FileManager.default.fileExists(atPath: clip.path), (try? Env.pluginFolder()) != nil {
            paths.append(clip.path)
        }
        let cli = try Env.cli()
        var outputs: [String] = []
        for threads in ["1", "2"] {
            let result = try Env.run(cli, ["--jsonl", "--no-progress", "--threads", threads] + paths, timeout: 900)
            XCTAssertEqual(result.status, 0, result.summary)
            let lines = Env.jsonLines(result.stdout).map { o in
                ["file", "symbology", "text", "corners", "frame"].map { "\(o[$0] ?? "-")" }.joined(separator: " ")
            }
            XCTAssertEqual(
                Set(lines.filter { !$0.contains(".mp4") }.map { $0.split(separator: " ")[0] }).count, 4,
                "threads \(threads): every picture is read: \(result.summary)")
            outputs.append(lines.joined(separator: "\n"))
        }
        XCTAssertEqual(outputs[0], outputs[1])
    }

    /// An EAN-5 add-on is reported in the `addon` field of its EAN-13.
    func testAddOnIsReported() throws {
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let picture = dir.appendingPathComponent("addon.png")
        try Env.zint(["-b", "13", "-d", "978020137962+51299", "--scale=2"], to: picture)
        let result = try Env.run(try Env.cli(), ["--jsonl", picture.path])
        XCTAssertEqual(result.status, 0, result.summary)
        let objects = Env.jsonLines(result.stdout)
        XCTAssertEqual(objects.count, 1, "one code (the add-on is no code of its own): \(result.summary)")
        XCTAssertEqual(objects.first?["text"] as? String, "9780201379624")
        XCTAssertEqual(objects.first?["addon"] as? String, "51299", result.summary)
    }

    /// The readable form names the file, the symbology and the text.
    func testReadableOutput() throws {
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let picture = dir.appendingPathComponent("upca.png")
        try Env.zint(["-b", "34", "-d", "03600029145", "--scale=2"], to: picture)
        let result = try Env.run(try Env.cli(), [picture.path])
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertTrue(result.stdout.contains("\(picture.path): UPC-A 0036000291452"), result.summary)
    }

    /// Many pictures in one run: 120 small blank pictures in one process
    /// give nothing and exit 0 (the time per picture is printed; speed is
    /// measured by the benchmarks, not asserted here).
    func testManyPicturesInOneRun() throws {
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let blank = try blankPicture(in: dir)
        let paths = Array(repeating: blank.path, count: 120)
        let result = try Env.run(try Env.cli(), ["--jsonl"] + paths)
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(result.stdout, "", "a blank picture has no codes")
        let perPicture = result.seconds / Double(paths.count) * 1000
        print("rlbarcode-scan: \(String(format: "%.1f", perPicture)) ms per blank picture (incl. start-up)")
    }

    /// `--timing` ends the run with one line on standard error that counts
    /// the still pictures scanned (an unreadable file is not one) and gives
    /// their scan times; without it, no such line. The standard output is
    /// the same either way.
    func testTimingSummary() throws {
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let blank = try blankPicture(in: dir)
        let text = dir.appendingPathComponent("notes.txt")
        try "not a picture\n".write(to: text, atomically: true, encoding: .utf8)
        let paths = [blank.path, text.path, blank.path, blank.path]
        let timed = try Env.run(try Env.cli(), ["--jsonl", "--timing"] + paths)
        XCTAssertEqual(timed.status, 1, timed.summary)
        let lines = timed.stderr.split(separator: "\n").filter { $0.hasPrefix("rlbarcode-scan: timing: ") }
        XCTAssertEqual(lines.count, 1, timed.summary)
        let line = String(lines.first ?? "")
        XCTAssertTrue(line.hasPrefix("rlbarcode-scan: timing: 3 still pictures scanned, mean "), line)
        for word in [" ms, median ", " ms, slowest ", " ms a picture"] {
            XCTAssertTrue(line.contains(word), "\(word) missing: \(line)")
        }
        let plain = try Env.run(try Env.cli(), ["--jsonl"] + paths)
        XCTAssertFalse(plain.stderr.contains("timing: "), plain.summary)
        XCTAssertEqual(plain.stdout, timed.stdout)
        XCTAssertEqual(try Env.run(try Env.cli(), ["--timing=yes", blank.path]).status, 2)
    }

    /// The demo clip, scanned through the element, yields its codes with the
    /// video fields; nothing is reported that the clip does not contain.
    func testDemoVideoYieldsCodes() throws {
        _ = try Env.pluginFolder()
        let clip = Env.root.appendingPathComponent("pipelines/media/demo.mp4")
        let list = Env.root.appendingPathComponent("pipelines/media/demo-codes.txt")
        guard FileManager.default.fileExists(atPath: clip.path) else { throw XCTSkip("\(clip.path) is missing") }
        let expected = Set(
            try String(contentsOf: list, encoding: .utf8).split(separator: "\n")
                .filter { !$0.hasPrefix("#") }.compactMap {
                    $0.split(separator: "\t").dropFirst().first.map(String.init)
                })
        XCTAssertEqual(expected.count, 11, "demo-codes.txt lists eleven codes")

        let result = try Env.run(try Env.cli(), ["--jsonl", "--no-progress", clip.path], timeout: 900)
        XCTAssertEqual(result.status, 0, result.summary)
        let objects = Env.jsonLines(result.stdout)
        XCTAssertFalse(objects.isEmpty, "no codes reported: \(result.summary)")
        var found = Set<String>()
        for object in objects {
            let text = object["text"] as? String ?? ""
            XCTAssertTrue(expected.contains(text), "not in the clip: \(object)")
            found.insert(text)
            XCTAssertEqual(object["file"] as? String, clip.path)
            XCTAssertNotNil(object["frame"] as? Int, "no frame: \(object)")
            XCTAssertNotNil(object["pts"] as? Int, "no pts: \(object)")
        }
        print("demo.mp4: \(found.count) of \(expected.count) codes found, \(objects.count) reports")
        XCTAssertEqual(found, expected, "every code of the clip is read")
    }

    /// Options reach the element for video files: with `--symbologies
    /// ean-8+upc-e` only those two are reported from the demo clip.
    func testVideoOptionsReachTheElement() throws {
        _ = try Env.pluginFolder()
        let clip = Env.root.appendingPathComponent("pipelines/media/demo.mp4")
        guard FileManager.default.fileExists(atPath: clip.path) else { throw XCTSkip("\(clip.path) is missing") }
        let result = try Env.run(try Env.cli(), ["--jsonl", "--symbologies", "ean-8+upc-e", clip.path], timeout: 900)
        XCTAssertEqual(result.status, 0, result.summary)
        let kinds = Set(Env.jsonLines(result.stdout).compactMap { $0["symbology"] as? String })
        XCTAssertFalse(kinds.isEmpty, result.summary)
        XCTAssertTrue(kinds.isSubset(of: ["EAN-8", "UPC-E"]), "reported \(kinds)")
    }

    /// A video file with an unknown extension is recognised by its frame
    /// rate and length, and played through the element.
    func testVideoIsRecognisedWithoutExtension() throws {
        _ = try Env.pluginFolder()
        let clip = Env.root.appendingPathComponent("pipelines/media/demo.mp4")
        guard FileManager.default.fileExists(atPath: clip.path) else { throw XCTSkip("\(clip.path) is missing") }
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("clip.data")
        try FileManager.default.copyItem(at: clip, to: copy)
        let result = try Env.run(try Env.cli(), ["--jsonl", "--symbologies", "ean-8", copy.path], timeout: 900)
        XCTAssertEqual(result.status, 0, result.summary)
        let objects = Env.jsonLines(result.stdout)
        XCTAssertFalse(objects.isEmpty, result.summary)
        XCTAssertTrue(objects.allSatisfy { $0["frame"] is Int }, "not scanned as a video: \(result.stdout)")
    }

    /// A small blank PNG picture made in `dir` with GStreamer.
    private func blankPicture(in dir: URL) throws -> URL {
        let launch = try Env.require("gst-launch-1.0", "gstreamer1.0-tools")
        let blank = dir.appendingPathComponent("blank.png")
        let made = try Env.run(
            launch,
            [
                "-q", "videotestsrc", "pattern=white", "num-buffers=1", "!",
                "video/x-raw,width=160,height=120", "!", "pngenc", "!",
                "filesink", "location=\(blank.path)"
            ])
        XCTAssertEqual(made.status, 0, made.summary)
        return blank
    }
}
