#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns of analysis shared by every stream of a process, so that many
/// streams on few cores scan at most ``size`` frames (or parts of frames)
/// at once, each stream in its turn.
///
/// A scan takes a turn before it runs (``acquire(_:within:)``) and gives it
/// back when done (``release()``). Turns are granted round-robin by
/// ``Lane`` (one a stream): a freed turn goes to the next lane in the ring
/// that has a scan waiting, so no stream waits more than one round
/// however many frames the others bring. A scan that cannot get a turn
/// before its deadline is told so and does not run: its frame leaves
/// unanalysed, on time, and the other streams go on.
///
/// The second thread of a scan split in two (``HelperThread``) is one of
/// the pool's threads, lent for one frame only when a turn is free and no
/// stream waits for one (``lend(_:)``): it never takes a turn from a
/// waiting stream, and the pool makes no more threads than its largest
/// ``size``, however many scanners use it.
///
/// ``shared`` is the process's pool, sized by `RLBARCODE_ANALYSIS_THREADS`
/// or else one per online processor; ``resize(_:)`` changes it.
public final class AnalysisPool: @unchecked Sendable {
    /// One stream's place in the ring.
    public final class Lane: @unchecked Sendable {
        /// Its scans waiting for a turn, oldest first (under the pool's lock).
        fileprivate var waiting: [Waiter] = []
        /// Whether it is in the ring (under the pool's lock).
        fileprivate var inRing = false
        /// Turns it was granted, and waits that ended at their deadline
        /// without one (under the pool's lock; ``statistics(_:)``).
        fileprivate var granted = 0
        fileprivate var missed = 0

        /// A lane of its own for a new stream.
        public init() {}
    }

    /// One waiting scan.
    fileprivate final class Waiter {
        var granted = false
    }

    /// The process's pool: `RLBARCODE_ANALYSIS_THREADS` turns when that is
    /// a whole number from 1, else one per online processor.
    public static let shared = AnalysisPool(size: defaultSize)

    /// `RLBARCODE_ANALYSIS_THREADS` when it is a whole number from 1 (at
    /// most 256), else the online processors.
    public static var defaultSize: Int {
        if let text = getenv("RLBARCODE_ANALYSIS_THREADS").map({ String(cString: $0) }), let n = Int(text),
            n >= 1
        {
            return min(n, 256)
        }
        return onlineProcessors
    }

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let cond: UnsafeMutablePointer<pthread_cond_t>
    /// Turns at once (under the lock).
    private var turns: Int
    /// Turns in use (under the lock).
    private var taken = 0
    /// Lanes with a scan waiting, in the order their next turn comes.
    private var ring: [Lane] = []
    /// Runs lent to scanners, waiting for a pool thread.
    private var ready: [() -> Void] = []
    /// The pool's threads, and those of them without a run.
    private var threads = 0
    private var idle = 0
    /// The most threads alive at once, and turns taken at once.
    private var mostThreads = 0
    private var mostTaken = 0

    /// The name its threads have (at most 15 bytes show).
    let threadName: String

    /// A pool of `size` turns (at least 1) whose threads, started when
    /// first lent, are called `threadName`.
    public init(size: Int, threadName: String = "rlbarcode-pool") {
        turns = max(1, size)
        self.threadName = threadName
        mutex = .allocate(capacity: 1)
        cond = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var attr = pthread_condattr_t()
        pthread_condattr_init(&attr)
        #if !canImport(Darwin)
            pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(cond, &attr)
        pthread_condattr_destroy(&attr)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        cond.deallocate()
        mutex.deallocate()
    }

    /// How many scans may run at once.
    public var size: Int {
        pthread_mutex_lock(mutex); defer { pthread_mutex_unlock(mutex) }
        return turns
    }

    /// Sets how many scans may run at once (at least 1). Scans running
    /// finish; new turns wait until fewer than `size` are taken. Threads
    /// made stay (idle beyond the size): the pool has at most as many as
    /// the largest size it had.
    public func resize(_ size: Int) {
        pthread_mutex_lock(mutex)
        turns = max(1, size)
        grant()
        pthread_cond_broadcast(cond)
        pthread_mutex_unlock(mutex)
    }

