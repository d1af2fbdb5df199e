/// What a Data Matrix symbol holds.
package struct DMDecodeResult: Equatable, Sendable {
    /// The payload bytes (ISO/IEC 16022:2006, 5.2); GS (0x1D) separates
    /// GS1 fields.
    var bytes: [UInt8]
    /// The payload as text: each run in the character set of its ECI, else
    /// ISO/IEC 8859-1 (5.4.3, the default interpretation).
    package var text: String
    /// The modifier m of the symbology identifier ]dm (ISO/IEC 16022:2006,
    /// Annex N): 1 plain, 2 FNC1 in first (or fifth) position, 3 FNC1 in
    /// second (or sixth) position, 4 with ECI, 5 ECI and FNC1 first,
    /// 6 ECI and FNC1 second.
    var aimModifier: UInt8
    /// The symbol size.
    var rows: Int
    var columns: Int
    /// Whether the matrix was read transposed (a mirror image).
    var mirrored: Bool
    /// Structured append (5.6): position from 0, count, file id (the two
    /// file identification code words as c1 * 256 + c2).
    var structuredAppend: StructuredAppend?
    /// How many code words Reed-Solomon correction changed.
    var correctedErrors: Int
    /// Whether the data is a GS1 element string (FNC1 in first position).
    var gs1: Bool
    /// The first ECI assignment number, if any.
    var eci: Int?
    /// The symbol starts with the reader programming code word (5.2.4.9).
    var readerProgramming: Bool

    /// The AIM symbology identifier, e.g. "]d1".
    var symbologyIdentifier: String { "]d\(aimModifier)" }

    /// The GS1 element string in human-readable form, "(01)...", for GS1 data.
    var gs1HumanReadable: String? { gs1 ? GS1.humanReadable(bytes) : nil }
}

/// Why a matrix does not decode.
package enum DMDecodeFailure: Error, Equatable, Sendable {
    /// No ECC 200 size has the matrix's rows and columns.
    case size
    /// Too many errors for Reed-Solomon correction.
    case reedSolomon
    /// The corrected code words are not valid data.
    case bitstream(DMBitstream.Failure)
}

