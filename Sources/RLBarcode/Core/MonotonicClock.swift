#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system's monotonic clock, for the scanner's time limit.
enum MonotonicClock {
    /// Nanoseconds since an arbitrary start; never goes back.
    static var now: UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
    }
}
