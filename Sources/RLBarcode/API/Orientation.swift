#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
