/// The fixed facts of MicroPDF417 symbols (ISO/IEC 24728:2006): the
/// symbol sizes with their error correction codeword counts (5.2.2 row
/// and column combinations; 5.7.1 number of error correction codewords),
/// the row address patterns (5.2.5: 52 side patterns for the left and
/// right RAP columns, 52 centre patterns) and the row address and cluster
/// each size starts with (5.11.1 clusters; 5.11.3 determining the values
/// of the row address patterns, Tables 10 to 12).
///
/// A row (5.2.3 row parameters) is the left RAP, one or two data
/// codewords, the centre RAP (3 and 4 columns only), the other data
/// codewords, the right RAP and a stop bar one module wide: 38, 55, 82 or
/// 99 modules in all. Down the symbol
/// every RAP number goes up by one (52 wraps to 1) and the codewords'
/// cluster goes 0, 3, 6, 0, ...
package enum MicroPDF417 {
    /// One symbol size (5.2.2; 5.11.3, Tables 10 to 12).
    package struct Size: Sendable {
        /// Data columns, 1 ... 4.
        package var columns: Int
        package var rows: Int
        /// Error correction codewords.
        package var checkCount: Int
        /// The RAP numbers (1 ... 52) of the top row: left, centre (0 for
        /// one and two columns) and right.
        var left: Int, centre: Int, right: Int
        /// The cluster index (0, 1, 2 for clusters 0, 3, 6) of the top row.
        var cluster: Int

        /// The row a left, centre or right RAP number marks (0-based,
        /// possibly beyond the last row), for the RAP column starting at `first`.
        @inline(__always)
        static func row(_ rap: Int, first: Int) -> Int { ((rap - first) % 52 + 52) % 52 }

        /// The symbol's width in modules, stop bar included.
        var modules: Int { MicroPDF417.modules(columns: columns) }
    }

    /// The width of a row of `columns` data columns, in modules.
    static func modules(columns: Int) -> Int { 10 + 17 * columns + (columns >= 3 ? 10 : 0) + 10 + 1 }

    /// The 34 symbol sizes, by columns then rows.
    package static let sizes: [Size] = {
        // (columns, rows, check codewords, left, centre, right RAP, cluster 0/3/6)
        let table: [(Int, Int, Int, Int, Int, Int, Int)] = [
            (1, 11, 7, 1, 0, 9, 0), (1, 14, 7, 8, 0, 8, 3), (1, 17, 7, 36, 0, 36, 6),
            (1, 20, 8, 19, 0, 19, 0), (1, 24, 8, 9, 0, 17, 6), (1, 28, 8, 25, 0, 33, 0),
            (2, 8, 8, 1, 0, 1, 0), (2, 11, 9, 1, 0, 9, 0), (2, 14, 9, 8, 0, 8, 3),
            (2, 17, 10, 36, 0, 36, 6), (2, 20, 11, 19, 0, 19, 0), (2, 23, 13, 9, 0, 17, 6),
            (2, 26, 15, 27, 0, 35, 6),
            (3, 6, 12, 1, 1, 1, 0), (3, 8, 14, 7, 7, 7, 0), (3, 10, 16, 15, 15, 15, 6),
            (3, 12, 18, 25, 25, 25, 0), (3, 15, 21, 37, 37, 37, 0), (3, 20, 26, 1, 17, 33, 0),
            (3, 26, 32, 1, 9, 17, 0), (3, 32, 38, 21, 29, 37, 6), (3, 38, 44, 15, 31, 47, 6),
            (3, 44, 50, 1, 25, 49, 0),
            (4, 4, 8, 47, 19, 43, 3), (4, 6, 12, 1, 1, 1, 0), (4, 8, 14, 7, 7, 7, 0),
            (4, 10, 16, 15, 15, 15, 6), (4, 12, 18, 25, 25, 25, 0), (4, 15, 21, 37, 37, 37, 0),
            (4, 20, 26, 1, 17, 33, 0), (4, 26, 32, 1, 9, 17, 0), (4, 32, 38, 21, 29, 37, 6),
            (4, 38, 44, 15, 31, 47, 6), (4, 44, 50, 1, 25, 49, 0)
        ]
        return table.map {
            Size(
                columns: $0.0, rows: $0.1, checkCount: $0.2, left: $0.3, centre: $0.4,
                right: $0.5, cluster: $0.6 / 3)
        }
    }()

    /// The side (left and right) row address patterns 1 ... 52, ten
    /// modules each, the first module in bit 9 (set: a bar). Every one is
    /// three bars and three spaces, starting with a bar two or more
    /// modules wide and ending with a space.
    static let sidePatterns: [UInt16] = [
        0x322, 0x3A2, 0x3B2, 0x332, 0x372, 0x37A, 0x33A, 0x3BA, 0x39A, 0x3DA, 0x3CA, 0x38A, 0x30A,
        0x31A, 0x312, 0x392, 0x3D2, 0x3D6, 0x3D4, 0x394, 0x3B4, 0x3A4, 0x3A6, 0x3AE, 0x3AC, 0x3A8,
        0x328, 0x32C, 0x32E, 0x326, 0x336, 0x3B6, 0x396, 0x316, 0x314, 0x334, 0x374, 0x364, 0x366,
        0x36E, 0x36C, 0x368, 0x348, 0x358, 0x35C, 0x35E, 0x34E, 0x34C, 0x344, 0x346, 0x342, 0x362
    ]

    /// The centre row address patterns 1 ... 52, as ``sidePatterns``
    /// (each starts with a bar one module wide).
    static let centrePatterns: [UInt16] = [
        0x2CE, 0x24E, 0x26E, 0x22E, 0x226, 0x236, 0x216, 0x212, 0x21A, 0x23A, 0x232, 0x222, 0x262,
        0x272, 0x27A, 0x2FA, 0x2F2, 0x2F6, 0x276, 0x274, 0x264, 0x266, 0x246, 0x242, 0x2C2, 0x2E2,
        0x2E6, 0x2E4, 0x2EC, 0x26C, 0x22C, 0x228, 0x268, 0x2E8, 0x2C8, 0x2CC, 0x2C4, 0x2C6, 0x286,
        0x28E, 0x28C, 0x29C, 0x298, 0x2B8, 0x2B0, 0x290, 0x2D0, 0x250, 0x258, 0x25C, 0x2DC, 0x2DE
    ]

    /// The RAP of each ten-module pattern: its number 1 ... 52 for a side
    /// pattern, 64 + number for a centre pattern, 0 for none.
    static let rapByModules: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 1024)
        for k in 0..<52 {
            table[Int(sidePatterns[k])] = UInt8(k + 1)
            table[Int(centrePatterns[k])] = UInt8(64 + k + 1)
        }
        return table
    }()

    /// Reads a RAP from the measured widths of its six elements (bar
    /// first): the element edges rounded to the ten-module grid, the
    /// pattern looked up (5.2.5).
    /// - Returns: the side RAP number (1 ... 52), 64 + the centre RAP
    ///   number, or 0 when the widths make no RAP.
    @inline(__always)
    static func rap(_ w: UnsafePointer<Float>) -> Int {
        guard let bits = PDF417Codewords.modulePattern(w, count: 6, modules: 10, widest: 5) else { return 0 }
        return Int(rapByModules[bits & 0x3FF])
    }
}
