import Synchronization

/// One Data Matrix ECC 200 symbol size: the symbol's rows and columns, its
/// data regions, and the code words and Reed-Solomon blocks it holds
/// (ISO/IEC 16022:2006, 5.5 and Table 7; the rectangular extension sizes,
/// DMRE, of ISO/IEC 21471:2020, Table 7).
///
/// A symbol is a grid of data regions, each surrounded by the finder
/// pattern (solid left column and bottom row) and the clock track (dashed
/// top row and right column) of its own; the regions put together without
/// those patterns form the mapping matrix into which code words are placed
/// (ISO/IEC 16022:2006, 5.8 and Annex F).
struct DMVersion: Sendable, Equatable {
    /// Symbol rows, finder and clock patterns included.
    let rows: Int
    /// Symbol columns.
    let columns: Int
    /// Rows of modules of one data region (without its finder and clock).
    let regionRows: Int
    /// Columns of modules of one data region.
    let regionColumns: Int
    /// Total data code words.
    let dataCodewords: Int
    /// Total error correction code words (all blocks together).
    let checkCodewords: Int
    /// How many interleaved Reed-Solomon blocks (ISO/IEC 16022:2006, 5.7.2).
    let blockCount: Int
    /// Whether the size is one of ISO/IEC 21471's DMRE sizes.
    let isDMRE: Bool

    /// Data regions across and down.
    var regionsAcross: Int { columns / (regionColumns + 2) }
    var regionsDown: Int { rows / (regionRows + 2) }
    /// The mapping matrix: the data regions put together.
    var mappingRows: Int { regionsDown * regionRows }
    var mappingColumns: Int { regionsAcross * regionColumns }
    /// All code words.
    var totalCodewords: Int { dataCodewords + checkCodewords }
    /// Error correction code words per block (the same for every block).
    var checkPerBlock: Int { checkCodewords / blockCount }
    var isSquare: Bool { rows == columns }

    /// Data code words of block `b`: code word k of the interleaved stream
    /// belongs to block k mod `blockCount` (5.7.2), so when the blocks are
    /// unequal (144x144: eight of 156, two of 155) the first are longer.
    func dataCount(block b: Int) -> Int {
        dataCodewords / blockCount + (b < dataCodewords % blockCount ? 1 : 0)
    }

    private init(
        _ rows: Int, _ columns: Int, _ regionRows: Int, _ regionColumns: Int,
        _ data: Int, _ check: Int, _ blocks: Int = 1, dmre: Bool = false
    ) {
        self.rows = rows
        self.columns = columns
        self.regionRows = regionRows
        self.regionColumns = regionColumns
        dataCodewords = data
        checkCodewords = check
        blockCount = blocks
        isDMRE = dmre
    }