/// Decodes a sampled Data Matrix ECC 200 symbol (ISO/IEC 16022:2006,
/// ISO/IEC 21471 for the DMRE sizes): the finder and clock patterns of
/// every data region are dropped to form the mapping matrix (5.8.1), the
/// code words are read by the placement of Annex F, de-interleaved into
/// blocks (5.7.2), corrected (5.7, Reed-Solomon over GF(256) with the
/// polynomial 301) and decoded (5.2).
///
/// Every input is safe: a matrix of any size or content gives a result or
/// a failure value, never a trap.
package enum DMDecoder {
    /// The symbol in `matrix` (rows by columns, the finder's corner at the
    /// bottom-left), or nil. A square matrix that does not decode is tried
    /// again transposed, which reads a mirror image, unless `tryMirrored`
    /// is false.
    static func decode(_ matrix: BitMatrix, tryMirrored: Bool = true) -> DMDecodeResult? {
        try? decodeResult(matrix, tryMirrored: tryMirrored).get()
    }

    /// As `decode`, with the reason for a failure.
    package static func decodeResult(_ matrix: BitMatrix, tryMirrored: Bool = true) -> Result<
        DMDecodeResult, DMDecodeFailure
    > {
        let upright = decodeOnce(matrix, mirrored: false)
        if case .success = upright { return upright }
        guard tryMirrored, matrix.width == matrix.height else { return upright }
        // Transposed about the anti-diagonal keeps the finder corner at the bottom-left.
        let mirror = decodeOnce(antiTransposed(matrix), mirrored: true)
        if case .success = mirror { return mirror }
        return upright
    }

    /// The matrix mirrored about its anti-diagonal: what a mirror image of
    /// a symbol reads as when its finder corner is put at the bottom-left.
    static func antiTransposed(_ m: BitMatrix) -> BitMatrix {
        var t = BitMatrix(width: m.height, height: m.width)
        for y in 0..<m.height {
            for x in 0..<m.width where m[x, y] { t[m.height - 1 - y, m.width - 1 - x] = true }
        }
        return t
    }

    /// One reading, as the matrix is.
    static func decodeOnce(_ m: BitMatrix, mirrored: Bool) -> Result<DMDecodeResult, DMDecodeFailure> {
        guard let version = DMVersion.version(rows: m.height, columns: m.width) else { return .failure(.size) }
        var codewords = [UInt8](repeating: 0, count: version.totalCodewords)
        readCodewords(m, version, into: &codewords)
        let first = correct(codewords, version, standardInterleave: true)
        var data: [UInt8]
        var corrected: Int
        if let f = first {
            (data, corrected) = f
        } else if version.dataCodewords % version.blockCount != 0,
            let f = correct(codewords, version, standardInterleave: false)
        {
            // Some encoders interleave the check words of 144x144 as if the blocks were equal.
            (data, corrected) = f
        } else {
            return .failure(.reedSolomon)
        }
        let parsed = data.withUnsafeBufferPointer { DMBitstream.decode($0) }
        let content: DMBitstream.Content
        switch parsed {
        case .success(let c): content = c
        case .failure(let f): return .failure(.bitstream(f))
        }

        var modifier: UInt8 = content.gs1 ? 2 : content.aimApplication ? 3 : 1
        if content.firstECI != nil { modifier += 3 }
        var sa: StructuredAppend?
        if let s = content.structuredAppend { sa = StructuredAppend(index: s.index, total: s.total, id: String(s.id)) }
        return .success(
            DMDecodeResult(
                bytes: content.bytes, text: text(of: content), aimModifier: modifier,
                rows: version.rows, columns: version.columns, mirrored: mirrored,
                structuredAppend: sa, correctedErrors: corrected, gs1: content.gs1,
                eci: content.firstECI, readerProgramming: content.readerProgramming))
    }

    /// Reads the code words of the mapping matrix (5.8.1, Annex F): module
    /// (r, c) of the mapping matrix is module r + 1 + 2 * (r / regionRows)
    /// down and c + 1 + 2 * (c / regionColumns) across the symbol, skipping
    /// the finder and clock rows and columns of the data regions.
    static func readCodewords(_ m: BitMatrix, _ v: DMVersion, into out: inout [UInt8]) {
        let table = DMPlacement.table(v)
        let mc = v.mappingColumns, rr = v.regionRows, rc = v.regionColumns
        let count = min(out.count, table.count / 8)
        for k in 0..<count {
            var byte = 0
            for b in 0..<8 {
                let p = Int(table[8 * k + b])
                let r = p / mc, c = p % mc
                let y = r + 1 + 2 * (r / rr), x = c + 1 + 2 * (c / rc)
                byte = byte << 1 | (m[x, y] ? 1 : 0)
            }
            out[k] = UInt8(byte)
        }
    }

    /// De-interleaves (5.7.2: code word k of the data, and of the check
    /// words that follow, belongs to block k mod blockCount) and corrects
    /// each block; the data code words in order and how many code words
    /// changed, or nil. With `standardInterleave` false, the check words
    /// are dealt out from block 0 again (the older reading of 144x144).
    static func correct(
        _ codewords: [UInt8], _ v: DMVersion,
        standardInterleave: Bool
    ) -> (data: [UInt8], corrected: Int)? {
        let nb = v.blockCount, ec = v.checkPerBlock, nd = v.dataCodewords
        let decoder = ReedSolomonDecoder(field: .dataMatrix)
        var data = [UInt8](repeating: 0, count: nd)
        var corrected = 0
        var block = [UInt8](repeating: 0, count: nd / nb + 1 + ec)
        for b in 0..<nb {
            let d = v.dataCount(block: b)
            for i in 0..<d { block[i] = codewords[i * nb + b] }
            let shift = standardInterleave ? (nd % nb) : 0
            // Check word e of block b is interleaved check word number j with (j + shift) mod nb == b.
            let eb = (b - shift + nb) % nb
            for i in 0..<ec { block[d + i] = codewords[nd + i * nb + eb] }
            let fixed = block.withUnsafeMutableBufferPointer { all in
                decoder.correct(UnsafeMutableBufferPointer(rebasing: all[0..<(d + ec)]), checkCount: ec)
            }
            guard let fixed else { return nil }
            corrected += fixed
            for i in 0..<d { data[i * nb + b] = block[i] }
        }
        return (data, corrected)
    }

    /// The text of the payload: each run in its ECI's character set, the
    /// runs without an ECI in ISO/IEC 8859-1 (5.4.3). GS1 and Macro data
    /// are ASCII and read the same way.
    package static func text(of content: DMBitstream.Content) -> String {
        var text = ""
        for run in content.runs {
            text += QRCharacterSet.text(content.bytes[run.range], .eci(run.eci ?? 3))
        }
        return text
    }
}
