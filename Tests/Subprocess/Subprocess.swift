import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the programs the test targets drive (the tool, pipelines,
/// `corpus_eval.py`), one helper for every target.
public enum Subprocess {
    /// Runs a program to its end (or `timeout` seconds) and collects its
    /// output in files, so that a chatty program cannot block on a full
    /// pipe. `environment` is laid over this process's (a nil value removes
    /// the variable); `input`, when given, is the file read as standard
    /// input (else none). A program past its time is terminated, and killed
    /// `grace` seconds later if it still runs.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String?] = [:],
        currentDirectory: URL? = nil, input: URL? = nil, timeout: Double = 120, poll: Double = 0.01,
        grace: Double = 1
    ) throws -> ProcessOutput {
        let fm = FileManager.default
        let dir = fm.temporaryDirectory.appendingPathComponent("rlbarcode-tests-\(UUID().uuidString)")
        try fm.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? fm.removeItem(at: dir) }
        let outURL = dir.appendingPathComponent("stdout"), errURL = dir.appendingPathComponent("stderr")
        _ = fm.createFile(atPath: outURL.path, contents: nil)
        _ = fm.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)

        let process = makeProcess(executable, arguments, environment: environment)
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        process.standardOutput = out
        process.standardError = err
        let inputHandle = try input.map { try FileHandle(forReadingFrom: $0) }
        defer { try? inputHandle?.close() }
        process.standardInput = inputHandle ?? FileHandle.nullDevice
        let start = Date()
        try process.run()
        var timedOut = false
        while process.isRunning {
            if Date().timeIntervalSince(start) > timeout {
                timedOut = true
                process.terminate()
                Thread.sleep(forTimeInterval: grace)
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                break
            }
            Thread.sleep(forTimeInterval: poll)
        }
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(start)
        try out.close()
        try err.close()
        let stdout = String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self)
        let stderr = String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
        let status =
            process.terminationReason == .uncaughtSignal
            ? 128 + process.terminationStatus
            : process.terminationStatus
        return ProcessOutput(status: status, stdout: stdout, stderr: stderr, timedOut: timedOut, seconds: seconds)
    }

    /// A process for `executable` with `arguments`, in this process's
    /// environment with `environment` laid over it (nil removes a variable).
    public static func makeProcess(
        _ executable: URL, _ arguments: [String], environment: [String: String?]
    ) -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        return process
    }
}
