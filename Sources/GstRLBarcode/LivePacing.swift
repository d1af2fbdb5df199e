/// How much analysis a frame of a live stream gets, from the time left
/// before it is due at the sink, so that frames leave on time whether or
/// not downstream sends QoS events.
///
/// A frame is due at the sink at its running time plus the pipeline's
/// latency (on the pipeline clock, from the element's base time). With
/// more than ``minimumBudget`` left after ``margin`` and the recent
/// ``overrun``, the frame is analysed with a time limit of what is left
/// (at most its effort's own limit). With less (the frame arrives late, or analysis of the frames
/// before it overran), it passes unanalysed, so that the stream catches
/// up, except that when no frame has been analysed for ``lookEvery`` of
/// running time, one is, with a limit of ``lookLimit``, so that a code in
/// view is still read: that frame and the few behind it leave late.
struct LivePacing {
    /// What a frame gets.
    enum Decision: Equatable {
        /// Analysis with this time limit (seconds).
        case analyse(limit: Double)
        /// Analysis although the frame is late (the look every ``lookEvery``).
        case look(limit: Double)
        /// No analysis.
        case skip
    }

    /// Time kept for the frame's way to the sink after analysis (ns).
    static let margin: Int64 = 3_000_000
    /// Less time than this left (ns) is not worth an analysis.
    static let minimumBudget: Int64 = 4_000_000
    /// Running time (ns) without an analysed frame after which one is
    /// analysed however late.
    static let lookEvery: UInt64 = 1_000_000_000
    /// The time limit (s) of that frame's analysis.
    static let lookLimit = 0.1

    /// Running time of the last frame analysed (nil: none yet).
    private(set) var lastAnalysed: UInt64?
    /// How far recent analyses ran past their time limit (ns; the largest,
    /// less a 64th at every frame since): the next budgets keep it back,
    /// since a scan stops only at its next check of the limit.
    private(set) var overrun: Int64 = 0

    /// Decides for a frame at `runningTime` with `timeLeft` ns before it is
    /// due at the sink, whose effort allows `effortLimit` seconds.
    mutating func decide(timeLeft: Int64, runningTime: UInt64, effortLimit: Double) -> Decision {
        overrun -= overrun / 64
        let budget = timeLeft - Self.margin - overrun
        if budget >= Self.minimumBudget {
            lastAnalysed = runningTime
            return .analyse(limit: min(effortLimit, Double(budget) / 1e9))
        }
        if let last = lastAnalysed, runningTime >= last, runningTime - last < Self.lookEvery {
            return .skip
        }
        lastAnalysed = runningTime
        return .look(limit: min(effortLimit, Self.lookLimit))
    }

    /// An analysis with time limit `limit` (s) took `elapsed` ns.
    mutating func finished(elapsed: Int64, limit: Double) {
        let over = max(0, elapsed - Int64(limit * 1e9))
        overrun = max(over, overrun)
    }

    /// A new stream (or a flush): time starts over.
    mutating func reset() {
        lastAnalysed = nil
        overrun = 0
    }
}
