/// Where the top edge of the expected codes points. The hinted direction
/// is tried first; the others still follow unless the effort is ``Effort/fast``.
public enum Orientation: Int, Sendable, CaseIterable {
    /// No expectation (default).
    case any = 0
    /// Codes upright: the top edge points up.
    case up
    /// Codes turned 90 degrees clockwise: the top edge points right.
    case right
    /// Codes upside down.
    case down
    /// Codes turned 90 degrees counter-clockwise: the top edge points left.
    case left

    /// The name users type.
    public var nick: String {
        switch self {
        case .any: "any"
        case .up: "up"
        case .right: "right"
        case .down: "down"
        case .left: "left"
        }
    }
}

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
    /// Still-picture depth: lower detection thresholds, then dense scan
    /// lines in twelve directions over the whole frame, sampled every half pixel.
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

/// How the scanner works; every field has the element property of the same
/// meaning, and the CLI a flag.
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

    /// Options with every default.
    public init() {}

    /// Options with the given values; the others take their defaults.
    public init(symbologies: Symbology = .all, activeRegion: NormalizedRect? = nil, regionOnly: Bool = false,
                orientation: Orientation = .any, effort: Effort = .balanced, timeLimit: Double? = nil) {
        self.symbologies = symbologies
        self.timeLimit = timeLimit
        self.activeRegion = activeRegion
        self.regionOnly = regionOnly
        self.orientation = orientation
        self.effort = effort
    }
}
