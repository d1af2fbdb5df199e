/// A grid of modules sampled from a 2D symbol: `true` is a dark module
/// (after any inversion has been undone), (0, 0) the top-left module as the
/// symbol is read.
///
/// The matrix codes (QR Code, Data Matrix, Aztec) share it: detectors sample
/// into it, decoders read from it. Rows are packed 64 modules to a word.
package struct BitMatrix: Equatable, Sendable {
    /// Modules per row.
    let width: Int
    /// Rows.
    let height: Int
    /// Words per row.
    private let rowWords: Int
    private var words: [UInt64]

    /// Creates an all-light matrix.
    package init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "negative matrix size")
        self.width = width
        self.height = height
        rowWords = (width + 63) >> 6
        words = [UInt64](repeating: 0, count: rowWords * height)
    }

    /// Creates a square all-light matrix.
    init(size: Int) { self.init(width: size, height: size) }

    /// The module at column `x`, row `y` (both inside the matrix).
    package subscript(x: Int, y: Int) -> Bool {
        get {
            assert(x >= 0 && x < width && y >= 0 && y < height)
            return words[y &* rowWords &+ (x >> 6)] >> UInt64(x & 63) & 1 != 0
        }
        set {
            assert(x >= 0 && x < width && y >= 0 && y < height)
            let i = y &* rowWords &+ (x >> 6), bit = UInt64(1) << UInt64(x & 63)
            if newValue { words[i] |= bit } else { words[i] &= ~bit }
        }
    }

    /// Inverts the module at (`x`, `y`).
    mutating func flip(x: Int, y: Int) { self[x, y].toggle() }

    /// The matrix mirrored about its main diagonal (rows become columns),
    /// which is how a mirror image of a square symbol reads.
    func transposed() -> BitMatrix {
        var t = BitMatrix(width: height, height: width)
        for y in 0..<height {
            for x in 0..<width where self[x, y] { t[y, x] = true }
        }
        return t
    }

    /// How many modules are dark.
    var darkCount: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }
}
