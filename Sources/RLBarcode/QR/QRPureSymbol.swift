/// A still picture that is nothing but one upright QR Code symbol (a
/// generated image, a screenshot, a crop): the symbol's bounding box is the
/// picture's dark content, its finder patterns sit in three of the box's
/// corners, and the grid is the box divided evenly. Such pictures often
/// defeat the finder pattern search of ``QRDetector``: the symbol may touch
/// the picture's edge (no quiet zone, so no light run outside a finder
/// pattern), its modules may be a single pixel, or textured dark modules may
/// break the 1:1:3:1:1 runs. Read as a whole, they decode.
///
/// The reading follows the layout of ISO/IEC 18004:2015, 6.3.2 (symbol
/// structure: finder patterns in three corners, 7 modules wide, with a light
/// separator) and 6.3.3; the size must be one of the QR Code sizes 21 + 4k
/// (6.3.1). The symbol may be turned by a multiple of 90 degrees, inverted
/// or mirrored. Only for still pictures, after the finder pattern search
/// found nothing: it costs a histogram and two passes over the picture.
enum QRPureSymbol {
    /// The symbol filling `img`, decoded, with its corners and module size;
    /// nil when the picture is not one upright symbol that decodes, or when
    /// `stop` (checked every row of each pass over the picture) ends it.
    static func read(_ img: LumaView, stop: ScanStop = ScanStop()) -> QRCandidate? {
        let w = img.width, h = img.height
        guard w >= 21, h >= 21, w <= 4096, h <= 4096, let (otsu, lightPeak) = thresholds(img, stop: stop)
        else { return nil }
        for inverted in [false, true] {
            if let c = read(img, threshold: otsu, inverted: inverted, stop: stop) { return c }
        }
        // Dark modules printed with a picture in them (some of it light):
        // everything short of the paper's white is dark.
        if lightPeak - 24 > otsu, let c = read(img, threshold: lightPeak - 24, inverted: false, stop: stop) {
            return c
        }
        return nil
    }

    /// The grey level that best splits the picture's histogram into two
    /// classes (the largest between-class variance), and the most common
    /// grey level above it (the light background's); nil when `stop` ends it.
    static func thresholds(_ img: LumaView, stop: ScanStop = ScanStop()) -> (otsu: Int, lightPeak: Int)? {
        var hist = [Int](repeating: 0, count: 256)
        for y in 0..<img.height {
            if stop.now { return nil }
            let row = img.base + y * img.stride
            for x in 0..<img.width { hist[Int(row[x])] += 1 }
        }
        let total = img.width * img.height
        var sum = 0
        for v in 0..<256 { sum += v * hist[v] }
        var sumB = 0, weightB = 0
        var best = -1.0, threshold = 128
        for v in 0..<256 {
            weightB += hist[v]
            if weightB == 0 { continue }
            let weightF = total - weightB
            if weightF == 0 { break }
            sumB += v * hist[v]
            let mB = Double(sumB) / Double(weightB), mF = Double(sum - sumB) / Double(weightF)
            let between = Double(weightB) * Double(weightF) * (mB - mF) * (mB - mF)
            if between > best { best = between; threshold = v + 1 }
        }
        var peak = min(threshold, 255)
        for v in threshold..<256 where hist[v] > hist[peak] { peak = v }
        return (threshold, peak)
    }

