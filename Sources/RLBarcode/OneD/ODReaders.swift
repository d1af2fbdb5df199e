/// The linear readers a scanner runs on every scan line, cheapest and most
/// common first. Each symbology has its own reader behind the
/// ``LinearReader`` contract; adding one is adding it here.
func makeLinearReaders() -> [any LinearReader] {
    [EANReader(), Code128Reader(), Code39Reader(), Code93Reader(), ITFReader(), CodabarReader()]
}
