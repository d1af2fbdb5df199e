import CGStreamer
import Foundation
import RLBarcode
import Synchronization
import XCTest

/// A stop during a long scan, a live source faster than analysis, and a
/// bus nobody reads while frames are attached to messages.
final class StopAndPacingTests: XCTestCase {
    override func setUpWithError() throws {
        switch gstreamerReady {
        case .success: break
        case .failure(let error): XCTFail("\(error)"); throw error
        }
    }

    /// Luma of dense texture with no code: edges everywhere, so that a
    /// thorough scan takes long.
    private func texture(width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height)
        pixels.withUnsafeMutableBufferPointer { p in
            for y in 0..<height {
                for x in 0..<width {
                    let v = (x &* x &+ y &* 7) ^ ((x >> 3) &* (y >> 2))
                    p[y * width + x] = v & 0x40 != 0 ? 30 : 220
                }
            }
        }
        return pixels
    }

    /// An element of `pipeline` by name (a reference the caller drops).
    private func child(_ pipeline: UnsafeMutablePointer<GstElement>, _ name: String) throws
        -> UnsafeMutablePointer<GstElement>
    {
        try XCTUnwrap(gst_bin_get_by_name(UnsafeMutablePointer<GstBin>(OpaquePointer(pipeline)), name))
    }

    /// A buffer holding `bytes`.
    private func buffer(_ bytes: [UInt8], pts: UInt, duration: UInt) throws -> UnsafeMutablePointer<GstBuffer> {
        try XCTUnwrap(makeBuffer(bytes, pts: pts, duration: duration))
    }

    // MARK: Stop

    /// NULL while a 4K frame of dense texture is being scanned thoroughly,
    /// as a still picture (on the streaming thread, no time limit) and as
    /// video (on an analysis thread, frames analysed ahead): the state
    /// change returns within 1 s (before, it waited for the whole scan).
    /// A debug build of the plugin gets a 960x540 frame and 2.5 s instead
    /// (its whole scan takes far longer): its scan stops at the same
    /// checks, but the stretches between them (the 2D searches'
    /// preparation of a 4K frame) take seconds there.
    func testNullDuringA4KThoroughScanReturnsAtOnce() throws {
        let release = pluginDirectory()?.contains("/release") ?? false
        let (w, h) = release ? (3840, 2160) : (960, 540)
        let bytes = texture(width: w, height: h)
        for rate in ["0/1", "30/1"] {
            let pipeline = try launchPipeline(
                "appsrc name=src format=time caps=\"video/x-raw,format=GRAY8,width=\(w),"
                    + "height=\(h),framerate=\(rate)\" ! rlbarcode name=bc effort=thorough ! "
                    + "fakesink sync=false")
            defer { gst_object_unref(pipeline) }
            let src = try child(pipeline, "src"), element = try child(pipeline, "bc")
            defer { gst_object_unref(src); gst_object_unref(element) }
            _ = gst_element_set_state(pipeline, GST_STATE_PLAYING)
            let frame = try buffer(bytes, pts: 0, duration: rate == "0/1" ? clockTimeNoneForTests : 33_333_333)
            _ = emit(src, "push-buffer", buffer: frame, returnsFlow: true)
            gst_buffer_unref(frame)
            // The scan has begun once the frame is counted; then it runs a while.
            let begun = Date()
            while propertyText(element, "frames-analysed") != "1" && Date().timeIntervalSince(begun) < 30 {
                usleep(10_000)
            }
            XCTAssertEqual(propertyText(element, "frames-analysed"), "1", "\(rate): the scan did not begin")
            usleep(500_000)
            let start = Date()
            _ = gst_element_set_state(pipeline, GST_STATE_NULL)
            let seconds = Date().timeIntervalSince(start)
            print("NULL during a \(w)x\(h) thorough scan (framerate \(rate)): \(Int(seconds * 1000)) ms")
            // A debug build's stretches between checks are some 50 times longer.
            XCTAssertLessThan(seconds, release ? 1.0 : 2.5, "\(rate): NULL took \(seconds) s")
        }
    }

    /// The engine's side: a scan given a cancelled ``ScanCancellation``
    /// reads nothing and says it stopped early; once reset, the same
    /// scanner reads the code in the same frame to the end.
    func testACancelledScanStopsAndAResetOneReads() throws {
        var canvas = Canvas(width: 240, height: 120)
        let modules = try Zint.modules(symbology: 13, data: Codes.ean13Data)
        canvas.drawLinear(modules, x: 10, y: 30, moduleWidth: 2, barHeight: 60)
        let scanner = Scanner(options: ScanOptions(effort: .thorough))
        let cancellation = ScanCancellation()
        scanner.cancellation = cancellation
        cancellation.cancel()
        let scan = {
            canvas.pixels.withUnsafeBufferPointer { p in
                scanner.scan(
                    LumaView(base: p.baseAddress!, width: canvas.width, height: canvas.height, stride: canvas.width))
            }
        }
        XCTAssertTrue(scan().isEmpty, "read while cancelled")
        XCTAssertTrue(scanner.lastScanTimedOut, "a cancelled scan stops early")
        cancellation.reset()
        XCTAssertEqual(scan().map(\.text), [Codes.ean13Text])
        XCTAssertFalse(scanner.lastScanTimedOut)
    }

    // MARK: Live pacing

    /// What a pad probe on the sink measures: how late each frame arrives
    /// there (clock time past base time + running time + latency).
    final class Lateness: @unchecked Sendable {
        let lock = Mutex<[Int64]>([])
        var clock: UnsafeMutablePointer<GstClock>?
        var base: UInt64 = 0
        var latency: UInt64 = 0
        var measuredFrom: UInt64 = 0
        let ready = Atomic<Bool>(false)
    }

    /// A live source of 320x240 frames of dense texture around an EAN-13
    /// code, at 60 frames a second for 4 s with 150 ms of latency, into
    /// `effort=thorough` and a sink that syncs and sends no QoS events
    /// (`fakesink sync=true qos=false`): analysis of one frame takes longer
    /// than a frame's interval (a debug build, thorough depth), yet from
    /// 1.5 s on every frame arrives, two in three or more before they are due, none more than half
    /// a second late (before, the stream fell further behind with every
    /// frame); frames are skipped (`frames-skipped`) unless every frame was
    /// analysed on time, and the code is still read.
    func testLiveFramesLeaveOnTimeWithoutQoS() throws {
        let (w, h) = (320, 240)
        var canvas = Canvas(width: w, height: h)
        canvas.pixels = texture(width: w, height: h)
        let modules = try Zint.modules(symbology: 13, data: Codes.ean13Data)
        canvas.drawLinear(modules, x: 40, y: 70, moduleWidth: 2, barHeight: 100)
        // 4 s, measured from 1.5 s on: the frames before the pipeline's
        // latency is known (the first one's analysis) are not paced.
        let interval: UInt64 = 16_666_667, count = 240, measuredFrom: UInt64 = 1_500_000_000
        let pipeline = try launchPipeline(
            "appsrc name=src is-live=true format=time min-latency=150000000 "
                + "caps=\"video/x-raw,format=GRAY8,width=\(w),height=\(h),framerate=60/1\" ! "
                + "rlbarcode name=bc effort=thorough ! fakesink name=sink sync=true qos=false")
        defer { gst_object_unref(pipeline) }
        let src = try child(pipeline, "src"), element = try child(pipeline, "bc"), sink = try child(pipeline, "sink")
        defer { gst_object_unref(src); gst_object_unref(element); gst_object_unref(sink) }

        let lateness = Lateness()
        let pad = try XCTUnwrap(gst_element_get_static_pad(sink, "sink"))
        defer { gst_object_unref(pad) }
        let context = Unmanaged.passUnretained(lateness).toOpaque()
        _ = gst_pad_add_probe(
            pad, GST_PAD_PROBE_TYPE_BUFFER,
            { _, info, data in
                guard let info, let data, let raw = info.pointee.data else { return GST_PAD_PROBE_OK }
                let l = Unmanaged<Lateness>.fromOpaque(data).takeUnretainedValue()
                guard l.ready.load(ordering: .acquiring), let clock = l.clock else { return GST_PAD_PROBE_OK }
                let buffer = raw.assumingMemoryBound(to: GstBuffer.self)
                guard UInt64(buffer.pointee.pts) >= l.measuredFrom else { return GST_PAD_PROBE_OK }
                let due = l.base &+ UInt64(buffer.pointee.pts) &+ l.latency
                let late = Int64(bitPattern: UInt64(gst_clock_get_time(clock)) &- due)
                l.lock.withLock { $0.append(late) }
                return GST_PAD_PROBE_OK
            }, context, nil)

        // A live pipeline reaches PLAYING once frames flow: the clock and
        // base time are known at once, the latency once the sink has a frame.
        _ = gst_element_set_state(pipeline, GST_STATE_PLAYING)
        var clockOrNil: UnsafeMutablePointer<GstClock>?
        for _ in 0..<500 where clockOrNil == nil {
            clockOrNil = gst_element_get_clock(pipeline)
            if clockOrNil == nil { usleep(10_000) }
        }
        let clock = try XCTUnwrap(clockOrNil, "no clock")
        defer { gst_object_unref(clock) }
        let base = UInt64(gst_element_get_base_time(pipeline))
        lateness.clock = clock
        lateness.base = base
        lateness.measuredFrom = measuredFrom

        // Frame i is captured at running time i x interval, as a camera would.
        for i in 0..<count {
            let capture = UInt64(i) * interval
            let now = UInt64(gst_clock_get_time(clock)) &- base
            if now < capture { usleep(UInt32((capture - now) / 1000)) }
            let frame = try buffer(canvas.pixels, pts: UInt(capture), duration: UInt(interval))
            _ = emit(src, "push-buffer", buffer: frame, returnsFlow: true)
            gst_buffer_unref(frame)
            if i == 5 {
                var state = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
                _ = gst_element_get_state(pipeline, &state, &pending, 2 * 1_000_000_000)
                let query = try XCTUnwrap(gst_query_new_latency())
                defer { gst_query_unref(query) }
                var live: gboolean = 0, minimum: GstClockTime = 0, maximum: GstClockTime = 0
                XCTAssertNotEqual(gst_element_query(pipeline, query), 0, "latency query")
                gst_query_parse_latency(query, &live, &minimum, &maximum)
                lateness.latency = UInt64(minimum)
                lateness.ready.store(true, ordering: .releasing)
            }
        }
        _ = emit(src, "end-of-stream", returnsFlow: true)
        let bus = gst_element_get_bus(pipeline)
        defer { gst_object_unref(bus) }
        var symbols: [String] = []
        var ended = false
        let deadline = Date().addingTimeInterval(30)
        while !ended, Date() < deadline, let message = gst_bus_timed_pop(bus, 1_000_000_000) {
            defer { gst_message_unref(message) }
            switch message.pointee.type {
            case GST_MESSAGE_EOS: ended = true
            case GST_MESSAGE_ERROR: XCTFail(problemText(message)); ended = true
            case GST_MESSAGE_ELEMENT:
                if let st = gst_message_get_structure(message),
                    String(cString: gst_structure_get_name(st)) == "barcode",
                    let symbol = readStructure(st)["symbol"]?.string
                {
                    symbols.append(symbol)
                }
            default: break
            }
        }
        XCTAssertTrue(ended, "no EOS within 30 s")
        let skipped = Int(propertyText(element, "frames-skipped")) ?? -1
        let analysed = Int(propertyText(element, "frames-analysed")) ?? -1
        _ = gst_element_set_state(pipeline, GST_STATE_NULL)
        let late = lateness.lock.withLock { $0 }
        let lateCount = late.filter { $0 > 0 }.count
        let worst = late.max() ?? 0
        print(
            "live 60 fps thorough: \(late.count) frames measured at the sink, \(lateCount) late, worst "
                + "\(worst / 1_000_000) ms, latency \(lateness.latency / 1_000_000) ms, \(analysed) analysed, \(skipped) skipped"
        )
        let measured = (0..<count).filter { UInt64($0) * interval >= measuredFrom }.count
        XCTAssertEqual(late.count, measured, "every frame reaches the sink")
        // Frames are skipped where analysis falls behind; a machine fast
        // enough to analyse every frame must have kept each within a
        // frame's interval of its time.
        XCTAssertTrue(
            skipped > 0 || worst < Int64(interval), "\(skipped) frames skipped, worst \(worst / 1_000_000) ms late")
        XCTAssertGreaterThan(analysed, 0, "frames analysed")
        // At most one look a second (analysis of a late frame, 100 ms, which
        // a debug build overruns by 100-200 ms), each making the frames
        // behind it late: up to a quarter of them at 60 fps.
        XCTAssertLessThanOrEqual(lateCount, measured / 3, "late frames: \(late.map { $0 / 1_000_000 })")
        XCTAssertLessThan(worst, 500_000_000, "worst lateness")
        XCTAssertTrue(symbols.contains(Codes.ean13Text), "the code in view is read: \(symbols)")
    }

    // MARK: Attached frames

    /// `attach-frame=true report=every-frame` and nobody reads the bus
    /// while 120 frames with a code flow: every frame posts its message,
    /// but at most 16 of them carry a frame; once the bus is read (the
    /// messages freed), messages carry frames again.
    func testAttachedFramesStayWithinTheirLimitWhileNobodyReadsTheBus() throws {
        var canvas = Canvas(width: 160, height: 100)
        let modules = try Zint.modules(symbology: 13, data: Codes.ean13Data)
        canvas.drawLinear(modules, x: 5, y: 20, moduleWidth: 1, barHeight: 60)
        let pipeline = try launchPipeline(
            "appsrc name=src format=time caps=\"video/x-raw,format=GRAY8,width=160,height=100,"
                + "framerate=30/1\" ! rlbarcode attach-frame=true report=every-frame ! "
                + "appsink name=sink sync=false")
        defer { gst_object_unref(pipeline) }
        let src = try child(pipeline, "src"), sinkElement = try child(pipeline, "sink")
        defer { gst_object_unref(src); gst_object_unref(sinkElement) }
        let sink = UnsafeMutablePointer<GstAppSink>(OpaquePointer(sinkElement))
        let bus = gst_element_get_bus(pipeline)
        defer { gst_object_unref(bus) }
        _ = gst_element_set_state(pipeline, GST_STATE_PLAYING)

        /// Pushes `n` frames from frame `first` on and takes them at the sink.
        func flow(_ first: Int, _ n: Int) throws {
            for i in first..<first + n {
                let frame = try buffer(canvas.pixels, pts: UInt(i) * 33_333_333, duration: 33_333_333)
                _ = emit(src, "push-buffer", buffer: frame, returnsFlow: true)
                gst_buffer_unref(frame)
                let sample = try XCTUnwrap(gst_app_sink_try_pull_sample(sink, 30 * 1_000_000_000), "frame \(i)")
                gst_sample_unref(sample)
            }
        }
        /// The `barcode` messages on the bus (popped), and how many carry a frame.
        func drain() -> (messages: Int, withFrame: Int) {
            var messages = 0, withFrame = 0
            while let message = gst_bus_pop(bus) {
                defer { gst_message_unref(message) }
                guard message.pointee.type == GST_MESSAGE_ELEMENT, let st = gst_message_get_structure(message),
                    String(cString: gst_structure_get_name(st)) == "barcode"
                else { continue }
                messages += 1
                if gst_structure_has_field(st, "frame") != 0 { withFrame += 1 }
            }
            return (messages, withFrame)
        }
        try flow(0, 120)
        let first = drain()
        XCTAssertGreaterThan(first.messages, 100, "a message a frame")
        XCTAssertEqual(first.withFrame, 16, "frames attached while nobody read the bus")
        try flow(120, 10)
        let second = drain()
        XCTAssertGreaterThan(second.messages, 5)
        XCTAssertEqual(second.withFrame, second.messages, "frames attached again once the messages were freed")
        _ = gst_element_set_state(pipeline, GST_STATE_NULL)
    }
}
