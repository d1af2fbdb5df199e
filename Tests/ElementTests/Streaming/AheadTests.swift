import CGStreamer
import Foundation
import XCTest

/// Frames of a stream that is not live are analysed ahead, two at once on
/// the element's analysis threads; live streams one frame at a time. These
/// tests hold the two ways to the same output, frame for frame, and check
/// that holding frames never stalls or breaks a stream.
final class AheadTests: XCTestCase {
    override func setUpWithError() throws {
        switch gstreamerReady {
        case .success: break
        case .failure(let error): XCTFail("\(error)"); throw error
        }
    }

    /// Twelve frames: an EAN-13 moving to the right, frames without a code
    /// between, and a Code 128 beside it in the last frames.
    private func movingFrames() throws -> [TestFrame] {
        let ean = try Zint.modules(symbology: 13, data: Codes.ean13Data)
        let code128 = try Zint.modules(symbology: 20, data: "AHEAD-42")
        var frames: [TestFrame] = []
        for i in 0..<12 {
            var canvas = Canvas(width: 480, height: 320)
            if i % 4 != 3 { _ = canvas.drawLinear(ean, x: 20 + 6 * i, y: 40, moduleWidth: 2, barHeight: 60) }
            if i >= 8 { _ = canvas.drawLinear(code128, x: 40, y: 190, moduleWidth: 2, barHeight: 50) }
            frames.append(canvas.frame(i % 2 == 0 ? "NV12" : "I420"))
        }
        return frames
    }

    func testAheadAndOneAtATimeGiveTheSameFramesMetadataAndMessages() throws {
        let frames = try movingFrames()
        let properties = "report=every-frame draw=true"
        let ahead = try runPipeline(frames, properties: properties)
        let live = try runPipeline(frames, properties: properties, live: true)
        XCTAssertEqual(ahead.outputs.count, frames.count)
        XCTAssertEqual(live.outputs.count, frames.count)
        XCTAssertEqual(ahead.busErrors, [])
        XCTAssertEqual(live.busErrors, [])
        // Every code of every frame, in frame order: 9 EAN-13 and 4 Code 128.
        XCTAssertEqual(live.messages.count, 13, "needs the engine")
        XCTAssertEqual(ahead.messages, live.messages)
        XCTAssertEqual(ahead.allElementMessages.map(\.name), live.allElementMessages.map(\.name))
        XCTAssertEqual(
            ahead.messages.compactMap { $0["timestamp"]?.uint64 },
            live.messages.compactMap { $0["timestamp"]?.uint64 })
        // Drawn alike, pixel for pixel, and the same region metadata.
        for k in 0..<min(ahead.outputs.count, live.outputs.count) {
            XCTAssertEqual(ahead.outputs[k], live.outputs[k], "frame \(k)")
            XCTAssertEqual(
                ahead.regions[k].map { [$0.x, $0.y, $0.width, $0.height, $0.id] },
                live.regions[k].map { [$0.x, $0.y, $0.width, $0.height, $0.id] }, "frame \(k)")
            XCTAssertEqual(ahead.regions[k].map(\.params), live.regions[k].map(\.params), "frame \(k)")
        }
        XCTAssertNotEqual(ahead.outputs.first, ahead.inputs.first, "the first frame is drawn on: needs the engine")
    }

