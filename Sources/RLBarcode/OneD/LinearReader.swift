/// The contract of a linear (1D) symbology reader.
///
/// A reader receives the bar and space widths of one scan line, in reading
/// order and in one polarity (``ElementRun``: `widths[0]` is the leading
/// space), and appends a ``LinearHit`` for every code it can verify on that
/// line (guard patterns, quiet zones, check characters). It does not look at
/// pixels, keeps no state between lines and allocates nothing per line (its
/// scratch memory is made once, with the reader). The scanner
/// runs every enabled reader on each line in both directions and both
/// polarities, votes among lines and builds the results.
package protocol LinearReader: AnyObject {
    /// The symbologies this reader can produce.
    var symbologies: Symbology { get }
    /// Appends every code verified on `run` whose symbology is in `enabled`.
    func decode(_ run: borrowing ElementRun, enabled: Symbology, into sink: inout LinearHitSink)
}

/// A reader of stacked symbols, whose rows single lines read as
/// ``LinearFragment``s. At the end of a frame the scanner hands it every
/// row read in the frame (``RowTable``) and it assembles whole symbols.
protocol StackedLinearReader: LinearReader {
    /// Assembles the rows of `rows` into symbols: appends a hit to `sink`
    /// for each (its `start`, `end`, `firstElement` and `lastElement` are
    /// not used) and returns, hit by hit, the indices of the rows each is
    /// made of (top row first as the symbol is read). Each symbol once.
    func assemble(_ rows: borrowing RowTable, enabled: Symbology, into sink: inout LinearHitSink) -> [[Int]]
}
