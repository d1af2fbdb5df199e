/// The structured append header of a symbol (ISO/IEC 18004:2015, 8): which
/// of how many symbols it is, and the parity byte of the whole message.
struct QRStructuredAppend: Equatable, Sendable {
    /// Position in the sequence, 0 ... 15.
    let index: Int
    /// How many symbols the sequence has, 1 ... 16.
    let total: Int
    /// Exclusive or of all bytes of the whole message.
    let parity: UInt8
}

/// What a QR Code or Micro QR symbol holds.
package struct QRDecodeResult: Equatable, Sendable {
    /// The payload bytes before any text conversion (ISO/IEC 18004:2015,
    /// 7.4): digits and alphanumeric characters as ASCII, Kanji as Shift JIS,
    /// byte data as is; in FNC1 mode GS (0x1D) separates GS1 fields.
    var bytes: [UInt8]
    /// The payload as text (see `QRCharacterSet`).
    package var text: String
    /// The modifier m of the symbology identifier ]Qm (the annex on symbology identifiers): 0 for
    /// a Model 1 symbol, whatever its data; for Model 2 and Micro QR 1 plain,
    /// 2 with ECI, 3 FNC1 first position, 4 ECI and FNC1 first, 5 FNC1 second
    /// position, 6 ECI and FNC1 second.
    var aimModifier: UInt8
    /// 1 ... 40, or 1 ... 4 for Micro QR M1 ... M4.
    var version: Int
    /// Whether the symbol is a Micro QR symbol.
    var isMicro: Bool
    /// Whether the symbol is a QR Code Model 1 symbol (ISO/IEC 18004:2000,
    /// Annex M; `version` 1 ... 14).
    var isModel1: Bool
    /// L, M, Q or H. M1, which only detects errors, reports L.
    var ecLevel: Character
    /// The data mask pattern reference (0 ... 7; 0 ... 3 for Micro QR).
    var mask: Int
    /// Whether the symbol was read from the transposed matrix (a mirror image).
    var mirrored: Bool
    /// The structured append header, when there is one.
    var structuredAppend: QRStructuredAppend?
    /// How many code words Reed-Solomon correction changed.
    var correctedErrors: Int
    /// Whether the data is a GS1 element string (FNC1 in first position).
    var gs1: Bool
    /// The first ECI assignment number in the data, if any.
    var eci: Int?
    /// The application indicator of FNC1 in second position (two digits or
    /// one letter); it also begins `bytes` and `text`.
    var applicationIndicator: String?

    /// The AIM symbology identifier, e.g. "]Q1".
    var symbologyIdentifier: String { "]Q\(aimModifier)" }

    /// The GS1 element string in human-readable form, "(01)...", for GS1 data.
    var gs1HumanReadable: String? { gs1 ? GS1.humanReadable(bytes) : nil }
}

/// Why a matrix does not decode.
package enum QRDecodeFailure: Error, Equatable, Sendable {
    /// Not square, or no QR Code or Micro QR size.
    case size
    /// No format information within distance 3 of a valid word.
    case format
    /// The version information names another version (given) than the
    /// matrix's size: the matrix was probably sampled at the wrong size.
    case version(Int)
    /// Too many errors for Reed-Solomon correction.
    case reedSolomon
    /// The corrected data is not a valid bit stream.
    case bitstream(QRBitstream.Failure)
}

