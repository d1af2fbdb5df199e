/// What a PDF417 symbol's codewords decode to.
package struct PDF417DecodeResult: Sendable {
    /// The payload bytes.
    var bytes: [UInt8]
    /// The payload as text.
    package var text: String
    /// The AIM symbology identifier (ISO/IEC 15438:2015, Annex symbology
    /// identifier): `]L2`, or `]L1` when the data carries ECI designators.
    var symbologyIdentifier: String
    /// The Macro PDF417 control block, when there is one.
    var macro: PDF417Bitstream.Macro?
    /// How many codewords error correction changed (erasures included).
    var correctedErrors: Int
    /// The error correction level, 0 ... 8.
    var ecLevel: Int
}

/// Error correction and decoding of a PDF417 symbol's codeword matrix
/// (ISO/IEC 15438:2015, 5.7 error correction, 5.4 data encodation).
package enum PDF417Decoder {
    /// The shared Reed-Solomon decoder over GF(929) (5.7.1: the check
    /// codewords make the codeword sequence divisible by
    /// (x - 3)(x - 3^2) ... (x - 3^k)).
    static let reedSolomon = ReedSolomonDecoder(field: .pdf417)

    /// Corrects and decodes `words`, the symbol's codewords in reading
    /// order (row by row, the row indicators left out), with `-1` for the
    /// codewords that could not be read (erasures).
    ///
    /// Two check codewords are held back from correction to detect a
    /// miscorrection (levels 1 and above; level 0 only detects).
    /// - Returns: nil when the codewords cannot be corrected or decoded.
    package static func decode(_ read: [Int], ecLevel: Int) -> PDF417DecodeResult? {
        guard ecLevel >= 0, ecLevel <= 8, let (words, changed) = correct(read, checkCount: 2 << ecLevel) else {
            return nil
        }
        let dataCount = words[0]
        guard dataCount >= 1, dataCount <= words.count - (2 << ecLevel) else { return nil }
        return content(Array(words[0..<dataCount]), correctedErrors: changed, ecLevel: ecLevel)
    }

    /// Corrects `read` (codewords in reading order, `-1` for erasures)
    /// whose last `checkCount` codewords are check codewords, holding two
    /// of them back to detect a miscorrection.
    /// - Returns: the corrected codewords and how many changed, or nil.
    static func correct(_ read: [Int], checkCount: Int) -> (words: [Int], changed: Int)? {
        let n = read.count
        guard checkCount >= 2, n > checkCount, n <= 928 else { return nil }
        var words = read
        var erasures: [Int] = []
        for k in 0..<n where words[k] < 0 || words[k] > 928 {
            erasures.append(k)
            words[k] = 0
        }
        guard erasures.count + 2 <= checkCount || erasures.isEmpty else { return nil }
        let spare = checkCount - erasures.count
        let maxErrors = max(0, (spare - 2) / 2)
        guard
            let changed = reedSolomon.correct(
                &words, checkCount: checkCount, erasures: erasures,
                maxErrors: maxErrors)
        else { return nil }
        return (words, changed)
    }

    /// Decodes the data codewords `data` (the symbol length descriptor
    /// first) into a result.
    static func content(_ data: [Int], correctedErrors: Int, ecLevel: Int) -> PDF417DecodeResult? {
        guard let content = PDF417Bitstream.decode(data) else { return nil }
        return PDF417DecodeResult(
            bytes: content.bytes, text: content.text,
            symbologyIdentifier: content.hasECI ? "]L1" : "]L2",
            macro: content.macro, correctedErrors: correctedErrors, ecLevel: ecLevel)
    }
}
