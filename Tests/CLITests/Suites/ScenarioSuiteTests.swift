import Foundation
import XCTest

/// Runs the live-scene suite (`scripts/scenarios`) at its CI size through the
/// plugin under test and holds every scene to the level it reaches today:
/// scenes read in full must stay so; scenes that fail today (marked
/// `**fail**` in the suite's table) must not fall below today's figures.
final class ScenarioSuiteTests: XCTestCase {
    /// What one scene must reach.
    struct Level {
        /// Codes read at least once while fully in view, at least.
        var read: Int
        /// Codes fully in view at some frame (what the scene holds).
        var codes: Int
        /// Wrong reads (texts of no code in view), at most.
        var wrong = 0
        /// False reports (no code in view at all), at most.
        var falseReports = 0
        /// Mean frames from first in view to first read, at most (nil: any).
        var framesToRead: Double? = nil

        /// Every code read, nothing wrong, one appearance each.
        static func all(_ codes: Int) -> Level { Level(read: codes, codes: codes) }

        /// A scene that fails today: no worse than today.
        static func atLeast(read: Int, of codes: Int, wrong: Int = 0, false falseReports: Int = 0) -> Level {
            Level(read: read, codes: codes, wrong: wrong, falseReports: falseReports)
        }

        /// Whether the scene passes in full at this level.
        var passes: Bool { read == codes && wrong == 0 && falseReports == 0 }
    }

    /// Today's levels by "family/scene" (the suite's CI size, rlbarcode).
    static let levels: [String: Level] = {
        var levels: [String: Level] = [:]
        for nick in [
            "ean-13", "upc-a", "upc-e", "ean-8", "ean-13+ean-2", "ean-13+ean-5", "code-93", "itf",
            "databar", "databar-expanded", "qr-code", "data-matrix", "pdf417", "aztec"
        ] {
            levels["alone/\(nick)"] = .all(8)
            levels["all-on/\(nick)"] = .all(8)
        }
        for family in ["alone", "all-on"] {
            levels["\(family)/code-128"] = .all(8)
            levels["\(family)/codabar"] = .all(8)
            levels["\(family)/code-39"] = .all(8)
        }
        levels["multi-2d/qr-code+data-matrix 720p"] = .all(10)
        levels["multi-2d/qr-code+data-matrix 1080p"] = .all(10)
        levels["multi-2d/data-matrix+aztec 720p"] = .all(10)
        levels["multi-2d/data-matrix+pdf417 720p"] = .all(10)
        levels["multi-2d/qr-code+aztec 720p"] = .all(10)
        levels["multi-2d/qr-code+pdf417 720p"] = .atLeast(read: 9, of: 10)
        // bars touching the left, right or top edge, or edge to edge; an ITF
        // without a check digit on one border is refused (docs/QUIET-ZONES.md)
        for nick in ["code-128", "code-39", "code-93", "codabar", "ean-13"] { levels["edge/\(nick)"] = .all(4) }
        levels["edge/itf"] = .atLeast(read: 1, of: 4)
        levels["region/outside 0.25,0.25,0.5,0.5"] = .all(4)
        levels["pan/long code-128"] = .all(1)
        levels["pan/qr-code+ean-13"] = .all(2)
        levels["occlusion/bar over ean-13, qr-code"] = .all(2)
        levels["shelf/5 identical ean-13"] = .all(5)
        // read once the modules are large and sharp enough: 19 and 23 frames
        // today, 2 frames of slack for the time limits of a loaded machine
        levels["approach/qr-code"] = Level(read: 1, codes: 1, framesToRead: 21)
        levels["approach/ean-13"] = Level(read: 1, codes: 1, framesToRead: 25)
        return levels
    }()

    /// One scene's figures, as `scenarios.run --json` writes them.
    struct Figures: Decodable {
        var codes: Int
        var read: Int
        var frames_to_read: Double?
        var appearances: Double?
        var id_switches: Int?
        var wrong: Int
        var `false`: Int
        var error: String
    }

    /// One row of `scenarios.run --json`.
    struct Row: Decodable {
        var family: String
        var scene: String
        var engine: String
        var score: Figures?
        var error: String
    }

    /// Runs the suite at CI size with the release plugin under test; skips
    /// when it is not a release build, or when Python's numpy, PIL or gi,
    /// zint or the plugin is missing.
    func runSuite() throws -> [Row] {
        let plugins = try Env.pluginFolder()
        // the levels are those of a release build (a debug build is far slower
        // and its per-frame time limits are scaled)
        guard Env.isRelease else {
            throw XCTSkip("the scenario suite needs the release plugin: set RLBARCODE_RELEASE_BIN")
        }
        let python = URL(fileURLWithPath: "/usr/bin/python3")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw XCTSkip("/usr/bin/python3 is missing")
        }
        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("figures.json")
        let result = try Env.run(
            python, ["-m", "scenarios.run", "--plugin-dir", plugins.path, "--json", json.path],
            currentDirectory: Env.root.appendingPathComponent("scripts"), timeout: 900)
        if result.status == 77 { throw XCTSkip(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) }
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertTrue(result.stdout.contains("| family | scene | element |"), "no table printed: \(result.summary)")
        return try JSONDecoder().decode([Row].self, from: Data(contentsOf: json))
    }

    /// Every scene of the CI size reaches at least today's level.
    func testScenesHoldTodaysLevels() throws {
        let rows = try runSuite().filter { $0.engine == "rlbarcode" }
        let byKey = Dictionary(rows.map { ("\($0.family)/\($0.scene)", $0) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(Set(byKey.keys), Set(Self.levels.keys), "a scene without a level, or a level without a scene")
        for (key, level) in Self.levels.sorted(by: { $0.key < $1.key }) {
            guard let row = byKey[key], let s = row.score else { continue }
            XCTAssertEqual(row.error, "", "\(key): \(row.error)")
            XCTAssertEqual(s.codes, level.codes, "\(key): the scene holds other codes than it did")
            XCTAssertGreaterThanOrEqual(s.read, level.read, "\(key): codes read")
            XCTAssertLessThanOrEqual(s.wrong, level.wrong, "\(key): wrong reads")
            XCTAssertLessThanOrEqual(s.false, level.falseReports, "\(key): false reports")
            if let most = level.framesToRead, let frames = s.frames_to_read {
                XCTAssertLessThanOrEqual(frames, most, "\(key): frames to first read")
            }
            if level.passes {
                XCTAssertLessThanOrEqual(s.appearances ?? 1, 1.0, "\(key): a code reported new more than once")
                XCTAssertEqual(s.id_switches ?? 0, 0, "\(key): tracking ids changed")
            }
        }
    }
}
