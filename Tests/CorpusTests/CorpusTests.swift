import Foundation
import Subprocess
#if canImport(Glibc)
    import Glibc
#endif
import XCTest

// Scores the release build on the shared corpus's folders of the
// symbologies it reads (EAN/UPC, the other linear ones, QR Code) with
// ../shared/tools/corpus_eval.py, through the command-line tool at every
// quarter turn and through the GStreamer element upright.
//
// Needs a release build: `swift build -c release --disable-local-rpath`
// (or RLBARCODE_RELEASE_BIN naming a folder with rlbarcode-scan and
// libgstrlbarcode.so), the corpus at ../shared/corpus and the tool at
// ../shared/tools/corpus_eval.py beside the package. Skips otherwise.

/// The smallest acceptable result for one symbology at each rotation.
struct Floor: Sendable {
    /// The MANIFEST symbology name (`EAN13`, `EANAddOn`, ...).
    var symbology: String
    /// How many of its images must be read at each rotation.
    var minOK: Int
    /// How many images the corpus folders hold for it.
    var images: Int
}

/// What the corpus tests check and where they find things.
enum Corpus {
    /// The package root, three levels above this file.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The shared corpus, beside the package.
    static let corpus = root.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    /// The scoring tool, beside the package.
    static let tool = root.deletingLastPathComponent().appendingPathComponent("shared/tools/corpus_eval.py")
    /// The interpreter the tool needs (it imports `gi` from the system packages).
    static let python = URL(fileURLWithPath: "/usr/bin/python3")

    /// The folders of the symbologies the engine reads and both
    /// falsepositives folders.
    static let folders = [
        "ean13-1", "ean13-2", "ean13-3", "ean13-4", "ean8-1",
        "upca-1", "upca-2", "upca-3", "upca-4", "upca-5",
        "upce-1", "upce-2", "upce-3",
        "ean13-extension-1", "upca-extension-1",
        "code128-1", "code128-2", "code128-3", "code39-1", "code39-2", "code39-3", "code93-1",
        "codabar-1", "codabar-2", "itf-1", "itf-2",
        "rss14-1", "rss14-2", "databarltd-1",
        "rssexpanded-1", "rssexpanded-2", "rssexpanded-3", "rssexpandedstacked-1", "rssexpandedstacked-2",
        "qrcode-1", "qrcode-2", "qrcode-3", "qrcode-4", "qrcode-5", "qrcode-6",
        "datamatrix-1", "datamatrix-2", "datamatrix-3", "datamatrix-4", "datamatrix-5", "aztec-1", "aztec-2",
        "pdf417-1", "pdf417-2", "pdf417-3",
        "falsepositives-1", "falsepositives-2"
    ]
    /// The rotations the command-line tool is scored at.
    static let rotations = [0, 90, 180, 270]
    /// The floors, each at every rotation.
    static let floors = [
        Floor(symbology: "EAN13", minOK: 61, images: 75),
        Floor(symbology: "UPCA", minOK: 65, images: 91),
        Floor(symbology: "UPCE", minOK: 28, images: 33),
        Floor(symbology: "EAN8", minOK: 7, images: 7),
        Floor(symbology: "EANAddOn", minOK: 7, images: 9),
        Floor(symbology: "Code128", minOK: 24, images: 24),
        Floor(symbology: "Code39", minOK: 17, images: 17),
        Floor(symbology: "Code93", minOK: 3, images: 3),
        Floor(symbology: "ITF", minOK: 16, images: 16),
        Floor(symbology: "Codabar", minOK: 12, images: 12),
        // DataBar with Limited: 16 of 18 together (15 + 2 read today).
        Floor(symbology: "DataBar", minOK: 14, images: 16),
        Floor(symbology: "DataBarLimited", minOK: 2, images: 2),
        Floor(symbology: "DataBarExpanded", minOK: 178, images: 178),
        Floor(symbology: "QRCode", minOK: 118, images: 129),
        Floor(symbology: "DataMatrix", minOK: 72, images: 74),
        Floor(symbology: "Aztec", minOK: 42, images: 42),
        Floor(symbology: "PDF417", minOK: 43, images: 44)
    ]
    /// Wrong readings allowed over all folders at each rotation.
    static let maxWrong = 0
    /// How far the element's rotation-0 total may be from the tool's.
    static let elementTolerance = 3
    /// Time limit for one corpus_eval.py run, in seconds (a run takes one
    /// or two minutes on two cores).
    static let runTimeout: Double = 20 * 60

