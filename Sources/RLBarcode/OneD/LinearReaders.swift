/// The linear readers a scanner runs on every scan line, cheapest and most
/// common first. Each symbology has its own reader behind the
/// ``LinearReader`` contract; adding one is adding it here. The DataBar
/// readers also leave the rows of stacked symbols (DataBar Stacked and
/// Stacked Omnidirectional, Expanded Stacked) for the end of the frame,
/// when they assemble them (``StackedLinearReader``).
package func makeLinearReaders() -> [any LinearReader] {
    [
        EANReader(), Code128Reader(), Code39Reader(), Code93Reader(), ITFReader(), CodabarReader(),
        DataBarReader(), DataBarExpandedReader()
    ]
}
