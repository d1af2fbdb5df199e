import Foundation

/// What a finished subprocess left behind.
struct ProcessOutput {
    /// The exit status (or 128 + signal when it was killed).
    var status: Int32
    /// Everything written to standard output.
    var stdout: String
    /// Everything written to standard error.
    var stderr: String
    /// Whether the time limit was reached and the process was stopped.
    var timedOut: Bool
    /// Wall-clock duration in seconds.
    var seconds: Double

    /// A summary for assertion messages.
    var summary: String {
        "status \(status)\(timedOut ? " (timed out)" : "")\n--- stdout:\n\(stdout.suffix(3000))\n--- stderr:\n\(stderr.suffix(3000))"
    }
}
