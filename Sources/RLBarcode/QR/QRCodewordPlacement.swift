/// Where the code words of QR Code and Micro QR symbols lie, and how they
/// are masked (ISO/IEC 18004:2015, 6.3 symbol structure and function
/// patterns, 7.7.3 codeword placement in the matrix, 7.8 data masking; the
/// Micro QR structure, placement and masks in the same clauses). QR Code
/// Model 1 symbols place theirs in blocks instead (ISO/IEC 18004:2000,
/// Annex M), under the same masks.
enum QRCodewordPlacement {
    // MARK: Function patterns

    /// The function-pattern modules of each QR Code version 1 ... 40 (index
    /// version - 1): set where no data bit may be placed. Built once.
    static let functionMasks: [BitMatrix] = QRVersion.all.map(buildFunctionMask)

    /// The function-pattern modules of Micro QR M1 ... M4 (index version - 1).
    static let microFunctionMasks: [BitMatrix] = (1...4).map { buildMicroFunctionMask(size: 9 + 2 * $0) }

    /// Marks the finder patterns with their separators and the format
    /// information (three 9 x 9 / 8 x 9 corners, 6.3 and 7.9), both timing
    /// patterns (row and column 6, 6.3), the alignment patterns (6.3: a
    /// 5 x 5 square at every pair of centre coordinates except the three that
    /// fall on finder patterns) and, from version 7, the two 6 x 3 version
    /// information blocks (7.10).
    static func buildFunctionMask(_ version: QRVersion) -> BitMatrix {
        let n = version.size
        var m = BitMatrix(size: n)
        func fill(_ x0: Int, _ y0: Int, _ w: Int, _ h: Int) {
            for y in y0..<(y0 + h) { for x in x0..<(x0 + w) { m[x, y] = true } }
        }
        fill(0, 0, 9, 9)
        fill(n - 8, 0, 8, 9)
        fill(0, n - 8, 9, 8)
        fill(0, 6, n, 1)
        fill(6, 0, 1, n)
        let centres = version.alignmentCenters
        if let last = centres.last {
            for cy in centres {
                for cx in centres {
                    if (cx == 6 && cy == 6) || (cx == 6 && cy == last) || (cx == last && cy == 6) { continue }
                    fill(cx - 2, cy - 2, 5, 5)
                }
            }
        }
        if version.number >= 7 {
            fill(n - 11, 0, 3, 6)
            fill(0, n - 11, 6, 3)
        }
        return m
    }

    /// Marks the one finder pattern with its separator and the format
    /// information (the 9 x 9 upper-left corner) and the timing patterns,
    /// which in Micro QR run along row 0 and column 0 (6.3).
    static func buildMicroFunctionMask(size n: Int) -> BitMatrix {
        var m = BitMatrix(size: n)
        for y in 0..<n {
            for x in 0..<n where (x <= 8 && y <= 8) || x == 0 || y == 0 { m[x, y] = true }
        }
        return m
    }

    // MARK: Data masks

    /// Whether data mask pattern `pattern` (0 ... 7, 7.8) inverts
    /// the module in row `i`, column `j`.
    @inline(__always)
    static func masks(_ pattern: Int, row i: Int, column j: Int) -> Bool {
        switch pattern {
        case 0: return (i + j) & 1 == 0
        case 1: return i & 1 == 0
        case 2: return j % 3 == 0
        case 3: return (i + j) % 3 == 0
        case 4: return (i / 2 + j / 3) & 1 == 0
        case 5: return (i * j) % 2 + (i * j) % 3 == 0
        case 6: return ((i * j) % 2 + (i * j) % 3) & 1 == 0
        default: return ((i + j) % 2 + (i * j) % 3) & 1 == 0
        }
    }

    /// The QR Code mask pattern that Micro QR mask `pattern` (0 ... 3)
    /// equals (7.8: Micro QR uses QR patterns 001, 100, 110 and 111).
    @inline(__always)
    static func microMaskAsQR(_ pattern: Int) -> Int { [1, 4, 6, 7][pattern & 3] }

    // MARK: Placement

    /// Visits the data modules in the order the bits are placed (7.7.3):
    /// two-module-wide columns from the right edge, upwards in the first,
    /// downwards in the next, alternately; within a column the right module
    /// first; modules of `function` skipped; in QR Code the whole column 6
    /// (the vertical timing pattern) skipped. `body` returns false to stop.
    static func forEachDataModule(
        size n: Int, function: BitMatrix, micro: Bool,
        _ body: (_ x: Int, _ y: Int) -> Bool
    ) {
        guard function.width == n, function.height == n else { return }
        var x = n - 1, upward = true
        while x > 0 {
            if !micro && x == 6 { x -= 1 }
            for step in 0..<n {
                let y = upward ? n - 1 - step : step
                for dx in 0..<2 where !function[x - dx, y] {
                    if !body(x - dx, y) { return }
                }
            }
            upward.toggle()
            x -= 2
        }
    }

    /// Every mask pattern repeats every 12 rows and 6 columns, so one table
    /// of 8 x 12 x 6 entries answers `masks` with two look-ups: entry
    /// pattern * 72 + (row % 12) * 6 + column % 6.
    static let maskTable: [Bool] = (0..<(8 * 72)).map { k in
        masks(k / 72, row: k % 72 / 6, column: k % 6)
    }

