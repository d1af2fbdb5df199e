#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A symbol's place in a structured-append sequence: one message split
/// over several symbols (QR Code, Data Matrix, Aztec, Macro PDF417).
public struct StructuredAppend: Sendable, Hashable {
    /// The symbol's position in the sequence, from 0.
    public var index: Int
    /// How many symbols the sequence has (0 when the symbol does not say).
    public var total: Int
    /// What ties the symbols of one sequence together: QR Code's parity
    /// byte in decimal, or a file id; empty when there is none.
    public var id: String
    /// Whether the symbol says it is the last of its sequence (Macro
    /// PDF417's terminator); false when it does not say.
    public var isLast: Bool

    /// Creates a sequence position.
    public init(index: Int, total: Int, id: String = "", isLast: Bool = false) {
        self.index = index
        self.total = total
        self.id = id
        self.isLast = isLast
    }
}
