/// The parameters the mode message carries (ISO/IEC 24778:2008, 7.3.1.1).
package struct AztecModeMessage: Equatable, Sendable {
    var compact: Bool
    var layers: Int
    var dataCodewords: Int
    var readerInit: Bool
    /// For a Rune, its value.
    var runeValue: Int?
    var corrected: Int

    /// Decodes 28 (compact) or 40 (full-range) bits, most significant
    /// first: 2 or 4 data words of 4 bits and 5 or 6 Reed-Solomon check words
    /// over GF(16) (7.3.1.1). A compact message whose bits read as a Rune's
    /// (every other bit inverted, 7.5) gives a Rune when `runeAllowed`.
    package static func decode(bits: UInt64, compact: Bool, runeAllowed: Bool = false) -> AztecModeMessage? {
        let wordCount = compact ? 7 : 10, dataWords = compact ? 2 : 4
        func words(_ b: UInt64) -> [UInt8] {
            (0..<wordCount).map { UInt8(truncatingIfNeeded: b >> UInt64(4 * (wordCount - 1 - $0)) & 0xF) }
        }
        let decoder = ReedSolomonDecoder(field: .aztecParameters)
        // At most two errors: a full-range message keeps two check words
        // back for misdecode protection; a compact one uses its capacity,
        // and the data code words' own check confirms the reading.
        let maxErrors = 2
        if runeAllowed && compact {
            var w = words(bits ^ 0xAAA_AAAA)
            if let fixed = decoder.correct(&w, checkCount: 5, maxErrors: 1) {
                let value = Int(w[0]) << 4 | Int(w[1])
                return AztecModeMessage(
                    compact: true, layers: 0, dataCodewords: 0, readerInit: false,
                    runeValue: value, corrected: fixed)
            }
        }
        var w = words(bits)
        guard let fixed = decoder.correct(&w, checkCount: wordCount - dataWords, maxErrors: maxErrors) else {
            return nil
        }
        var v = 0
        for i in 0..<dataWords { v = v << 4 | Int(w[i]) }
        let layers = compact ? (v >> 6) + 1 : (v >> 11) + 1
        var count = compact ? (v & 0x3F) + 1 : (v & 0x7FF) + 1
        // 7.4.2.4: a reader initialisation symbol sets the top bit of the
        // code word count field, which then exceeds what the symbol holds.
        var readerInit = false
        let total = AztecLayout(compact: compact, layers: layers).totalCodewords
        let flag = compact ? 32 : 1024
        if count > total && count > flag {
            count -= flag
            readerInit = true
        }
        return AztecModeMessage(
            compact: compact, layers: layers, dataCodewords: count, readerInit: readerInit,
            runeValue: nil, corrected: fixed)
    }
}
