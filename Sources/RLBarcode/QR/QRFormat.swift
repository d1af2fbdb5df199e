/// Format and version information of QR Code and Micro QR symbols
/// (ISO/IEC 18004:2015, 7.9 format information, 7.10 version information,
/// Annex C and Annex D for the BCH codes), and the format information of QR
/// Code Model 1 symbols (ISO/IEC 18004:2000, Annex M).
///
/// Both are short BCH code words read from fixed modules. A word is decoded
/// to the nearest valid word, accepted within a Hamming distance of 3 (the
/// codes' minimum distance is 7 and 8).
enum QRFormat {
    /// Format information of a QR Code symbol (7.9).
    struct Info: Equatable, Sendable {
        /// The error correction level.
        let level: QRErrorCorrectionLevel
        /// The data mask pattern reference, 0 ... 7.
        let mask: Int
    }

    /// Format information of a Micro QR symbol (7.9, Micro QR).
    struct MicroInfo: Equatable, Sendable {
        /// The symbol number 0 ... 7 (7.9): version and level.
        let symbolNumber: Int
        /// The data mask pattern reference, 0 ... 3.
        let mask: Int
    }

    /// The BCH(15,5) code word of five data bits: the data followed by the
    /// remainder of data * x^10 divided by G(x) = x^10 + x^8 + x^5 + x^4 +
    /// x^2 + x + 1 (0x537), Annex C.
    static func bch15(_ data: Int) -> Int {
        var r = data << 10
        for bit in stride(from: 14, through: 10, by: -1) where r >> bit & 1 == 1 {
            r ^= 0x537 << (bit - 10)
        }
        return data << 10 | r
    }

    /// The BCH(18,6) code word of a version number: the version followed by
    /// the remainder of version * x^12 divided by G(x) = x^12 + x^11 + x^10 +
    /// x^9 + x^8 + x^5 + x^2 + 1 (0x1F25), Annex D.
    static func bch18(_ version: Int) -> Int {
        var r = version << 12
        for bit in stride(from: 17, through: 12, by: -1) where r >> bit & 1 == 1 {
            r ^= 0x1F25 << (bit - 12)
        }
        return version << 12 | r
    }

    /// The 32 masked QR Code format words, index = the five data bits
    /// (level bits, then mask), masked with 101010000010010 (0x5412).
    static let formatWords: [Int] = (0..<32).map { bch15($0) ^ 0x5412 }
    /// The 32 masked QR Code Model 1 format words (ISO/IEC 18004:2000,
    /// Annex M: the same BCH code in the same modules), index as in
    /// `formatWords`, masked with 010100000100101 (0x2825).
    static let model1FormatWords: [Int] = (0..<32).map { bch15($0) ^ 0x2825 }
    /// The 32 masked Micro QR format words, index = symbol number * 4 +
    /// mask, masked with 100010001000101 (0x4445).
    static let microFormatWords: [Int] = (0..<32).map { bch15($0) ^ 0x4445 }
    /// The version words of versions 7 ... 40 (index: version - 7); version
    /// information is not masked.
    static let versionWords: [Int] = (7...40).map { bch18($0) }

    // MARK: Reading QR Code format information

    /// The two copies of the 15 format bits, most significant bit first.
    /// Copy 1 runs along row 8 to the right of the upper-left finder pattern
    /// and up column 8; copy 2 runs up column 8 beside the lower-left finder
    /// pattern, then along row 8 under the upper-right one (7.9).
    /// Returns nil when the matrix is not square or too small.
    static func readFormatBits(_ m: BitMatrix) -> (Int, Int)? {
        let n = m.width
        guard n >= 21, m.height == n else { return nil }
        var a = 0
        for x in 0...5 { a = a << 1 | (m[x, 8] ? 1 : 0) }
        a = a << 1 | (m[7, 8] ? 1 : 0)
        a = a << 1 | (m[8, 8] ? 1 : 0)
        a = a << 1 | (m[8, 7] ? 1 : 0)
        for y in stride(from: 5, through: 0, by: -1) { a = a << 1 | (m[8, y] ? 1 : 0) }
        var b = 0
        for y in stride(from: n - 1, through: n - 7, by: -1) { b = b << 1 | (m[8, y] ? 1 : 0) }
        for x in (n - 8)..<n { b = b << 1 | (m[x, 8] ? 1 : 0) }
        return (a, b)
    }

