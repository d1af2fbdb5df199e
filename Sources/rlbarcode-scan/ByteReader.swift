import Foundation

/// Bounds-checked reads of a file's bytes: every read past the end gives nil.
struct ByteReader {
    /// The bytes.
    let bytes: UnsafeRawBufferPointer

    /// A reader of `bytes` (valid while they are).
    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// How many bytes there are.
    var count: Int { bytes.count }

    /// The byte at `i`.
    func u8(_ i: Int) -> UInt8? { i >= 0 && i < bytes.count ? bytes[i] : nil }

    /// `n` bytes from `i`, most significant first.
    func bigEndian(_ i: Int, _ n: Int) -> UInt64? {
        guard i >= 0, n <= bytes.count, i <= bytes.count - n else { return nil }
        var v: UInt64 = 0
        for k in 0..<n { v = v << 8 | UInt64(bytes[i + k]) }
        return v
    }

    /// `n` bytes from `i`, least significant first.
    func littleEndian(_ i: Int, _ n: Int) -> UInt64? {
        guard i >= 0, n <= bytes.count, i <= bytes.count - n else { return nil }
        var v: UInt64 = 0
        for k in (0..<n).reversed() { v = v << 8 | UInt64(bytes[i + k]) }
        return v
    }

    /// The big-endian 16-bit integer at `i`.
    func u16be(_ i: Int) -> UInt16? { bigEndian(i, 2).map { UInt16($0) } }
    /// The big-endian 32-bit integer at `i`.
    func u32be(_ i: Int) -> UInt32? { bigEndian(i, 4).map { UInt32($0) } }
    /// The big-endian 64-bit integer at `i`.
    func u64be(_ i: Int) -> UInt64? { bigEndian(i, 8) }
    /// The little-endian 16-bit integer at `i`.
    func u16le(_ i: Int) -> UInt16? { littleEndian(i, 2).map { UInt16($0) } }
    /// The little-endian 32-bit integer at `i`.
    func u32le(_ i: Int) -> UInt32? { littleEndian(i, 4).map { UInt32($0) } }

    /// Whether the bytes at `i` are `ascii` (one byte per scalar, all below 256).
    func matches(_ ascii: String, at i: Int) -> Bool {
        var k = i
        for scalar in ascii.unicodeScalars {
            guard u8(k) == UInt8(truncatingIfNeeded: scalar.value) else { return false }
            k += 1
        }
        return true
    }

    /// `n` bytes at `i` as ISO-8859-1 text (a chunk or box type).
    func text(_ i: Int, _ n: Int) -> String? {
        guard i >= 0, n <= bytes.count, i <= bytes.count - n else { return nil }
        return String(String.UnicodeScalarView(bytes[i..<(i + n)].map { Unicode.Scalar($0) }))
    }

    /// The index of the first `byte` at or after `i`.
    func find(_ byte: UInt8, from i: Int) -> Int? {
        guard i >= 0, i < bytes.count, let base = bytes.baseAddress else { return nil }
        guard let hit = memchr(base + i, Int32(byte), bytes.count - i) else { return nil }
        return base.distance(to: UnsafeRawPointer(hit))
    }

    /// Where a JPEG scan's entropy-coded data starting at `i` ends: the
    /// index of the 0xFF of the first marker that is not a stuffed byte
    /// (0xFF 0x00) or a restart marker (0xFF 0xD0 to 0xD7); the end of the
    /// bytes when there is none.
    func endOfEntropyCodedData(from i: Int) -> Int {
        var k = i
        while let ff = find(0xFF, from: k) {
            guard let next = u8(ff + 1) else { return bytes.count }
            if next == 0x00 || (0xD0...0xD7).contains(next) || next == 0xFF {
                k = ff + (next == 0xFF ? 1 : 2)
                continue
            }
            return ff
        }
        return bytes.count
    }

    /// An EBML variable-size integer at `i` (RFC 8794, 4): its length in
    /// bytes and its value, nil when all its value bits are 1 (unknown size).
    func ebmlSize(_ i: Int) -> (length: Int, value: Int?)? {
        guard let first = u8(i), first != 0 else { return nil }
        let length = first.leadingZeroBitCount + 1
        guard let raw = bigEndian(i, length) else { return nil }
        let bits = 7 * length
        let value = raw & ((1 << UInt64(bits)) - 1)
        return (length, value == (1 << UInt64(bits)) - 1 ? nil : Int(value))
    }
}