    /// Waits for a turn for `lane`, at most `seconds` (nil: as long as it
    /// takes). True with the turn, to be given back with ``release()``;
    /// false when the time ran out first (nothing to give back).
    public func acquire(_ lane: Lane, within seconds: Double? = nil) -> Bool {
        let deadline = seconds.map { MonotonicClock.now &+ UInt64(max(0, $0) * 1e9) } ?? .max
        let me = Waiter()
        pthread_mutex_lock(mutex); defer { pthread_mutex_unlock(mutex) }
        lane.waiting.append(me)
        if !lane.inRing {
            lane.inRing = true
            ring.append(lane)
        }
        grant()
        while !me.granted {
            if deadline == .max {
                pthread_cond_wait(cond, mutex)
                continue
            }
            let now = MonotonicClock.now
            if now >= deadline { break }
            var until = timespec(
                tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
            pthread_cond_timedwait(cond, mutex, &until)
        }
        guard me.granted else {
            lane.waiting.removeAll { $0 === me }
            if lane.waiting.isEmpty, lane.inRing {
                lane.inRing = false
                ring.removeAll { $0 === lane }
            }
            lane.missed += 1
            return false
        }
        lane.granted += 1
        return true
    }

    /// Gives back a turn of ``acquire(_:within:)``.
    public func release() {
        pthread_mutex_lock(mutex)
        taken -= 1
        grant()
        pthread_mutex_unlock(mutex)
    }

    /// Runs `run` on one of the pool's threads, in a turn of its own, when
    /// a turn is free and no lane waits for one; false otherwise (the
    /// caller then does without). The turn is given back when `run` returns.
    func lend(_ run: @escaping () -> Void) -> Bool {
        pthread_mutex_lock(mutex); defer { pthread_mutex_unlock(mutex) }
        guard taken < turns, ring.isEmpty else { return false }
        if idle == 0 {
            guard threads < turns, startThread() else { return false }
        }
        taken += 1
        mostTaken = max(mostTaken, taken)
        ready.append(run)
        pthread_cond_broadcast(cond)
        return true
    }

    /// What the pool has done, for tests and logs.
    public struct Statistics: Sendable, Equatable {
        /// The lane's turns granted, and its waits that ended without one.
        public var granted = 0
        public var missed = 0
        /// The pool's threads alive, and the most that ever were.
        public var threads = 0
        public var mostThreads = 0
        /// The most turns taken at once.
        public var mostTaken = 0
        /// Scans waiting for a turn, of every lane.
        public var waiting = 0
    }

    /// The pool's figures, with `lane`'s.
    public func statistics(_ lane: Lane? = nil) -> Statistics {
        pthread_mutex_lock(mutex); defer { pthread_mutex_unlock(mutex) }
        return Statistics(
            granted: lane?.granted ?? 0, missed: lane?.missed ?? 0, threads: threads, mostThreads: mostThreads,
            mostTaken: mostTaken, waiting: ring.reduce(0) { $0 + $1.waiting.count })
    }

    // MARK: Under the lock

    /// Grants free turns to the lanes of the ring in turn, one each a round.
    private func grant() {
        var any = false
        while taken < turns, !ring.isEmpty {
            let lane = ring.removeFirst()
            let waiter = lane.waiting.removeFirst()
            waiter.granted = true
            taken += 1
            any = true
            if lane.waiting.isEmpty {
                lane.inRing = false
            } else {
                ring.append(lane)
            }
        }
        mostTaken = max(mostTaken, taken)
        if any { pthread_cond_broadcast(cond) }
    }

    /// Starts one more thread; false when the system makes none.
    private func startThread() -> Bool {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        guard pthread_create(&thread, nil, analysisPoolThreadMain, context) == 0 else {
            Unmanaged<AnalysisPool>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        threads += 1
        idle += 1
        mostThreads = max(mostThreads, threads)
        return true
    }

    /// A pool thread's life: the runs lent, one after another, for as long
    /// as the process lives.
    fileprivate func loop() {
        pthread_mutex_lock(mutex)
        while true {
            if let run = ready.first {
                ready.removeFirst()
                idle -= 1
                pthread_mutex_unlock(mutex)
                run()
                pthread_mutex_lock(mutex)
                idle += 1
                taken -= 1
                grant()
                continue
            }
            pthread_cond_wait(cond, mutex)
        }
    }
}

#if canImport(Darwin)
    private func analysisPoolThreadMain(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        let pool = Unmanaged<AnalysisPool>.fromOpaque(context).takeRetainedValue()
        pthread_setname_np(pool.threadName)
        pool.loop()
        return nil
    }
#else
    private func analysisPoolThreadMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        guard let context else { return nil }
        let pool = Unmanaged<AnalysisPool>.fromOpaque(context).takeRetainedValue()
        // Named as `top -H` and `/proc` show it (pthread_setname_np does not import).
        if let comm = fopen("/proc/thread-self/comm", "w") {
            fputs(pool.threadName, comm)
            fclose(comm)
        }
        pool.loop()
        return nil
    }
#endif
