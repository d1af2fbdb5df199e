import Foundation

/// What a finished subprocess left behind.
public struct ProcessOutput: Sendable {
    /// The exit status (or 128 + signal when it was killed).
    public var status: Int32
    /// Everything written to standard output.
    public var stdout: String
    /// Everything written to standard error.
    public var stderr: String
    /// Whether the time limit was reached and the process was stopped.
    public var timedOut: Bool
    /// Wall-clock duration in seconds.
    public var seconds: Double

    /// A summary for assertion messages.
    public var summary: String {
        "status \(status)\(timedOut ? " (timed out)" : "")\n--- stdout:\n\(stdout.suffix(3000))\n--- stderr:\n\(stderr.suffix(3000))"
    }
}
