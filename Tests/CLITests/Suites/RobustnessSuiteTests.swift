import Foundation
import XCTest

/// The robustness suite's small sweep (`scripts/robustness/suite.py --ci`):
/// generated pictures of six symbologies along four degradations, read by the
/// release `rlbarcode-scan`. Each breaking point must stay at least where the
/// checked-in expectations (`scripts/robustness/expectations.json`, today's
/// main) put it, and nothing may be read as another text.
final class RobustnessSuiteTests: XCTestCase {
    static let suite = Env.root.appendingPathComponent("scripts/robustness/suite.py")
    static let expectations = Env.root.appendingPathComponent("scripts/robustness/expectations.json")

    /// One (symbology, axis) of a sweep: its levels and rlbarcode's breaking point.
    struct Row: Equatable {
        var symbology: String
        var axis: String
        var levels: [Double]
        /// Index into `levels` of the last level read (-1: not even the first).
        var point: Int
        var wrong: Int

        var pointText: String { point >= 0 ? "\(levels[point])" : "none" }
    }

    /// The interpreter with numpy and PIL, zint and a release CLI, or a skip.
    func requirements() throws -> (python: URL, cli: URL) {
        let cli = try Env.cli()
        guard Env.isRelease else {
            throw XCTSkip("the sweep scans hundreds of pictures: set RLBARCODE_RELEASE_BIN to a release build")
        }
        _ = try Env.require("zint", "apt-get install zint")
        let python = URL(fileURLWithPath: "/usr/bin/python3")
        guard FileManager.default.isExecutableFile(atPath: python.path),
            (try? Env.run(python, ["-c", "import numpy, PIL"], timeout: 60).status) == 0
        else {
            throw XCTSkip("/usr/bin/python3 lacks numpy or PIL (apt-get install python3-numpy python3-pil)")
        }
        return (python, cli)
    }

    /// Runs the suite with rlbarcode only; returns the decoded `--json` results.
    func sweep(_ python: URL, _ cli: URL, _ extra: [String]) throws -> [String: Any] {
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("results.json")
        let result = try Env.run(
            python,
            [
                Self.suite.path, "--readers", "rlbarcode", "--rlbarcode", cli.path,
                "--json", out.path
            ] + extra, timeout: 900)
        XCTAssertEqual(result.status, 0, result.summary)
        let data = try Data(contentsOf: out)
        return try XCTUnwrap(
            try JSONSerialization.jsonObject(with: data) as? [String: Any], "results are not an object")
    }

    /// The rows of a results file (reader "rlbarcode") or of the expectations file.
    func rows(_ object: [String: Any], results: Bool) throws -> [Row] {
        let list = try XCTUnwrap(object["rows"] as? [[String: Any]], "no rows")
        return try list.map { row in
            let reader =
                results
                ? try XCTUnwrap((row["readers"] as? [String: Any])?["rlbarcode"] as? [String: Any])
                : row
            return Row(
                symbology: try XCTUnwrap(row["symbology"] as? String), axis: try XCTUnwrap(row["axis"] as? String),
                levels: try XCTUnwrap(row["levels"] as? [Double]), point: try XCTUnwrap(reader["point"] as? Int),
                wrong: try XCTUnwrap(reader["wrong"] as? Int))
        }
    }

    /// Every covered axis reads at least as far as today's main, with no wrong read;
    /// the Shift_JIS MECARD picture is read with its exact bytes (its text is reported).
    func testSmallSweepHoldsTodaysBreakingPoints() throws {
        let (python, cli) = try requirements()
        let expectations = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Self.expectations))
                as? [String: Any])
        let results = try sweep(python, cli, ["--ci"])
        let got = Dictionary(
            uniqueKeysWithValues: try rows(results, results: true).map { ("\($0.symbology)/\($0.axis)", $0) })
        let regenerate = expectations["regenerate"] as? String ?? "suite.py --ci --write-expectations"
        for want in try rows(expectations, results: false) {
            guard let row = got["\(want.symbology)/\(want.axis)"] else {
                XCTFail("\(want.symbology) / \(want.axis) is not in the sweep any more (regenerate: \(regenerate))")
                continue
            }
            XCTAssertEqual(
                row.levels, want.levels,
                "\(want.symbology) / \(want.axis): the sweep changed (regenerate: \(regenerate))")
            XCTAssertGreaterThanOrEqual(
                row.point, want.point,
                "\(want.symbology) / \(want.axis): reads only up to \(row.pointText), main reached \(want.pointText)")
            XCTAssertEqual(row.wrong, 0, "\(want.symbology) / \(want.axis): \(row.wrong) pictures read as another text")
        }
        let checks = try XCTUnwrap(results["text_checks"] as? [String: Any])
        let mecard = try XCTUnwrap(checks["qr-sjis-mecard-backslash"] as? [Any], "no Shift_JIS MECARD check")
        let verdict = try XCTUnwrap((mecard.last as? [String: Any])?["rlbarcode"] as? [String: Any])
        XCTAssertTrue(
            ["ok", "bytes-only"].contains(verdict["verdict"] as? String), "the Shift_JIS MECARD QR Code: \(verdict)")
        print("Shift_JIS MECARD QR Code: \(verdict["verdict"] ?? "") \(verdict["text"] ?? "")")
    }

    /// A reader that reads nothing breaks before the first level on every axis:
    /// the sweep can fail (here `/bin/true` stands in for rlbarcode-scan).
    func testReaderThatReadsNothingBreaksAtTheFirstLevel() throws {
        let (python, _) = try requirements()
        let results = try sweep(
            python, URL(fileURLWithPath: "/bin/true"),
            ["--symbologies", "QR,EAN-13", "--axes", "module", "--payloads", "2", "--need", "2"])
        let found = try rows(results, results: true)
        XCTAssertEqual(found.count, 2)
        for row in found {
            XCTAssertEqual(row.point, -1, "\(row.symbology) / \(row.axis) passed with no reads")
            XCTAssertEqual(row.wrong, 0)
        }
    }
}
