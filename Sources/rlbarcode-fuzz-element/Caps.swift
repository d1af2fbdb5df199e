/// The caps of a raw video stream as the harness sends them.
struct Caps {
    /// The formats the element accepts, then one it does not.
    static let formats = ["NV12", "NV21", "I420", "YV12", "GRAY8", "Y42B", "Y444", "NV16", "NV24", "RGB"]
    /// The caps every input starts with.
    static let initial = Caps(format: "GRAY8", width: 64, height: 48, framerate: (30, 1), extra: "")

    var format: String
    var width: Int
    var height: Int
    /// Numerator and denominator; `nil`: no framerate field.
    var framerate: (Int, Int)?
    /// More fields, each `,name=value`.
    var extra: String

    /// The caps as text.
    var text: String {
        let rate = framerate.map { ",framerate=\($0.0)/\($0.1)" } ?? ""
        return "video/x-raw,format=\(format),width=\(width),height=\(height)\(rate)\(extra)"
    }

    /// Caps read from `r`: any format, a size of one of four shapes (at
    /// most 320 x 240, a line up to 4097 long, a column, a few pixels;
    /// still pictures, framerate 0/1, at most 128 x 128 as they have no time
    /// limit), a framerate, sometimes interlacing or a pixel aspect ratio.
    static func read(_ r: inout ByteReader) -> Caps {
        let format = formats[r.byte() % formats.count]
        var (w, h): (Int, Int)
        switch r.byte() % 4 {
        case 0: (w, h) = (1 + r.word() % 320, 1 + r.word() % 240)
        case 1: (w, h) = (1 + r.word() % 4097, 1 + r.byte() % 8)
        case 2: (w, h) = (1 + r.byte() % 8, 1 + r.word() % 4097)
        default: (w, h) = (1 + r.byte() % 16, 1 + r.byte() % 16)
        }
        let rates: [(Int, Int)?] = [(30, 1), (0, 1), (25, 1), (1, 1000), (1000, 1), (30000, 1001), nil, (60, 1)]
        let rate = rates[r.byte() % rates.count]
        if rate == nil || rate?.0 == 0 { (w, h) = (min(w, 128), min(h, 128)) }
        var extra = ""
        let more = r.byte()
        if more & 1 != 0 { extra += ",interlace-mode=interleaved" }
        if more & 2 != 0 { extra += ",pixel-aspect-ratio=\(1 + more >> 4)/\(1 + more >> 2 & 3)" }
        if more & 4 != 0 { extra += ",colorimetry=bt709" }
        return Caps(format: format, width: w, height: h, framerate: rate, extra: extra)
    }
}

/// Reads an input byte by byte; past its end every byte is 0.
struct ByteReader {
    let data: UnsafeBufferPointer<UInt8>
    var offset = 0

    /// Whether every byte was read.
    var atEnd: Bool { offset >= data.count }

    /// The next byte.
    mutating func byte() -> Int {
        defer { offset += 1 }
        return offset < data.count ? Int(data[offset]) : 0
    }

    /// The next two bytes, big-endian.
    mutating func word() -> Int { byte() << 8 | byte() }

    /// The next four bytes, big-endian.
    mutating func long() -> UInt32 { UInt32(word()) << 16 | UInt32(word()) }

    /// The next `count` bytes (fewer at the end).
    mutating func bytes(_ count: Int) -> UnsafeBufferPointer<UInt8> {
        let start = min(offset, data.count), end = min(data.count, offset + count)
        offset += count
        return UnsafeBufferPointer(rebasing: data[start..<end])
    }
}
