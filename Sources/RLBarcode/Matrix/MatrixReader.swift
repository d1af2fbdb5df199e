/// A reader of one matrix symbology (or two that share a search: PDF417
/// and MicroPDF417 each have their own): it finds its symbols where a
/// ``MatrixSearch`` says, samples them into module grids and decodes them.
/// ``MatrixReaders`` runs every reader of a frame through this contract.
protocol MatrixReader: AnyObject {
    /// How many symbol-like places the last ``read(_:into:)`` saw, read or not.
    var lastCandidateCount: Int { get }
    /// Finds and decodes the symbols of `search` and appends them to `out`.
    func read(_ search: MatrixSearch, into out: inout [BarcodeResult])
}
