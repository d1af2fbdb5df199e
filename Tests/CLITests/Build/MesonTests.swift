import Foundation
import Subprocess
import XCTest

/// The Meson build of meson-wrap/: `meson dist` makes a source tarball that
/// builds offline, as a subproject of another Meson project (through a
/// wrap-file found in subprojects/packagecache), whose own test runs the C
/// example against the plugin; `meson install` puts the plugin into
/// GStreamer's plugin folder.
final class MesonTests: XCTestCase {
    /// A program on PATH, or a skip naming the package.
    func tool(_ name: String, _ package: String) throws -> URL {
        try Env.require(name, "apt-get install \(package)")
    }

    /// Runs a command and fails the test (throwing) unless it exits 0.
    @discardableResult
    func check(
        _ exe: URL, _ args: [String], in dir: URL? = nil, env: [String: String] = [:],
        timeout: Double = 300, _ what: String
    ) throws -> ProcessOutput {
        let out = try Env.run(exe, args, environment: env, currentDirectory: dir, timeout: timeout)
        if out.status != 0 {
            XCTFail("\(what) failed: \(out.summary)")
            throw XCTSkip("stopping after the failure above")
        }
        return out
    }

    func testDistTarballBuildsOfflineAsASubproject() throws {
        let meson = try tool("meson", "meson")
        let git = try tool("git", "git")
        _ = try tool("ninja", "ninja-build")
        _ = try tool("swift", "the Swift toolchain")
        _ = try tool("gcc", "gcc")
        let inspect = try tool("gst-inspect-1.0", "gstreamer1.0-tools")
        let inside = try Env.run(git, ["-C", Env.root.path, "rev-parse", "--is-inside-work-tree"])
        guard inside.status == 0 else { throw XCTSkip("\(Env.root.path) is not a git checkout: meson dist needs one") }

        let dir = try Env.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }

        // 1. The tarball (meson dist takes the committed files).
        let distBuild = dir.appendingPathComponent("dist-build")
        try check(meson, ["setup", distBuild.path, Env.root.appendingPathComponent("meson-wrap").path], "meson setup")
        try check(
            meson, ["dist", "-C", distBuild.path, "--no-tests", "--formats", "gztar", "--allow-dirty"], "meson dist")
        let tarball = distBuild.appendingPathComponent("meson-dist/rlbarcode-0.1.0.tar.gz")
        XCTAssertTrue(FileManager.default.fileExists(atPath: tarball.path), "no \(tarball.path)")
        let listing = try check(URL(fileURLWithPath: "/bin/tar"), ["tzf", tarball.path], "tar tzf").stdout
        for file in [
            "rlbarcode-0.1.0/meson.build", "rlbarcode-0.1.0/Package.swift",
            "rlbarcode-0.1.0/Sources/GstRLBarcode/Plugin.swift", "rlbarcode-0.1.0/swiftpm-build.sh"
        ] {
            XCTAssertTrue(listing.split(separator: "\n").contains(Substring(file)), "\(file) is not in the tarball")
        }
        let sum = try check(URL(fileURLWithPath: "/usr/bin/sha256sum"), [tarball.path], "sha256sum")
        let hash = String(sum.stdout.prefix(64))

        // 2. A parent project: a wrap-file whose tarball is already in the
        //    package cache, and the C example as its program and test.
        let parent = dir.appendingPathComponent("app")
        let cache = parent.appendingPathComponent("subprojects/packagecache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: tarball, to: cache.appendingPathComponent("rlbarcode-0.1.0.tar.gz"))
        try """
        [wrap-file]
        directory = rlbarcode-0.1.0
        source_url = https://example.org/rlbarcode-0.1.0.tar.gz
        source_filename = rlbarcode-0.1.0.tar.gz
        source_hash = \(hash)

        """.write(to: parent.appendingPathComponent("subprojects/rlbarcode.wrap"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(
            at: Env.root.appendingPathComponent("examples/c/scan_appsink.c"),
            to: parent.appendingPathComponent("scan_appsink.c"))
        try """
        project('scan-app', 'c', meson_version: '>= 0.60.0')
        deps = [dependency('gstreamer-1.0'), dependency('gstreamer-video-1.0'), dependency('gstreamer-app-1.0')]
        rlbarcode = subproject('rlbarcode')
        app = executable('scan_appsink', 'scan_appsink.c', dependencies: deps)
        env = environment()
        env.set('GST_PLUGIN_PATH', rlbarcode.get_variable('rlbarcode_plugin_path'))
        env.set('GST_REGISTRY', meson.current_build_dir() / 'registry.bin')
        demo = meson.current_source_dir() / 'subprojects' / 'rlbarcode-0.1.0' / 'pipelines' / 'media' / 'demo.mp4'
        test('demo codes', app, args: [demo, '60'], env: env, depends: rlbarcode.get_variable('rlbarcode_plugin'))

        """.write(to: parent.appendingPathComponent("meson.build"), atomically: true, encoding: .utf8)

        // 3. Offline: no download is allowed, the tarball must do.
        let build = parent.appendingPathComponent("build")
        try check(meson, ["setup", "--wrap-mode=nodownload", build.path, parent.path], "meson setup of the parent")
        try check(meson, ["compile", "-C", build.path], timeout: 1800, "meson compile (SwiftPM build of the plugin)")
        let test = try check(meson, ["test", "-C", build.path, "--print-errorlogs"], timeout: 600, "meson test")
        XCTAssertTrue(test.stdout.contains("demo codes"), test.summary)
        XCTAssertTrue(
            test.stdout.contains("gst-inspect rlbarcode"), "the subproject's tests did not run: \(test.summary)")
        let log = try String(contentsOf: build.appendingPathComponent("meson-logs/testlog.txt"), encoding: .utf8)
        XCTAssertTrue(
            log.contains("message 0.000s EAN-13 5901234123457"), "the C example printed no code: \(log.suffix(2000))")
        XCTAssertTrue(
            log.contains("message 0.000s UPC-A 0036000291452"), "the C example printed no code: \(log.suffix(2000))")

        // 4. meson install puts the plugin into GStreamer's plugin folder,
        //    where gst-inspect finds it without GST_PLUGIN_PATH.
        let pkgConfig = try tool("pkg-config", "pkg-config")
        let pluginsdir = try check(pkgConfig, ["--variable=pluginsdir", "gstreamer-1.0"], "pkg-config")
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let destdir = dir.appendingPathComponent("destdir")
        try check(meson, ["install", "-C", build.path, "--destdir", destdir.path], "meson install")
        let installed = destdir.path + pluginsdir
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: installed + "/libgstrlbarcode.so"),
            "not installed into \(installed)")
        let found = try Env.run(
            inspect, ["--exists", "--atleast-version=0.1", "rlbarcode"],
            environment: [
                "GST_PLUGIN_PATH": "", "GST_PLUGIN_SYSTEM_PATH_1_0": installed,
                "GST_REGISTRY": dir.appendingPathComponent("registry.bin").path
            ])
        XCTAssertEqual(found.status, 0, "gst-inspect-1.0 does not find the installed plugin: \(found.summary)")
    }
}
