#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Shifts of a QR Code sampling grid taken from its timing patterns
/// (``QRDetector/timingShifts(_:_:size:inverted:)``), in frame pixels.
struct QRTimingShifts {
    /// Per module column, measured along the timing row.
    var column: [Point]
    /// Per module row, measured along the timing column.
    var row: [Point]
}
