#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// A second thread that runs one fixed job for its owner, on request, and
/// shares a list of tasks with it.
///
/// ``start()`` wakes the thread to run the job once; ``wait()`` returns when
/// that run has finished. Handing a run over allocates nothing (a mutex and
/// a condition variable made once), so a scanner can split every frame's
/// work between its caller's thread and this one. The job reads what it
/// needs from its owner, which must not touch that state between
/// ``start()`` and ``wait()``; the mutex orders every write before
/// ``start()`` and every write of the job before ``wait()`` returns. State
/// the owner makes after ``start()`` (a scanner's candidates, found while
/// the job already runs) is handed over through atomics of the owner's,
/// written with release and read with acquire ordering.
///
/// Work that either thread may do is numbered: the job calls
/// ``openTasks(_:)`` once it has prepared them, and then both threads call
/// ``nextTask()`` until it returns nil, so that whichever is free first
/// takes the next one.
///
/// ``stop()`` ends the thread; call it before the owner goes away (the
/// thread keeps only the helper itself alive, not its owner).
final class HelperThread: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private let changed: UnsafeMutablePointer<pthread_cond_t>
    /// A run requested and not yet finished. Written under the lock; read
    /// under it too, except by ``wait()``'s short spin.
    private let busy = Atomic<Bool>(false)
    private var pending: Bool { busy.load(ordering: .acquiring) }
    private var quitting = false
    private var running = false
    /// Asked by ``prewake()``: the thread is to wake and spin for the run
    /// about to be started. Written and read under the lock.
    private var warming = false
    /// Whether this run's tasks are open, for ``nextTask()``'s short spin
    /// (``tasksOpen`` is the one read under the lock).
    private let opened = Atomic<Bool>(false)
    /// The tasks of this run: whether they are open, how many, the next.
    private var tasksOpen = false
    private var taskCount = 0
    private var nextIndex = 0
    private var thread = pthread_t()
    private let job: () -> Void
    /// The pool that lends the thread for each run (nil: a thread of its own).
    private let pool: AnalysisPool?
    /// A pool's thread is lent and has not finished its run (under the lock).
    private var lent = false

    /// Starts the thread, which then waits for ``start()``; nil when the
    /// system would not create one (the owner then does all the work itself).
    /// With a `pool`, the thread is one of the pool's, lent for each run
    /// that ``reserve()`` gets.
    init?(pool: AnalysisPool? = nil, job: @escaping () -> Void) {
        self.job = job
        self.pool = pool
        lock = .allocate(capacity: 1)
        changed = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        pthread_cond_init(changed, nil)
        if pool != nil { return }
        let context = Unmanaged.passRetained(self).toOpaque()
        guard pthread_create(&thread, nil, helperThreadMain, context) == 0 else {
            Unmanaged<HelperThread>.fromOpaque(context).release()
            return nil
        }
        running = true
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(lock)
        changed.deallocate()
        lock.deallocate()
    }

    /// Gets the thread for the next run: with a pool, one of its threads
    /// lent for that run, false when it has none free (the owner then does
    /// the run's work itself and calls neither ``start()`` nor ``wait()``);
    /// a thread of its own is always there.
    func reserve() -> Bool {
        guard let pool else { return true }
        pthread_mutex_lock(lock); defer { pthread_mutex_unlock(lock) }
        // A thread lent and not yet started on (a scan that reserved and
        // did not start) waits for this run: never two.
        if lent { return true }
        lent = pool.lend { [self] in loop(once: true) }
        return lent
    }

    /// Runs the job once on the thread (after ``reserve()``). Must be followed by ``wait()``
    /// before the next call.
    func start() {
        pthread_mutex_lock(lock)
        busy.store(true, ordering: .releasing)
        warming = false
        opened.store(false, ordering: .relaxed)
        tasksOpen = false
        taskCount = 0
        nextIndex = 0
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(lock)
    }

    /// Tells the thread that ``start()`` follows shortly (the caller has a
    /// little work to do first): it wakes now and spins for up to
    /// ``prewakeSpinNanoseconds``, so that the run begins without the delay of
    /// waking a sleeping thread (tens of microseconds, a tenth of a small
    /// frame's scan), then sleeps again if none came.
    func prewake() {
        pthread_mutex_lock(lock)
        if !pending {
            warming = true
            pthread_cond_broadcast(changed)
        }
        pthread_mutex_unlock(lock)
    }

    /// Returns once the run that ``start()`` asked for has finished
    /// (at once when none was asked for). Spins for up to
    /// ``spinNanoseconds`` before it sleeps: a run that ends within that
    /// time is seen at once, without the delay of waking a sleeping thread.
    func wait() {
        if pending {
            let until = MonotonicClock.now &+ HelperThread.spinNanoseconds
            while pending && MonotonicClock.now < until {}
            if !pending { return }
        }
        pthread_mutex_lock(lock)
        while pending { pthread_cond_wait(changed, lock) }
        pthread_mutex_unlock(lock)
    }

    /// How long ``wait()`` and ``nextTask()`` spin before they sleep: 0.2 ms.
    static let spinNanoseconds: UInt64 = 200_000
    /// How long the thread spins after ``prewake()`` for ``start()``: 0.5 ms.
    static let prewakeSpinNanoseconds: UInt64 = 500_000

    /// Opens tasks `0..<count` of this run to both threads (called by the
    /// job, once).
    func openTasks(_ count: Int) {
        pthread_mutex_lock(lock)
        taskCount = count
        nextIndex = 0
        tasksOpen = true
        opened.store(true, ordering: .releasing)
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(lock)
    }

    /// The next task no thread has taken yet, waiting until the job has
    /// opened them; nil when every task is taken (or the run ended without
    /// opening any).
    func nextTask() -> Int? {
        // Tasks about to open are waited for spinning first, as in ``wait()``.
        if pending && !opened.load(ordering: .acquiring) {
            let until = MonotonicClock.now &+ HelperThread.spinNanoseconds
            while pending && !opened.load(ordering: .acquiring) && MonotonicClock.now < until {}
        }
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        while pending && !tasksOpen { pthread_cond_wait(changed, lock) }
        guard tasksOpen, nextIndex < taskCount else { return nil }
        nextIndex += 1
        return nextIndex - 1
    }

    /// Waits for a run in progress, then ends the thread and joins it.
    func stop() {
        if pool != nil {
            // A lent thread that waits for a run ends.
            wait()
            pthread_mutex_lock(lock)
            quitting = true
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(lock)
            return
        }
        guard running else { return }
        wait()
        pthread_mutex_lock(lock)
        quitting = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(lock)
        pthread_join(thread, nil)
        running = false
    }

    /// The thread's life: wait for a request, run the job, say it is done;
    /// with `once` (a pool's thread, lent), after one run it goes back.
    fileprivate func loop(once: Bool = false) {
        pthread_mutex_lock(lock)
        while true {
            while !pending && !quitting && !warming { pthread_cond_wait(changed, lock) }
            if quitting { break }
            if !pending {
                // Woken ahead of a run: spin for it a short while.
                warming = false
                pthread_mutex_unlock(lock)
                let until = MonotonicClock.now &+ HelperThread.prewakeSpinNanoseconds
                while !pending && MonotonicClock.now < until {}
                pthread_mutex_lock(lock)
                continue
            }
            pthread_mutex_unlock(lock)
            job()
            pthread_mutex_lock(lock)
            tasksOpen = false
            busy.store(false, ordering: .releasing)
            pthread_cond_broadcast(changed)
            if once { break }
        }
        if once { lent = false }
        pthread_mutex_unlock(lock)
    }
}

#if canImport(Darwin)
    private func helperThreadMain(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        Unmanaged<HelperThread>.fromOpaque(context).takeRetainedValue().loop()
        return nil
    }
#else
    private func helperThreadMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        guard let context else { return nil }
        Unmanaged<HelperThread>.fromOpaque(context).takeRetainedValue().loop()
        return nil
    }
#endif
