import CGStreamer
import RLBarcode

// What exists while streaming, as gst-plugins-rs elements keep their
// State: the streaming thread's alone (an analysis thread touches it only
// while it holds the stream lock), built in `set_info`, dropped in `stop`,
// so that nothing of a stream outlives it.
extension RLBarcodeElement {
    /// The stream with its current caps: built in `set_info` (again on
    /// every caps change, keeping ``stream``), dropped in `stop`.
    final class State {
        /// What outlives a caps change.
        let stream: Stream
        /// The decoder; reuses its memory from frame to frame.
        let scanner: Scanner
        /// The negotiated caps (a reference we own), for `attach-frame` samples.
        let caps: UnsafeMutablePointer<GstCaps>
        /// Frame width from the caps.
        let width: Int
        /// Frame height from the caps.
        let height: Int
        /// Whether the stream is a still picture (framerate 0/1, as image
        /// decoders produce): it gets still-picture depth.
        var isStillPicture = false
        /// The negotiated video info, for mapping frames analysed ahead.
        var info = GstVideoInfo()
        /// Whether frames may be analysed ahead (``FramePipeline``): video
        /// from a source that is not live.
        var aheadAllowed = false
        /// Whether upstream is live: frames are paced by the time left
        /// before they are due (``LivePacing``).
        var isLive = false
        /// The last frame's running time (or its stand-in when frames carry no timestamps).
        var lastNow: UInt64?
        /// Video frames given to analysis so far (the last one's number).
        var framesAnalysed = 0
        /// Codes of the current frame, reused from frame to frame.
        var pending: [PendingCode] = []
        /// The current frame's copy for `attach-frame`, when it is not the
        /// frame itself (``FrameSnapshot``).
        var snapshot: FrameSnapshot?
        /// Settings copied at the start of the current frame.
        var frameSettings = Settings()
        /// PTS of the current frame (or `GST_CLOCK_TIME_NONE`).
        var pts = clockTimeNone
        /// Duration of the current frame (or `GST_CLOCK_TIME_NONE`).
        var duration = clockTimeNone
        /// The tracking clock for the current frame (running time, or its stand-in).
        var now: UInt64 = 0

        /// Creates the state; `caps` is a reference the state now owns.
        init(
            stream: Stream, scanner: Scanner, caps: UnsafeMutablePointer<GstCaps>, width: Int, height: Int
        ) {
            self.stream = stream
            self.scanner = scanner
            self.caps = caps
            self.width = width
            self.height = height
            pending.reserveCapacity(16)
        }

        deinit { gst_caps_unref(caps) }
    }

    /// What lasts from the stream's first caps to `stop`, whatever caps
    /// come between: the session, the pacing, the analysis threads of
    /// frames analysed ahead, and what was warned about.
    final class Stream {
        /// The session's codes.
        var tracker = CodeTracker()
        /// Everything the session saw, and its status.
        var session = ScanSession()
        /// The `clear-results` generation the tracker has seen.
        var clearGeneration: UInt64
        /// The live stream's pacing.
        var pacing = LivePacing()
        /// Whether the "buffer not writable" warning was given (once a stream).
        var warnedUnwritable = false
        /// Whether a buffer with planes outside its memory was warned
        /// about (``acceptsPlanes(_:)``; again after a stream start).
        var warnedRejected = false
        /// Whether a reverse segment without a stop was warned about (once
        /// a stream): it has no running time.
        var warnedNoRunningTime = false
        /// Messages posted without their frame because of the limits of
        /// ``attachedFrames`` (for the log).
        var framesNotAttached = 0
        /// Frames whose analysis stopped at its time limit (for the log).
        var timedOutFrames = 0
        /// The analysis threads of a stream that is not live (made on
        /// first use, stopped in `stop`); see ``FramePipeline``.
        var pipeline: FramePipeline?
        /// Whether making ``pipeline`` failed (then frames are analysed one at a time).
        var pipelineFailed = false
        /// Whether the frame that came in last has had a frame go out for it.
        var tookOne = false
        /// Set around the base class's output step while frames are
        /// analysed ahead: ``transformFrame(_:)`` then leaves the frame's
        /// ``FramePrep`` in ``handoff`` instead of scanning.
        var handingOff = false
        /// See ``handingOff``.
        var handoff: FramePrep?

        /// A stream whose tracker has seen `clearGeneration`.
        init(clearGeneration: UInt64) {
            self.clearGeneration = clearGeneration
        }
    }

    /// A code found in the current frame, waiting for its metadata and message.
    struct PendingCode {
        /// What the engine read.
        var result: BarcodeResult
        /// What tracking made of it.
        var sighting: CodeTracker.Sighting
        /// Post a message for it.
        var report: Bool
        /// Marked with `report-unwanted`.
        var unwanted: Bool
        /// Bounding box clamped to the frame (x, y, width, height), or nil
        /// when the code lies outside.
        var box: (x: Int, y: Int, width: Int, height: Int)?
        /// Of a symbology left out of `symbologies`: drawn as unwanted only.
        var disabled: Bool
    }
}
