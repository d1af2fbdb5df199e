import CGStreamer
import RLBarcode

/// Frames analysed ahead, each whole on one of two analysis threads, for
/// streams that are not live (files, transcoding, recording from a
/// non-live source).
///
/// Two threads get through more frames when each reads frames of its own
/// than when both read parts of one frame: split, a frame's parts wait for
/// each other (the last large symbol, the last long candidate). Where
/// nobody waits for a frame in real time, the element therefore takes up
/// to ``maxInFlight`` frames from upstream and scans two at once, each
/// with a ``Scanner`` of one thread; frames leave in the order they came,
/// each once its own analysis and those of the frames before it are done.
/// A frame then takes longer from entering to leaving, so live streams
/// (cameras) keep one frame at a time, split across the threads, which
/// adds no latency.
///
/// The choreography, one frame:
/// 1. The streaming thread, in `generate_output` (holding the sink pad's
///    stream lock), prepares the frame (``RLBarcodeElement/FramePrep``)
///    and ``submit(_:info:prep:)``s it: queued, or done at once when it
///    passes unanalysed.
/// 2. An analysis thread takes the oldest queued job (running), waits for
///    the element's turn in ``AnalysisPool/shared`` (round-robin with the
///    process's other streams), scans it mapped for reading on its own
///    scanner without holding any lock, gives the turn back, sets it done
///    and wakes the others.
/// 3. The oldest job leaves once done, in order, pushed by one of two:
///    the streaming thread, before it goes back upstream (``next(tookOne:all:)``:
///    one frame a frame that comes in, more while ``maxInFlight`` are held,
///    every one before a serialized event or query); or an analysis thread
///    with nothing to scan, once the streaming thread has been out for
///    ``deliveryGrace``, if it gets the stream lock (a try-lock, so it never
///    waits for the streaming thread), so that a frame never waits long for
///    the next one. (A source that hands over the next frame at once gets
///    one frame back a frame it brings, from its own thread.)
/// 4. A flush's start stops the pushes and cancels the scans; its stop
///    drops the frames held once none is scanned; `stop` joins the threads.
///
/// Threads: the fields below the lock are read and written under it;
/// ``Job``s belong to the thread that set their stage (the streaming
/// thread while queued, an analysis thread while running, whoever delivers
/// once done).
final class FramePipeline: @unchecked Sendable {
    /// One frame on its way through.
    final class Job {
        enum Stage { case queued, running, done }
        var buffer: UnsafeMutablePointer<GstBuffer>?
        var info = GstVideoInfo()
        var prep: RLBarcodeElement.FramePrep?
        var scan = RLBarcodeElement.FrameScan()
        var stage = Stage.done
    }

    /// Frames held at most. Frames leave in order, so a frame that takes
    /// long holds back those after it: while it is scanned, the other
    /// thread goes on with the frames queued behind it (with three held,
    /// the threads waited for each other a sixth of the time on the bench
    /// clip at 720p; with eight, about 1%). Each frame held is also one
    /// more for the slow frame at the head, and the frames held at the
    /// end of a stream, to wait for: with five, the bench's 720p clip runs
    /// as fast as with eight and its 1080p clip within a few percent,
    /// while the 90th percentile of the time the streaming thread spends
    /// in the element a frame falls from 4.1-5.2 ms to 3.5-4.1 ms at
    /// 1080p. Once this many are held, one leaves for each that comes in.
    static let maxInFlight = 5
    /// Analysis threads.
    static let workerCount = 2
    /// How long (µs) the streaming thread must have been out before an
    /// idle analysis thread delivers the frames that are done.
    static let deliveryGrace: gint64 = 2_000

    // POSIX primitives, which ThreadSanitizer sees (GLib's GMutex on
    // Linux is a bare futex).
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let cond: UnsafeMutablePointer<pthread_cond_t>
    /// The frames in flight, oldest first (under the lock).
    private var jobs: [Job] = []
    /// Jobs to reuse (under the lock).
    private var spare: [Job] = []
    private var threads: [UnsafeMutablePointer<GThread>] = []
    /// The streaming thread is inside the element and delivers what is done.
    private var streamingInside = false
    /// When the streaming thread last went out (``g_get_monotonic_time()``, µs).
    private var outSince: gint64 = 0
    /// An analysis thread is trying to deliver.
    private var delivering = false
    private var quitting = false
    private var flushing = false
    /// Frames being scanned.
    private var running = 0
    /// A flow other than OK from a push by an analysis thread, for the
    /// streaming thread to return upstream.
    private var workerFlow = GST_FLOW_OK
    /// The element (not retained: it owns the pipeline).
    private unowned(unsafe) let element: RLBarcodeElement

