/// What an Aztec Code symbol holds.
package struct AztecDecodeResult: Equatable, Sendable {
    /// The payload bytes (ISO/IEC 24778:2008, 7.4.1): the characters of the
    /// text modes as ASCII, byte data as is; FNC1 (other than in first or
    /// second position) as GS, 0x1D. ECI designators are not part of them.
    var bytes: [UInt8]
    /// The payload as text: each run in its ECI's character set, ISO/IEC
    /// 8859-1 where no ECI is in force (7.4.1.2).
    package var text: String
    /// The modifier m of the symbology identifier ]zm (Annex on symbology
    /// identifiers): '0' ... '9', 'A' ... 'C'.
    var aimModifier: Character
    /// Compact (or Rune) rather than full-range.
    var compact: Bool
    /// Data layers (0 for a Rune).
    var layers: Int
    /// Data code words (the Rune's value for a Rune).
    var dataCodewords: Int
    /// Whether the symbol is an Aztec Rune (7.5 Aztec Runes).
    var isRune: Bool
    /// Whether the symbol was read as a mirror image.
    var mirrored: Bool
    /// Reader initialisation (programming) symbol (7.4.2.4).
    var readerInit: Bool
    /// Structured append (8): position from 0, total, and the message id
    /// (empty when none).
    var structuredAppend: (index: Int, total: Int, id: String)?
    /// Code words Reed-Solomon correction changed (mode message included).
    var correctedErrors: Int
    /// Whether the data is a GS1 element string (FNC1 in first position).
    var gs1: Bool
    /// The first ECI assignment number, if any.
    var eci: Int?
    /// How many quarter turns clockwise the matrix was read at.
    var rotation: Int

    var symbologyIdentifier: String { "]z\(aimModifier)" }

    /// The GS1 element string in human-readable form, "(01)...", for GS1 data.
    var gs1HumanReadable: String? { gs1 ? GS1.humanReadable(bytes) : nil }

    package static func == (a: AztecDecodeResult, b: AztecDecodeResult) -> Bool {
        a.bytes == b.bytes && a.text == b.text && a.aimModifier == b.aimModifier && a.compact == b.compact
            && a.layers == b.layers && a.isRune == b.isRune && a.mirrored == b.mirrored
            && a.structuredAppend?.index == b.structuredAppend?.index
            && a.structuredAppend?.total == b.structuredAppend?.total
            && a.structuredAppend?.id == b.structuredAppend?.id
    }
}

/// Why an Aztec matrix does not decode.
package enum AztecDecodeFailure: Error, Equatable, Sendable {
    /// No Aztec size, or no bull's-eye / orientation patterns.
    case size
    /// The mode message does not correct, or names a size the matrix is not.
    case modeMessage
    /// Too many errors for Reed-Solomon correction.
    case reedSolomon
    /// The corrected data is not a valid bit stream.
    case bitstream
}

