import Foundation
import Subprocess
import XCTest

/// `rlbarcode-scan` given unlucky or hostile input: truncated pictures and
/// videos, standard input, pictures too large to decode.
final class ScanToolInputTests: XCTestCase {
    /// The texts of the `--jsonl` objects of `output` that name `file`.
    func texts(_ output: ProcessOutput, file: String) -> [String] {
        Env.jsonLines(output.stdout).filter { $0["file"] as? String == file }.compactMap { $0["text"] as? String }
    }

    /// An EAN-13 picture (5901234123457) drawn by zint in `dir`, as PNG and as JPEG.
    func eanPictures(in dir: URL) throws -> (png: URL, jpeg: URL) {
        let png = dir.appendingPathComponent("ean.png"), jpeg = dir.appendingPathComponent("ean.jpg")
        try Env.zint(["-b", "13", "-d", "590123412345", "--scale=2"], to: png)
        try Env.jpeg(from: png, to: jpeg)
        return (png, jpeg)
    }

    /// A JPEG cut in half still gives its code (the bars' upper half is
    /// there), with a warning naming the file and exit status 4; the whole
    /// JPEG gives the same code, no warning and status 0. A PNG cut in half
    /// cannot be decoded at all: status 1, and the message says it is cut.
    func testTruncatedPicturesWarn() throws {
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (png, jpeg) = try eanPictures(in: dir)
        let halfJPEG = dir.appendingPathComponent("half.jpg"), halfPNG = dir.appendingPathComponent("half.png")
        try Env.cut(jpeg, keeping: 0.5, to: halfJPEG)
        try Env.cut(png, keeping: 0.5, to: halfPNG)
        let cli = try Env.cli()

        let whole = try Env.run(cli, ["--jsonl", jpeg.path])
        XCTAssertEqual(whole.status, 0, whole.summary)
        XCTAssertEqual(texts(whole, file: jpeg.path), ["5901234123457"], whole.summary)
        XCTAssertFalse(whole.stderr.contains("warning"), whole.summary)

        let half = try Env.run(cli, ["--jsonl", halfJPEG.path])
        XCTAssertEqual(half.status, 4, half.summary)
        XCTAssertEqual(texts(half, file: halfJPEG.path), ["5901234123457"], "what was read is printed: \(half.summary)")
        XCTAssertTrue(half.stderr.contains("warning: \(halfJPEG.path): truncated"), half.summary)
        XCTAssertTrue(half.stderr.contains("end-of-image marker"), half.summary)

        let cutPNG = try Env.run(cli, ["--jsonl", halfPNG.path])
        XCTAssertEqual(cutPNG.status, 1, cutPNG.summary)
        XCTAssertTrue(cutPNG.stderr.contains("\(halfPNG.path): "), cutPNG.summary)
        XCTAssertTrue(cutPNG.stderr.contains("the PNG ends inside its IDAT chunk"), cutPNG.summary)

        // an unreadable file outweighs a damaged one; the others are still read
        let both = try Env.run(cli, ["--jsonl", halfJPEG.path, halfPNG.path, png.path])
        XCTAssertEqual(both.status, 1, both.summary)
        XCTAssertEqual(texts(both, file: png.path), ["5901234123457"], both.summary)
        XCTAssertEqual(texts(both, file: halfJPEG.path), ["5901234123457"], both.summary)
    }

