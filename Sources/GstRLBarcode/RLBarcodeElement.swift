import CGStreamer
import RLBarcode
import Synchronization

/// The implementation of the `rlbarcode` element.
///
/// ```
/// gst-launch-1.0 v4l2src ! videoconvert ! rlbarcode draw=true ! videoconvert ! autovideosink
/// ```
///
/// As gst-plugins-rs elements keep theirs, the element's data is in two
/// parts plus a few cross-thread values:
/// - ``settings``: what the properties and action signals set, from
///   application threads, behind a mutex. Each frame copies them once and
///   never holds the lock while scanning.
/// - ``state``: everything of the stream, the streaming thread's alone
///   (GstBaseTransform serialises `start`, `set_info`, the frame
///   functions, sink events and `stop`; an analysis thread touches it only
///   while it holds the stream lock, ``FramePipeline``). Built in
///   `set_info`, dropped in `stop`; its ``Stream`` part outlives caps
///   changes. See `RLBarcodeElement+State.swift`.
/// - The cross-thread values below (counters, cancellation, attached
///   frames, latency, QoS): atomics or mutexes, read and written from any
///   thread.
///
/// The concerns live in `RLBarcodeElement+Properties.swift` (properties
/// and action signals), `+Events.swift` (start, stop, caps, events,
/// queries), `+Frames.swift` (one frame: preparation, scan, tracking),
/// `+Ahead.swift` (frames analysed ahead), `+Messages.swift` (metadata and
/// bus messages), `+Drawing.swift` and `+Limits.swift`.
final class RLBarcodeElement {
    /// The GObject instance (not retained: it owns us).
    let instance: UnsafeMutableRawPointer
    /// What the properties set (application threads; copied by the
    /// streaming thread once a frame).
    let settings = Mutex(Settings())
    /// The stream's state (streaming thread only); nil while stopped or
    /// before the first caps.
    var state: State?

    // Cross-thread: read and written from any thread.

    /// The read-only counters (atomics: `get_property` reads them from
    /// application threads).
    let counters = FrameCounters()
    /// Stops scans in progress on a stop or flush (every scanner of the
    /// element has it; cancelled from the thread of the state change or
    /// the flush).
    let cancellation = ScanCancellation()
    /// The frames alive in `barcode` messages, and their limits (released
    /// by whichever thread drops a message).
    let attachedFrames = AttachedFrames()
    /// The pipeline's latency (ns), from the latency event on the source
    /// pad, for ``timeLeft(runningTime:)``; nil until one comes (0 when no
    /// sink syncs to the clock: no frame is late for them).
    let pipelineLatency = Mutex<UInt64?>(nil)
    /// The running time before which frames are late, from the last QoS
    /// event from downstream (`nil`: none, or not late); see ``srcEvent(_:)``.
    let qosEarliest = Mutex<UInt64?>(nil)
    /// The element's place among the streams that take turns in
    /// ``AnalysisPool/shared`` (the streaming thread and the analysis
    /// threads wait there; the pool's lock guards it).
    let lane = AnalysisPool.Lane()
    /// The stream's ``FramePipeline`` for a flush's start, which comes from
    /// any thread (the streaming thread's own reference is in the state).
    let flushTarget = Mutex<FramePipeline?>(nil)

    /// The limits are for an optimised build; an unoptimised (debug) build
    /// runs the engine about ten times slower and gets ten times the time.
    #if DEBUG
        static let timeLimitScale = 10.0
    #else
        static let timeLimitScale = 1.0
    #endif

    /// Creates the Swift side of a new GObject instance.
    init(instance: UnsafeMutableRawPointer) {
        self.instance = instance
        // The process's pool is made here, on the thread that makes the
        // element, before its streaming and application threads use it:
        // their first uses then find it made (ThreadSanitizer does not see
        // the ordering of a lazy global's first use, which the runtime gives).
        _ = AnalysisPool.shared
    }

    /// The instance as a `GstElement`.
    var element: UnsafeMutablePointer<GstElement> { instance.assumingMemoryBound(to: GstElement.self) }

    /// The instance as a `GstBaseTransform`.
    var transform: UnsafeMutablePointer<GstBaseTransform> {
        instance.assumingMemoryBound(to: GstBaseTransform.self)
    }

    /// The sink pad's stream lock, which the streaming thread holds while
    /// it is inside the element.
    var streamLock: UnsafeMutablePointer<GRecMutex> {
        let pad = transform.pointee.sinkpad!
        return UnsafeMutableRawPointer(pad)
            .advanced(by: MemoryLayout<GstPad>.offset(of: \GstPad.stream_rec_lock)!)
            .assumingMemoryBound(to: GRecMutex.self)
    }

    /// Logs a warning on the `rlbarcode` category (never `g_warning`).
    func warn(_ message: String, function: StaticString = #function, line: UInt = #line) {
        log(GST_LEVEL_WARNING, instance, message, function: function, line: line)
    }

    /// Posts an element message with `structure` (which it takes) on the bus.
    func post(_ structure: UnsafeMutablePointer<GstStructure>) {
        let message = gst_message_new_element(instance.assumingMemoryBound(to: GstObject.self), structure)
        _ = gst_element_post_message(element, message)
    }
}
