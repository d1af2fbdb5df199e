/// The machine's byte order, for the vector loops that load several
/// pixels as one wider lane (or read a comparison mask as 64-bit words)
/// and pick them out by masks and shifts: they expect pixel `k` of a lane
/// in its byte `k`. Elsewhere those loops take a pixel at a time.
enum ByteOrder {
    #if _endian(little)
        static let isLittleEndian = true
    #else
        static let isLittleEndian = false
    #endif
}