    /// A Matroska clip and a QuickTime clip with its index first, cut
    /// halfway, play to the cut: the code of their first half is reported,
    /// with a warning and status 4; the whole clips give status 0 and no
    /// warning. An MP4 whose index (`moov`) was at its end cannot be played
    /// when cut: status 1, and the message says why.
    func testVideoCutHalfway() throws {
        _ = try Env.pluginFolder()
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (png, _) = try eanPictures(in: dir)
        let cli = try Env.cli()
        for (name, muxer, cause) in [
            ("clip.mkv", ["matroskamux"], "Segment"),
            ("clip.mov", ["qtmux", "faststart=true"], "the file ends inside its 'mdat' box")
        ] {
            let clip = dir.appendingPathComponent(name), half = dir.appendingPathComponent("half-" + name)
            try Env.clip(from: png, frames: 20, to: clip, muxer: muxer)
            try Env.cut(clip, keeping: 0.5, to: half)

            let whole = try Env.run(cli, ["--jsonl", clip.path], timeout: 300)
            XCTAssertEqual(whole.status, 0, whole.summary)
            XCTAssertEqual(texts(whole, file: clip.path), ["5901234123457"], whole.summary)
            XCTAssertFalse(whole.stderr.contains("warning"), whole.summary)

            let cut = try Env.run(cli, ["--jsonl", half.path], timeout: 300)
            XCTAssertEqual(cut.status, 4, cut.summary)
            XCTAssertEqual(texts(cut, file: half.path), ["5901234123457"], cut.summary)
            XCTAssertTrue(cut.stderr.contains("warning: \(half.path): truncated"), cut.summary)
            XCTAssertTrue(cut.stderr.contains(cause), cut.summary)
        }

        let demo = Env.root.appendingPathComponent("pipelines/media/demo.mp4")
        let halfDemo = dir.appendingPathComponent("demo-half.mp4")
        try Env.cut(demo, keeping: 0.5, to: halfDemo)
        let mp4 = try Env.run(cli, ["--jsonl", halfDemo.path], timeout: 300)
        XCTAssertEqual(mp4.status, 1, mp4.summary)
        XCTAssertTrue(mp4.stdout.isEmpty, mp4.summary)
        XCTAssertTrue(mp4.stderr.contains("the file ends inside its 'mdat' box"), mp4.summary)
    }

    /// A clip whose frames from the fifth on cannot be decoded (their JPEG
    /// frame headers say 0 lines) plays on: the code of the first frames is
    /// reported, the skipped frames are counted in a warning, status 4.
    func testUndecodableFramesWarn() throws {
        _ = try Env.pluginFolder()
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (png, _) = try eanPictures(in: dir)
        let clip = dir.appendingPathComponent("clip.mkv"), damaged = dir.appendingPathComponent("damaged.mkv")
        try Env.clip(from: png, frames: 12, to: clip)
        var data = [UInt8](try Data(contentsOf: clip))
        // each frame's SOF0 segment: FF C0, length 17, precision 8, lines, samples per line
        let frames = data.indices.dropLast(5).filter {
            data[$0] == 0xFF && data[$0 + 1] == 0xC0 && data[$0 + 2] == 0
                && data[$0 + 3] == 17 && data[$0 + 4] == 8
        }
        XCTAssertEqual(frames.count, 12)
        for sof in frames.dropFirst(4) { data[sof + 5] = 0; data[sof + 6] = 0 }
        try Data(data).write(to: damaged)

        let result = try Env.run(try Env.cli(), ["--jsonl", damaged.path], timeout: 300)
        XCTAssertEqual(result.status, 4, result.summary)
        XCTAssertEqual(texts(result, file: damaged.path), ["5901234123457"], result.summary)
        XCTAssertTrue(
            result.stderr.contains("warning: \(damaged.path): truncated or damaged: 8 frames could not be decoded"),
            result.summary)
    }

