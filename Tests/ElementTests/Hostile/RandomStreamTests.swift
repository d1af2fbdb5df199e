import CGStreamer
import Foundation
import XCTest

/// Seeded random streams through `appsrc ! rlbarcode ! appsink`: random
/// formats and sizes (renegotiated mid-stream), buffers of random sizes
/// with honest, random or absent video metas, property changes and pauses
/// between buffers. Nothing may crash or stall, every buffer comes out,
/// and each is either analysed or rejected (`frames-analysed` +
/// `frames-rejected` = buffers pushed).
final class RandomStreamTests: XCTestCase {
    override func setUpWithError() throws {
        switch gstreamerReady {
        case .success: break
        case .failure(let error): XCTFail("\(error)"); throw error
        }
    }

    /// A 64-bit linear congruential generator (Knuth's MMIX constants),
    /// its high half out: the same stream for the same seed, everywhere.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 32 | (state << 32)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    }

    static let formats = ["NV12", "NV21", "I420", "YV12", "GRAY8", "Y42B", "Y444", "NV16", "NV24"]

    /// A random claim about a frame's layout, near the honest one or not.
    private func randomMeta(_ r: inout Random, honest: FrameLayout, format: String, width: Int, height: Int)
        -> ClaimedLayout?
    {
        var claim = ClaimedLayout(
            format: format, width: width, height: height, offsets: honest.offsets,
            strides: honest.strides)
        switch r.below(8) {
        case 0: return nil
        case 1: return claim
        case 2: claim.strides = claim.strides.map { $0 + r.below(3) * 2048 - 2048 }
        case 3: claim.offsets = claim.offsets.map { $0 + r.below(honest.size + 1) }
        case 4: claim.width = 1 + r.below(4 * width); claim.height = 1 + r.below(4 * height)
        case 5:
            claim.offsets = Array(claim.offsets.prefix(1 + r.below(4)))
            claim.strides = Array(claim.strides.prefix(claim.offsets.count))
        case 6: claim.format = r.pick(Self.formats)
        default: claim.strides = claim.strides.map { _ in Int(Int32.max) - r.below(3) }
        }
        return claim
    }

    /// Several seeded streams of 40 buffers each.
    func testRandomStreamsNeitherCrashNorLoseBuffers() throws {
        for seed: UInt64 in [1, 2, 3, 0x5EED] {
            try runStream(seed: seed, buffers: 40)
        }
    }

    /// A stream found by this harness is kept here as it was: NV12 641x479
    /// in 506 176 bytes with meta strides of 1408 (it crashed the element).
    func testRegressionStrideBeyondTheBuffer() throws {
        let pipeline = try launchPipeline(
            "appsrc name=src format=time caps=\"video/x-raw,format=NV12,width=641,"
                + "height=479,framerate=30/1\" ! rlbarcode name=bc ! appsink name=sink sync=false")
        defer { gst_object_unref(pipeline) }
        let out = try pushAndCount(
            pipeline,
            [
                (
                    [UInt8](repeating: 7, count: 506_176),
                    ClaimedLayout(
                        format: "NV12", width: 641, height: 479, offsets: [0, 337_216], strides: [1408, 1408]),
                    nil
                )
            ])
        XCTAssertEqual(out.received, 1)
        XCTAssertEqual(out.rejected, 1)
    }

