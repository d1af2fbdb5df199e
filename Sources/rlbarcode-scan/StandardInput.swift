import Foundation

/// The PATH `-`: standard input, copied once into a temporary file so that
/// it can be probed, decoded and (for a video) seeked like any file.
final class StandardInput {
    /// The PATH word that names standard input.
    static let word = "-"

    /// The copy, once made.
    private var copy: String? = nil
    /// Why there is no copy, once that is known.
    private var problem: String? = nil

    /// The path of the copy of standard input, or why there is none: a
    /// terminal, an empty input, or a failure to write the copy. Read once;
    /// a second `-` gets the same copy.
    func path() -> Result<String, StandardInputError> {
        if let copy { return .success(copy) }
        if let problem { return .failure(StandardInputError(message: problem)) }
        switch makeCopy() {
        case .success(let path):
            copy = path
            return .success(path)
        case .failure(let error):
            problem = error.message
            return .failure(error)
        }
    }

    /// Copies standard input into a new temporary file, 1 MiB at a time.
    private func makeCopy() -> Result<String, StandardInputError> {
        if isatty(0) != 0 {
            return .failure(StandardInputError(message: "standard input is a terminal: pipe a picture or a video into it"))
        }
        var template = Array((NSTemporaryDirectory() + "/rlbarcode-scan-stdin-XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else {
            return .failure(StandardInputError(message: "cannot make a temporary file for standard input: "
                                               + systemError()))
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 {
                unlink(path)
                return .failure(StandardInputError(message: "cannot read standard input: " + systemError()))
            }
            if n == 0 { break }
            let written = buffer.withUnsafeBytes { writeAll(fd, $0.baseAddress!, n) }
            guard written else {
                unlink(path)
                return .failure(StandardInputError(message: "cannot copy standard input to \(path): "
                                                   + systemError()))
            }
            total += n
        }
        if total == 0 {
            unlink(path)
            return .failure(StandardInputError(message: "standard input is empty"))
        }
        return .success(path)
    }

    /// Writes `count` bytes to `fd`, retrying short writes.
    private func writeAll(_ fd: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Bool {
        var done = 0
        while done < count {
            let n = write(fd, base + done, count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// Removes the copy.
    func remove() {
        if let copy { unlink(copy) }
        copy = nil
    }
}

/// The text of the last system call's error (`errno`).
private func systemError() -> String { String(cString: strerror(errno)) }

/// Why standard input cannot be scanned.
struct StandardInputError: Error {
    /// A sentence naming the problem.
    let message: String
}