    /// The folder with the release `rlbarcode-scan` and `libgstrlbarcode.so`.
    static var releaseFolder: URL {
        if let dir = ProcessInfo.processInfo.environment["RLBARCODE_RELEASE_BIN"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        return root.appendingPathComponent(".build/release")
    }

    /// Why the corpus tests cannot run here, or nil.
    static func missingPrerequisite(needPlugin: Bool) -> String? {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        if !fm.fileExists(atPath: corpus.path, isDirectory: &isDir) || !isDir.boolValue {
            return "the shared corpus is not at \(corpus.path) (it belongs beside the package, as ../shared/corpus)"
        }
        if !fm.fileExists(atPath: tool.path) {
            return "the scoring tool is not at \(tool.path) (it belongs beside the package, as ../shared/tools)"
        }
        if !fm.isExecutableFile(atPath: python.path) {
            return "\(python.path) is missing; corpus_eval.py needs the system Python with python3-gi"
        }
        let cli = releaseFolder.appendingPathComponent("rlbarcode-scan")
        if !fm.isExecutableFile(atPath: cli.path) {
            return "the release command-line tool is not built (\(cli.path) is missing): build it with "
                + "swift build -c release --disable-local-rpath, or set RLBARCODE_RELEASE_BIN to the folder "
                + "holding rlbarcode-scan and libgstrlbarcode.so"
        }
        if needPlugin {
            let plugin = releaseFolder.appendingPathComponent("libgstrlbarcode.so")
            if !fm.fileExists(atPath: plugin.path) {
                return "the release plugin is not built (\(plugin.path) is missing): build it with "
                    + "swift build -c release --disable-local-rpath, or set RLBARCODE_RELEASE_BIN"
            }
        }
        return nil
    }

    /// A word for the tool's `--cli "COMMAND WORDS"`, which it splits like a shell.
    static func shellQuoted(_ word: String) -> String {
        let plain = word.allSatisfy { $0.isLetter || $0.isNumber || "/._-+=:,@%".contains($0) }
        if plain && !word.isEmpty { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// One row of the tool's per-symbology table (folder `*`).
struct SymbologyRow: Sendable {
    var symbology: String
    /// `0`, `90`, ... or `*` for all rotations together.
    var rotation: String
    var images: Int
    var ok: Int
    var wrong: Int
    var miss: Int
    var crash: Int
    /// The row as the tool printed it.
    var line: String
}

/// The parsed output of one corpus_eval.py run.
struct EvalRun: Sendable {
    /// The command line, for messages.
    var command: String
    var status: Int32
    var timedOut: Bool
    var seconds: Double
    var stdout: String
    var stderr: String
    /// The per-symbology rows (folder `*`).
    var rows: [SymbologyRow] = []
    /// The `TOTAL ...` line.
    var totalLine: String?
    /// `false_alarms=` of the TOTAL line.
    var falseAlarms: Int?
    /// `crashes=` of the TOTAL line.
    var crashes: Int?
    /// The `# element: ...` set-up line (element mode).
    var elementLine: String?

    init(command: String, output: ProcessResult) {
        self.command = command
        status = output.status
        timedOut = output.timedOut
        seconds = output.seconds
        stdout = output.stdout
        stderr = output.stderr
        for line in output.stdout.split(separator: "\n").map(String.init) {
            if line.hasPrefix("TOTAL ") {
                totalLine = line
                falseAlarms = EvalRun.number(after: "false_alarms=", in: line)
                crashes = EvalRun.number(after: "crashes=", in: line)
            } else if line.hasPrefix("# element:") {
                elementLine = line
            } else if line.hasPrefix("*\t") {
                let c = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                guard c.count >= 9, let images = Int(c[3]), let ok = Int(c[4]), let wrong = Int(c[5]),
                    let miss = Int(c[6]), let crash = Int(c[7])
                else { continue }
                rows.append(
                    SymbologyRow(
                        symbology: c[1], rotation: c[2], images: images, ok: ok, wrong: wrong,
                        miss: miss, crash: crash, line: line))
            }
        }
    }

    /// The integer that follows `key` in `line`.
    static func number(after key: String, in line: String) -> Int? {
        guard let range = line.range(of: key) else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }

    /// The per-symbology row for one rotation.
    func row(_ symbology: String, rotation: Int) -> SymbologyRow? {
        rows.first { $0.symbology == symbology && $0.rotation == String(rotation) }
    }

    /// Images with a barcode read at `rotation` (every symbology but `None`).
    func okTotal(rotation: Int) -> Int? {
        let r = rows.filter { $0.rotation == String(rotation) && $0.symbology != "None" }
        return r.isEmpty ? nil : r.reduce(0) { $0 + $1.ok }
    }

    /// The per-symbology table with its header, for failure messages.
    var table: String {
        (["folder\tsymbology\trotation\timages\tok\twrong\tmiss\tcrash\tok_pct"] + rows.map(\.line)
            + [totalLine ?? "(no TOTAL line)"]).joined(separator: "\n")
    }

    /// Why the run cannot be scored, or nil when it produced a full table.
    var problem: String? {
        if timedOut { return "corpus_eval.py ran past \(Int(Corpus.runTimeout)) s and was stopped" }
        // 1 only means that a --min-rate style check failed; the tests don't pass any.
        if status != 0 && status != 1 { return "corpus_eval.py exited with status \(status)" }
        if totalLine == nil || rows.isEmpty { return "corpus_eval.py printed no result table" }
        return nil
    }

    /// Everything about the run, for failure messages.
    var details: String {
        "\(command)\nstatus \(status)\(timedOut ? " (timed out)" : ""), \(String(format: "%.0f", seconds)) s\n"
            + "--- stdout (end):\n\(stdout.suffix(6000))\n--- stderr (end):\n\(stderr.suffix(3000))"
    }
}

/// A finished subprocess.
typealias ProcessResult = ProcessOutput

/// Runs a program to its end (or `timeout` seconds) in the corpus folder.
func runProcess(
    _ executable: URL, _ arguments: [String], environment: [String: String?] = [:],
    timeout: Double
) throws -> ProcessResult {
    try Subprocess.run(
        executable, arguments, environment: environment, currentDirectory: Corpus.root, timeout: timeout,
        poll: 0.1, grace: 5)
}

/// Runs corpus_eval.py on the corpus folders of ``Corpus/folders``.
func corpusEval(_ mode: [String], rotations: [Int]) -> Result<EvalRun, CorpusTestError> {
    let arguments =
        [Corpus.tool.path, Corpus.corpus.path] + mode + [
            "--folders", Corpus.folders.joined(separator: ","),
            "--rotate", rotations.map(String.init).joined(separator: ","),
            "--jobs", "2", "-q"
        ]
    let command = ([Corpus.python.path] + arguments).map(Corpus.shellQuoted).joined(separator: " ")
    do {
        // GST_PLUGIN_PATH is left out so that only the release plugin is found
        // (--plugin-path puts it first); the element tests set it in this process.
        let output = try runProcess(
            Corpus.python, arguments, environment: ["GST_PLUGIN_PATH": nil],
            timeout: Corpus.runTimeout)
        return .success(EvalRun(command: command, output: output))
    } catch {
        return .failure(CorpusTestError(message: "cannot run \(command): \(error)"))
    }
}

/// A run that could not happen.
struct CorpusTestError: Error, Sendable, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// The command-line tool's run at every rotation, made once and shared by
/// both tests (the element test compares with its rotation-0 numbers).
let cliRun: Result<EvalRun, CorpusTestError> = {
    let cli = Corpus.releaseFolder.appendingPathComponent("rlbarcode-scan").path
    return corpusEval(["--cli", Corpus.shellQuoted(cli)], rotations: Corpus.rotations)
}()

final class CorpusTests: XCTestCase {
    /// The release command-line tool reads enough of every symbology at 0,
    /// 90, 180 and 270 degrees, misreads nothing and reads nothing on the
    /// falsepositives images.
    func testCLIMeetsFloorsAtEveryRotation() throws {
        if let why = Corpus.missingPrerequisite(needPlugin: false) { throw XCTSkip(why) }
        let run = try cliRun.get()
        print(
            "corpus_eval.py --cli (rotations \(Corpus.rotations.map(String.init).joined(separator: ","))), "
                + "\(String(format: "%.0f", run.seconds)) s: \(run.totalLine ?? "no TOTAL line")")
        if let problem = run.problem {
            XCTFail("\(problem)\n\(run.details)")
            return
        }

        var failures: [String] = []
        for floor in Corpus.floors {
            for rotation in Corpus.rotations {
                guard let row = run.row(floor.symbology, rotation: rotation) else {
                    failures.append("\(floor.symbology) at \(rotation) deg: no row in the table")
                    continue
                }
                if row.images != floor.images {
                    failures.append(
                        "\(floor.symbology) at \(rotation) deg: \(row.images) images, expected "
                            + "\(floor.images) (has the corpus or the folder list changed?)")
                }
                if row.ok < floor.minOK {
                    failures.append(
                        "\(floor.symbology) at \(rotation) deg: \(row.ok) of \(row.images) read, "
                            + "needs at least \(floor.minOK)")
                }
                if row.wrong > Corpus.maxWrong {
                    failures.append("\(floor.symbology) at \(rotation) deg: \(row.wrong) misread")
                }
            }
        }
        if run.falseAlarms != 0 {
            failures.append(
                "\(run.falseAlarms.map(String.init) ?? "?") false alarm(s) on the falsepositives "
                    + "images, needs 0")
        }
        if !failures.isEmpty {
            XCTFail(
                failures.joined(separator: "\n") + "\n\nper-symbology rows:\n" + run.table
                    + "\n\ncommand: \(run.command)")
        }
    }

    /// The release element, fed the same images upright through
    /// `filesrc ! decodebin ! videoconvert ! rlbarcode`, reads as many as the
    /// command-line tool (within a few) and raises no false alarm.
    func testElementMatchesCLIAtRotationZero() throws {
        if let why = Corpus.missingPrerequisite(needPlugin: true) { throw XCTSkip(why) }
        let cli = try cliRun.get()
        if let problem = cli.problem {
            XCTFail("the command-line run to compare with failed: \(problem)\n\(cli.details)")
            return
        }
        guard let cliOK = cli.okTotal(rotation: 0) else {
            XCTFail("the command-line run has no rotation-0 rows\n\(cli.table)")
            return
        }

        let plugin = Corpus.releaseFolder.path
        let run = try corpusEval(["--element", "rlbarcode", "--plugin-path", plugin], rotations: [0]).get()
        print(
            "corpus_eval.py --element rlbarcode (rotation 0), \(String(format: "%.0f", run.seconds)) s: "
                + "\(run.totalLine ?? "no TOTAL line")")
        if let line = run.elementLine { print(line) }
        if let problem = run.problem {
            XCTFail("\(problem)\n\(run.details)")
            return
        }
        guard let elementOK = run.okTotal(rotation: 0) else {
            XCTFail("the element run has no rotation-0 rows\n\(run.table)")
            return
        }
        print("rotation 0: element ok=\(elementOK), command-line tool ok=\(cliOK)")

        if abs(elementOK - cliOK) > Corpus.elementTolerance {
            XCTFail(
                "at rotation 0 the element read \(elementOK) images and the command-line tool \(cliOK); "
                    + "they may differ by at most \(Corpus.elementTolerance)\n\nelement rows:\n\(run.table)"
                    + "\n\ncommand-line rows (rotation 0):\n"
                    + cli.rows.filter { $0.rotation == "0" }.map(\.line).joined(separator: "\n")
                    + "\n\ncommand: \(run.command)")
        }
        if run.falseAlarms != 0 {
            XCTFail(
                "the element raised \(run.falseAlarms.map(String.init) ?? "?") false alarm(s) on the "
                    + "falsepositives images, needs 0\n\(run.table)\n\ncommand: \(run.command)")
        }
        let folders = [
            Corpus.releaseFolder.standardizedFileURL.path,
            Corpus.releaseFolder.resolvingSymlinksInPath().path
        ]
        if let line = run.elementLine, !folders.contains(where: { line.contains($0 + "/libgstrlbarcode.so") }) {
            XCTFail("the element was not loaded from the release folder \(plugin): \(line)")
        }
    }
}
