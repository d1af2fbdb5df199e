import CGStreamer
import Foundation
import XCTest

/// Frames whose memory another holder keeps too (a `tee`, an application
/// that keeps its buffers): the element reads them where they are and
/// copies one only to draw on it, leaving the other holder's pixels as
/// they were.
final class SharedMemoryTests: XCTestCase {
    override func setUpWithError() throws {
        switch gstreamerReady {
        case .success: break
        case .failure(let error): XCTFail("\(error)"); throw error
        }
    }

    /// What one frame pushed with shared memory gave.
    private struct Outcome {
        /// Whether the frame left in the memory it came in.
        var sameMemory: Bool
        var input: [UInt8]
        var output: [UInt8]
        /// The shared memory's bytes once the frame came out.
        var held: [UInt8]
        /// `barcode` messages posted.
        var codes: Int
    }

    /// Pushes `canvas` as one GRAY8 frame through
    /// `appsrc ! rlbarcode PROPERTIES ! appsink`, its memory held by the
    /// test as well.
    private func push(_ canvas: Canvas, properties: String, live: Bool) throws -> Outcome {
        let caps = "video/x-raw,format=GRAY8,width=\(canvas.width),height=\(canvas.height),framerate=30/1"
        let pipeline = try launchPipeline(
            "appsrc name=src format=time is-live=\(live) caps=\(caps) ! rlbarcode name=bc \(properties)"
                + " ! appsink name=sink sync=false")
        defer { gst_object_unref(pipeline) }
        let bin = UnsafeMutablePointer<GstBin>(OpaquePointer(pipeline))
        let src = try XCTUnwrap(gst_bin_get_by_name(bin, "src"))
        let sinkElement = try XCTUnwrap(gst_bin_get_by_name(bin, "sink"))
        defer { gst_object_unref(src); gst_object_unref(sinkElement) }
        _ = gst_element_set_state(pipeline, GST_STATE_PLAYING)

        let input = canvas.pixels
        let buffer = try XCTUnwrap(gst_buffer_new_allocate(nil, gsize(input.count), nil))
        _ = input.withUnsafeBytes { gst_buffer_fill(buffer, 0, $0.baseAddress, gsize($0.count)) }
        buffer.pointee.pts = 0
        buffer.pointee.duration = 33_333_333
        // The other holder keeps its reference to the buffer, as a tee's other branch does.
        defer { gst_buffer_unref(buffer) }
        let memory = gst_buffer_peek_memory(buffer, 0)
        _ = emit(src, "push-buffer", buffer: buffer, returnsFlow: true)

        let sink = UnsafeMutablePointer<GstAppSink>(OpaquePointer(sinkElement))
        let sample = try XCTUnwrap(gst_app_sink_try_pull_sample(sink, 20 * 1_000_000_000), "no frame came out")
        defer { gst_sample_unref(sample) }
        let out = try XCTUnwrap(gst_sample_get_buffer(sample))
        let sameMemory = gst_buffer_n_memory(out) == 1 && gst_buffer_peek_memory(out, 0) == memory
        var info = GstMapInfo()
        var output: [UInt8] = [], held: [UInt8] = []
        if gst_buffer_map(out, &info, GST_MAP_READ) != 0 {
            output = Array(UnsafeBufferPointer(start: info.data, count: Int(info.size)))
            gst_buffer_unmap(out, &info)
        }
        if gst_buffer_map(buffer, &info, GST_MAP_READ) != 0 {
            held = Array(UnsafeBufferPointer(start: info.data, count: Int(info.size)))
            gst_buffer_unmap(buffer, &info)
        }

        _ = gst_element_set_state(pipeline, GST_STATE_READY)
        let bus = gst_element_get_bus(pipeline)
        defer { gst_object_unref(bus) }
        var codes = 0
        while let message = gst_bus_pop(bus) {
            defer { gst_message_unref(message) }
            if message.pointee.type == GST_MESSAGE_ELEMENT, let st = gst_message_get_structure(message),
                readStructure(st).name == "barcode"
            {
                codes += 1
            }
        }
        _ = gst_element_set_state(pipeline, GST_STATE_NULL)
        return Outcome(sameMemory: sameMemory, input: input, output: output, held: held, codes: codes)
    }

    /// A 320x240 frame with the EAN-13 test code, 2 px per module.
    private func codeCanvas() throws -> Canvas {
        var canvas = Canvas(width: 320, height: 240)
        canvas.drawLinear(try Zint.modules(symbology: 13, data: Codes.ean13Data), x: 30, y: 80)
        return canvas
    }

    /// Pushes `canvas` live and not live and checks what came out: the
    /// codes posted, whether the frame was copied (`drawn`: copied and its
    /// copy drawn on), and that the other holder's pixels never change.
    private func expect(_ canvas: Canvas, properties: String, codes: Int, drawn: Bool) throws {
        for live in [false, true] {
            let o = try push(canvas, properties: properties, live: live)
            let what = "live \(live), \(properties.isEmpty ? "defaults" : properties)"
            XCTAssertEqual(o.codes, codes, "\(what): needs the engine")
            XCTAssertEqual(o.sameMemory, !drawn, "\(what): copied \(!o.sameMemory)")
            XCTAssertEqual(o.output == o.input, !drawn, "\(what): pixels changed \(o.output != o.input)")
            XCTAssertTrue(o.held == o.input, "\(what): the other holder's pixels changed")
        }
    }

    func testSharedFrameIsScannedWithoutACopy() throws {
        try expect(try codeCanvas(), properties: "", codes: 1, drawn: false)
    }

    func testDrawingOnASharedFrameCopiesItFirst() throws {
        try expect(try codeCanvas(), properties: "draw=true", codes: 1, drawn: true)
    }

    func testSharedFrameWithNothingToDrawIsNotCopied() throws {
        try expect(Canvas(width: 320, height: 240), properties: "draw=true", codes: 0, drawn: false)
    }
}