    /// The format information candidates of a QR Code symbol, best first:
    /// the nearest valid word to either copy, within distance 3, and, when
    /// the two copies decode to different words at the same distance, the
    /// other one too (the decoder tries both; Reed-Solomon tells them apart).
    static func readInfo(_ m: BitMatrix) -> [Info] {
        guard let (a, b) = readFormatBits(m) else { return [] }
        let ba = nearest(a, in: formatWords), bb = nearest(b, in: formatWords)
        var out: [(index: Int, distance: Int)] = []
        for c in [ba, bb] where c.distance <= 3 {
            if let i = out.firstIndex(where: { $0.index == c.index }) {
                out[i].distance = min(out[i].distance, c.distance)
            } else {
                out.append(c)
            }
        }
        out.sort { $0.distance < $1.distance }
        return out.map { Info(level: QRErrorCorrectionLevel(formatBits: $0.index >> 3), mask: $0.index & 7) }
    }

    /// The format information of a QR Code Model 1 symbol (its words masked
    /// with `model1FormatWords`' mask), or nil. Model 2 symbols far
    /// outnumber Model 1 ones, so the reading must say Model 1 plainly:
    /// one copy exactly on a Model 1 word, or both copies nearest to the
    /// same one with 3 wrong bits at most between them (a sampled texture
    /// such as a checkerboard is 3 bits from a Model 1 word in each copy);
    /// and nearer to it than either copy is to any
    /// Model 2 word (the nearest words of the two masks are at least 5 bits
    /// apart), so that a Model 2 symbol's format information never reads
    /// as Model 1.
    static func readModel1Info(_ m: BitMatrix) -> Info? {
        guard let (a, b) = readFormatBits(m) else { return nil }
        let ba = nearest(a, in: model1FormatWords), bb = nearest(b, in: model1FormatWords)
        let best = ba.distance <= bb.distance ? ba : bb
        guard best.distance == 0 || (ba.index == bb.index && ba.distance + bb.distance <= 3) else { return nil }
        let model2 = min(nearest(a, in: formatWords).distance, nearest(b, in: formatWords).distance)
        guard best.distance < model2 else { return nil }
        return Info(level: QRErrorCorrectionLevel(formatBits: best.index >> 3), mask: best.index & 7)
    }

    // MARK: Reading Micro QR format information

    /// The 15 format bits of a Micro QR symbol, most significant first:
    /// along row 8 from column 1 to 8, then up column 8 from row 7 to 1
    /// (7.9, Micro QR).
    static func readMicroFormatBits(_ m: BitMatrix) -> Int? {
        guard m.width >= 11, m.height == m.width else { return nil }
        var a = 0
        for x in 1...8 { a = a << 1 | (m[x, 8] ? 1 : 0) }
        for y in stride(from: 7, through: 1, by: -1) { a = a << 1 | (m[8, y] ? 1 : 0) }
        return a
    }

    /// The format information of a Micro QR symbol of `version` (1 ... 4):
    /// the nearest valid word within distance 3 among those whose symbol
    /// number belongs to that version, or nil.
    static func readMicroInfo(_ m: BitMatrix, version: Int) -> MicroInfo? {
        guard let bits = readMicroFormatBits(m) else { return nil }
        var best = -1, bestDistance = 4
        for index in 0..<32 {
            guard let s = MicroQRVersion.symbol(index >> 2), s.version == version else { continue }
            let d = (bits ^ microFormatWords[index]).nonzeroBitCount
            if d < bestDistance { best = index; bestDistance = d }
        }
        return best < 0 ? nil : MicroInfo(symbolNumber: best >> 2, mask: best & 3)
    }

    // MARK: Reading version information

    /// The two copies of the 18 version bits of a symbol of version 7 or
    /// more, most significant first. Bit k (0 = least significant) of the
    /// upper-right block is at column size - 11 + k % 3, row k / 3; the
    /// lower-left block is its transpose (7.10).
    static func readVersionBits(_ m: BitMatrix) -> (Int, Int)? {
        let n = m.width
        guard n >= 45, m.height == n else { return nil }
        var a = 0, b = 0
        for k in stride(from: 17, through: 0, by: -1) {
            a = a << 1 | (m[n - 11 + k % 3, k / 3] ? 1 : 0)
            b = b << 1 | (m[k / 3, n - 11 + k % 3] ? 1 : 0)
        }
        return (a, b)
    }

    /// The version given by the version information: the nearest valid word
    /// to either copy within distance 3, or nil when neither copy is close
    /// enough (or the symbol is smaller than version 7).
    static func readVersion(_ m: BitMatrix) -> Int? {
        guard let (a, b) = readVersionBits(m) else { return nil }
        let x = nearest(a, in: versionWords), y = nearest(b, in: versionWords)
        let best = x.distance <= y.distance ? x : y
        return best.distance <= 3 ? best.index + 7 : nil
    }

    /// The index of the word in `words` nearest to `bits`, and its distance.
    private static func nearest(_ bits: Int, in words: [Int]) -> (index: Int, distance: Int) {
        var best = 0, bestDistance = Int.max
        for (i, w) in words.enumerated() {
            let d = (bits ^ w).nonzeroBitCount
            if d < bestDistance { best = i; bestDistance = d }
        }
        return (best, bestDistance)
    }
}
