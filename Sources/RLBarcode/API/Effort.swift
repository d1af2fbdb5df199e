#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How much work a scan may spend.
public enum Effort: Int, Sendable, CaseIterable {
    /// Candidate regions only, few scan lines: for weak machines or many streams.
    case fast = 0
    /// Candidate regions with enough scan lines for real camera frames (default).
    /// Made for a scanner that sees a stream of frames: after a scanner's
    /// first frame, light-on-dark codes are looked for in every other frame,
    /// Data Matrix and Aztec Code in one frame of four each (a code in view
    /// stays there for many frames).
    case balanced
    /// Still-picture depth: first a look at the depth of ``balanced`` with
    /// every search of a scanner's first frame (linear codes dark on light
    /// only); when that reads nothing, lower detection thresholds, dense
    /// scan lines in twelve directions over the whole frame sampled every
    /// half pixel (unless the lines across the candidates read a code),
    /// failed matrix symbols sampled again, MicroPDF417. Most pictures are
    /// read by the first look; ``ScanOptions/exhaustive`` gives every
    /// picture the full depth, the dense lines included.
    case thorough

    /// The name users type.
    public var nick: String {
        switch self {
        case .fast: "fast"
        case .balanced: "balanced"
        case .thorough: "thorough"
        }
    }
}
