import Foundation

/// What a file's own structure says before anything is decoded: the
/// picture's size from its header (to refuse a huge picture before its
/// pixels are allocated) and whether the file ends where its structure says
/// it does (a truncated file).
///
/// Read for PNG, JPEG, GIF, BMP and WebP pictures and for MP4/QuickTime and
/// Matroska/WebM videos; other files give an empty layout.
struct FileLayout {
    /// The picture's width and height in pixels, when the header gives them.
    var size: (width: Int, height: Int)? = nil
    /// Why the file is truncated, when it is.
    var truncation: String? = nil

    /// The layout of the file at `path` (empty when it cannot be mapped).
    static func read(path: String) -> FileLayout {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else {
            return FileLayout()
        }
        return data.withUnsafeBytes { raw in read(ByteReader(raw)) }
    }

    /// The layout of a file's bytes.
    static func read(_ b: ByteReader) -> FileLayout {
        if b.matches("\u{89}PNG\r\n\u{1A}\n", at: 0) { return png(b) }
        if b.u8(0) == 0xFF && b.u8(1) == 0xD8 && b.u8(2) == 0xFF { return jpeg(b) }
        if b.matches("GIF87a", at: 0) || b.matches("GIF89a", at: 0) { return gif(b) }
        if b.matches("BM", at: 0) { return bmp(b) }
        if b.matches("RIFF", at: 0) && b.matches("WEBP", at: 8) { return webp(b) }
        if b.u32be(0) == 0x1A45_DFA3 { return matroska(b) }
        if ["ftyp", "moov", "mdat", "free", "skip", "wide"].contains(where: { b.matches($0, at: 4) }) {
            return isoMedia(b)
        }
        return FileLayout()
    }

    /// PNG (ISO/IEC 15948): the size from IHDR; complete when the chunks
    /// reach IEND.
    static func png(_ b: ByteReader) -> FileLayout {
        var layout = FileLayout()
        if let w = b.u32be(16), let h = b.u32be(20), b.matches("IHDR", at: 12) { layout.size = (Int(w), Int(h)) }
        var i = 8
        while let length = b.u32be(i), let type = b.text(i + 4, 4) {
            let end = i + 12 + Int(length)
            guard end <= b.count else {
                layout.truncation = "the PNG ends inside its \(type) chunk"
                return layout
            }
            if type == "IEND" { return layout }
            i = end
        }
        layout.truncation = "the PNG ends before its IEND chunk"
        return layout
    }

    /// GIF: the logical screen's size; complete when the last byte is the
    /// trailer (0x3B).
    static func gif(_ b: ByteReader) -> FileLayout {
        var layout = FileLayout()
        if let w = b.u16le(6), let h = b.u16le(8) { layout.size = (Int(w), Int(h)) }
        if b.u8(b.count - 1) != 0x3B { layout.truncation = "the GIF ends before its trailer" }
        return layout
    }

    /// BMP: the size from the info header; truncated when the file is
    /// shorter than the size its header gives.
    static func bmp(_ b: ByteReader) -> FileLayout {
        var layout = FileLayout()
        if let w = b.u32le(18), let h = b.u32le(22) {
            layout.size = (abs(Int(Int32(bitPattern: w))), abs(Int(Int32(bitPattern: h))))
        }
        if let declared = b.u32le(2), declared > b.count {
            layout.truncation = "the BMP has \(b.count) of its \(declared) bytes"
        }
        return layout
    }

