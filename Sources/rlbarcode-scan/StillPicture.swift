import CGStreamer
import Foundation
import RLBarcode

/// What reading a file as a still picture gave.
enum StillOutcome {
    /// The picture was decoded and scanned, in `seconds` (the scan alone);
    /// `warnings` are what the decoders said about damaged data.
    case scanned([BarcodeResult], seconds: Double, warnings: [String])
    /// The file is a video (more than one frame): scan it through the element.
    case video
    /// The file could not be read or decoded.
    case failure(String)
}

/// Decodes still pictures through GStreamer into 8-bit luma and scans them.
///
/// Each picture gets a small pipeline of its own,
/// `filesrc ! decodebin ! videoconvert ! video/x-raw,format=GRAY8 ! appsink`,
/// which is prerolled to obtain the one frame: setting such a pipeline up
/// costs a few milliseconds once GStreamer is initialized.
struct StillPictureReader {
    /// The pipeline description; `src` and `sink` are looked up by name.
    static let description =
        "filesrc name=src ! decodebin ! videoconvert ! video/x-raw,format=GRAY8 "
        + "! appsink name=sink sync=false max-buffers=1 enable-last-sample=false"

    /// How long a picture may take to decode.
    var timeout: GstClockTime = 20 * Gst.second
    /// The largest picture scanned, in pixels (0: no limit), for formats
    /// whose header ``FileLayout`` does not read.
    var maxPixels = defaultMaxPixels

    /// Reads `path` and, if it is a still picture, scans it with `scanner`;
    /// `inspect`, when given, sees the picture and its codes while the
    /// pixels are still mapped.
    func scan(
        path: String, with scanner: RLBarcode.Scanner,
        inspect: ((LumaView, [BarcodeResult]) -> Void)? = nil
    ) -> StillOutcome {
        let pipeline: Pipeline
        switch Gst.parse(Self.description) {
        case .success(let element): pipeline = Pipeline(element)
        case .failure(let error): return .failure("cannot build the decoding pipeline: \(error.message)")
        }
        guard let src = Gst.child(pipeline.element, "src"), let sinkElement = Gst.child(pipeline.element, "sink")
        else { return .failure("cannot build the decoding pipeline") }
        defer { gst_object_unref(src); gst_object_unref(sinkElement) }
        Gst.setString(src, "location", path)

        if !pipeline.setState(GST_STATE_PAUSED) {
            return .failure(pipeline.pendingError() ?? "cannot start decoding")
        }
        var state = GST_STATE_NULL, pending = GST_STATE_NULL
        let change = gst_element_get_state(pipeline.element, &state, &pending, timeout)
        if change == GST_STATE_CHANGE_FAILURE {
            return .failure(pipeline.pendingError() ?? "cannot decode")
        }
        if change == GST_STATE_CHANGE_ASYNC {
            return .failure("decoding timed out after \(timeout / Gst.second) s")
        }

        let sink = UnsafeMutablePointer<GstAppSink>(OpaquePointer(sinkElement))
        guard let sample = gst_app_sink_try_pull_preroll(sink, 0) else {
            return .failure(pipeline.pendingError() ?? "no picture in the file")
        }
        defer { gst_sample_unref(sample) }
        guard let caps = gst_sample_get_caps(sample), let buffer = gst_sample_get_buffer(sample) else {
            return .failure("no picture in the file")
        }
        var info = GstVideoInfo()
        guard gst_video_info_from_caps(&info, caps) != 0 else {
            return .failure("unexpected picture format")
        }
        if Self.isVideo(info: info, pipeline: pipeline.element) { return .video }

        var frame = GstVideoFrame()
        guard gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ) != 0 else {
            return .failure("cannot map the decoded picture")
        }
        defer { gst_video_frame_unmap(&frame) }
        let width = Int(frame.info.width), height = Int(frame.info.height), stride = Int(frame.info.stride.0)
        guard let data = frame.data.0, width > 0, height > 0, stride >= width else {
            return .failure("empty picture")
        }
        if let refusal = pixelLimitRefusal(width: width, height: height, limit: maxPixels) { return .failure(refusal) }
        let luma = LumaView(
            base: UnsafePointer(data.assumingMemoryBound(to: UInt8.self)),
            width: width, height: height, stride: stride)
        let start = DispatchTime.now().uptimeNanoseconds
        let results = scanner.scan(luma)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        inspect?(luma, results)
        return .scanned(results, seconds: seconds, warnings: pipeline.pendingWarnings())
    }

    /// Whether the decoded stream is a video: it has a frame rate and lasts
    /// (or may last) longer than one frame. Pictures decode at 0/1 fps.
    static func isVideo(info: GstVideoInfo, pipeline: UnsafeMutablePointer<GstElement>) -> Bool {
        guard info.fps_n > 0, info.fps_d > 0 else { return false }
        var duration: gint64 = -1
        let frameNs = Double(Gst.second) * Double(info.fps_d) / Double(info.fps_n)
        if gst_element_query_duration(pipeline, GST_FORMAT_TIME, &duration) != 0, duration >= 0 {
            return Double(duration) > 1.5 * frameNs
        }
        return true
    }
}

/// Why a picture of `width` by `height` pixels is refused under `limit`
/// (0: no limit), or nil when it is not.
func pixelLimitRefusal(width: Int, height: Int, limit: Int) -> String? {
    let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
    guard limit > 0, overflow || pixels > limit else { return nil }
    return "\(width)x\(height) pixels is more than the limit of \(limit) pixels "
        + "(--max-pixels N raises the limit, 0 removes it)"
}

/// File name extensions that are taken as video files without probing.
let videoExtensions: Set<String> = [
    "mp4", "m4v", "mov", "mkv", "webm", "avi", "ts", "mts", "m2ts", "mpg", "mpeg",
    "ogv", "flv", "3gp", "wmv", "y4m", "mxf", "h264", "264"
]

/// Checks that `path` names a readable regular file; returns why not.
func unreadableReason(_ path: String) -> String? {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        return "no such file"
    }
    if isDirectory.boolValue { return "is a directory" }
    guard FileManager.default.isReadableFile(atPath: path) else { return "permission denied" }
    return nil
}
