import Synchronization

/// A stop for scans in progress, set from any thread: a scan given one
/// (``Scanner/cancellation``) ends at its next time-limit check once it is
/// cancelled, as if its ``ScanOptions/timeLimit`` had passed, and every
/// scan started while it stays cancelled ends there too.
public final class ScanCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    /// A stop not yet given.
    public init() {}

    /// Stops the scans that use it (at their next check) until ``reset()``.
    public func cancel() { flag.store(true, ordering: .relaxed) }

    /// Lets scans run again.
    public func reset() { flag.store(false, ordering: .relaxed) }

    /// Whether ``cancel()`` was called since the last ``reset()``.
    public var isCancelled: Bool { flag.load(ordering: .relaxed) }
}

extension Optional where Wrapped == ScanCancellation {
    /// Whether a scan must stop now: cancelled, or past `deadline`
    /// (``MonotonicClock/now`` nanoseconds; `.max`: no time limit, and the
    /// clock is not read). `readClock: false` looks at the flag only.
    @inline(__always)
    func stops(deadline: UInt64, readClock: Bool = true) -> Bool {
        if let self, self.isCancelled { return true }
        return readClock && deadline != .max && MonotonicClock.now >= deadline
    }
}
