/// The module layout of an Aztec Code symbol (ISO/IEC 24778:2008, clause 7
/// symbol description): where the bull's-eye finder pattern, the
/// orientation patterns, the mode message, the reference grid and the data
/// layers lie in the module matrix.
///
/// Coordinates are modules of the whole symbol, (0, 0) at its top-left as
/// read; the centre module is (size / 2, size / 2).
struct AztecLayout: Equatable, Sendable {
    /// Compact (1 ... 4 layers, bull's-eye of two dark rings around the
    /// centre) or full-range (1 ... 32 layers, three rings) (7.2).
    let compact: Bool
    /// Data layers around the core (0 for Aztec Runes).
    let layers: Int
    /// Side of the symbol without the reference grid: 11 + 4L (compact) or
    /// 14 + 4L (full-range, before the grid lines are inserted).
    let baseSize: Int
    /// Side of the symbol in modules.
    let size: Int

    init(compact: Bool, layers: Int) {
        self.compact = compact
        self.layers = layers
        baseSize = (compact ? 11 : 14) + 4 * layers
        // 7.3.4 reference grid: a line every 16 modules each way from the centre.
        size = compact ? baseSize : baseSize + 1 + 2 * ((baseSize / 2 - 1) / 15)
    }

    /// The layouts a matrix of `size` modules may have: a compact and a
    /// full-range symbol share sizes 19, 23 and 27.
    static func candidates(size: Int) -> [AztecLayout] {
        var out: [AztecLayout] = []
        if size == 11 { out.append(AztecLayout(compact: true, layers: 0)) }
        if size >= 15, size <= 27, (size - 11) % 4 == 0 {
            out.append(AztecLayout(compact: true, layers: (size - 11) / 4))
        }
        for l in 1...32 where AztecLayout(compact: false, layers: l).size == size {
            out.append(AztecLayout(compact: false, layers: l))
        }
        return out
    }

    /// Radius (in modules from the centre) of the mode message ring: just
    /// outside the bull's-eye (7.3.1, 7.3.2).
    var modeRingRadius: Int { compact ? 5 : 7 }

    /// Bits of one code word (7.3.1.2 table of symbol sizes): 6 for one or two
    /// layers, 8 up to 8 layers, 10 up to 22, 12 above.
    var codewordBits: Int { layers <= 2 ? 6 : layers <= 8 ? 8 : layers <= 22 ? 10 : 12 }

    /// Bits available in the data layers: each layer is two modules deep
    /// and 4(side) long.
    var totalBits: Int { ((compact ? 88 : 112) + 16 * layers) * layers }

    /// Code words the data layers hold (data and check together).
    var totalCodewords: Int { layers == 0 ? 0 : totalBits / codewordBits }

    /// The Galois field of the data code words (7.4.2.3).
    var field: GaloisField {
        switch codewordBits {
        case 6: return .aztecData6
        case 8: return .aztecData8
        case 10: return .aztecData10
        default: return .aztecData12
        }
    }

    /// For each position of the grid without the reference grid, the
    /// matrix row or column it lands on (the identity for compact symbols).
    func alignmentMap() -> [Int] {
        var map = [Int](repeating: 0, count: baseSize)
        if compact {
            for i in 0..<baseSize { map[i] = i }
            return map
        }
        let origin = baseSize / 2, centre = size / 2
        for i in 0..<origin {
            let shifted = i + i / 15
            map[origin - i - 1] = centre - shifted - 1
            map[origin + i] = centre + shifted + 1
        }
        return map
    }

    /// The modules of the data layers in bit order (7.3.1.3): layer by
    /// layer from the outermost inwards, each layer's four sides in turn
    /// (left side downwards, bottom side rightwards, right side upwards, top
    /// side leftwards, as seen in the matrix), two modules across per bit
    /// pair. Returns (x, y) pairs packed as y * size + x.
    func dataModules() -> [Int32] {
        let map = alignmentMap()
        var out = [Int32](repeating: 0, count: totalBits)
        var offset = 0
        for i in 0..<layers {
            let row = (layers - i) * 4 + (compact ? 9 : 12)
            let low = 2 * i, high = baseSize - 1 - low
            for j in 0..<row {
                let c = 2 * j
                for k in 0..<2 {
                    out[offset + c + k] = Int32(map[low + j] * size + map[low + k])
                    out[offset + 2 * row + c + k] = Int32(map[high - k] * size + map[low + j])
                    out[offset + 4 * row + c + k] = Int32(map[high - j] * size + map[high - k])
                    out[offset + 6 * row + c + k] = Int32(map[low + k] * size + map[high - j])
                }
            }
            offset += 8 * row
        }
        return out
    }

    /// Whether (x, y) lies on the reference grid (7.3.4): full-range
    /// symbols only, on lines every 16 modules from the centre row and column.
    func isReferenceGrid(_ x: Int, _ y: Int) -> Bool {
        guard !compact else { return false }
        let c = size / 2
        return (x - c) % 16 == 0 || (y - c) % 16 == 0
    }

    /// The colour of a reference-grid module (7.3.4): modules alternate
    /// dark and light along each line, dark where the distance to the centre
    /// along the line is even.
    func referenceGridDark(_ x: Int, _ y: Int) -> Bool {
        let c = size / 2
        if (x - c) % 16 == 0 && (y - c) % 16 == 0 { return true }
        if (x - c) % 16 == 0 { return (y - c) & 1 == 0 }
        return (x - c) & 1 == 0
    }

    /// The mode message ring's modules in reading order, relative to the
    /// centre (dx, dy): clockwise from the top-left corner, the top side
    /// left to right, then the right, bottom and left sides, leaving out the
    /// orientation modules next to each corner and, in full-range symbols,
    /// the reference grid's module in the middle of each side (7.3.1.1).
    var modeMessageOffsets: [(Int, Int)] {
        let r = modeRingRadius
        var out: [(Int, Int)] = []
        for t in (-r + 2)...(r - 2) where compact || t != 0 { out.append((t, -r)) }
        for t in (-r + 2)...(r - 2) where compact || t != 0 { out.append((r, t)) }
        for t in (-r + 2)...(r - 2) where compact || t != 0 { out.append((-t, r)) }
        for t in (-r + 2)...(r - 2) where compact || t != 0 { out.append((-r, -t)) }
        return out
    }

    /// The twelve orientation modules (7.3.1.1), three at each corner of the
    /// mode message ring, clockwise from the top-left corner's lower
    /// neighbour, and their colours: the top-left corner's three are dark,
    /// the top-right corner and the module below it, the module above the
    /// bottom-right corner; the rest light.
    static func orientationOffsets(radius r: Int) -> [(Int, Int, Bool)] {
        [
            (-r, -r + 1, true), (-r, -r, true), (-r + 1, -r, true),
            (r - 1, -r, false), (r, -r, true), (r, -r + 1, true),
            (r, r - 1, true), (r, r, false), (r - 1, r, false),
            (-r + 1, r, false), (-r, r, false), (-r, r - 1, false)
        ]
    }
}