    /// Every ECC 200 size: the 24 square sizes and 6 rectangular sizes of
    /// ISO/IEC 16022:2006 Table 7, then the 18 DMRE sizes of ISO/IEC 21471.
    static let all: [DMVersion] = [
        // Square (ISO/IEC 16022:2006, Table 7).
        DMVersion(10, 10, 8, 8, 3, 5),
        DMVersion(12, 12, 10, 10, 5, 7),
        DMVersion(14, 14, 12, 12, 8, 10),
        DMVersion(16, 16, 14, 14, 12, 12),
        DMVersion(18, 18, 16, 16, 18, 14),
        DMVersion(20, 20, 18, 18, 22, 18),
        DMVersion(22, 22, 20, 20, 30, 20),
        DMVersion(24, 24, 22, 22, 36, 24),
        DMVersion(26, 26, 24, 24, 44, 28),
        DMVersion(32, 32, 14, 14, 62, 36),
        DMVersion(36, 36, 16, 16, 86, 42),
        DMVersion(40, 40, 18, 18, 114, 48),
        DMVersion(44, 44, 20, 20, 144, 56),
        DMVersion(48, 48, 22, 22, 174, 68),
        DMVersion(52, 52, 24, 24, 204, 84, 2),
        DMVersion(64, 64, 14, 14, 280, 112, 2),
        DMVersion(72, 72, 16, 16, 368, 144, 4),
        DMVersion(80, 80, 18, 18, 456, 192, 4),
        DMVersion(88, 88, 20, 20, 576, 224, 4),
        DMVersion(96, 96, 22, 22, 696, 272, 4),
        DMVersion(104, 104, 24, 24, 816, 336, 6),
        DMVersion(120, 120, 18, 18, 1050, 408, 6),
        DMVersion(132, 132, 20, 20, 1304, 496, 8),
        DMVersion(144, 144, 22, 22, 1558, 620, 10),
        // Rectangular (ISO/IEC 16022:2006, Table 7).
        DMVersion(8, 18, 6, 16, 5, 7),
        DMVersion(8, 32, 6, 14, 10, 11),
        DMVersion(12, 26, 10, 24, 16, 14),
        DMVersion(12, 36, 10, 16, 22, 18),
        DMVersion(16, 36, 14, 16, 32, 24),
        DMVersion(16, 48, 14, 22, 49, 28),
        // Rectangular extension, DMRE (ISO/IEC 21471:2020, Table 7).
        DMVersion(8, 48, 6, 22, 18, 15, dmre: true),
        DMVersion(8, 64, 6, 14, 24, 18, dmre: true),
        DMVersion(8, 80, 6, 18, 32, 22, dmre: true),
        DMVersion(8, 96, 6, 22, 38, 28, dmre: true),
        DMVersion(8, 120, 6, 18, 49, 32, dmre: true),
        DMVersion(8, 144, 6, 22, 63, 36, dmre: true),
        DMVersion(12, 64, 10, 14, 43, 27, dmre: true),
        DMVersion(12, 88, 10, 20, 64, 36, dmre: true),
        DMVersion(16, 64, 14, 14, 62, 36, dmre: true),
        DMVersion(20, 36, 18, 16, 44, 28, dmre: true),
        DMVersion(20, 44, 18, 20, 56, 34, dmre: true),
        DMVersion(20, 64, 18, 14, 84, 42, dmre: true),
        DMVersion(22, 48, 20, 22, 72, 38, dmre: true),
        DMVersion(24, 48, 22, 22, 80, 41, dmre: true),
        DMVersion(24, 64, 22, 14, 108, 46, dmre: true),
        DMVersion(26, 40, 24, 18, 70, 38, dmre: true),
        DMVersion(26, 48, 24, 22, 90, 42, dmre: true),
        DMVersion(26, 64, 24, 14, 118, 50, dmre: true)
    ]

    /// The size with `rows` rows and `columns` columns, or nil.
    static func version(rows: Int, columns: Int) -> DMVersion? {
        all.first { $0.rows == rows && $0.columns == columns }
    }

    /// The index of the size in ``all``.
    var index: Int { DMVersion.all.firstIndex(of: self)! }

    /// Whether some size has `rows` rows (for the detector's size search).
    static func hasSize(rows: Int, columns: Int) -> Bool { version(rows: rows, columns: columns) != nil }
}

/// The module placement of ISO/IEC 16022:2006, 5.8.1 and Annex F: where
/// each bit of each code word lies in the mapping matrix.
///
/// Code words are placed as "utah" shaped 8-module pieces along diagonals
/// running up-right and down-left in turn, starting at row 4, column 0;
/// pieces that fall off an edge wrap round to the opposite edge (Annex F,
/// "module" rule), and four special corner shapes take the places the
/// diagonals cannot fill. A 2x2 corner the placement leaves empty takes the
/// fixed pattern dark, light / light, dark (5.8.2).
enum DMPlacement {
    /// For size `v`, `table(v)[8 * k + b]` is the mapping matrix position
    /// (row * mappingColumns + column) of bit b (0 the most significant) of
    /// code word k.
    ///
    /// Each size's positions are worked out the first time a symbol of
    /// that size is read, then kept: a stream sees a few sizes, and working
    /// out all 48 at once would hold up its first Data Matrix symbol.
    static func table(_ v: DMVersion) -> [Int32] {
        let i = v.index
        return tables.withLock { tables in
            if let t = tables[i] { return t }
            let t = place(rows: v.mappingRows, columns: v.mappingColumns)
            tables[i] = t
            return t
        }
    }

