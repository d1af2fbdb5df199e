import Foundation
import Subprocess
#if canImport(Glibc)
    import Glibc
#endif
import XCTest

/// Paths and helpers shared by the CLI tests.
enum Env {
    /// The repository root (four levels above this file, `Tests/CLITests/Support/Env.swift`).
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The folder of the running test bundle, which SwiftPM fills with every
    /// product of the same build (the CLI and the plugin).
    static let productsFolder: URL? = {
        if let exe = Bundle.main.executableURL {
            let dir = exe.resolvingSymlinksInPath().deletingLastPathComponent()
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("rlbarcode-scan").path) { return dir }
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            let dir = bundle.bundleURL.deletingLastPathComponent()
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("rlbarcode-scan").path) { return dir }
        }
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
            // the test runner may live inside the .xctest folder
            for _ in 0..<4 {
                if FileManager.default.fileExists(atPath: dir.appendingPathComponent("rlbarcode-scan").path) {
                    return dir
                }
                dir = dir.deletingLastPathComponent()
            }
        }
        return nil
    }()

    /// The folder holding the binaries under test: `RLBARCODE_RELEASE_BIN`
    /// when set, else the products folder of this build.
    static var binFolder: URL? {
        if let dir = ProcessInfo.processInfo.environment["RLBARCODE_RELEASE_BIN"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        return productsFolder
    }

    /// Whether the binaries are a release build (given through the environment).
    static var isRelease: Bool {
        if let dir = ProcessInfo.processInfo.environment["RLBARCODE_RELEASE_BIN"], !dir.isEmpty { return true }
        return productsFolder?.path.contains("/release") ?? false
    }

    /// The CLI binary, or a skip.
    static func cli() throws -> URL {
        guard let dir = binFolder else {
            throw XCTSkip("rlbarcode-scan not found: set RLBARCODE_RELEASE_BIN to the folder that holds it")
        }
        let exe = dir.appendingPathComponent("rlbarcode-scan")
        guard FileManager.default.isExecutableFile(atPath: exe.path) else {
            throw XCTSkip("\(exe.path) does not exist: build it (swift build) or set RLBARCODE_RELEASE_BIN")
        }
        return exe
    }

    /// The folder with libgstrlbarcode.so, or a skip.
    static func pluginFolder() throws -> URL {
        guard let dir = binFolder,
            FileManager.default.fileExists(atPath: dir.appendingPathComponent("libgstrlbarcode.so").path)
        else {
            throw XCTSkip("libgstrlbarcode.so is not built next to the CLI (\(binFolder?.path ?? "no folder"))")
        }
        return dir
    }

    /// A program on PATH, or nil.
    static func which(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(dir)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// A program on PATH, or a skip naming it.
    static func require(_ name: String, _ why: String) throws -> URL {
        guard let url = which(name) else { throw XCTSkip("\(name) is not installed (\(why))") }
        return url
    }

    /// Whether gst-inspect-1.0 knows an element factory.
    static func hasElement(_ name: String) -> Bool {
        guard let inspect = which("gst-inspect-1.0") else { return false }
        return (try? run(inspect, ["--exists", name], timeout: 60).status) == 0
    }

    /// A fresh temporary folder.
    static func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("rlbarcode-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Runs a program to its end (or `timeout` seconds) and collects its output.
    /// `input`, when given, is the file read as standard input (else none).
    static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:],
        currentDirectory: URL? = nil, input: URL? = nil, timeout: Double = 120
    ) throws -> ProcessOutput {
        try Subprocess.run(
            executable, arguments, environment: environment.mapValues { Optional($0) },
            currentDirectory: currentDirectory, input: input, timeout: timeout)
    }

    /// A process for `executable` with `arguments`, in this process's
    /// environment with `environment` laid over it.
    static func makeProcess(_ executable: URL, _ arguments: [String], environment: [String: String]) -> Process {
        Subprocess.makeProcess(executable, arguments, environment: environment.mapValues { Optional($0) })
    }

    /// Starts a program in the background (standard output to a file) and
    /// waits until that output has a line matching `ready`, for a server that
    /// prints its address. Returns the process and the first match.
    /// The caller stops the process with ``stop(_:)``.
    static func startServer(
        _ executable: URL, _ arguments: [String], ready pattern: String,
        environment: [String: String] = [:], timeout: Double = 30
    ) throws -> (Process, String) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rlbarcode-server-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        let process = makeProcess(executable, arguments, environment: environment)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try? handle.close()
        defer { try? FileManager.default.removeItem(at: log) }
        let regex = try NSRegularExpression(pattern: pattern)
        let start = Date()
        while Date().timeIntervalSince(start) < timeout {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let m = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                let r = Range(m.range(at: m.numberOfRanges > 1 ? 1 : 0), in: text)
            {
                return (process, String(text[r]))
            }
            if !process.isRunning {
                throw ServerError(
                    message: "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) ended: \(text)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        stop(process)
        throw ServerError(
            message: "\(executable.lastPathComponent) did not print /\(pattern)/ within \(Int(timeout)) s: \(text)")
    }

    /// Stops a process started with ``startServer(_:_:ready:environment:timeout:)``.
    static func stop(_ process: Process) {
        guard process.isRunning else { return }
        process.terminate()
        for _ in 0..<100 where process.isRunning { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Draws a barcode PNG with zint (skips when zint is missing).
    static func zint(_ arguments: [String], to file: URL) throws {
        let zint = try require("zint", "apt-get install zint")
        let result = try run(zint, arguments + ["-o", file.path])
        guard result.status == 0 else { throw XCTSkip("zint failed: \(result.summary)") }
    }

    /// The JSON objects of `--jsonl` output (other lines are reported as failures).
    static func jsonLines(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [[String: Any]] {
        var objects: [[String: Any]] = []
        for row in text.split(separator: "\n") where !row.isEmpty {
            guard let data = row.data(using: .utf8),
                let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
            else {
                XCTFail("not a JSON object: \(row)", file: file, line: line)
                continue
            }
            objects.append(object)
        }
        return objects
    }

    /// Runs `gst-launch-1.0 -q` with `words` (skips when it is missing) and
    /// fails the test when it does not succeed.
    static func launch(_ words: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let launch = try require("gst-launch-1.0", "gstreamer1.0-tools")
        let result = try run(launch, ["-q"] + words)
        XCTAssertEqual(
            result.status, 0, "gst-launch-1.0 \(words.joined(separator: " ")): \(result.summary)",
            file: file, line: line)
    }

    /// Re-encodes a PNG as a JPEG.
    static func jpeg(from png: URL, to jpeg: URL) throws {
        try launch([
            "filesrc", "location=\(png.path)", "!", "pngdec", "!", "videoconvert", "!", "jpegenc", "quality=90",
            "!", "filesink", "location=\(jpeg.path)"
        ])
    }

    /// A clip of `frames` frames at 10 fps, each the PNG picture, as Motion
    /// JPEG in Matroska (or the container of `muxer`, with its options).
    static func clip(from png: URL, frames: Int, to clip: URL, muxer: [String] = ["matroskamux"]) throws {
        try launch(
            [
                "filesrc", "location=\(png.path)", "!", "pngdec", "!", "videoconvert", "!",
                "imagefreeze", "num-buffers=\(frames)", "!", "video/x-raw,framerate=10/1", "!", "jpegenc", "!"
            ] + muxer + ["!", "filesink", "location=\(clip.path)"])
    }

    /// A copy of `file` with only its first `fraction` of bytes, as a file
    /// is left when a copy or a download stops halfway.
    static func cut(_ file: URL, keeping fraction: Double, to copy: URL) throws {
        let data = try Data(contentsOf: file)
        try data.prefix(Int(Double(data.count) * fraction)).write(to: copy)
    }

    /// Runs a program to its end with its output discarded and returns its
    /// exit status and its peak resident memory in KiB.
    ///
    /// The program is started by a small python3 that reports its child's
    /// `ru_maxrss`: a program spawned straight from this process would count
    /// this process's own memory, which it shares until `exec`.
    static func peakMemory(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, kib: Int) {
        let python = try require("python3", "to measure a program's memory")
        let code = """
            import resource, subprocess, sys
            done = subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """
        let result = try run(python, ["-c", code, executable.path] + arguments)
        let words = result.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard result.status == 0, words.count == 2 else {
            throw ServerError(message: "cannot measure \(executable.lastPathComponent): \(result.summary)")
        }
        return (Int32(words[0]), words[1])
    }
}
