/// The four error correction levels of QR Code (ISO/IEC 18004:2015, 7.5.1),
/// in the order of the tables: L, M, Q, H.
enum QRErrorCorrectionLevel: Int, Sendable, CaseIterable {
    case low = 0, medium, quartile, high

    /// The letter the standard uses: L, M, Q or H.
    var letter: Character { ["L", "M", "Q", "H"][rawValue] }

    /// The two bits that stand for the level in the format information
    /// (7.9): L = 01, M = 00, Q = 11, H = 10.
    var formatBits: Int { [1, 0, 3, 2][rawValue] }

    /// The level whose format information bits are `bits` (two bits).
    init(formatBits bits: Int) {
        self = [.medium, .low, .high, .quartile][bits & 3]
    }
}

/// How the code words of one QR Code symbol at one error correction level
/// are split into blocks (ISO/IEC 18004:2015, 7.5.1, the table of error
/// correction characteristics): `count1` blocks of `data1` data code words,
/// then `count2` blocks of `data1 + 1`, each followed by `checkPerBlock`
/// error correction code words.
struct QRBlockStructure: Sendable, Equatable {
    /// Error correction code words in each block.
    let checkPerBlock: Int
    /// Blocks in the first group.
    let count1: Int
    /// Data code words in each block of the first group.
    let data1: Int
    /// Blocks in the second group (each with `data1 + 1` data code words).
    let count2: Int

    /// How many blocks there are.
    var blockCount: Int { count1 + count2 }
    /// Data code words in the whole symbol.
    var dataCodewords: Int { count1 * data1 + count2 * (data1 + 1) }
    /// All code words of the symbol.
    var totalCodewords: Int { dataCodewords + blockCount * checkPerBlock }
    /// Data code words in block `b`.
    @inline(__always)
    func dataCount(block b: Int) -> Int { b < count1 ? data1 : data1 + 1 }
}

/// One of the 40 QR Code versions (ISO/IEC 18004:2015, 6.1 and 6.3): its
/// size, the centres of its alignment patterns (Annex E) and its block
/// structures (7.5.1).
struct QRVersion: Sendable {
    /// 1 ... 40.
    let number: Int
    /// Modules a side: 17 + 4 * number.
    var size: Int { 17 + 4 * number }
    /// Row and column coordinates of the alignment pattern centres; empty
    /// for version 1.
    let alignmentCenters: [Int]
    /// The block structure for L, M, Q and H (index: level raw value).
    let blocks: [QRBlockStructure]

    /// The block structure at `level`.
    func blocks(_ level: QRErrorCorrectionLevel) -> QRBlockStructure { blocks[level.rawValue] }

    /// All code words the symbol holds (data and error correction).
    var totalCodewords: Int { blocks[0].totalCodewords }

    /// How many errors a block may be corrected for at `level`. The error correction table
    /// (7.5.1) keeps some error correction code words back for misdecode protection in the
    /// smallest symbols (p in its footnotes): those are used to detect, not
    /// to correct.
    func maxCorrectable(_ level: QRErrorCorrectionLevel) -> Int {
        let c = blocks[level.rawValue].checkPerBlock
        let p: Int
        switch (number, level) {
        case (1, .low): p = 3
        case (1, .medium), (2, .low): p = 2
        case (1, .quartile), (3, .low): p = 1
        default: p = 0
        }
        return (c - p) / 2
    }

    /// The Model 1 version whose symbols are `size` modules a side (versions
    /// 1 ... 14, 21 ... 73 modules), or nil.
    static func model1(forSize size: Int) -> QRVersion? {
        guard size >= 21, size <= 73, (size - 17) % 4 == 0 else { return nil }
        return model1[(size - 17) / 4 - 1]
    }

    /// The version with `number` (1 ... 40), or nil.
    static func version(_ number: Int) -> QRVersion? {
        number >= 1 && number <= 40 ? all[number - 1] : nil
    }

    /// The version whose symbols are `size` modules a side, or nil.
    static func version(forSize size: Int) -> QRVersion? {
        guard size >= 21, size <= 177, (size - 17) % 4 == 0 else { return nil }
        return all[(size - 17) / 4 - 1]
    }