    /// Reads the code words of a symbol: each data module's value, unmasked
    /// with QR mask pattern `mask`, appended most significant bit first, in
    /// the order of `forEachDataModule`.
    /// Every code word is 8 bits long except the one at `halfCodeword` (the
    /// last data code word of M1 and M3), which is 4 bits long and is
    /// returned in the high nibble (7.7). Fills `out` completely; the
    /// remainder bits after the last code word are not read.
    /// - Returns: false when the matrix has too few data modules for `out`
    ///   (which a function mask of the matrix's size never gives).
    static func readCodewords(
        _ matrix: BitMatrix, function: BitMatrix, micro: Bool, mask: Int,
        halfCodeword: Int = -1, into out: UnsafeMutableBufferPointer<UInt8>
    ) -> Bool {
        guard !out.isEmpty else { return true }
        let n = matrix.width
        guard n > 0, matrix.height == n, function.width == n, function.height == n else { return false }
        return maskTable.withUnsafeBufferPointer { table in
            let pattern = (mask & 7) * 72
            var index = 0, bitsLeft = halfCodeword == 0 ? 4 : 8, value = 0
            let count = out.count
            var x = n - 1, upward = true
            while x > 0 {
                if !micro && x == 6 { x -= 1 }
                for step in 0..<n {
                    let y = upward ? n - 1 - step : step
                    let rowBase = pattern + (y % 12) * 6
                    for dx in 0..<2 {
                        let xx = x - dx
                        if function[xx, y] { continue }
                        let dark = matrix[xx, y] != table[rowBase + xx % 6]
                        value = value << 1 | (dark ? 1 : 0)
                        bitsLeft -= 1
                        if bitsLeft == 0 {
                            out[index] = UInt8(truncatingIfNeeded: index == halfCodeword ? value << 4 : value)
                            index += 1
                            if index == count { return true }
                            value = 0
                            bitsLeft = index == halfCodeword ? 4 : 8
                        }
                    }
                }
                upward.toggle()
                x -= 2
            }
            return false
        }
    }

    // MARK: Model 1

    /// Visits the code word blocks of a QR Code Model 1 symbol of version
    /// `v` (1 ... 14) in placement order (ISO/IEC 18004:2000, Annex M),
    /// each by its bottom-right module (x, y) and its width: 2 (a block 2
    /// wide, 4 tall) or 4 (4 wide, 2 tall). A code word's bit 7 lies in the
    /// bottom-right module, the next ones leftwards along the row, then up
    /// row by row. The blocks come in this order:
    /// 1. columns size - 1 and size - 2, 2 x 4 blocks from the bottom edge
    ///    up to row 9, except every second block from the third one on,
    ///    short of the top one: those hold extension patterns;
    /// 2. columns size - 3 and size - 4 likewise, with no exception;
    /// 3. groups of four columns from column size - 5 leftwards to column 9,
    ///    each in 4 x 2 blocks from the bottom edge up to the top edge,
    ///    the row of the horizontal timing pattern (6) left out; the first
    ///    group stops below the upper-right finder pattern and its format
    ///    information (at row 9), and in every second group, from the
    ///    second to the one before the last, the bottom block holds an
    ///    extension pattern;
    /// 4. column pairs 8-7, 5-4, 3-2 and 1-0 (the vertical timing pattern's
    ///    column 6 left out), 2 x 4 blocks from row size - 9 up to row 9.
    ///
    /// The first code word's upper half lies in the bottom-right corner,
    /// which holds a fixed pattern instead: those four bits are 0.
    /// `body` returns false to stop.
    @inline(__always)
    static func forEachModel1Block(version v: Int, _ body: (_ x: Int, _ y: Int, _ width: Int) -> Bool) {
        let n = 17 + 4 * v, edgeBlocks = v + 2
        for k in 0..<edgeBlocks where k % 2 == 1 || k == 0 || k == edgeBlocks - 1 {
            if !body(n - 1, n - 1 - 4 * k, 2) { return }
        }
        for k in 0..<edgeBlocks {
            if !body(n - 3, n - 1 - 4 * k, 2) { return }
        }
        for g in 0...v {
            // Bottom rows of the blocks: n - 1, n - 3, ..., 8 (rows 8 and 7), then 5, 3, 1.
            var bottom = g % 2 == 1 && g != v ? n - 3 : n - 1
            while bottom > 0 {
                if g == 0 && bottom <= 8 { break }
                if !body(n - 5 - 4 * g, bottom, 4) { return }
                bottom -= bottom == 8 ? 3 : 2
            }
        }
        for x in [8, 5, 3, 1] {
            for k in 0..<v {
                if !body(x, n - 9 - 4 * k, 2) { return }
            }
        }
    }

    /// Reads the code words of a Model 1 symbol of `version` (1 ... 14):
    /// each data module's value, unmasked with mask pattern `mask`, in the
    /// order of `forEachModel1Block`; the first code word's upper half (the
    /// corner pattern) read as 0. Fills `out` from the start.
    /// - Returns: false when the matrix is not of the version's size or
    ///   `out` is longer than the symbol's code words.
    static func readModel1Codewords(
        _ matrix: BitMatrix, version: Int, mask: Int,
        into out: UnsafeMutableBufferPointer<UInt8>
    ) -> Bool {
        let n = 17 + 4 * version
        guard version >= 1, version <= 14, matrix.width == n, matrix.height == n else { return false }
        guard !out.isEmpty else { return true }
        return maskTable.withUnsafeBufferPointer { table in
            let pattern = (mask & 7) * 72
            var index = 0
            forEachModel1Block(version: version) { x, y, width in
                var value = 0
                for b in 0..<8 {
                    let xx = x - b % width, yy = y - b / width
                    value = value << 1 | (matrix[xx, yy] != table[pattern + (yy % 12) * 6 + xx % 6] ? 1 : 0)
                }
                out[index] = UInt8(truncatingIfNeeded: index == 0 ? value & 0x0F : value)
                index += 1
                return index < out.count
            }
            return index == out.count
        }
    }
}
