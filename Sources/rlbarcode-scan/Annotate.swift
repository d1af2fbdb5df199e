import CGStreamer
import Foundation
import RLBarcode

/// Writes the PNG pictures of `--annotate DIR`: each still picture with the
/// outlines of its codes, and each video frame in which a code was reported
/// (drawn by the element with `draw=true`, outlines and labels).
final class Annotator {
    /// The folder the pictures go to.
    let folder: String
    /// File names already used in this run, so that two inputs with the same
    /// base name do not overwrite each other.
    private var used = Set<String>()
    /// Per video path: the frames already written.
    private var framesWritten: [String: Set<Int>] = [:]

    /// The colour of outlines on still pictures (opaque green, as the element's default).
    static let outline: (r: UInt8, g: UInt8, b: UInt8) = (0, 255, 0)

    /// An annotator writing into `folder`, which is created when missing.
    ///
    /// - Throws: a message when the folder cannot be created or is not a folder.
    init(folder: String) throws(Arguments.UsageError) {
        self.folder = folder
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw Arguments.UsageError(message: "--annotate: \(folder) is not a folder")
            }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw Arguments.UsageError(
                    message: "--annotate: cannot create \(folder): \(error.localizedDescription)")
            }
        }
    }

    /// A file name in the folder, from the input's base name and `suffix`,
    /// made unique within this run.
    private func outputPath(for input: String, suffix: String) -> String {
        let base = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
        var name = base + suffix + ".png"
        var n = 2
        while used.contains(name) {
            name = "\(base)\(suffix)-\(n).png"
            n += 1
        }
        used.insert(name)
        return (folder as NSString).appendingPathComponent(name)
    }

    /// Writes a still picture (its luma, as grey) with the outlines of
    /// `results`; returns an error message on failure.
    func writeStill(path: String, luma: LumaView, results: [BarcodeResult]) -> String? {
        let width = luma.width, height = luma.height
        var rgbx = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            let row = luma.base + y * luma.stride
            for x in 0..<width {
                let v = row[x], i = (y * width + x) * 4
                rgbx[i] = v; rgbx[i + 1] = v; rgbx[i + 2] = v
            }
        }
        let thickness = max(2, min(width, height) / 150)
        for result in results where result.corners.count == 4 {
            for k in 0..<4 {
                let a = result.corners[k], b = result.corners[(k + 1) % 4]
                drawLine(&rgbx, width: width, height: height, from: a, to: b, thickness: thickness)
            }
        }
        let caps = "video/x-raw,format=RGBx,width=\(width),height=\(height),framerate=0/1"
        return rgbx.withUnsafeBytes { bytes in
            PNGEncoder.write(caps: caps, bytes: bytes, to: outputPath(for: path, suffix: ""))
        }
    }

    /// Writes the frame of a `barcode` message (`frame` field, a GstSample),
    /// once per frame index; returns an error message on failure.
    func writeFrame(path: String, frameIndex: Int?, sample: OpaquePointer) -> String? {
        let index = frameIndex ?? -1
        if index >= 0 {
            if framesWritten[path, default: []].contains(index) { return nil }
            framesWritten[path, default: []].insert(index)
        }
        let digits = String(max(index, 0))
        let suffix = "-frame" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
        return PNGEncoder.write(sample: sample, to: outputPath(for: path, suffix: suffix))
    }

    /// Draws a line of `thickness` pixels between two points, clipped to the picture.
    private func drawLine(_ rgbx: inout [UInt8], width: Int, height: Int, from a: Point, to b: Point, thickness: Int) {
        let dx = b.x - a.x, dy = b.y - a.y
        let steps = max(1, Int(max(abs(dx), abs(dy)).rounded(.up)))
        guard steps < 1_000_000, a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { return }
        let half = thickness / 2
        for s in 0...steps {
            let t = Double(s) / Double(steps)
            let cx = Int((a.x + dx * t).rounded()), cy = Int((a.y + dy * t).rounded())
            for y in (cy - half)...(cy - half + thickness - 1) where y >= 0 && y < height {
                for x in (cx - half)...(cx - half + thickness - 1) where x >= 0 && x < width {
                    let i = (y * width + x) * 4
                    rgbx[i] = Self.outline.r; rgbx[i + 1] = Self.outline.g; rgbx[i + 2] = Self.outline.b
                }
            }
        }
    }
}