    /// The sizes' positions worked out so far (index: ``DMVersion/index``).
    private static let tables = Mutex<[[Int32]?]>([[Int32]?](repeating: nil, count: DMVersion.all.count))

    /// The positions for a mapping matrix of `nrow` by `ncol` modules, as
    /// Annex F's algorithm visits them.
    static func place(rows nrow: Int, columns ncol: Int) -> [Int32] {
        // Which code word (from 1) and bit (1...8) each module holds; 0 for none.
        var owner = [Int32](repeating: 0, count: nrow * ncol)
        var out = [Int32](repeating: -1, count: (nrow * ncol / 8 + 1) * 8)
        var count = 0
        func module(_ r0: Int, _ c0: Int, _ chr: Int, _ bit: Int) {
            var r = r0, c = c0
            if r < 0 { r += nrow; c += 4 - ((nrow + 4) % 8) }
            if c < 0 { c += ncol; r += 4 - ((ncol + 4) % 8) }
            // The DMRE widths can wrap a piece below the last row (ISO/IEC 21471, 5.8.1).
            if r >= nrow { r -= nrow }
            guard r >= 0, c >= 0, c < ncol, chr * 8 <= out.count else { return }
            owner[r * ncol + c] = Int32(chr * 10 + bit)
            out[(chr - 1) * 8 + bit - 1] = Int32(r * ncol + c)
        }
        func utah(_ r: Int, _ c: Int, _ chr: Int) {
            module(r - 2, c - 2, chr, 1); module(r - 2, c - 1, chr, 2)
            module(r - 1, c - 2, chr, 3); module(r - 1, c - 1, chr, 4); module(r - 1, c, chr, 5)
            module(r, c - 2, chr, 6); module(r, c - 1, chr, 7); module(r, c, chr, 8)
        }
        func corner(_ chr: Int, _ cells: [(Int, Int)]) {
            for (b, rc) in cells.enumerated() { module(rc.0, rc.1, chr, b + 1) }
        }
        var chr = 1, row = 4, col = 0
        repeat {
            if row == nrow && col == 0 {
                corner(
                    chr,
                    [
                        (nrow - 1, 0), (nrow - 1, 1), (nrow - 1, 2), (0, ncol - 2), (0, ncol - 1),
                        (1, ncol - 1), (2, ncol - 1), (3, ncol - 1)
                    ]);
                chr += 1
            }
            if row == nrow - 2 && col == 0 && ncol % 4 != 0 {
                corner(
                    chr,
                    [
                        (nrow - 3, 0), (nrow - 2, 0), (nrow - 1, 0), (0, ncol - 4), (0, ncol - 3),
                        (0, ncol - 2), (0, ncol - 1), (1, ncol - 1)
                    ]);
                chr += 1
            }
            if row == nrow - 2 && col == 0 && ncol % 8 == 4 {
                corner(
                    chr,
                    [
                        (nrow - 3, 0), (nrow - 2, 0), (nrow - 1, 0), (0, ncol - 2), (0, ncol - 1),
                        (1, ncol - 1), (2, ncol - 1), (3, ncol - 1)
                    ]);
                chr += 1
            }
            if row == nrow + 4 && col == 2 && ncol % 8 == 0 {
                corner(
                    chr,
                    [
                        (nrow - 1, 0), (nrow - 1, ncol - 1), (0, ncol - 3), (0, ncol - 2), (0, ncol - 1),
                        (1, ncol - 3), (1, ncol - 2), (1, ncol - 1)
                    ]);
                chr += 1
            }
            repeat {
                if row < nrow && col >= 0 && owner[row * ncol + col] == 0 { utah(row, col, chr); chr += 1 }
                row -= 2; col += 2
            } while row >= 0 && col < ncol
            row += 1; col += 3
            repeat {
                if row >= 0 && col < ncol && owner[row * ncol + col] == 0 { utah(row, col, chr); chr += 1 }
                row += 2; col -= 2
            } while row < nrow && col >= 0
            row += 3; col += 1
        } while row < nrow || col < ncol
        count = chr - 1
        return Array(out.prefix(count * 8))
    }
}