    /// Every version, 1 ... 40.
    static let all: [QRVersion] = (1...40).map { v in
        let row = v - 1
        var blocks: [QRBlockStructure] = []
        for level in 0..<4 {
            let i = (row * 4 + level) * 4
            blocks.append(
                QRBlockStructure(
                    checkPerBlock: blockTable[i], count1: blockTable[i + 1],
                    data1: blockTable[i + 2], count2: blockTable[i + 3]))
        }
        return QRVersion(number: v, alignmentCenters: alignmentTable[row], blocks: blocks)
    }

    /// The 14 versions of QR Code Model 1 (ISO/IEC 18004:2000, Annex M): the
    /// sizes of Model 2's versions 1 ... 14, no alignment patterns, and their
    /// own error correction blocks (the table of error correction
    /// characteristics of Annex M), all of one size within a level. Some
    /// levels leave a code word or two of the symbol unused.
    static let model1: [QRVersion] = (1...14).map { v in
        let blocks = (0..<4).map { level in
            let i = ((v - 1) * 4 + level) * 3
            return QRBlockStructure(
                checkPerBlock: model1BlockTable[i], count1: model1BlockTable[i + 1],
                data1: model1BlockTable[i + 2], count2: 0)
        }
        return QRVersion(number: v, alignmentCenters: [], blocks: blocks)
    }

    /// Annex M of ISO/IEC 18004:2000, three numbers per version and level
    /// (L, M, Q, H): error correction code words per block, blocks, data
    /// code words per block.
    private static let model1BlockTable: [Int] = [
        7, 1, 19, 10, 1, 16, 13, 1, 13, 17, 1, 9,  // 1
        10, 1, 36, 16, 1, 30, 22, 1, 24, 30, 1, 16,  // 2
        15, 1, 57, 28, 1, 44, 36, 1, 36, 48, 1, 24,  // 3
        20, 1, 80, 40, 1, 60, 50, 1, 50, 66, 1, 34,  // 4
        26, 1, 108, 52, 1, 82, 66, 1, 68, 44, 2, 23,  // 5
        34, 1, 136, 32, 2, 53, 42, 2, 43, 56, 2, 29,  // 6
        42, 1, 170, 40, 2, 66, 52, 2, 54, 46, 3, 24,  // 7
        24, 2, 104, 48, 2, 80, 64, 2, 64, 56, 3, 29,  // 8
        30, 2, 123, 60, 2, 93, 50, 3, 52, 68, 3, 34,  // 9
        34, 2, 145, 68, 2, 111, 58, 3, 61, 58, 4, 31,  // 10
        40, 2, 168, 40, 4, 64, 52, 4, 52, 54, 5, 29,  // 11
        46, 2, 192, 46, 4, 73, 58, 4, 61, 62, 5, 33,  // 12
        36, 3, 144, 52, 4, 83, 66, 4, 69, 58, 6, 32,  // 13
        40, 3, 163, 60, 4, 92, 60, 5, 62, 66, 6, 35  // 14
    ]

    /// Annex E: alignment pattern centre coordinates per version.
    private static let alignmentTable: [[Int]] = [
        [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34],
        [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50], [6, 30, 54], [6, 32, 58], [6, 34, 62],
        [6, 26, 46, 66], [6, 26, 48, 70], [6, 26, 50, 74], [6, 30, 54, 78], [6, 30, 56, 82],
        [6, 30, 58, 86], [6, 34, 62, 90],
        [6, 28, 50, 72, 94], [6, 26, 50, 74, 98], [6, 30, 54, 78, 102], [6, 28, 54, 80, 106],
        [6, 32, 58, 84, 110], [6, 30, 58, 86, 114], [6, 34, 62, 90, 118],
        [6, 26, 50, 74, 98, 122], [6, 30, 54, 78, 102, 126], [6, 26, 52, 78, 104, 130],
        [6, 30, 56, 82, 108, 134], [6, 34, 60, 86, 112, 138], [6, 30, 58, 86, 114, 142],
        [6, 34, 62, 90, 118, 146],
        [6, 30, 54, 78, 102, 126, 150], [6, 24, 50, 76, 102, 128, 154], [6, 28, 54, 80, 106, 132, 158],
        [6, 32, 58, 84, 110, 136, 162], [6, 26, 54, 82, 110, 138, 166], [6, 30, 58, 86, 114, 142, 170]
    ]

