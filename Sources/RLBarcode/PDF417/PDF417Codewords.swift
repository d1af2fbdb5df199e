/// PDF417 symbol characters: codewords as bar-space patterns of 17 modules
/// in three clusters (ISO/IEC 15438:2015, 5.3.1 symbol character
/// structure; 5.3.2 clusters).
///
/// Every symbol character has four bars and four spaces, each one to six
/// modules wide, 17 modules in all, starting with a bar. Row r of a symbol
/// uses cluster 3 * (r mod 3); the cluster of a pattern is
/// (b1 - b2 + b3 - b4 + 9) mod 9, so that a reader knows which rows a
/// codeword can belong to.
enum PDF417Codewords {
    /// The number of codeword values, 0 ... 928.
    static let valueCount = 929

    /// The 17-module pattern of `value` in cluster index `cluster` (0, 1, 2
    /// for clusters 0, 3, 6), one bit a module, the first module in bit 16
    /// (set: a bar).
    static func modules(cluster: Int, value: Int) -> UInt32 {
        let widths = patterns[cluster * valueCount + value]
        var bits: UInt32 = 0, dark = true
        for k in 0..<8 {
            let w = Int(widths >> UInt32(28 - 4 * k) & 0xF)
            for _ in 0..<w { bits = bits << 1 | (dark ? 1 : 0) }
            dark.toggle()
        }
        return bits
    }

    /// The codeword of each 17-module pattern: indexed by modules 1 ... 15
    /// (module 0 is always a bar, module 16 always a space), the entry is
    /// cluster index << 12 | value, or -1 for a pattern that is no codeword.
    static let byModules: [Int16] = {
        var table = [Int16](repeating: -1, count: 1 << 15)
        for cluster in 0..<3 {
            for value in 0..<valueCount {
                let bits = modules(cluster: cluster, value: value)
                table[Int(bits >> 1 & 0x7FFF)] = Int16(cluster << 12 | value)
            }
        }
        return table
    }()

    /// The cluster number (0, 3, 6) of eight element widths in modules, or
    /// -1 when they are not one of the three.
    @inline(__always)
    static func clusterNumber(_ b1: Int, _ b2: Int, _ b3: Int, _ b4: Int) -> Int {
        let k = ((b1 - b2 + b3 - b4) % 9 + 9) % 9
        return k % 3 == 0 ? k : -1
    }

    /// Decodes a symbol character from the measured widths of its eight
    /// elements (bar first, in any unit): the element edges are placed on
    /// the 17-module grid by rounding their positions (not the widths, so
    /// that the rounding errors do not add up), and the pattern is looked
    /// up (ISO/IEC 15438:2015, Annex reference decode algorithm: widths
    /// normalized to the character's total width).
    ///
    /// - Returns: the cluster index (0, 1, 2) and value, or nil when the
    ///   widths round to no codeword.
    @inline(__always)
    static func decode(_ w: UnsafePointer<Float>) -> (cluster: Int, value: Int)? {
        guard let bits = modulePattern(w, count: 8, modules: 17, widest: 6) else { return nil }
        let entry = byModules[bits >> 1 & 0x7FFF]
        guard entry >= 0 else { return nil }
        return (Int(entry) >> 12, Int(entry) & 0xFFF)
    }

    /// The module pattern of `count` measured element widths (bar first,
    /// any unit) spread over `modules` modules: the element edges placed
    /// on the grid by rounding their positions, one bit a module (set: a
    /// bar), the first module in the highest bit; nil when an element
    /// rounds to under one module or over `widest`.
    @inline(__always)
    static func modulePattern(_ w: UnsafePointer<Float>, count: Int, modules: Int, widest: Int) -> Int? {
        var total: Float = 0
        for k in 0..<count { total += w[k] }
        guard total > 0 else { return nil }
        let scale = Float(modules) / total
        var edge: Float = 0, previous = 0, bits = 0
        for k in 0..<count {
            edge += w[k]
            let position = k == count - 1 ? modules : Int((edge * scale).rounded())
            let width = position - previous
            guard width >= 1, width <= widest else { return nil }
            for _ in 0..<width { bits = bits << 1 | (k & 1 == 0 ? 1 : 0) }
            previous = position
        }
        return bits
    }

    /// The positions of the seven inner element edges of every pattern,
    /// in modules from the pattern's start: entry (cluster * 929 + value) * 7 + k.
    static let edgePositions: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 3 * valueCount * 7)
        for i in 0..<(3 * valueCount) {
            let widths = patterns[i]
            var position = 0
            for k in 0..<7 {
                position += Int(widths >> UInt32(28 - 4 * k) & 0xF)
                table[i * 7 + k] = UInt8(position)
            }
        }
        return table
    }()

    /// The codeword of cluster index `cluster` whose edges lie nearest to
    /// those of the measured widths (least squares, the widths scaled to
    /// 17 modules), when every edge lies within `tolerance` modules of it:
    /// for a row whose cluster is known, a reading that rounding could not
    /// place (ISO/IEC 15438:2015, Annex reference decode algorithm: the
    /// edge-to-edge measurements decide).
    static func nearest(_ w: UnsafePointer<Float>, cluster: Int, tolerance: Float = 0.7) -> Int? {
        var total: Float = 0
        for k in 0..<8 { total += w[k] }
        guard total > 0 else { return nil }
        let scale = 17 / total
        var measured: (Float, Float, Float, Float, Float, Float, Float) = (0, 0, 0, 0, 0, 0, 0)
        var edge: Float = 0
        withUnsafeMutableBytes(of: &measured) { raw in
            let m = raw.bindMemory(to: Float.self)
            for k in 0..<7 { edge += w[k]; m[k] = edge * scale }
        }
        return withUnsafeBytes(of: &measured) { raw -> Int? in
            let m = raw.bindMemory(to: Float.self)
            return edgePositions.withUnsafeBufferPointer { table -> Int? in
                var best = -1, bestCost = Float.infinity
                let base = cluster * valueCount * 7
                for v in 0..<valueCount {
                    var cost: Float = 0, worst: Float = 0
                    for k in 0..<7 {
                        let d = abs(m[k] - Float(table[base + v * 7 + k]))
                        cost += d * d
                        worst = max(worst, d)
                    }
                    if worst <= tolerance && cost < bestCost { bestCost = cost; best = v }
                }
                return best >= 0 ? best : nil
            }
        }
    }
}
