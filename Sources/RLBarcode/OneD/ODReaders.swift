/// The linear readers a scanner runs on every scan line, cheapest and most
/// common first. Each symbology has its own reader behind the
/// ``LinearReader`` contract; adding one is adding it here.
///
/// `DataBarReader` (Omnidirectional, Truncated, Limited) is not listed yet:
/// on the public corpus it still reads an EAN-13 photo as a DataBar, and
/// a reader that misreads stays out until it does not.
func makeLinearReaders() -> [any LinearReader] {
    [EANReader(), Code128Reader(), Code39Reader(), Code93Reader(), ITFReader(), CodabarReader(),
     DataBarExpandedReader()]
}