    /// An application that pushes a frame and waits for it before the next
    /// gets each frame on its own: a frame held for analysis leaves once it
    /// is done, not when the next one arrives.
    func testEachFrameLeavesWithoutWaitingForTheNext() throws {
        let frames = try movingFrames().map { f -> TestFrame in
            var g = f
            g.format = "NV12"
            return g
        }
        var error: UnsafeMutablePointer<GError>?
        guard
            let pipeline = gst_parse_launch(
                "appsrc name=src format=time ! rlbarcode report=every-frame ! appsink name=sink sync=false", &error)
        else {
            return XCTFail(error.map { String(cString: $0.pointee.message) } ?? "pipeline")
        }
        defer { gst_object_unref(pipeline) }
        let bin = UnsafeMutablePointer<GstBin>(OpaquePointer(pipeline))
        guard let src = gst_bin_get_by_name(bin, "src"), let sinkElement = gst_bin_get_by_name(bin, "sink") else {
            return XCTFail("elements")
        }
        defer { gst_object_unref(src); gst_object_unref(sinkElement) }
        let sink = UnsafeMutablePointer<GstAppSink>(OpaquePointer(sinkElement))
        _ = gst_element_set_state(pipeline, GST_STATE_PLAYING)
        defer { _ = gst_element_set_state(pipeline, GST_STATE_NULL) }
        gst_util_set_object_arg(UnsafeMutablePointer<GObject>(OpaquePointer(src)), "caps", frames[0].caps)
        for (i, frame) in frames.prefix(4).enumerated() {
            guard let l = layout(of: frame) else { return XCTFail("layout") }
            let bytes = frameBytes(frame, l)
            guard let buffer = gst_buffer_new_allocate(nil, gsize(bytes.count), nil) else { return XCTFail("buffer") }
            _ = bytes.withUnsafeBytes { gst_buffer_fill(buffer, 0, $0.baseAddress, gsize($0.count)) }
            buffer.pointee.pts = UInt(i) * 33_333_333
            buffer.pointee.duration = 33_333_333
            _ = emit(src, "push-buffer", buffer: buffer, returnsFlow: true)
            gst_buffer_unref(buffer)
            guard let sample = gst_app_sink_try_pull_sample(sink, 5 * 1_000_000_000) else {
                return XCTFail("frame \(i) did not come out before the next went in")
            }
            XCTAssertEqual(gst_sample_get_buffer(sample)?.pointee.pts, UInt(i) * 33_333_333)
            gst_sample_unref(sample)
        }
    }