/// Encodes one raw video frame to a PNG file with GStreamer:
/// `appsrc ! videoconvert ! pngenc ! filesink`.
enum PNGEncoder {
    /// The pipeline description; `src` and `sink` are looked up by name.
    static let description = "appsrc name=src format=time ! videoconvert ! pngenc ! filesink name=sink"

    /// Writes the frame held in `sample` (a buffer with its caps) to `path`.
    static func write(sample: OpaquePointer, to path: String) -> String? {
        guard let caps = gst_sample_get_caps(sample), let buffer = gst_sample_get_buffer(sample) else {
            return "the message's frame has no picture"
        }
        return run(caps: caps, buffer: gst_buffer_ref(buffer), to: path)
    }

    /// Writes packed pixels described by `caps` (a caps string) to `path`.
    static func write(caps text: String, bytes: UnsafeRawBufferPointer, to path: String) -> String? {
        guard let caps = gst_caps_from_string(text) else { return "bad caps \(text)" }
        defer { gst_caps_unref(caps) }
        guard let buffer = gst_buffer_new_allocate(nil, gsize(bytes.count), nil) else { return "out of memory" }
        _ = gst_buffer_fill(buffer, 0, bytes.baseAddress, gsize(bytes.count))
        return run(caps: caps, buffer: buffer, to: path)
    }

    /// Pushes `buffer` (a reference taken over) with `caps` through the
    /// encoding pipeline and waits for the file to be written.
    private static func run(
        caps: UnsafeMutablePointer<GstCaps>, buffer: UnsafeMutablePointer<GstBuffer>,
        to path: String
    ) -> String? {
        let pipeline: Pipeline
        switch Gst.parse(description) {
        case .success(let element): pipeline = Pipeline(element)
        case .failure(let error):
            gst_buffer_unref(buffer)
            return "cannot build the PNG pipeline: \(error.message)"
        }
        guard let src = Gst.child(pipeline.element, "src"), let sink = Gst.child(pipeline.element, "sink") else {
            gst_buffer_unref(buffer)
            return "cannot build the PNG pipeline"
        }
        defer { gst_object_unref(src); gst_object_unref(sink) }
        Gst.setString(sink, "location", path)
        setCaps(src, caps)
        guard pipeline.setState(GST_STATE_PLAYING) else {
            gst_buffer_unref(buffer)
            return pipeline.pendingError() ?? "cannot start the PNG pipeline"
        }
        emit(src, "push-buffer", buffer: buffer)
        gst_buffer_unref(buffer)
        emit(src, "end-of-stream", buffer: nil)
        let wanted = GstMessageType(rawValue: GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_EOS.rawValue)
        guard let msg = gst_bus_timed_pop_filtered(pipeline.bus, 30 * Gst.second, wanted) else {
            return "writing \(path) timed out"
        }
        defer { gst_message_unref(msg) }
        if msg.pointee.type == GST_MESSAGE_ERROR { return "cannot write \(path): \(Gst.errorText(msg))" }
        return nil
    }

    // appsrc's C API lives in a header the CGStreamer module does not
    // include; its properties and action signals do the same.

    /// Sets appsrc's `caps` property.
    private static func setCaps(_ src: UnsafeMutablePointer<GstElement>, _ caps: UnsafeMutablePointer<GstCaps>) {
        var value = GValue()
        g_value_init(&value, gst_caps_get_type())
        g_value_set_boxed(&value, caps)
        g_object_set_property(Gst.object(src), "caps", &value)
        g_value_unset(&value)
    }

    /// Emits appsrc's action signal `name` (`push-buffer` with a buffer, which
    /// it refs, or `end-of-stream`).
    private static func emit(
        _ src: UnsafeMutablePointer<GstElement>, _ name: String,
        buffer: UnsafeMutablePointer<GstBuffer>?
    ) {
        let object = Gst.object(src)
        let type = object.pointee.g_type_instance.g_class.pointee.g_type
        let signal = g_signal_lookup(name, type)
        guard signal != 0 else { return }
        var params = [GValue](repeating: GValue(), count: buffer == nil ? 1 : 2)
        g_value_init(&params[0], type)
        g_value_set_object(&params[0], object)
        if let buffer {
            g_value_init(&params[1], gst_buffer_get_type())
            g_value_set_boxed(&params[1], buffer)
        }
        var result = GValue()
        g_value_init(&result, gst_flow_return_get_type())
        g_signal_emitv(&params, signal, 0, &result)
        for i in params.indices { g_value_unset(&params[i]) }
        g_value_unset(&result)
    }
}