    /// Starts the analysis threads; nil when the system makes none.
    init?(element: RLBarcodeElement) {
        self.element = element
        mutex = .allocate(capacity: 1)
        cond = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        // Timed waits on the monotonic clock, as g_get_monotonic_time().
        var attr = pthread_condattr_t()
        pthread_condattr_init(&attr)
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)
        pthread_cond_init(cond, &attr)
        pthread_condattr_destroy(&attr)
        jobs.reserveCapacity(Self.maxInFlight)
        spare.reserveCapacity(Self.maxInFlight)
        for _ in 0..<Self.maxInFlight { spare.append(Job()) }
        for _ in 0..<Self.workerCount {
            let context = Unmanaged.passRetained(self).toOpaque()
            var error: UnsafeMutablePointer<GError>?
            guard
                let thread = g_thread_try_new(
                    "rlbarcode-scan",
                    { raw in
                        Unmanaged<FramePipeline>.fromOpaque(raw!).takeRetainedValue().workerMain()
                        return nil
                    }, context, &error)
            else {
                Unmanaged<FramePipeline>.fromOpaque(context).release()
                if let error { g_error_free(error) }
                shutDown()
                return nil
            }
            threads.append(thread)
        }
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        cond.deallocate()
        mutex.deallocate()
    }

    // MARK: Streaming thread

    /// The streaming thread is inside the element (holding the stream lock).
    func enter() {
        pthread_mutex_lock(mutex)
        streamingInside = true
        pthread_mutex_unlock(mutex)
    }

    /// Takes `buffer` (a reference the pipeline now owns): analysed on an
    /// analysis thread when `prep` says so, else passed on as it is, in turn.
    func submit(_ buffer: UnsafeMutablePointer<GstBuffer>, info: GstVideoInfo, prep: RLBarcodeElement.FramePrep) {
        pthread_mutex_lock(mutex)
        let job = spare.popLast() ?? Job()
        job.buffer = buffer
        job.info = info
        job.prep = prep
        job.stage = prep.analyse ? .queued : .done
        jobs.append(job)
        pthread_cond_broadcast(cond)
        pthread_mutex_unlock(mutex)
    }

    /// The oldest frame once it is done, for the streaming thread to push:
    /// one a frame that comes in (`tookOne` once it has had it), more only
    /// while ``maxInFlight`` frames are held, waiting for the oldest then;
    /// with `all`, every frame held, waiting for each. Nil when the
    /// streaming thread goes back upstream. Either way the streaming thread
    /// counts as out afterwards (``enter()`` again).
    func next(tookOne: Bool = false, all: Bool = false) -> Job? {
        pthread_mutex_lock(mutex); defer { pthread_mutex_unlock(mutex) }
        while true {
            let full = jobs.count >= Self.maxInFlight
            if let head = jobs.first, head.stage == .done, all || full || !tookOne {
                // Out while the base class pushes it (it comes back in for
                // the next one unless the push failed).
                jobs.removeFirst()
                goOut()
                return head
            }
            if jobs.isEmpty || (!all && !full) {
                goOut()
                pthread_cond_broadcast(cond)
                return nil
            }
            pthread_cond_wait(cond, mutex)
        }
    }

    /// The streaming thread leaves (under the lock).
    private func goOut() {
        streamingInside = false
        outSince = g_get_monotonic_time()
    }

    /// Gives a delivered job back for reuse.
    func recycle(_ job: Job) {
        job.buffer = nil
        job.prep = nil
        job.scan = RLBarcodeElement.FrameScan()
        pthread_mutex_lock(mutex)
        spare.append(job)
        pthread_mutex_unlock(mutex)
    }

    /// A flow other than OK that an analysis thread's push met, once.
    func takeWorkerFlow() -> GstFlowReturn {
        pthread_mutex_lock(mutex); defer { pthread_mutex_unlock(mutex) }
        let flow = workerFlow
        workerFlow = GST_FLOW_OK
        return flow
    }

    /// A flush starts (any thread): analysis threads stop pushing.
    func setFlushing(_ on: Bool) {
        pthread_mutex_lock(mutex)
        flushing = on
        pthread_cond_broadcast(cond)
        pthread_mutex_unlock(mutex)
    }

    /// Drops every frame held, once none is being scanned, and ends a flush.
    func discard() {
        pthread_mutex_lock(mutex)
        while running > 0 { pthread_cond_wait(cond, mutex) }
        let dropped = jobs
        jobs.removeAll(keepingCapacity: true)
        flushing = false
        goOut()
        workerFlow = GST_FLOW_OK
        pthread_mutex_unlock(mutex)
        for job in dropped {
            if let buffer = job.buffer { gst_buffer_unref(buffer) }
            recycle(job)
        }
    }

    /// Stops the analysis threads (after their current frame, which a
    /// stop or flush cancels: ``RLBarcodeElement/cancelScans()``) and drops
    /// what is held. Not with the stream lock held by another thread that
    /// waits for this one.
    func shutDown() {
        pthread_mutex_lock(mutex)
        quitting = true
        pthread_cond_broadcast(cond)
        pthread_mutex_unlock(mutex)
        for thread in threads { g_thread_join(thread) }
        threads.removeAll()
        discard()
    }

    // MARK: Analysis threads

    private func workerMain() {
        let scanner = Scanner(options: ScanOptions(threads: 1))
        scanner.cancellation = element.cancellation
        var backoff: UInt = 50
        pthread_mutex_lock(mutex)
        while !quitting {
            if let job = jobs.first(where: { $0.stage == .queued }) {
                job.stage = .running
                running += 1
                pthread_mutex_unlock(mutex)
                analyse(job, scanner)
                pthread_mutex_lock(mutex)
                job.stage = .done
                running -= 1
                pthread_cond_broadcast(cond)
                continue
            }
            if !streamingInside && !delivering && !flushing, let head = jobs.first, head.stage == .done {
                // Nothing to scan and the streaming thread is out: deliver,
                // once it has been out for the grace (a new frame, or its
                // return, wakes this thread sooner).
                let due = outSince &+ Self.deliveryGrace
                if g_get_monotonic_time() < due {
                    var until = timespec(tv_sec: Int(due / 1_000_000), tv_nsec: Int(due % 1_000_000) * 1000)
                    pthread_cond_timedwait(cond, mutex, &until)
                    continue
                }
                delivering = true
                pthread_mutex_unlock(mutex)
                let delivered = deliverUnderStreamLock()
                pthread_mutex_lock(mutex)
                delivering = false
                if delivered {
                    backoff = 50
                } else {
                    // The streaming thread still holds the stream lock (on
                    // its way out, or pushing): try again shortly.
                    pthread_mutex_unlock(mutex)
                    g_usleep(gulong(backoff))
                    backoff = min(backoff * 2, 2000)
                    pthread_mutex_lock(mutex)
                }
                continue
            }
            pthread_cond_wait(cond, mutex)
        }
        pthread_mutex_unlock(mutex)
    }

    /// Scans one job's frame, mapped for reading, on one thread.
    private func analyse(_ job: Job, _ scanner: Scanner) {
        guard let buffer = job.buffer, let prep = job.prep else { return }
        var options = prep.options
        var frame = GstVideoFrame()
        guard gst_video_frame_map(&frame, &job.info, buffer, GST_MAP_READ) != 0 else { return }
        defer { gst_video_frame_unmap(&frame) }
        options.threads = 1
        // In the element's turn among the streams of the process.
        let pool = AnalysisPool.shared
        _ = pool.acquire(element.lane)
        defer { pool.release() }
        job.scan = RLBarcodeElement.scan(&frame, with: scanner, options: options, frameNumber: prep.frameNumber)
    }

    /// Takes the stream lock if it is free and pushes the frames that are
    /// done, oldest first. False when the lock was taken.
    private func deliverUnderStreamLock() -> Bool {
        let lock = element.streamLock
        guard g_rec_mutex_trylock(lock) != 0 else { return false }
        defer { g_rec_mutex_unlock(lock) }
        while true {
            pthread_mutex_lock(mutex)
            guard !flushing, !quitting, let head = jobs.first, head.stage == .done else {
                pthread_mutex_unlock(mutex)
                return true
            }
            jobs.removeFirst()
            pthread_mutex_unlock(mutex)
            let flow = element.deliver(head, push: true)
            recycle(head)
            if flow != GST_FLOW_OK {
                pthread_mutex_lock(mutex)
                if workerFlow == GST_FLOW_OK { workerFlow = flow }
                pthread_mutex_unlock(mutex)
            }
        }
    }
}