    /// One seeded stream.
    private func runStream(seed: UInt64, buffers: Int) throws {
        var r = Random(state: seed)
        let pipeline = try launchPipeline(
            "appsrc name=src format=time ! rlbarcode name=bc ! appsink name=sink sync=false")
        defer { gst_object_unref(pipeline) }
        var items: [([UInt8], ClaimedLayout?, String?)] = []
        var caps = ""
        for _ in 0..<buffers {
            if caps.isEmpty || r.below(6) == 0 {
                let format = r.pick(Self.formats)
                let (w, h) = (1 + r.below(48), 1 + r.below(40))
                caps =
                    "video/x-raw,format=\(format),width=\(w),height=\(h),framerate=\(r.pick(["30/1", "0/1", "60/1"]))"
            }
            let c = try XCTUnwrap(gst_caps_from_string(caps))
            var info = GstVideoInfo()
            XCTAssertNotEqual(gst_video_info_from_caps(&info, c), 0)
            gst_caps_unref(c)
            let format = String(cString: info.finfo.pointee.name)
            let frame = TestFrame(
                format: format, width: Int(info.width), height: Int(info.height), luma: [],
                rowPadding: r.below(2) * (1 + r.below(9)))
            let honest = try XCTUnwrap(layout(of: frame))
            let meta = randomMeta(&r, honest: honest, format: format, width: frame.width, height: frame.height)
            let size = r.below(4) == 0 ? r.below(2 * honest.size + 1) : honest.size
            let bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: r.next()) }
            items.append((bytes, meta, caps))
        }
        let out = try pushAndCount(pipeline, items) { element, i, random in
            // Property changes between buffers.
            switch random % 5 {
            case 0: setProperty(element, "effort", ["fast", "balanced", "thorough"][i % 3])
            case 1: setProperty(element, "draw", i % 2 == 0 ? "true" : "false")
            case 2: setProperty(element, "attach-frame", i % 2 == 0 ? "true" : "false")
            default: break
            }
        } random: {
            r.next()
        }
        XCTAssertEqual(out.received, buffers, "seed \(seed): a buffer was lost")
        XCTAssertEqual(
            out.analysed + out.rejected, buffers, "seed \(seed): analysed \(out.analysed), rejected \(out.rejected)")
        XCTAssertTrue(out.errors.isEmpty, "seed \(seed): \(out.errors)")
    }

    /// Pushes `items` (bytes, meta, caps to set first), each once the one
    /// before it came out; what came out and the element's counters.
    private func pushAndCount(
        _ pipeline: UnsafeMutablePointer<GstElement>,
        _ items: [([UInt8], ClaimedLayout?, String?)],
        between: ((UnsafeMutablePointer<GstElement>, Int, UInt64) -> Void)? = nil,
        random: () -> UInt64 = { 0 }
    ) throws
        -> (received: Int, analysed: Int, rejected: Int, errors: [String])
    {
        let bin = UnsafeMutablePointer<GstBin>(OpaquePointer(pipeline))
        let src = try XCTUnwrap(gst_bin_get_by_name(bin, "src"))
        let element = try XCTUnwrap(gst_bin_get_by_name(bin, "bc"))
        let sinkElement = try XCTUnwrap(gst_bin_get_by_name(bin, "sink"))
        defer { gst_object_unref(src); gst_object_unref(element); gst_object_unref(sinkElement) }
        let sink = UnsafeMutablePointer<GstAppSink>(OpaquePointer(sinkElement))
        _ = gst_element_set_state(pipeline, GST_STATE_PLAYING)
        var received = 0
        var lastCaps: String?
        for (i, item) in items.enumerated() {
            between?(element, i, random())
            if let caps = item.2, caps != lastCaps {
                setProperty(src, "caps", caps)
                lastCaps = caps
            }
            let buffer = try XCTUnwrap(
                makeBuffer(
                    item.0, meta: item.1, pts: UInt(i) * 33_333_333,
                    duration: 33_333_333))
            _ = emit(src, "push-buffer", buffer: buffer, returnsFlow: true)
            gst_buffer_unref(buffer)
            if let sample = gst_app_sink_try_pull_sample(sink, 60 * 1_000_000_000) {
                received += 1
                gst_sample_unref(sample)
            }
        }
        let analysed = Int(propertyText(element, "frames-analysed")) ?? -1
        let rejected = Int(propertyText(element, "frames-rejected")) ?? -1
        var errors: [String] = []
        let bus = gst_element_get_bus(pipeline)
        while let message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR) {
            errors.append(problemText(message))
            gst_message_unref(message)
        }
        gst_object_unref(bus)
        _ = gst_element_set_state(pipeline, GST_STATE_NULL)
        return (received, analysed, rejected, errors)
    }
}