    /// 7.5.1, four numbers per version and level (L, M, Q, H): error
    /// correction code words per block, blocks in group 1, data code words
    /// per group-1 block, blocks in group 2 (which hold one data code word more).
    private static let blockTable: [Int] = [
        7, 1, 19, 0, 10, 1, 16, 0, 13, 1, 13, 0, 17, 1, 9, 0,  // 1
        10, 1, 34, 0, 16, 1, 28, 0, 22, 1, 22, 0, 28, 1, 16, 0,  // 2
        15, 1, 55, 0, 26, 1, 44, 0, 18, 2, 17, 0, 22, 2, 13, 0,  // 3
        20, 1, 80, 0, 18, 2, 32, 0, 26, 2, 24, 0, 16, 4, 9, 0,  // 4
        26, 1, 108, 0, 24, 2, 43, 0, 18, 2, 15, 2, 22, 2, 11, 2,  // 5
        18, 2, 68, 0, 16, 4, 27, 0, 24, 4, 19, 0, 28, 4, 15, 0,  // 6
        20, 2, 78, 0, 18, 4, 31, 0, 18, 2, 14, 4, 26, 4, 13, 1,  // 7
        24, 2, 97, 0, 22, 2, 38, 2, 22, 4, 18, 2, 26, 4, 14, 2,  // 8
        30, 2, 116, 0, 22, 3, 36, 2, 20, 4, 16, 4, 24, 4, 12, 4,  // 9
        18, 2, 68, 2, 26, 4, 43, 1, 24, 6, 19, 2, 28, 6, 15, 2,  // 10
        20, 4, 81, 0, 30, 1, 50, 4, 28, 4, 22, 4, 24, 3, 12, 8,  // 11
        24, 2, 92, 2, 22, 6, 36, 2, 26, 4, 20, 6, 28, 7, 14, 4,  // 12
        26, 4, 107, 0, 22, 8, 37, 1, 24, 8, 20, 4, 22, 12, 11, 4,  // 13
        30, 3, 115, 1, 24, 4, 40, 5, 20, 11, 16, 5, 24, 11, 12, 5,  // 14
        22, 5, 87, 1, 24, 5, 41, 5, 30, 5, 24, 7, 24, 11, 12, 7,  // 15
        24, 5, 98, 1, 28, 7, 45, 3, 24, 15, 19, 2, 30, 3, 15, 13,  // 16
        28, 1, 107, 5, 28, 10, 46, 1, 28, 1, 22, 15, 28, 2, 14, 17,  // 17
        30, 5, 120, 1, 26, 9, 43, 4, 28, 17, 22, 1, 28, 2, 14, 19,  // 18
        28, 3, 113, 4, 26, 3, 44, 11, 26, 17, 21, 4, 26, 9, 13, 16,  // 19
        28, 3, 107, 5, 26, 3, 41, 13, 30, 15, 24, 5, 28, 15, 15, 10,  // 20
        28, 4, 116, 4, 26, 17, 42, 0, 28, 17, 22, 6, 30, 19, 16, 6,  // 21
        28, 2, 111, 7, 28, 17, 46, 0, 30, 7, 24, 16, 24, 34, 13, 0,  // 22
        30, 4, 121, 5, 28, 4, 47, 14, 30, 11, 24, 14, 30, 16, 15, 14,  // 23
        30, 6, 117, 4, 28, 6, 45, 14, 30, 11, 24, 16, 30, 30, 16, 2,  // 24
        26, 8, 106, 4, 28, 8, 47, 13, 30, 7, 24, 22, 30, 22, 15, 13,  // 25
        28, 10, 114, 2, 28, 19, 46, 4, 28, 28, 22, 6, 30, 33, 16, 4,  // 26
        30, 8, 122, 4, 28, 22, 45, 3, 30, 8, 23, 26, 30, 12, 15, 28,  // 27
        30, 3, 117, 10, 28, 3, 45, 23, 30, 4, 24, 31, 30, 11, 15, 31,  // 28
        30, 7, 116, 7, 28, 21, 45, 7, 30, 1, 23, 37, 30, 19, 15, 26,  // 29
        30, 5, 115, 10, 28, 19, 47, 10, 30, 15, 24, 25, 30, 23, 15, 25,  // 30
        30, 13, 115, 3, 28, 2, 46, 29, 30, 42, 24, 1, 30, 23, 15, 28,  // 31
        30, 17, 115, 0, 28, 10, 46, 23, 30, 10, 24, 35, 30, 19, 15, 35,  // 32
        30, 17, 115, 1, 28, 14, 46, 21, 30, 29, 24, 19, 30, 11, 15, 46,  // 33
        30, 13, 115, 6, 28, 14, 46, 23, 30, 44, 24, 7, 30, 59, 16, 1,  // 34
        30, 12, 121, 7, 28, 12, 47, 26, 30, 39, 24, 14, 30, 22, 15, 41,  // 35
        30, 6, 121, 14, 28, 6, 47, 34, 30, 46, 24, 10, 30, 2, 15, 64,  // 36
        30, 17, 122, 4, 28, 29, 46, 14, 30, 49, 24, 10, 30, 24, 15, 46,  // 37
        30, 4, 122, 18, 28, 13, 46, 32, 30, 48, 24, 14, 30, 42, 15, 32,  // 38
        30, 20, 117, 4, 28, 40, 47, 7, 30, 43, 24, 22, 30, 10, 15, 67,  // 39
        30, 19, 118, 6, 28, 18, 47, 31, 30, 34, 24, 34, 30, 20, 15, 61  // 40
    ]
}

