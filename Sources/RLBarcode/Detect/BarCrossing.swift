#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What ``CellTensors/barsCrossed(by:minEnergy:dominance:maxAngle:)`` found
/// along a scan line.
struct BarCrossing {
    /// How many cells of bars the line crosses.
    var cells: Int
    /// The samples of the line from the first such cell to the last
    /// (a cell's width either side of where the line was seen in each).
    var first: Double
    var last: Double
}
