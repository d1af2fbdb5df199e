import CGStreamer
import Foundation
import XCTest

/// Several `rlbarcode` elements in one process take turns in one analysis
/// pool: the threads stay at the pool's size however many elements, no
/// stream starves, and a stream the pool cannot serve passes its frames on
/// time, unanalysed and counted.
final class SharedPoolTests: XCTestCase {
    override func setUpWithError() throws {
        switch gstreamerReady {
        case .success: break
        case .failure(let error): XCTFail("\(error)"); throw error
        }
    }

    /// The pool is the process's: back to its default for the other tests.
    override func tearDown() {
        if let e = gst_element_factory_make("rlbarcode", nil) {
            setProperty(e, "analysis-threads", "0")
            gst_object_unref(e)
        }
    }

    /// The names of this process's threads now (a thread made by another
    /// has its name until it is given one of its own).
    private func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// `count` live branches `videotestsrc ! <filter> name=fK ! fakesink`.
    private func branches(
        _ count: Int, filter: String, frames: Int, size: String = "width=320,height=240",
        pattern: String = "ball", sync: Bool = false, source: String = "src"
    ) -> String {
        (0..<count).map {
            "videotestsrc name=\(source)\($0) is-live=true num-buffers=\(frames) pattern=\(pattern) ! "
                + "video/x-raw,format=GRAY8,\(size),framerate=30/1 ! \(filter) name=f\($0) ! "
                + "fakesink sync=\(sync)"
        }.joined(separator: "  ")
    }

    /// What a run gave: the most threads of each name seen at once (in two
    /// samples in a row), the
    /// seconds to EOS and each element's analysed and skipped frames.
    private struct Run {
        var threads: [String: Int] = [:]
        var seconds = 0.0
        var analysed: [Int] = []
        var skipped: [Int] = []
    }

    /// Plays `line` to EOS (at most `timeout` s), counting threads as it goes.
    private func play(_ line: String, elements: Int, timeout: Double = 120) throws -> Run {
        let pipeline = try launchPipeline(line)
        defer { gst_object_unref(pipeline) }
        let bus = gst_element_get_bus(pipeline)
        defer { gst_object_unref(bus) }
        var run = Run()
        let started = Date()
        _ = gst_element_set_state(pipeline, GST_STATE_PLAYING)
        var ended = false
        var last: [String: Int] = [:]
        while !ended && Date().timeIntervalSince(started) < timeout {
            // A new thread has its maker's name until it names itself: only
            // what two samples in a row see counts.
            var now: [String: Int] = [:]
            for name in threadNames() { now[name, default: 0] += 1 }
            for (name, count) in now { run.threads[name] = max(run.threads[name] ?? 0, min(count, last[name] ?? 0)) }
            last = now
            while let message = gst_bus_timed_pop_filtered(
                bus, 5_000_000, GstMessageType(GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue))
            {
                defer { gst_message_unref(message) }
                XCTAssertEqual(message.pointee.type, GST_MESSAGE_EOS, problemText(message))
                ended = true
            }
        }
        run.seconds = Date().timeIntervalSince(started)
        XCTAssertTrue(ended, "no EOS within \(timeout) s")
        let bin = UnsafeMutablePointer<GstBin>(OpaquePointer(pipeline))
        for k in 0..<elements {
            guard let e = gst_bin_get_by_name(bin, "f\(k)") else { continue }
            if g_object_class_find_property(
                UnsafeMutablePointer<GObjectClass>(
                    OpaquePointer(UnsafeMutablePointer<GTypeInstance>(OpaquePointer(e)).pointee.g_class)),
                "frames-analysed") != nil
            {
                run.analysed.append(Int(propertyText(e, "frames-analysed")) ?? -1)
                run.skipped.append(Int(propertyText(e, "frames-skipped")) ?? -1)
            }
            gst_object_unref(e)
        }
        _ = gst_element_set_state(pipeline, GST_STATE_NULL)
        return run
    }

    func testElementsShareThePoolsThreads() throws {
        let n = 6
        let run = try play(
            branches(n, filter: "rlbarcode n-threads=2 analysis-threads=2", frames: 40, source: "shared"),
            elements: n)
        XCTAssertEqual(run.analysed.count, n)
        for analysed in run.analysed { XCTAssertGreaterThan(analysed, 0) }
        // Two-thread scans in six elements: the second threads are the
        // pool's two, not one an element (which would be named after the
        // streaming thread that made it).
        // (Threads stay once made: other tests may have sized the pool to
        // its default, one per processor.)
        let largest = max(2, ProcessInfo.processInfo.activeProcessorCount)
        XCTAssertLessThanOrEqual(run.threads["rlbarcode-pool"] ?? 0, largest, "\(run.threads)")
        for k in 0..<n {
            XCTAssertEqual(run.threads["shared\(k):src"], 1, "threads named after stream \(k): \(run.threads)")
        }
    }

    func testNoStreamStarves() throws {
        let n = 8
        // Eight live streams due at their sinks, one turn at a time: more
        // frames than one turn serves, and each stream gets a share (a
        // stream that waited behind the others' frames would get a few).
        let run = try play(
            branches(n, filter: "rlbarcode analysis-threads=1", frames: 45, sync: true), elements: n)
        XCTAssertEqual(run.analysed.count, n)
        guard let least = run.analysed.min(), let most = run.analysed.max() else { return XCTFail() }
        XCTAssertGreaterThan(least, 0, "\(run.analysed)")
        // (The turns themselves go round exactly, AnalysisPoolTests; here the
        // streams' own pacing on a loaded machine also counts.)
        XCTAssertGreaterThanOrEqual(least * 4, most, "frames analysed by stream \(run.analysed)")
        for (analysed, skipped) in zip(run.analysed, run.skipped) { XCTAssertEqual(analysed + skipped, 45) }
    }

    func testAStreamThePoolCannotServePassesItsFramesOnTime() throws {
        // A stream that is not live holds the only turn for long scans
        // (thorough effort on noise) frame after frame.
        let hog = try launchPipeline(
            "videotestsrc pattern=snow ! video/x-raw,format=GRAY8,width=1280,height=720,framerate=30/1 ! "
                + "rlbarcode name=hog effort=thorough analysis-threads=1 ! fakesink sync=false")
        defer { gst_object_unref(hog) }
        _ = gst_element_set_state(hog, GST_STATE_PLAYING)
        defer { _ = gst_element_set_state(hog, GST_STATE_NULL) }
        let bin = UnsafeMutablePointer<GstBin>(OpaquePointer(hog))
        let element = try XCTUnwrap(gst_bin_get_by_name(bin, "hog"))
        defer { gst_object_unref(element) }
        let until = Date().addingTimeInterval(60)
        while (Int(propertyText(element, "frames-analysed")) ?? 0) < 1 && Date() < until { usleep(2000) }

        // A live stream beside it: one second of frames, due at its sink.
        let run = try play(branches(1, filter: "rlbarcode", frames: 30, sync: true), elements: 1)
        XCTAssertEqual(run.analysed.count, 1)
        XCTAssertEqual(run.analysed[0] + run.skipped[0], 30, "every frame analysed or passed on")
        XCTAssertGreaterThan(run.skipped[0], 0, "frames that got no turn in time")
        // Frames waiting for the hog's scans (seconds each) would take far longer.
        XCTAssertLessThan(run.seconds, 10, "the live stream kept its pace")
    }
}
