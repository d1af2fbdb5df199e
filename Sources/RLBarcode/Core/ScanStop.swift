/// A frame's time limit and stop as the loops of one search look at them:
/// the scan's deadline and its ``ScanCancellation``, handed to each reader
/// before its search. A check costs a flag read and a clock read, so it
/// goes once a row, a line or a candidate, not once a pixel.
struct ScanStop: Sendable {
    /// When the search must stop (``MonotonicClock/now`` nanoseconds);
    /// `.max`: never.
    var deadline: UInt64 = .max
    /// Stops the search from another thread.
    var cancellation: ScanCancellation? = nil

    /// Whether the search must stop now: cancelled, or past ``deadline``.
    @inline(__always)
    var now: Bool { cancellation.stops(deadline: deadline) }
}