    /// A source that hands over the next frame at once gets the frames
    /// back on its own thread, one for each it brings: an analysis thread
    /// pushes only when the streaming thread has stayed out for a while.
    func testFastSourceGetsFramesBackOnItsOwnThread() throws {
        // Each frame of bars without a code (slow to read) is followed by
        // seven flat ones: the other analysis thread has scanned those and
        // is idle, the streaming thread waits for the slow one, pushes it
        // and steps out for the next frame.
        var slow = Canvas(width: 640, height: 480)
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for k in 0..<12 {
            let modules = (0..<95).map { _ -> Bool in
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                return seed >> 33 & 1 == 1
            }
            slow.drawLinear(modules, x: 10 + (k % 2) * 320, y: 20 + (k / 2) * 76, moduleWidth: 2, barHeight: 50)
        }
        let flat = Canvas(width: 640, height: 480)
        let path = NSTemporaryDirectory() + "rlbarcode-pushers-\(getpid()).gray"
        var clip = Data()
        for k in 0..<32 { clip.append(contentsOf: k % 8 == 0 ? slow.pixels : flat.pixels) }
        try clip.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        var error: UnsafeMutablePointer<GError>?
        guard
            let pipeline = gst_parse_launch(
                "filesrc location=\(path) ! rawvideoparse format=gray8 width=640 height=480 framerate=30/1 "
                    + "! rlbarcode name=dut ! fakesink sync=false", &error)
        else {
            return XCTFail(error.map { String(cString: $0.pointee.message) } ?? "pipeline")
        }
        defer { gst_object_unref(pipeline) }
        let bin = UnsafeMutablePointer<GstBin>(OpaquePointer(pipeline))
        guard let dut = gst_bin_get_by_name(bin, "dut"),
            let sinkPad = gst_element_get_static_pad(dut, "sink"),
            let srcPad = gst_element_get_static_pad(dut, "src")
        else { return XCTFail("element") }
        defer { gst_object_unref(sinkPad); gst_object_unref(srcPad); gst_object_unref(dut) }
        let threads = PushThreads()
        let context = Unmanaged.passUnretained(threads).toOpaque()
        gst_pad_add_probe(
            sinkPad, GST_PAD_PROBE_TYPE_BUFFER,
            { _, _, data in
                Unmanaged<PushThreads>.fromOpaque(data!).takeUnretainedValue().record(streaming: true)
                return GST_PAD_PROBE_OK
            }, context, nil)
        gst_pad_add_probe(
            srcPad, GST_PAD_PROBE_TYPE_BUFFER,
            { _, _, data in
                Unmanaged<PushThreads>.fromOpaque(data!).takeUnretainedValue().record(streaming: false)
                return GST_PAD_PROBE_OK
            }, context, nil)
        _ = gst_element_set_state(pipeline, GST_STATE_PLAYING)
        let bus = gst_element_get_bus(pipeline)
        defer { gst_object_unref(bus) }
        let message = gst_bus_timed_pop_filtered(
            bus, 20 * 1_000_000_000,
            GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue))
        XCTAssertEqual(message.map { $0.pointee.type }, GST_MESSAGE_EOS, message.map(problemText) ?? "no end of stream")
        if let message { gst_message_unref(message) }
        _ = gst_element_set_state(pipeline, GST_STATE_NULL)
        let (pushes, byOthers) = threads.counts()
        XCTAssertEqual(pushes, 32)
        // An idle analysis thread that took the stream lock as soon as the
        // streaming thread stepped out would push most of the flat frames
        // (12 to 28 of the 32). A machine that holds the streaming thread up
        // for longer than the grace may let an analysis thread push a few.
        XCTAssertLessThanOrEqual(byOthers, pushes / 8, "frames pushed by another thread than the source's")
    }

    /// Stopping a stream while frames are held, and seeking with a flush,
    /// drops the frames held without a crash, a leak or a stall; after the
    /// seek every frame comes out again, in order.
    func testFlushingSeekAndStopWithFramesHeld() throws {
        let frames = try movingFrames().map { f -> TestFrame in
            var g = f
            g.format = "GRAY8"
            return g
        }
        let path = NSTemporaryDirectory() + "rlbarcode-ahead-\(getpid()).gray"
        var clip = Data()
        for f in frames { clip.append(contentsOf: f.luma) }
        try clip.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        var error: UnsafeMutablePointer<GError>?
        let line =
            "filesrc location=\(path) ! rawvideoparse format=gray8 width=480 height=320 framerate=30/1 "
            + "! rlbarcode report=every-frame ! appsink name=sink sync=false"
        for stopEarly in [true, false] {
            guard let pipeline = gst_parse_launch(line, &error) else {
                return XCTFail(error.map { String(cString: $0.pointee.message) } ?? "pipeline")
            }
            defer { gst_object_unref(pipeline) }
            let bin = UnsafeMutablePointer<GstBin>(OpaquePointer(pipeline))
            guard let sinkElement = gst_bin_get_by_name(bin, "sink") else { return XCTFail("sink") }
            defer { gst_object_unref(sinkElement) }
            let sink = UnsafeMutablePointer<GstAppSink>(OpaquePointer(sinkElement))
            _ = gst_element_set_state(pipeline, GST_STATE_PLAYING)
            // Three frames out, the rest still held or on their way.
            for _ in 0..<3 {
                guard let sample = gst_app_sink_try_pull_sample(sink, 10 * 1_000_000_000) else {
                    _ = gst_element_set_state(pipeline, GST_STATE_NULL)
                    return XCTFail("no frame")
                }
                gst_sample_unref(sample)
            }
            if stopEarly {
                XCTAssertEqual(gst_element_set_state(pipeline, GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS)
                continue
            }
            XCTAssertNotEqual(
                gst_element_seek_simple(
                    pipeline, GST_FORMAT_TIME,
                    GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue), 0), 0)
            var times: [UInt] = []
            while let sample = gst_app_sink_try_pull_sample(sink, 10 * 1_000_000_000) {
                if let b = gst_sample_get_buffer(sample) { times.append(b.pointee.pts) }
                gst_sample_unref(sample)
            }
            XCTAssertEqual(times.count, frames.count, "every frame again")
            XCTAssertEqual(times.first, 0)
            XCTAssertEqual(times, times.sorted(), "in order")
            XCTAssertEqual(Set(times).count, times.count, "each once")
            let bus = gst_element_get_bus(pipeline)
            while let message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR) {
                XCTFail(problemText(message))
                gst_message_unref(message)
            }
            gst_object_unref(bus)
            _ = gst_element_set_state(pipeline, GST_STATE_NULL)
        }
    }
}

/// The threads that bring frames into the element and push them out.
private final class PushThreads: @unchecked Sendable {
    private var lock = pthread_mutex_t()
    private var streaming: UnsafeMutableRawPointer?
    private var pushes = 0
    private var byOthers = 0

    init() { pthread_mutex_init(&lock, nil) }
    deinit { pthread_mutex_destroy(&lock) }

    /// A buffer on the sink pad (`streaming`) or the source pad, on this thread.
    func record(streaming isSink: Bool) {
        let me = UnsafeMutableRawPointer(g_thread_self())
        pthread_mutex_lock(&lock)
        if isSink {
            streaming = me
        } else {
            pushes += 1
            if me != streaming { byOthers += 1 }
        }
        pthread_mutex_unlock(&lock)
    }

    /// Buffers pushed, and how many of them by a thread other than the streaming thread.
    func counts() -> (Int, Int) {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return (pushes, byOthers)
    }
}