    private static func read(_ img: LumaView, threshold t: Int, inverted: Bool, stop: ScanStop) -> QRCandidate? {
        let w = img.width, h = img.height
        @inline(__always) func dark(_ x: Int, _ y: Int) -> Bool {
            (Int(img.base[y * img.stride + x]) < t) != inverted
        }
        // The box: the first and last rows and columns with some dark
        // pixels (a few stray ones are noise).
        let minRow = max(1, w / 100), minCol = max(1, h / 100)
        var rowDark = [Int](repeating: 0, count: h), colDark = [Int](repeating: 0, count: w)
        for y in 0..<h {
            if stop.now { return nil }
            for x in 0..<w where dark(x, y) { rowDark[y] += 1; colDark[x] += 1 }
        }
        guard let y0 = rowDark.firstIndex(where: { $0 >= minRow }), let y1 = rowDark.lastIndex(where: { $0 >= minRow }),
            let x0 = colDark.firstIndex(where: { $0 >= minCol }), let x1 = colDark.lastIndex(where: { $0 >= minCol })
        else { return nil }
        let bw = x1 - x0 + 1, bh = y1 - y0 + 1
        guard bw >= 21, bh >= 21, abs(bw - bh) <= max(2, bw / 20) else { return nil }
        // The module at (mx, my) of a grid of `size`: the majority of a small
        // window around its middle (textured modules have light specks).
        func module(_ mx: Int, _ my: Int, _ size: Int) -> Bool {
            let sx = Double(bw) / Double(size), sy = Double(bh) / Double(size)
            let px = Int(Double(x0) + (Double(mx) + 0.5) * sx), py = Int(Double(y0) + (Double(my) + 0.5) * sy)
            let reach = max(0, Int(min(sx, sy) / 5))
            var darkVotes = 0, votes = 0
            for yy in max(0, py - reach)...min(h - 1, py + reach) {
                for xx in max(0, px - reach)...min(w - 1, px + reach) {
                    votes += 1
                    if dark(xx, yy) { darkVotes += 1 }
                }
            }
            return 2 * darkVotes > votes
        }
        // The finder pattern with its separator, 8x8 modules from a corner
        // (6.3.3): dark ring, light ring, dark 3x3 centre, light separator.
        func finderAgreement(_ corner: Int, _ size: Int) -> Int {
            var agree = 0
            for j in 0..<8 {
                for i in 0..<8 {
                    let ring = max(abs(i - 3), abs(j - 3))
                    let expected = ring != 2 && ring != 4
                    let mx = corner == 0 || corner == 3 ? i : size - 1 - i
                    let my = corner == 0 || corner == 1 ? j : size - 1 - j
                    if module(mx, my, size) == expected { agree += 1 }
                }
            }
            return agree
        }
        // Every QR Code size (21 + 4k, 6.3.1) whose modules are a pixel or
        // more: the one whose three finder patterns agree best.
        var best: (size: Int, missing: Int, score: Int)? = nil
        for version in 1...40 {
            let size = 17 + 4 * version
            if Double(min(bw, bh)) / Double(size) < 0.9 { break }
            var agreements = (0..<4).map { finderAgreement($0, size) }
            let missing = agreements.indices.min { agreements[$0] < agreements[$1] }!
            agreements[missing] = 0
            let score = agreements.reduce(0, +)
            // 192 modules in three finder patterns with separators; most must agree.
            guard score >= 170 else { continue }
            if best == nil || score > best!.score { best = (size, missing, score) }
        }
        guard let (size, missing, _) = best else { return nil }
        let moduleSize = Double(bw) / Double(size)
        var sampled = BitMatrix(size: size)
        for my in 0..<size {
            for mx in 0..<size where module(mx, my, size) { sampled[mx, my] = true }
        }
        // Turn the matrix so that the corner without a finder pattern is
        // the bottom-right one: quarter turns clockwise move corner k to k + 1.
        let turns = (2 - missing + 4) % 4
        var matrix = sampled
        for _ in 0..<turns { matrix = turnedClockwise(matrix) }
        guard let decoded = QRDecoder.decode(matrix) else { return nil }
        // Frame corners clockwise from the symbol's own top-left (diagonally
        // opposite the missing finder pattern).
        let box = [
            Point(x: Double(x0), y: Double(y0)), Point(x: Double(x1), y: Double(y0)),
            Point(x: Double(x1), y: Double(y1)), Point(x: Double(x0), y: Double(y1))
        ]
        let first = (missing + 2) % 4
        var candidate = QRCandidate(
            matrix: matrix, topLeft: box[first], topRight: box[(first + 1) % 4],
            bottomRight: box[(first + 2) % 4], bottomLeft: box[(first + 3) % 4],
            moduleSize: moduleSize, isInverted: inverted, isMicro: false, sizeConfirmed: true,
            alternatives: [])
        candidate.decoded = decoded
        candidate.decodeTried = true
        return candidate
    }

    /// `m` turned a quarter clockwise: module (x, y) goes to (n - 1 - y, x).
    static func turnedClockwise(_ m: BitMatrix) -> BitMatrix {
        let n = m.width
        var out = BitMatrix(size: n)
        for y in 0..<n {
            for x in 0..<n where m[x, y] { out[n - 1 - y, x] = true }
        }
        return out
    }
}