/// Decodes a sampled Aztec Code symbol or Aztec Rune (ISO/IEC 24778:2008):
/// the orientation patterns (7.3.1.1) give the rotation and whether the
/// matrix is a mirror image; the mode message (7.3.1.1) the size and the
/// data code word count; the data layers (7.3.1.3) give the code words,
/// which are corrected (7.4.2.3, Reed-Solomon over GF(64), GF(256),
/// GF(1024) or GF(4096)), unstuffed (7.4.2.2) and decoded (7.4.1,
/// `AztecBitstream`).
///
/// Every input is safe: a matrix of any size or content gives a result or a
/// failure value, never a trap.
package enum AztecDecoder {
    /// The symbol in `matrix`, or nil.
    /// `unreliable`, when given (of the matrix's size), marks modules that
    /// were not seen (outside the frame): the code words holding them are
    /// corrected as erasures, which costs half as much as errors.
    static func decode(_ matrix: BitMatrix, unreliable: BitMatrix? = nil) -> AztecDecodeResult? {
        try? decodeResult(matrix, unreliable: unreliable).get()
    }

    /// Maps the symbol's own (x, y) to the matrix's under one of the eight
    /// symmetries of the square: `rotation` quarter turns clockwise of the
    /// symbol in the matrix, then a mirror (transposition) if `mirrored`.
    struct View {
        let matrix: BitMatrix
        let rotation: Int
        let mirrored: Bool
        var size: Int { matrix.width }

        @inline(__always)
        subscript(x: Int, y: Int) -> Bool {
            var u = x, v = y
            if mirrored { swap(&u, &v) }
            let n = size - 1
            switch rotation & 3 {
            case 0: return matrix[u, v]
            case 1: return matrix[n - v, u]
            case 2: return matrix[n - u, n - v]
            default: return matrix[v, n - u]
            }
        }
    }

    /// As `decode`, with the reason for a failure.
    package static func decodeResult(_ matrix: BitMatrix, unreliable: BitMatrix? = nil) -> Result<
        AztecDecodeResult, AztecDecodeFailure
    > {
        guard matrix.width == matrix.height, matrix.width >= 11, matrix.width & 1 == 1 else { return .failure(.size) }
        let layouts = AztecLayout.candidates(size: matrix.width)
        guard !layouts.isEmpty else { return .failure(.size) }
        var failure = AztecDecodeFailure.size
        // The bull's-eye tells compact from full-range: a full-range
        // symbol's ring at radius 5 is light and at radius 6 dark.
        for layout in layouts {
            let c = matrix.width / 2
            if !layout.compact {
                var wrong = 0
                for t in -5...5 {
                    for (x, y) in [(c + t, c - 5), (c + t, c + 5), (c - 5, c + t), (c + 5, c + t)] where matrix[x, y] {
                        wrong += 1
                    }
                    for (x, y) in [(c + t, c - 6), (c + t, c + 6), (c - 6, c + t), (c + 6, c + t)] where !matrix[x, y] {
                        wrong += 1
                    }
                }
                if wrong > 8 { continue }
            }
            switch decode(matrix, layout, unreliable: unreliable) {
            case .success(let r): return .success(r)
            case .failure(let f): if failure == .size || f != .size { failure = f }
            }
        }
        return .failure(failure)
    }

    /// The orientation of the matrix: the symmetry whose orientation
    /// modules (7.3.1.1) match best, with the number of mismatches.
    static func orientation(_ matrix: BitMatrix, radius r: Int) -> [(rotation: Int, mirrored: Bool, misses: Int)] {
        let c = matrix.width / 2
        var out: [(Int, Bool, Int)] = []
        let marks = AztecLayout.orientationOffsets(radius: r)
        for mirrored in [false, true] {
            for rotation in 0..<4 {
                let view = View(matrix: matrix, rotation: rotation, mirrored: mirrored)
                var misses = 0
                for (dx, dy, dark) in marks where view[c + dx, c + dy] != dark { misses += 1 }
                out.append((rotation, mirrored, misses))
            }
        }
        return out.sorted { $0.2 < $1.2 }
    }

    /// Reads the matrix as `layout`.
    static func decode(
        _ matrix: BitMatrix, _ layout: AztecLayout,
        unreliable: BitMatrix? = nil
    ) -> Result<AztecDecodeResult, AztecDecodeFailure> {
        let c = matrix.width / 2
        var failure = AztecDecodeFailure.size
        for o in orientation(matrix, radius: layout.modeRingRadius) where o.misses <= 2 {
            let view = View(matrix: matrix, rotation: o.rotation, mirrored: o.mirrored)
            var bits: UInt64 = 0
            for (dx, dy) in layout.modeMessageOffsets { bits = bits << 1 | (view[c + dx, c + dy] ? 1 : 0) }
            guard
                let mode = AztecModeMessage.decode(
                    bits: bits, compact: layout.compact,
                    runeAllowed: layout.layers == 0)
            else {
                failure = .modeMessage
                continue
            }
            if let rune = mode.runeValue {
                // Annex on Runes: the value as three decimal digits.
                let text = rune < 10 ? "00\(rune)" : rune < 100 ? "0\(rune)" : String(rune)
                return .success(
                    AztecDecodeResult(
                        bytes: Array(text.utf8), text: text, aimModifier: "C", compact: true,
                        layers: 0, dataCodewords: rune, isRune: true, mirrored: o.mirrored,
                        readerInit: false, structuredAppend: nil,
                        correctedErrors: mode.corrected, gs1: false, eci: nil,
                        rotation: o.rotation))
            }
            guard mode.layers == layout.layers, mode.compact == layout.compact else {
                failure = .modeMessage
                continue
            }
            let mask = unreliable.map { View(matrix: $0, rotation: o.rotation, mirrored: o.mirrored) }
            switch decodeData(view, layout, mode, unreliable: mask) {
            case .success(var r):
                r.mirrored = o.mirrored
                r.rotation = o.rotation
                return .success(r)
            case .failure(let f): failure = f
            }
        }
        return .failure(failure)
    }

    /// Reads, corrects and decodes the data layers.
    static func decodeData(
        _ view: View, _ layout: AztecLayout, _ mode: AztecModeMessage,
        unreliable: View? = nil
    ) -> Result<AztecDecodeResult, AztecDecodeFailure> {
        let n = layout.totalCodewords, b = layout.codewordBits, d = mode.dataCodewords
        // 7.3.1.2: at least... the check words must be able to find errors.
        guard d >= 1, d < n else { return .failure(.modeMessage) }
        let modules = layout.dataModules()
        let size = layout.size
        // The first totalBits mod b bits (at the outer start) are not used.
        let skip = layout.totalBits % b
        var words = [UInt16](repeating: 0, count: n)
        for i in 0..<n {
            var v: UInt16 = 0
            let start = skip + i * b
            for k in 0..<b {
                let p = Int(modules[start + k])
                v = v << 1 | (view[p % size, p / size] ? 1 : 0)
            }
            words[i] = v
        }
        let c = n - d
        let decoder = ReedSolomonDecoder(field: layout.field)
        // Misdecode protection: with few check words keep some back.
        let maxErrors = c <= 4 ? (c - 2) / 2 : c <= 10 ? (c - 1) / 2 : c / 2
        // Code words with modules that were not seen are erasures, as long
        // as they leave room to correct a few errors too.
        var erasures: [Int] = []
        if let mask = unreliable {
            for i in 0..<n {
                let start = skip + i * b
                for k in 0..<b {
                    let p = Int(modules[start + k])
                    if mask[p % size, p / size] { erasures.append(i); break }
                }
            }
            if erasures.count > c - 4 { erasures = [] }
        }
        let errorLimit = erasures.isEmpty ? maxErrors : min(maxErrors, (c - erasures.count) / 2 - 1)
        guard errorLimit >= 0,
            let fixed = decoder.correct(&words, checkCount: c, erasures: erasures, maxErrors: errorLimit)
        else { return .failure(.reedSolomon) }

        // 7.4.2.2 bit stuffing: a code word whose first b-1 bits are equal
        // carries only those; all-zero and all-one code words do not occur.
        let ones = UInt16((1 << b) - 1)
        var bits = [UInt8]()
        bits.reserveCapacity(d * b)
        for i in 0..<d {
            let w = words[i]
            if w == 0 || w == ones { return .failure(.reedSolomon) }
            if w == 1 {
                for _ in 0..<(b - 1) { bits.append(0) }
            } else if w == ones - 1 {
                for _ in 0..<(b - 1) { bits.append(1) }
            } else {
                for k in stride(from: b - 1, through: 0, by: -1) { bits.append(UInt8(w >> UInt16(k) & 1)) }
            }
        }
        guard let content = AztecBitstream.decode(bits) else { return .failure(.bitstream) }
        var modifier = content.fnc1 == .first ? 1 : content.fnc1 == .second ? 2 : 0
        if content.hasECI { modifier += 3 }
        if content.structuredAppend != nil { modifier += 6 }
        let m: Character = modifier < 10 ? Character(String(modifier)) : Character(UnicodeScalar(UInt8(55 + modifier)))
        return .success(
            AztecDecodeResult(
                bytes: content.bytes, text: AztecBitstream.text(of: content), aimModifier: m,
                compact: layout.compact, layers: layout.layers, dataCodewords: d,
                isRune: false, mirrored: false, readerInit: mode.readerInit,
                structuredAppend: content.structuredAppend,
                correctedErrors: fixed + mode.corrected, gs1: content.fnc1 == .first,
                eci: content.firstECI, rotation: 0))
    }
}