/// One of the four Micro QR versions M1 ... M4 (ISO/IEC 18004:2015, 6.1;
/// 7.5.1 for the code words; 7.4 for the bit stream lengths).
struct MicroQRVersion: Sendable {
    /// 1 ... 4 for M1 ... M4.
    let number: Int
    /// Modules a side: 9 + 2 * number.
    var size: Int { 9 + 2 * number }
    /// All code words, data and error correction (5, 10, 17, 24).
    var totalCodewords: Int { [5, 10, 17, 24][number - 1] }
    /// Whether the last data code word is 4 bits long (M1 and M3).
    var hasHalfCodeword: Bool { number == 1 || number == 3 }
    /// Bits of the mode indicator: 0 (M1), 1, 2, 3 (M4).
    var modeIndicatorBits: Int { number - 1 }

    /// Data code words (counting the 4-bit one as one) at `level`, or nil
    /// when the version has no such level.
    func dataCodewords(_ level: QRErrorCorrectionLevel) -> Int? {
        switch (number, level) {
        case (1, .low): return 3  // M1 has error detection only; it is listed as L here.
        case (2, .low): return 5
        case (2, .medium): return 4
        case (3, .low): return 11
        case (3, .medium): return 9
        case (4, .low): return 16
        case (4, .medium): return 14
        case (4, .quartile): return 10
        default: return nil
        }
    }

    /// How many errors may be corrected at `level`: the misdecode
    /// protection of the 7.5.1 table keeps the rest for detection (M1 detects only).
    func maxCorrectable(_ level: QRErrorCorrectionLevel) -> Int {
        switch (number, level) {
        case (1, _): return 0
        case (2, .low): return 1
        case (2, .medium): return 2
        case (3, .low): return 2
        case (3, .medium): return 4
        case (4, .low): return 3
        case (4, .medium): return 5
        case (4, .quartile): return 7
        default: return 0
        }
    }

    /// Data capacity in bits at `level` (the 4-bit code word counted as 4).
    func dataBits(_ level: QRErrorCorrectionLevel) -> Int? {
        guard let d = dataCodewords(level) else { return nil }
        return hasHalfCodeword ? 8 * d - 4 : 8 * d
    }

    /// The version whose symbols are `size` modules a side, or nil.
    static func version(forSize size: Int) -> MicroQRVersion? {
        guard size >= 11, size <= 17, size & 1 == 1 else { return nil }
        return MicroQRVersion(number: (size - 9) / 2)
    }

    /// Symbol number (7.9, Micro QR) -> version and level.
    static func symbol(_ number: Int) -> (version: Int, level: QRErrorCorrectionLevel)? {
        switch number {
        case 0: return (1, .low)
        case 1: return (2, .low)
        case 2: return (2, .medium)
        case 3: return (3, .low)
        case 4: return (3, .medium)
        case 5: return (4, .low)
        case 6: return (4, .medium)
        case 7: return (4, .quartile)
        default: return nil
        }
    }
}
