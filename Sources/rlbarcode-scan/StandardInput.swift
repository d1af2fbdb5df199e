import Foundation

/// The PATH `-`: standard input, copied once into a temporary file so that
/// it can be probed, decoded and (for a video) seeked like any file. The
/// file is unlinked as soon as it is made and opened as `/proc/self/fd/N`,
/// so nothing is left behind however the tool ends.
final class StandardInput {
    /// The PATH word that names standard input.
    static let word = "-"

    /// The copy, once made: its path under /proc and its descriptor.
    private var copy: (path: String, fd: Int32)? = nil
    /// Why there is no copy, once that is known.
    private var problem: String? = nil

    /// The path of the copy of standard input, or why there is none: a
    /// terminal, an empty input, or a failure to write the copy. Read once;
    /// a second `-` gets the same copy.
    func path() -> Result<String, StandardInputError> {
        if let copy { return .success(copy.path) }
        if let problem { return .failure(StandardInputError(message: problem)) }
        switch makeCopy() {
        case .success(let made):
            copy = made
            return .success(made.path)
        case .failure(let error):
            problem = error.message
            return .failure(error)
        }
    }

    /// Copies standard input into a new, already unlinked temporary file,
    /// 1 MiB at a time.
    private func makeCopy() -> Result<(path: String, fd: Int32), StandardInputError> {
        if isatty(0) != 0 {
            return .failure(
                StandardInputError(message: "standard input is a terminal: pipe a picture or a video into it"))
        }
        var template = Array((NSTemporaryDirectory() + "/rlbarcode-scan-stdin-XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else {
            return .failure(
                StandardInputError(
                    message: "cannot make a temporary file for standard input: "
                        + systemError()))
        }
        unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 {
                close(fd)
                return .failure(StandardInputError(message: "cannot read standard input: " + systemError()))
            }
            if n == 0 { break }
            let written = buffer.withUnsafeBytes { writeAll(fd, $0.baseAddress!, n) }
            guard written else {
                let why = systemError()
                close(fd)
                return .failure(StandardInputError(message: "cannot copy standard input to a temporary file: " + why))
            }
            total += n
        }
        if total == 0 {
            close(fd)
            return .failure(StandardInputError(message: "standard input is empty"))
        }
        return .success(("/proc/self/fd/\(fd)", fd))
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

    /// Closes the copy (which frees it).
    func remove() {
        if let copy { close(copy.fd) }
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