/// Decodes a sampled QR Code or Micro QR symbol (ISO/IEC 18004:2015): format
/// information (7.9), version information (7.10), unmasking (7.8),
/// code word placement and block de-interleaving (7.7), Reed-Solomon error
/// correction (7.5) and the bit stream (7.4). Micro QR (M1 ... M4) is read
/// for matrices of 11, 13, 15 and 17 modules. QR Code Model 1 symbols
/// (ISO/IEC 18004:2000, Annex M: versions 1 ... 14, 21 to 73 modules) are
/// read when the format information reads as Model 1's rather than Model
/// 2's (their mask differs); they are reported with the modifier 0.
///
/// Every input is safe: a matrix of any size or content gives a result or a
/// failure value, never a trap.
package enum QRDecoder {
    /// The symbol in `matrix`, or nil. A matrix that does not decode is
    /// tried again transposed, which reads a mirror image (`mirrored`),
    /// unless `tryMirrored` is false.
    static func decode(_ matrix: BitMatrix, tryMirrored: Bool = true) -> QRDecodeResult? {
        try? decodeResult(matrix, tryMirrored: tryMirrored).get()
    }

    /// As `decode`, with the reason for a failure (that of the upright
    /// reading when neither reading works).
    package static func decodeResult(_ matrix: BitMatrix, tryMirrored: Bool = true) -> Result<
        QRDecodeResult, QRDecodeFailure
    > {
        let upright = decodeOnce(matrix, mirrored: false)
        if case .success = upright { return upright }
        if case .failure(.size) = upright { return upright }
        if !tryMirrored { return upright }
        let mirror = decodeOnce(matrix.transposed(), mirrored: true)
        if case .success = mirror { return mirror }
        return upright
    }

    /// One reading, as the matrix is.
    static func decodeOnce(_ m: BitMatrix, mirrored: Bool) -> Result<QRDecodeResult, QRDecodeFailure> {
        guard m.width == m.height else { return .failure(.size) }
        if let micro = MicroQRVersion.version(forSize: m.width) {
            return decodeMicro(m, micro, mirrored: mirrored)
        }
        guard let version = QRVersion.version(forSize: m.width) else { return .failure(.size) }
        return decodeQR(m, version, mirrored: mirrored)
    }

    // MARK: QR Code

    /// A QR Code symbol of `version`.
    private static func decodeQR(
        _ m: BitMatrix, _ version: QRVersion,
        mirrored: Bool
    ) -> Result<QRDecodeResult, QRDecodeFailure> {
        // 7.10: the version information must agree with the size when it can be read.
        if version.number >= 7, let v = QRFormat.readVersion(m), v != version.number {
            return decodeModel1(m, mirrored: mirrored) ?? .failure(.version(v))
        }
        let candidates = QRFormat.readInfo(m)
        guard !candidates.isEmpty else { return decodeModel1(m, mirrored: mirrored) ?? .failure(.format) }
        var failure = QRDecodeFailure.reedSolomon
        for info in candidates {
            switch decodeQRData(m, version, info, model1: false, mirrored: mirrored) {
            case .success(let r): return .success(r)
            case .failure(let f): failure = f
            }
        }
        return decodeModel1(m, mirrored: mirrored) ?? .failure(failure)
    }

    /// A QR Code Model 1 symbol (ISO/IEC 18004:2000, Annex M): tried only
    /// when the Model 2 reading fails, the format information reads as
    /// Model 1's (`QRFormat.readModel1Info`) and, from version 2 on, no
    /// Model 2 alignment pattern is in the bottom-right corner; nil
    /// otherwise, or when the symbol does not decode (the caller's failure
    /// stands then). Model 1 has no version information: the size gives
    /// the version, and what Model 2 reads as version information is data.
    private static func decodeModel1(_ m: BitMatrix, mirrored: Bool) -> Result<QRDecodeResult, QRDecodeFailure>? {
        guard let version = QRVersion.model1(forSize: m.width), let info = QRFormat.readModel1Info(m),
            !hasModel2Alignment(m),
            case .success(let r) = decodeQRData(m, version, info, model1: true, mirrored: mirrored)
        else { return nil }
        return .success(r)
    }

    /// Whether a matrix of 25 modules or more holds the bottom-right
    /// alignment pattern of a Model 2 symbol (its centre 7 modules in from
    /// the right and bottom edges, ISO/IEC 18004:2015, 6.3.6), 3 modules
    /// wrong at most: a Model 1 symbol has data there, which matches the 25
    /// modules that well about once in 13 000 symbols.
    private static func hasModel2Alignment(_ m: BitMatrix) -> Bool {
        let n = m.width, c = n - 7
        guard n >= 25 else { return false }
        var wrong = 0
        for dy in -2...2 {
            for dx in -2...2 where m[c + dx, c + dy] != (max(abs(dx), abs(dy)) != 1) { wrong += 1 }
        }
        return wrong <= 3
    }

    /// Reads, de-interleaves and corrects the code words at one format
    /// reading, then decodes the bit stream. A Model 1 symbol's code words
    /// lie in blocks (`QRCodewordPlacement.readModel1Codewords`) and its bit
    /// stream begins after four 0 bits, the upper half of the first code
    /// word, which the corner pattern takes.
    private static func decodeQRData(
        _ m: BitMatrix, _ version: QRVersion, _ info: QRFormat.Info, model1: Bool,
        mirrored: Bool
    ) -> Result<QRDecodeResult, QRDecodeFailure> {
        let structure = version.blocks(info.level)
        let total = structure.totalCodewords, ec = structure.checkPerBlock
        let blockCount = structure.blockCount, data1 = structure.data1
        var raw = [UInt8](repeating: 0, count: total)
        let complete = raw.withUnsafeMutableBufferPointer {
            model1
                ? QRCodewordPlacement.readModel1Codewords(m, version: version.number, mask: info.mask, into: $0)
                : QRCodewordPlacement.readCodewords(
                    m, function: QRCodewordPlacement.functionMasks[version.number - 1],
                    micro: false, mask: info.mask, into: $0)
        }
        guard complete else { return .failure(.reedSolomon) }

        // 7.6: the data code words come interleaved block by block, then the
        // error correction code words; blocks of the second group have one
        // more data code word, which comes after the first group's last.
        var blocks = [UInt8](repeating: 0, count: total)
        @inline(__always) func offset(_ b: Int) -> Int { b * (data1 + ec) + max(0, b - structure.count1) }
        var k = 0
        for i in 0...data1 {
            for b in 0..<blockCount where i < structure.dataCount(block: b) {
                blocks[offset(b) + i] = raw[k]
                k += 1
            }
        }
        for i in 0..<ec {
            for b in 0..<blockCount {
                blocks[offset(b) + structure.dataCount(block: b) + i] = raw[k]
                k += 1
            }
        }

        // 7.5: each block corrected on its own.
        let decoder = ReedSolomonDecoder(field: .qrCode)
        let limit = version.maxCorrectable(info.level)
        var corrected = 0
        var data = [UInt8]()
        data.reserveCapacity(structure.dataCodewords)
        for b in 0..<blockCount {
            let start = offset(b), d = structure.dataCount(block: b)
            let fixed = blocks.withUnsafeMutableBufferPointer { all in
                decoder.correct(
                    UnsafeMutableBufferPointer(rebasing: all[start..<(start + d + ec)]),
                    checkCount: ec, maxErrors: limit)
            }
            guard let fixed else { return .failure(.reedSolomon) }
            corrected += fixed
            data.append(contentsOf: blocks[start..<(start + d)])
        }
        // The corner pattern's four bits are 0; anything else is a miscorrection.
        if model1 && data[0] & 0xF0 != 0 { return .failure(.reedSolomon) }
        return finish(
            data, bitCount: data.count * 8, version: version.number, micro: false, model1: model1,
            level: info.level, mask: info.mask, mirrored: mirrored, corrected: corrected)
    }

    // MARK: Micro QR

    /// A Micro QR symbol of `version` (6.3 structure: one finder pattern and
    /// edge timing patterns; 7.9 format information; 7.8 its four masks;
    /// 7.7 placement with the 4-bit code word of M1 and M3; 7.5 one block).
    private static func decodeMicro(
        _ m: BitMatrix, _ version: MicroQRVersion,
        mirrored: Bool
    ) -> Result<QRDecodeResult, QRDecodeFailure> {
        guard let info = QRFormat.readMicroInfo(m, version: version.number),
            let symbol = MicroQRVersion.symbol(info.symbolNumber),
            let dataCount = version.dataCodewords(symbol.level),
            let dataBits = version.dataBits(symbol.level)
        else { return .failure(.format) }
        let total = version.totalCodewords, ec = total - dataCount
        let half = version.hasHalfCodeword ? dataCount - 1 : -1
        var words = [UInt8](repeating: 0, count: total)
        let complete = words.withUnsafeMutableBufferPointer {
            QRCodewordPlacement.readCodewords(
                m, function: QRCodewordPlacement.microFunctionMasks[version.number - 1],
                micro: true, mask: QRCodewordPlacement.microMaskAsQR(info.mask),
                halfCodeword: half, into: $0)
        }
        guard complete else { return .failure(.reedSolomon) }
        let decoder = ReedSolomonDecoder(field: .qrCode)
        guard let corrected = decoder.correct(&words, checkCount: ec, maxErrors: version.maxCorrectable(symbol.level))
        else { return .failure(.reedSolomon) }
        // The 4-bit code word has its low nibble zero; anything else is a miscorrection.
        if half >= 0 && words[half] & 0x0F != 0 { return .failure(.reedSolomon) }
        let data = Array(words[0..<dataCount])
        return finish(
            data, bitCount: dataBits, version: version.number, micro: true, model1: false,
            level: symbol.level, mask: info.mask, mirrored: mirrored, corrected: corrected)
    }

    // MARK: Bit stream and text

    /// Decodes the bit stream of the corrected data code words and builds
    /// the result; a Model 1 stream begins after four 0 bits.
    private static func finish(
        _ data: [UInt8], bitCount: Int, version: Int, micro: Bool, model1: Bool,
        level: QRErrorCorrectionLevel, mask: Int, mirrored: Bool,
        corrected: Int
    ) -> Result<QRDecodeResult, QRDecodeFailure> {
        let parsed = data.withUnsafeBufferPointer {
            QRBitstream.decode($0, bitCount: bitCount, version: version, micro: micro, skip: model1 ? 4 : 0)
        }
        let content: QRBitstream.Content
        switch parsed {
        case .success(let c): content = c
        case .failure(let f): return .failure(.bitstream(f))
        }
        let modifier: UInt8
        switch content.fnc1 {
        case _ where model1: modifier = 0
        case .none: modifier = content.hasECI ? 2 : 1
        case .first: modifier = content.hasECI ? 4 : 3
        case .second: modifier = content.hasECI ? 6 : 5
        }
        var sa: QRStructuredAppend?
        if let s = content.structuredAppend {
            sa = QRStructuredAppend(index: s.index, total: s.total, parity: s.parity)
        }
        return .success(
            QRDecodeResult(
                bytes: content.bytes, text: text(of: content), aimModifier: modifier,
                version: version, isMicro: micro, isModel1: model1, ecLevel: level.letter, mask: mask,
                mirrored: mirrored, structuredAppend: sa, correctedErrors: corrected,
                gs1: content.fnc1 == .first, eci: content.firstECI,
                applicationIndicator: content.applicationIndicator))
    }

    /// The text of the payload: each run in its character set. Byte data
    /// without an ECI, and Kanji-mode data when the symbol has no ECI at
    /// all, share one character set guessed from all of it: Shift JIS when
    /// there is Kanji-mode data and the bytes read as Shift JIS, otherwise
    /// as `QRCharacterSet.guess` decides. Neighbouring runs of one character
    /// set are converted together, so that a character split between two
    /// segments comes out whole.
    package static func text(of content: QRBitstream.Content) -> String {
        let pooled: (QRBitstream.TextEncoding) -> Bool = { e in
            e == .guess || (e == .shiftJIS && !content.hasECI)
        }
        var guessed = 3
        if content.runs.contains(where: { pooled($0.encoding) }) {
            var pool: [UInt8] = []
            var kanji = false
            for run in content.runs where pooled(run.encoding) {
                pool.append(contentsOf: content.bytes[run.range])
                if run.encoding == .shiftJIS { kanji = true }
            }
            guessed = kanji && QRCharacterSet.looksLikeShiftJIS(pool[...]) ? 20 : QRCharacterSet.guess(pool[...])
        }
        var text = ""
        var pending: (range: Range<Int>, encoding: QRBitstream.TextEncoding)?
        for run in content.runs {
            let encoding: QRBitstream.TextEncoding =
                pooled(run.encoding)
                ? .eci(guessed)
                : run.encoding == .shiftJIS ? .eci(20) : run.encoding
            if let p = pending, p.encoding == encoding, p.range.upperBound == run.range.lowerBound {
                pending = (p.range.lowerBound..<run.range.upperBound, encoding)
                continue
            }
            if let p = pending { text += QRCharacterSet.text(content.bytes[p.range], p.encoding) }
            pending = (run.range, encoding)
        }
        if let p = pending { text += QRCharacterSet.text(content.bytes[p.range], p.encoding) }
        return text
    }
}