    /// WebP: the size from the VP8, VP8L or VP8X chunk; truncated when the
    /// file is shorter than its RIFF size.
    static func webp(_ b: ByteReader) -> FileLayout {
        var layout = FileLayout()
        if b.matches("VP8 ", at: 12), let w = b.u16le(26), let h = b.u16le(28) {
            layout.size = (Int(w & 0x3FFF), Int(h & 0x3FFF))
        } else if b.matches("VP8L", at: 12), let bits = b.u32le(21) {
            layout.size = (Int(bits & 0x3FFF) + 1, Int((bits >> 14) & 0x3FFF) + 1)
        } else if b.matches("VP8X", at: 12), let w = b.u32le(24), let h = b.u32le(27) {
            layout.size = (Int(w & 0xFF_FFFF) + 1, Int(h & 0xFF_FFFF) + 1)
        }
        if let riff = b.u32le(4), 8 + Int(riff) > b.count {
            layout.truncation = "the WebP has \(b.count) of its \(8 + Int(riff)) bytes"
        }
        return layout
    }

    /// MP4 and QuickTime (ISO/IEC 14496-12, 4.2): the top-level boxes must
    /// end within the file, and one of them must be the movie box (`moov`).
    static func isoMedia(_ b: ByteReader) -> FileLayout {
        var layout = FileLayout()
        var i = 0, hasMovie = false
        while i + 8 <= b.count, let size32 = b.u32be(i), let type = b.text(i + 4, 4) {
            var size = Int(size32)
            if size32 == 1, let large = b.u64be(i + 8) { size = large > UInt64(Int.max) ? Int.max : Int(large) }
            if size32 == 0 { size = b.count - i }
            if type == "moov" { hasMovie = true }
            guard size >= 8, size <= b.count - i else {
                layout.truncation =
                    "the file ends inside its '\(printable(type))' box "
                    + "(\(b.count - i) of its \(size) bytes)"
                return layout
            }
            i += size
        }
        if !hasMovie { layout.truncation = "the file has no movie box ('moov'): it was cut before its index" }
        return layout
    }

    /// Matroska and WebM (RFC 9559, EBML): the Segment after the EBML header
    /// must end within the file, unless its size is unknown (a live recording).
    static func matroska(_ b: ByteReader) -> FileLayout {
        var layout = FileLayout()
        guard let header = b.ebmlSize(4), let headerSize = header.value else { return layout }
        let segment = 4 + header.length + headerSize
        guard b.u32be(segment) == 0x1853_8067, let size = b.ebmlSize(segment + 4) else { return layout }
        if let value = size.value, segment + 4 + size.length + value > b.count {
            layout.truncation = "the file has \(b.count - segment - 4 - size.length) of its Segment's \(value) bytes"
        }
        return layout
    }

    /// JPEG (ISO/IEC 10918-1, B.1): the size from the first frame header
    /// (SOF0 to SOF15); complete when the marker segments and the
    /// entropy-coded data after each scan header (SOS) reach the
    /// end-of-image marker (EOI). In entropy-coded data 0xFF is followed by
    /// 0x00 (a stuffed byte) or a restart marker (RST0 to RST7); any other
    /// marker ends the scan (B.1.1.5).
    static func jpeg(_ b: ByteReader) -> FileLayout {
        var layout = FileLayout()
        var i = 2
        while true {
            // a marker: one or more 0xFF, then its code (bytes between
            // segments are skipped, as decoders do)
            guard let next = b.find(0xFF, from: i) else { break }
            i = next
            while b.u8(i) == 0xFF { i += 1 }
            guard let marker = b.u8(i) else { break }
            i += 1
            switch marker {
            case 0xD9:
                return layout
            case 0x01, 0xD0...0xD8:
                continue
            default:
                guard let length = b.u16be(i), length >= 2, i + Int(length) <= b.count else {
                    layout.truncation = "a marker segment runs past the end of the JPEG"
                    return layout
                }
                let isFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
                if isFrame, layout.size == nil, let h = b.u16be(i + 3), let w = b.u16be(i + 5) {
                    layout.size = (Int(w), Int(h))
                }
                i += Int(length)
                if marker == 0xDA { i = b.endOfEntropyCodedData(from: i) }
            }
        }
        layout.truncation = "the JPEG ends before its end-of-image marker (the rest of the picture is missing)"
        return layout
    }
}
