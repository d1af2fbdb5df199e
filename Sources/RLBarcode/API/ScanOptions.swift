#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the scanner works; every field but ``exhaustive`` has the element
/// property of the same meaning, and the CLI a flag.
public struct ScanOptions: Sendable, Hashable {
    /// The symbologies to report. Default: all.
    public var symbologies: Symbology = .all
    /// Where codes are expected, in fractions of the frame; `nil` (default)
    /// is the whole frame. Effort is concentrated there.
    public var activeRegion: NormalizedRect? = nil
    /// When true, codes outside ``activeRegion`` are not looked for. Default false.
    public var regionOnly: Bool = false
    /// The expected orientation, tried first. Default ``Orientation/any``.
    public var orientation: Orientation = .any
    /// How much work to spend. Default ``Effort/balanced``.
    public var effort: Effort = .balanced
    /// The most time, in seconds, that one frame's analysis may take; past
    /// it, the scan stops at its next check (every few scan lines, between
    /// matrix-code searches) and returns what it has read so far. `nil`
    /// (default): no limit. Video pipelines set one so that a frame full of
    /// texture or noise cannot hold up the stream.
    public var timeLimit: Double? = nil
    /// How many threads one scan may use. 1 (default): all the work runs
    /// on the calling thread. 2: the searches for QR Code, Data Matrix and
    /// Aztec Code run on a second thread of the scanner's own while the
    /// calling thread reads the linear codes and PDF417, which takes a
    /// frame's wall time down to that of the longer of the two. 0: 2 on a
    /// machine with two processors or more, else 1. Results are the same
    /// whatever the number. Values below 0 count as 1, above 2 as 2.
    public var threads: Int = 1
    /// With ``Effort/thorough``: every picture gets the full still-picture
    /// depth, not only those that the first look reads nothing in, so
    /// that a picture's every code is read (a second code, an add-on, a
    /// MicroPDF417 symbol beside a linear code that the first look reads),
    /// at several times the cost. Default false. The CLI's `--exhaustive`.
    public var exhaustive: Bool = false

    /// ``threads`` resolved: 1 or 2.
    var threadCount: Int {
        threads == 0 ? min(2, onlineProcessors) : min(2, max(1, threads))
    }

    /// Options with every default.
    public init() {}

    /// Options with the given values; the others take their defaults.
    public init(
        symbologies: Symbology = .all, activeRegion: NormalizedRect? = nil, regionOnly: Bool = false,
        orientation: Orientation = .any, effort: Effort = .balanced, timeLimit: Double? = nil,
        threads: Int = 1, exhaustive: Bool = false
    ) {
        self.symbologies = symbologies
        self.exhaustive = exhaustive
        self.threads = threads
        self.timeLimit = timeLimit
        self.activeRegion = activeRegion
        self.regionOnly = regionOnly
        self.orientation = orientation
        self.effort = effort
    }
}

/// The processors online when first asked (at least 1).
let onlineProcessors: Int = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