    /// `-` reads a picture from standard input, and a video too; the codes
    /// name the file "-". An empty standard input is an unreadable file.
    func testStandardInput() throws {
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (png, _) = try eanPictures(in: dir)
        let cli = try Env.cli()

        let scratch = dir.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let picture = try Env.run(cli, ["--jsonl", "-"], environment: ["TMPDIR": scratch.path], input: png)
        XCTAssertEqual(picture.status, 0, picture.summary)
        XCTAssertEqual(texts(picture, file: "-"), ["5901234123457"], picture.summary)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: scratch.path), [], "the copy is not left behind")
        // a second `-` is the same input, not an empty one
        let twice = try Env.run(cli, ["--jsonl", "-", "--", "-"], input: png)
        XCTAssertEqual(twice.status, 0, twice.summary)
        XCTAssertEqual(texts(twice, file: "-"), ["5901234123457", "5901234123457"], twice.summary)

        let empty = dir.appendingPathComponent("empty")
        _ = FileManager.default.createFile(atPath: empty.path, contents: Data())
        let none = try Env.run(cli, ["--jsonl", "-", png.path], input: empty)
        XCTAssertEqual(none.status, 1, none.summary)
        XCTAssertTrue(none.stderr.contains("-: standard input is empty"), none.summary)
        XCTAssertEqual(texts(none, file: png.path), ["5901234123457"], none.summary)

        _ = try Env.pluginFolder()
        let clip = dir.appendingPathComponent("clip.mkv")
        try Env.clip(from: png, frames: 10, to: clip)
        let video = try Env.run(cli, ["--jsonl", "-"], input: clip, timeout: 300)
        XCTAssertEqual(video.status, 0, video.summary)
        let objects = Env.jsonLines(video.stdout)
        XCTAssertEqual(objects.compactMap { $0["text"] as? String }, ["5901234123457"], video.summary)
        XCTAssertEqual(objects.first?["file"] as? String, "-")
        XCTAssertNotNil(objects.first?["frame"] as? Int, "read as a video: \(video.summary)")
    }

    /// `file` with the 16-bit or 32-bit big-endian integers at `offsets`
    /// set to `value`, written to `copy` (a header made to lie about its size).
    func patch(_ file: URL, at offsets: [Int], bytes: Int, value: UInt32, to copy: URL) throws {
        var data = try Data(contentsOf: file)
        for offset in offsets {
            for k in 0..<bytes { data[offset + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(bytes - 1 - k))) }
        }
        try data.write(to: copy)
    }

    /// Writes a real 20000x20000 grey PNG, white, to `file` (1.8 MB; 400 MB
    /// once decoded), with /usr/bin/python3's zlib.
    func hugePNG(_ file: URL) throws {
        let python = try Env.require("python3", "to write a large PNG")
        let code = """
            import struct, sys, zlib
            w = h = 20000
            def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
            z = zlib.compressobj(1); row = b'\\0' + b'\\xff' * w
            data = b''.join(z.compress(row) for _ in range(h)) + z.flush()
            header = struct.pack('>IIBBBBB', w, h, 8, 0, 0, 0, 0)
            png = b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', header) + chunk(b'IDAT', data) + chunk(b'IEND', b'')
            open(sys.argv[1], 'wb').write(png)
            """
        let made = try Env.run(python, ["-c", code, file.path])
        XCTAssertEqual(made.status, 0, made.summary)
    }

    /// The offset of a JPEG's first baseline frame header (SOF0) marker.
    func sof0(in jpeg: URL) throws -> Int? {
        let data = [UInt8](try Data(contentsOf: jpeg))
        return data.indices.dropLast().first { data[$0] == 0xFF && data[$0 + 1] == 0xC0 }
    }

    /// Pictures of 20000 by 20000 pixels (a real PNG, and a JPEG whose
    /// header says so) are refused before they are decoded (the tool stays
    /// small; decoding the PNG takes 450 MB), with a message naming the
    /// limit and status 1; `--max-pixels` lowers the limit for a real
    /// picture and 0 removes it; a picture format whose header the tool does
    /// not read (PNM) is refused once decoded.
    func testPixelLimit() throws {
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (png, jpeg) = try eanPictures(in: dir)
        let hugePNG = dir.appendingPathComponent("huge.png"), hugeJPEG = dir.appendingPathComponent("huge.jpg")
        try self.hugePNG(hugePNG)
        guard let sof = try sof0(in: jpeg) else { return XCTFail("no SOF0 in \(jpeg.path)") }
        try patch(jpeg, at: [sof + 5, sof + 7], bytes: 2, value: 20000, to: hugeJPEG)
        let cli = try Env.cli()

        for huge in [hugePNG, hugeJPEG] {
            let result = try Env.run(cli, ["--jsonl", huge.path, png.path])
            XCTAssertEqual(result.status, 1, result.summary)
            XCTAssertTrue(
                result.stderr.contains("\(huge.path): 20000x20000 pixels is more than the limit of 64000000"),
                result.summary)
            XCTAssertTrue(result.stderr.contains("not decoded"), result.summary)
            XCTAssertEqual(texts(result, file: png.path), ["5901234123457"], result.summary)
        }
        let memory = try Env.peakMemory(cli, [hugePNG.path])
        XCTAssertEqual(memory.status, 1)
        XCTAssertLessThan(memory.kib, 300 * 1024, "refusing a picture took \(memory.kib) KiB")

        let small = try Env.run(cli, ["--jsonl", "--max-pixels", "1000", png.path])
        XCTAssertEqual(small.status, 1, small.summary)
        XCTAssertTrue(small.stderr.contains("more than the limit of 1000 pixels"), small.summary)
        XCTAssertTrue(small.stdout.isEmpty, small.summary)
        for limit in ["0", "100000000"] {
            let raised = try Env.run(cli, ["--jsonl", "--max-pixels=\(limit)", png.path])
            XCTAssertEqual(raised.status, 0, raised.summary)
            XCTAssertEqual(texts(raised, file: png.path), ["5901234123457"], raised.summary)
        }
        let pnm = dir.appendingPathComponent("ean.pnm")
        try Env.launch([
            "filesrc", "location=\(png.path)", "!", "pngdec", "!", "videoconvert", "!",
            "video/x-raw,format=GRAY8", "!", "pnmenc", "!", "filesink", "location=\(pnm.path)"
        ])
        let decoded = try Env.run(cli, ["--jsonl", "--max-pixels", "1000", pnm.path])
        XCTAssertEqual(decoded.status, 1, decoded.summary)
        XCTAssertTrue(decoded.stderr.contains("more than the limit of 1000 pixels"), decoded.summary)
        let read = try Env.run(cli, ["--jsonl", pnm.path])
        XCTAssertEqual(texts(read, file: pnm.path), ["5901234123457"], read.summary)

        for bad in ["-1", "many", "1.5"] {
            let wrong = try Env.run(cli, ["--max-pixels", bad, png.path])
            XCTAssertEqual(wrong.status, 2, "\(bad): \(wrong.summary)")
        }
    }

    /// A PATH that is not valid UTF-8 gets a message showing its bytes
    /// (`\x{E9}`) and status 1, and the other files are still read.
    func testNameNotUTF8() throws {
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (png, _) = try eanPictures(in: dir)
        let sh = URL(fileURLWithPath: "/bin/sh")
        let cli = try Env.cli()
        // the shell makes the name's bytes (Process takes only UTF-8 words)
        let script = "cp \"$1\" \"$(printf 'caf\\351.png')\" && exec \"$2\" --jsonl \"$(printf 'caf\\351.png')\" \"$1\""
        let result = try Env.run(sh, ["-c", script, "sh", png.path, cli.path], currentDirectory: dir)
        XCTAssertEqual(result.status, 1, result.summary)
        XCTAssertTrue(
            result.stderr.contains("rlbarcode-scan: caf\\x{E9}.png: the name is not valid UTF-8"), result.summary)
        XCTAssertEqual(texts(result, file: png.path), ["5901234123457"], result.summary)
    }

    /// `--annotate` names standard input's picture stdin.png.
    func testAnnotateStandardInput() throws {
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (png, _) = try eanPictures(in: dir)
        let out = dir.appendingPathComponent("annotated")
        let result = try Env.run(try Env.cli(), ["--annotate", out.path, "-"], input: png)
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path), ["stdin.png"])
    }
}
