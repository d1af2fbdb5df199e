#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A Data Matrix symbol found in a frame and decoded.
struct DMCandidate {
    /// The decoded content.
    var decoded: DMDecodeResult
    /// The symbol's outer corners in frame pixels: its own top-left as
    /// read (the end of the solid finder's vertical arm), top-right,
    /// bottom-right (the end of the horizontal arm), bottom-left (the
    /// finder's corner).
    var corners: [Point]
    /// Light modules on a dark background.
    var isInverted: Bool
    /// Mean module size in pixels.
    var moduleSize: Double
}

/// A straight line a x + b y = c with (a, b) a unit normal.
struct DMLine {
    var a: Double, b: Double, c: Double

    /// The least-squares (total least squares) line through `points`, or nil.
    static func fit(_ p: UnsafeBufferPointer<Point>) -> DMLine? {
        let n = p.count
        guard n >= 2 else { return nil }
        var mx = 0.0, my = 0.0
        for q in p { mx += q.x; my += q.y }
        mx /= Double(n); my /= Double(n)
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for q in p {
            let dx = q.x - mx, dy = q.y - my
            sxx += dx * dx; syy += dy * dy; sxy += dx * dy
        }
        // The direction is the principal axis; the normal is perpendicular.
        let theta = 0.5 * atan2(2 * sxy, sxx - syy)
        let dx = cos(theta), dy = sin(theta)
        let a = -dy, b = dx
        return DMLine(a: a, b: b, c: a * mx + b * my)
    }

    /// Signed distance of `p` (positive on the side the normal points to).
    @inline(__always)
    func distance(_ p: Point) -> Double { a * p.x + b * p.y - c }

    /// Where two lines cross, or nil for near-parallel lines.
    func intersection(_ o: DMLine) -> Point? {
        let det = a * o.b - b * o.a
        guard abs(det) > 1e-6 else { return nil }
        return Point(x: (c * o.b - b * o.c) / det, y: (a * o.c - c * o.a) / det)
    }
}

/// Finds Data Matrix ECC 200 symbols in luma frames, samples and decodes
/// them (ISO/IEC 16022:2006, 7 and Annex on the reference decode
/// algorithm, in its own way).
///
/// 1. ``scan(_:in:into:)`` first finds the areas with matrix-code texture
///    (``MatrixRegionDetector``, shared in design with QR Code); the rest
///    runs in each.
/// 2. Block-adaptive thresholds (``BlockThreshold``); every row is cut into
///    dark and light runs, and runs of one colour that touch (8-connected)
///    are joined into connected components, in one pass with a union-find.
///    The solid L of the finder pattern (5.1.1: left column and bottom row)
///    is one connected component, dark on light or light on dark.
/// 3. Each large enough component's outline: the convex hull of its row
///    ends, and the quadrilateral of its diameter and the two hull points
///    farthest from it on either side.
/// 4. A corner of that quadrilateral whose two sides are solid for most of
///    their length, with light (quiet zone) outside (in video frames, in
///    view: not beyond the frame's edge), and whose two other
///    sides are less solid, is the finder's corner; the arms must be thin
///    (one module where the module beside is light). The sign of the cross
///    product tells the bottom arm from the left arm (a mirror image swaps
///    them, which the sampling tries).
/// 5. Straight lines are fitted to the outer edges of both arms (scanning
///    inwards across them) and of the two clock tracks (the dashed top row
///    and right column, 5.1.1). A clock track's dark modules have their
///    outer edges on one line, its light modules let the scan run on into
///    the data: its edge points are gathered both from outside inwards and
///    from inside outwards (the last ink before the quiet zone), a line is
///    found by consensus over point pairs, and of the two the one along
///    which the track alternates most regularly is kept (still pictures try
///    the other too). The four lines give the corners; the clock lines are
///    fitted a second time from them.
/// 6. The clock tracks' dark modules are counted for the symbol size, and
///    sizes near the count are tried when it is not a size of the table or
///    the decoding fails. The grid is sampled through the perspective
///    transform of the corners, with the module centres taken from the
///    clock tracks' own module boundaries when they read cleanly (curved
///    surfaces, lens distortion), against the local pixel threshold and
///    against a threshold from the sampled grid itself (blur); still
///    pictures also nudge the grid by a fifth of a module. The finder and
///    clock patterns of the sampled matrix must mostly read right before it
///    goes to ``DMDecoder``. Still pictures whose clock tracks do not count
///    cleanly (blur merging the narrowed modules of a curved symbol) take
///    the module centres from the alternating clock template fitted to the
///    track (``DMClockWarp``).
/// 7. Still pictures whose clock edges lead to no symbol (a narrow quiet
///    zone on a textured surface, faint dotted print) fit the grid to the
///    clock modules themselves: for each size the arms allow, the far
///    corner and the arm ends move to where the clock tracks read best.
///
/// The detector owns its buffers and reuses them from frame to frame. It
/// is not thread-safe.
final class DMDetector {
    /// Tunables.
    struct Options {
        /// The least grey-level difference that counts as contrast.
        var minContrast = AreaThresholds.minContrast
        /// The most components per polarity and region tried as finders
        /// (video frames: half as many). The largest come first: beyond
        /// two dozen in one region, the rest are specks of text and
        /// texture, not finders (24 and 48 read the same symbols).
        var maxComponents = 24
        /// The shortest finder arm, in pixels.
        var minArm = 12
        /// Try harder on symbols that fail (mirror images and neighbouring sizes).
        var thorough = true
        /// Components examined per call when not ``thorough`` (video
        /// frames): a few per frame, the largest of the strongest regions
        /// first; the next frames see the code again.
        var examineBudget = 4
    }

    var options = Options()
    /// Diagnostics: told why a component was not taken for a symbol
    /// (`nil`, the default, costs nothing).
    var trace: ((String) -> Void)? = nil
    /// The frame's time limit and stop, checked between candidates (on a
    /// large still picture of texture, candidates can take seconds).
    var stop = ScanStop()
    var thresholds = BlockThreshold()
    private(set) var regionFinder = MatrixRegionDetector()
    private var rowBuffer = ScratchBuffer<Int32>(capacity: 4096)
    /// Runs: start, end (exclusive), row, colour (1 dark), union-find parent.
    private var rx0 = ScratchBuffer<Int32>(capacity: 1 << 14)
    private var rx1 = ScratchBuffer<Int32>(capacity: 1 << 14)
    private var ry = ScratchBuffer<Int32>(capacity: 1 << 14)
    private var rdark = ScratchBuffer<UInt8>(capacity: 1 << 14)
    private var parent = ScratchBuffer<Int32>(capacity: 1 << 14)
    private var nextRun = ScratchBuffer<Int32>(capacity: 1 << 14)
    private var runCount = 0
    /// Per root run: pixel count, bounding box, first run of its list.
    private var area = ScratchBuffer<Int32>(capacity: 1 << 14)
    private var minX = ScratchBuffer<Int32>(capacity: 1 << 14)
    private var maxX = ScratchBuffer<Int32>(capacity: 1 << 14)
    private var minY = ScratchBuffer<Int32>(capacity: 1 << 14)
    private var maxY = ScratchBuffer<Int32>(capacity: 1 << 14)
    private var head = ScratchBuffer<Int32>(capacity: 1 << 14)
    /// Roots of the components worth a look.
    private var candidates = ScratchBuffer<Int32>(capacity: 256)
    /// Outline points, hull, edge points.
    private var points = ScratchBuffer<Point>(capacity: 1024)
    /// A component's rows: y, first and last pixel (exclusive), three a row.
    private var rowEnds = ScratchBuffer<Int32>(capacity: 768)
    private var hull = ScratchBuffer<Point>(capacity: 1024)
    private var edge = ScratchBuffer<Point>(capacity: 512)
    /// The ink thickness met at each point of ``edge`` while fitting it.
    private var edgeThickness = ScratchBuffer<Double>(capacity: 512)
    private var profile = ScratchBuffer<UInt8>(capacity: 2048)
    /// Module-centre lumas of a grid being sampled.
    private var gridLuma = ScratchBuffer<Double>(capacity: 4096)
    /// The symbol threshold kept while sampling (``symbolThreshold``).
    private var symbolLevel: Double? { symbolThreshold }
    /// Symbols decoded in the current call (their quadrilaterals), so that
    /// components inside them are skipped.
    private var found: [[Point]] = []
    /// The insides of codes read already in this frame (``scan(_:in:regions:prepared:avoiding:into:)``),
    /// during a scan.
    private var avoided: [PixelRect] = []
    private var image: LumaView?

    init(options: Options = Options()) { self.options = options; found.reserveCapacity(8) }

    deinit {
        thresholds.free(); regionFinder.free(); rowBuffer.free()
        rx0.free(); rx1.free(); ry.free(); rdark.free(); parent.free(); nextRun.free()
        area.free(); minX.free(); maxX.free(); minY.free(); maxY.free(); head.free()
        candidates.free(); points.free(); rowEnds.free(); hull.free(); edge.free(); profile.free(); gridLuma.free()
        edgeThickness.free()
    }

    /// Finds and decodes symbols: first the areas with matrix-code texture,
    /// then the finder search in each. This is what a scanner calls each frame.
    ///
    /// - Parameters:
    ///   - shared: the regions of this frame when another reader found them
    ///     already with the same settings (QR Code's pre-pass); only read,
    ///     during this call.
    ///   - prepared: the block thresholds of `shared`'s areas when the
    ///     caller prepared them (``AreaThresholds``); only read.
    ///   - avoiding: the insides of codes read already, taken out of
    ///     `shared`'s areas (``MatrixRegionDetector/carve(_:)``): the parts
    ///     of those codes left in the areas around them (their edges) are
    ///     not examined, and take none of the frame's budget.
    func scan(
        _ image: LumaView, in bounds: PixelRect? = nil, regions shared: MatrixRegionDetector? = nil,
        prepared: AreaThresholds? = nil, avoiding: [PixelRect] = [], into out: inout [DMCandidate]
    ) {
        found.removeAll(keepingCapacity: true)
        avoided = avoiding
        defer { avoided = [] }
        examineBudget = options.thorough ? Int.max : max(1, options.examineBudget)
        if let shared {
            // Video frames: each area gets its share of the components left
            // (one at least), so that the largest components of the first
            // areas (another symbol's modules, text) leave some for the
            // symbols of the others.
            var left = examineBudget
            for k in 0..<shared.regionCount where left > 0 {
                let share = options.thorough ? left : max(1, left / (shared.regionCount - k))
                examineBudget = share
                detect(image, in: shared.regions[k], prepared: prepared?.blocks(k, area: shared.regions[k]), into: &out)
                left -= share - examineBudget
            }
            return
        }
        regionFinder.findAll(image, bounds: bounds)
        for k in 0..<regionFinder.regionCount {
            detect(image, in: regionFinder.regions[k], into: &out)
        }
    }

    /// Finds and decodes symbols in `region` (the whole frame when nil);
    /// `prepared`: the region's block thresholds, when already measured.
    func detect(
        _ img: LumaView, in region: PixelRect? = nil, prepared: BlockThreshold? = nil,
        into out: inout [DMCandidate]
    ) {
        let r = (region ?? PixelRect(x0: 0, y0: 0, x1: img.width, y1: img.height))
            .clipped(width: img.width, height: img.height)
        guard r.width >= 12, r.height >= 12, !stop.now else { return }
        if region == nil { found.removeAll(keepingCapacity: true) }
        thresholds.prepare(
            img, rect: r, blockSize: AreaThresholds.blockSize(r), minContrast: options.minContrast,
            reusing: prepared)
        label(img, r)
        for dark in [true, false] where !stop.now {
            pickCandidates(r, dark: dark)
            for k in 0..<candidateCount {
                // Video frames: a few components per frame, the largest of
                // the strongest regions first; the next frames see the code again.
                if examineBudget == 0 || stop.now { return }
                examineBudget -= 1
                if let c = examine(img, root: Int(candidates[k]), dark: dark) {
                    found.append(c.corners)
                    out.append(c)
                }
            }
        }
    }

    private var candidateCount = 0
    /// Components that may still be examined in this frame.
    private var examineBudget = Int.max
    /// The best finder and clock pattern score of the grids sampled for
    /// the component being located (0 to 1).
    private var bestPattern = 0.0
    /// A pattern score that a grid misplaced by a module or so reaches, and
    /// other shapes rarely do: only then are the runners-up among the
    /// clock tracks' edges tried.
    private static let nearlyAGrid = 0.65
    /// A grid whose unguided samplings match the finder and clock
    /// patterns less than this (chance is about half) is no symbol: it
    /// gets no module guides from its clock tracks, nor nudges.
    private static let guideGate = 0.6
    /// Which of the top and right clock tracks' edges to take, in turn:
    /// the likeliest (0) or the runner-up (1).
    private static let clockPicks = [(0, 0), (1, 0), (0, 1)]
    /// Rows between labelled rows.
    private var labelStep = 1

    // MARK: - Connected components

    @inline(__always)
    private func find(_ i: Int32) -> Int32 {
        let p = parent.pointer
        var x = i
        while p[Int(x)] != x {
            p[Int(x)] = p[Int(p[Int(x)])]
            x = p[Int(x)]
        }
        return x
    }

    @inline(__always)
    private func union(_ a: Int32, _ b: Int32) {
        let ra = find(a), rb = find(b)
        if ra == rb { return }
        if ra < rb { parent.pointer[Int(rb)] = ra } else { parent.pointer[Int(ra)] = rb }
    }

    /// Cuts every row of `r` into runs and joins touching runs of one colour.
    private func label(_ img: LumaView, _ r: PixelRect) {
        runCount = 0
        rowBuffer.reserve(r.width + 4)
        var prevStart = 0, prevEnd = 0
        // Video frames label every other row: a finder arm of modules of two
        // pixels or more still meets a labelled row and stays connected.
        labelStep = options.thorough ? 1 : 2
        for y in Swift.stride(from: r.y0, to: r.y1, by: labelStep) {
            if stop.now { break }
            var firstDark = false
            let n = thresholds.rowRuns(img, y: y, x0: r.x0, x1: r.x1, runs: rowBuffer.pointer, firstDark: &firstDark)
            let need = runCount + n
            if need > rx0.capacity { grow(need) }
            let start = runCount
            var x = r.x0
            var dark = firstDark
            // The buffers' pointers held here (they change only in grow).
            let x0s = rx0.pointer, x1s = rx1.pointer, darks = rdark.pointer, row = rowBuffer.pointer
            let ys = ry.pointer, parents = parent.pointer
            var count = runCount
            for i in 0..<n {
                let len = Int(row[i])
                x0s[count] = Int32(x); x1s[count] = Int32(x + len); ys[count] = Int32(y)
                darks[count] = dark ? 1 : 0
                parents[count] = Int32(count)
                count += 1
                x += len
                dark.toggle()
            }
            runCount = count
            // Join with the touching runs of the row above (8-connected).
            var k = prevStart
            for j in start..<count {
                let b0 = x0s[j], b1 = x1s[j]
                while k < prevEnd && x1s[k] < b0 { k += 1 }
                var m = k
                while m < prevEnd && x0s[m] <= b1 {
                    if darks[m] == darks[j] { union(Int32(m), Int32(j)) }
                    m += 1
                }
            }
            prevStart = start; prevEnd = runCount
        }
    }

    private func grow(_ need: Int) {
        let n = max(need, rx0.capacity * 2)
        func grown<T>(_ b: inout ScratchBuffer<T>) {
            let nb = ScratchBuffer<T>(capacity: n)
            nb.pointer.update(from: b.pointer, count: runCount)
            b.free()
            b = nb
        }
        grown(&rx0); grown(&rx1); grown(&ry); grown(&rdark); grown(&parent)
    }

    /// Gathers the components of one colour worth a look: large enough,
    /// not touching every side of the region, largest first.
    private func pickCandidates(_ r: PixelRect, dark: Bool) {
        let n = runCount
        nextRun.reserve(n); area.reserve(n); minX.reserve(n); maxX.reserve(n)
        minY.reserve(n); maxY.reserve(n); head.reserve(n)
        let want: UInt8 = dark ? 1 : 0
        for i in 0..<n where rdark[i] == want {
            let root = Int(find(Int32(i)))
            parent[i] = Int32(root)
            if root == i {
                area[i] = 0; minX[i] = Int32.max; maxX[i] = Int32.min; minY[i] = ry[i]; maxY[i] = ry[i]; head[i] = -1
            }
        }
        for i in 0..<n where rdark[i] == want {
            let root = Int(parent[i])
            area[root] &+= (rx1[i] - rx0[i]) &* Int32(labelStep)
            minX[root] = min(minX[root], rx0[i]); maxX[root] = max(maxX[root], rx1[i])
            minY[root] = min(minY[root], ry[i]); maxY[root] = max(maxY[root], ry[i] + Int32(labelStep))
            nextRun[i] = head[root]; head[root] = Int32(i)
        }
        candidateCount = 0
        let minArm = Int32(options.minArm)
        for i in 0..<n where rdark[i] == want && parent[i] == Int32(i) {
            let w = maxX[i] - minX[i], h = maxY[i] - minY[i]
            guard max(w, h) >= minArm, area[i] >= 2 * minArm else { continue }
            // The background of the region (a symbol without quiet zone that
            // fills the frame touches every side too, but covers less).
            if minX[i] <= Int32(r.x0) && maxX[i] >= Int32(r.x1) && minY[i] <= Int32(r.y0) && maxY[i] >= Int32(r.y1)
                && Int(area[i]) * 10 > 6 * r.width * r.height
            {
                continue
            }
            // Inside a symbol decoded already.
            let c = Point(x: Double(minX[i] + maxX[i]) / 2, y: Double(minY[i] + maxY[i]) / 2)
            if found.contains(where: { DMDetector.inside(c, $0) }) { continue }
            // Touching a code read already (within 2 pixels): its edge.
            if avoided.contains(where: {
                minX[i] < Int32($0.x1 + 2) && Int32($0.x0 - 2) < maxX[i]
                    && minY[i] < Int32($0.y1 + 2) && Int32($0.y0 - 2) < maxY[i]
            }) {
                continue
            }
            candidates.reserveKeeping(candidateCount + 1)
            candidates[candidateCount] = Int32(i)
            candidateCount += 1
        }
        // Largest first (ties in order), at most maxComponents: an insertion
        // sort into the kept ones only, as a page of text has 10^5 components.
        let p = candidates.pointer
        let keep = max(0, options.thorough ? options.maxComponents : options.maxComponents / 2)
        var kept = 0
        for a in 0..<candidateCount {
            let v = p[a]
            if kept == keep && (kept == 0 || area[Int(p[kept - 1])] >= area[Int(v)]) { continue }
            // When full, the last kept one is dropped (shifted over).
            var b = (kept == keep ? kept - 1 : kept) - 1
            while b >= 0 && area[Int(p[b])] < area[Int(v)] { p[b + 1] = p[b]; b -= 1 }
            p[b + 1] = v
            if kept < keep { kept += 1 }
        }
        candidateCount = kept
    }

    static func inside(_ p: Point, _ q: [Point]) -> Bool {
        var sign = 0.0
        for k in 0..<q.count {
            let a = q[k], b = q[(k + 1) % q.count]
            let c = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if c == 0 { continue }
            if sign == 0 { sign = c } else if (sign > 0) != (c > 0) { return false }
        }
        return true
    }

    // MARK: - Outline

    /// The convex hull of the component's row ends, into `hull`; its size.
    /// The hull runs counter-clockwise (x right, y up) from its least point
    /// by x, then y.
    private func outline(root: Int) -> Int {
        // The rows' ends, from the component's run list (last row first).
        var rowCount = 0
        var i = Int(head[root])
        var row = Int32.min, lo = Int32.max, hi = Int32.min
        func flush() {
            guard row != Int32.min else { return }
            rowEnds.reserveKeeping(3 * rowCount + 3)
            rowEnds[3 * rowCount] = row; rowEnds[3 * rowCount + 1] = lo; rowEnds[3 * rowCount + 2] = hi
            rowCount += 1
        }
        while i >= 0 {
            if ry[i] != row { flush(); row = ry[i]; lo = Int32.max; hi = Int32.min }
            lo = min(lo, rx0[i]); hi = max(hi, rx1[i])
            i = Int(nextRun[i])
        }
        flush()
        guard rowCount > 0 else { return 0 }
        // Each row's four corners, in order of y, then x, with no sort: the
        // rows' tops (lo, y), (hi, y) and their bottoms (lo, y + step),
        // (hi, y + step) are each in that order from the first row down;
        // the two streams are merged.
        let count = 4 * rowCount
        points.reserveKeeping(count)
        let e = rowEnds.pointer, step = Int32(labelStep)
        @inline(__always) func corner(_ k: Int, bottom: Bool) -> (Int32, Int32) {
            let r = rowCount - 1 - k / 2
            return (e[3 * r] &+ (bottom ? step : 0), e[3 * r + 1 + k % 2])
        }
        var a = 0, b = 0, n = 0
        let streamLength = 2 * rowCount
        while a < streamLength || b < streamLength {
            let takeTop: Bool
            if a == streamLength {
                takeTop = false
            } else if b == streamLength {
                takeTop = true
            } else {
                let (ya, xa) = corner(a, bottom: false), (yb, xb) = corner(b, bottom: true)
                takeTop = ya < yb || (ya == yb && xa <= xb)
            }
            let (y, x) = corner(takeTop ? a : b, bottom: !takeTop)
            if takeTop { a += 1 } else { b += 1 }
            points[n] = Point(x: Double(x), y: Double(y))
            n += 1
        }
        // Monotone chain along y (the points' order), which gives the hull
        // in the same turning sense as along x.
        let pts = UnsafeBufferPointer(start: points.pointer, count: count)
        hull.reserveKeeping(2 * count + 2)
        let h = hull.pointer
        var k = 0
        @inline(__always) func cross(_ o: Point, _ a: Point, _ b: Point) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        for p in pts {
            while k >= 2 && cross(h[k - 2], h[k - 1], p) <= 0 { k -= 1 }
            h[k] = p; k += 1
        }
        let lower = k + 1
        for p in pts.reversed().dropFirst() {
            while k >= lower && cross(h[k - 2], h[k - 1], p) <= 0 { k -= 1 }
            h[k] = p; k += 1
        }
        let hn = max(0, k - 1)
        // Started from the least point by x, then y.
        var least = 0
        for j in 1..<max(1, hn) where h[j].x < h[least].x || (h[j].x == h[least].x && h[j].y < h[least].y) { least = j }
        if least > 0 {
            for j in 0..<hn { h[hn + 1 + j] = h[(least + j) % hn] }
            for j in 0..<hn { h[j] = h[hn + 1 + j] }
        }
        return hn
    }

    // MARK: - Finder

    /// The luma at a sub-pixel position (bilinear), clamped to the frame.
    @inline(__always)
    private static func luma(_ img: LumaView, _ x: Double, _ y: Double) -> Double {
        let fx = min(max(x - 0.5, 0), Double(img.width - 1)), fy = min(max(y - 0.5, 0), Double(img.height - 1))
        let x0 = Int(fx), y0 = Int(fy)
        let x1 = min(x0 + 1, img.width - 1), y1 = min(y0 + 1, img.height - 1)
        let ax = fx - Double(x0), ay = fy - Double(y0)
        let r0 = img.base + y0 * img.stride, r1 = img.base + y1 * img.stride
        let top = Double(r0[x0]) * (1 - ax) + Double(r0[x1]) * ax
        let bottom = Double(r1[x0]) * (1 - ax) + Double(r1[x1]) * ax
        return top * (1 - ay) + bottom * ay
    }

    /// Whether the point (continuous pixel coordinates: pixel (x, y)
    /// covers [x, x+1)) is of the finder's colour.
    /// With the symbol's own ink and background levels known (from the
    /// finder and the quiet zone beside it), the midpoint between them;
    /// each test then uses the mean of it and the local block threshold,
    /// which keeps faint borders and shadows near the symbol on the light side.
    private var symbolThreshold: Double? = nil

    @inline(__always)
    private func isInk(_ img: LumaView, _ p: Point, dark: Bool) -> Bool {
        DMDetector.isInk(img, p, dark: dark, thresholds: thresholds, symbolThreshold: symbolThreshold)
    }

    /// ``isInk(_:_:dark:)`` with the thresholds it reads passed in: for
    /// loops that hold them, without a reference to the detector.
    @inline(__always)
    private static func isInk(
        _ img: LumaView, _ p: Point, dark: Bool, thresholds: borrowing BlockThreshold,
        symbolThreshold: Double?
    ) -> Bool {
        guard p.x >= 0, p.y >= 0, p.x < Double(img.width), p.y < Double(img.height) else { return false }
        var t = Double(thresholds.threshold(x: Int(p.x), y: Int(p.y)))
        if let s = symbolThreshold { t = (t + s) / 2 }
        return (luma(img, p.x, p.y) < t) == dark
    }

    /// The symbol's threshold from the finder's arms `v`→`p`, `v`→`q`
    /// (ink just inside) and the quiet zone (just outside).
    private func measureLevels(_ img: LumaView, _ v: Point, _ p: Point, _ q: Point, _ centre: Point, dark: Bool)
        -> Double?
    {
        var ink = 0.0, inkN = 0, light = 0.0, lightN = 0
        for end in [p, q] {
            let n = normal(v, end, towards: centre)
            for s in 0..<24 {
                let t = 0.15 + 0.7 * (Double(s) + 0.5) / 24
                let base = Point(x: v.x + (end.x - v.x) * t, y: v.y + (end.y - v.y) * t)
                for inset in [0.8, 1.5] {
                    let a = Point(x: base.x + n.x * inset, y: base.y + n.y * inset)
                    if isInk(img, a, dark: dark) { ink += DMDetector.luma(img, a.x, a.y); inkN += 1 }
                }
                let b = Point(x: base.x - n.x * 3, y: base.y - n.y * 3)
                if !isInk(img, b, dark: dark) { light += DMDetector.luma(img, b.x, b.y); lightN += 1 }
            }
        }
        guard inkN > 4, lightN > 4 else { return nil }
        return (ink / Double(inkN) + light / Double(lightN)) / 2
    }

    /// The fraction of points along `a`→`b`, moved `inset` pixels along
    /// `normal`, that are ink; points beyond the frame's edge count as
    /// light, or as ink with `offFrameIsInk`.
    private func inkFraction(
        _ img: LumaView, _ a: Point, _ b: Point, normal n: Point, inset: Double, dark: Bool,
        margin: Double = 0.05, offFrameIsInk: Bool = false
    ) -> Double {
        let len = a.distance(to: b)
        let samples = max(8, min(64, Int(len / 1.5)))
        var ink = 0
        for s in 0..<samples {
            // A low-discrepancy sequence: even sampling that cannot fall in
            // step with the clock track's period.
            let w = 0.5 + Double(s) * 0.618_033_988_75
            let t = margin + (1 - 2 * margin) * (w - w.rounded(.down))
            let p = Point(x: a.x + (b.x - a.x) * t + n.x * inset, y: a.y + (b.y - a.y) * t + n.y * inset)
            if offFrameIsInk && (p.x < 0 || p.y < 0 || p.x >= Double(img.width) || p.y >= Double(img.height)) {
                ink += 1
            } else if isInk(img, p, dark: dark) {
                ink += 1
            }
        }
        return Double(ink) / Double(samples)
    }

    /// Examines one component: finder, edges, size, sampling, decoding.
    private func examine(_ img: LumaView, root: Int, dark: Bool) -> DMCandidate? {
        let hn = outline(root: root)
        guard hn >= 3 else { return nil }
        let h = UnsafeBufferPointer(start: hull.pointer, count: hn)
        // Diameter.
        var ia = 0, ic = 0, best = -1.0
        for i in 0..<hn {
            for j in (i + 1)..<hn {
                let d = (h[i].x - h[j].x) * (h[i].x - h[j].x) + (h[i].y - h[j].y) * (h[i].y - h[j].y)
                if d > best { best = d; ia = i; ic = j }
            }
        }
        guard best >= Double(options.minArm * options.minArm) else { return nil }
        let A = h[ia], C = h[ic]
        var ib = -1, id = -1, dpos = 0.0, dneg = 0.0
        for i in 0..<hn {
            let c = (C.x - A.x) * (h[i].y - A.y) - (C.y - A.y) * (h[i].x - A.x)
            if c > dpos { dpos = c; ib = i }
            if c < dneg { dneg = c; id = i }
        }
        let diag = best.squareRoot()
        var quad: [Point]
        let minDepth = max(4, 0.025 * diag)
        if ib >= 0 && id >= 0 && min(dpos, -dneg) / diag > minDepth {
            quad = [A, h[ib], C, h[id]]
        } else if ib >= 0 && dpos / diag > minDepth {
            let B = h[ib]
            quad = [A, B, C, Point(x: A.x + C.x - B.x, y: A.y + C.y - B.y)]
        } else if id >= 0 && -dneg / diag > minDepth {
            let D = h[id]
            quad = [A, Point(x: A.x + C.x - D.x, y: A.y + C.y - D.y), C, D]
        } else {
            // A thin shape: a DMRE symbol's L could be long; not a finder otherwise.
            return nil
        }
        // The finder's corner: both sides solid, light outside.
        let centre = Point(
            x: (quad[0].x + quad[1].x + quad[2].x + quad[3].x) / 4,
            y: (quad[0].y + quad[1].y + quad[2].y + quad[3].y) / 4)
        // Side k joins quad[k] and quad[k + 1]; the finder's corner has two
        // solid sides, and the sides opposite (the clock tracks) are less so.
        var side = [0.0, 0.0, 0.0, 0.0]
        for k in 0..<4 { side[k] = armScore(img, quad[k], quad[(k + 1) % 4], centre, dark: dark) }
        var bestScore = -1.0, bestCorner = -1, bestLength = 0.0
        for v in 0..<4 {
            let arms = min(side[(v + 3) % 4], side[v])
            guard arms >= 0.8 else { continue }
            let s = arms - (side[(v + 1) % 4] + side[(v + 2) % 4]) / 2
            // On a tie, the corner with the longer sides (the whole finder).
            let length = quad[v].distance(to: quad[(v + 3) % 4]) + quad[v].distance(to: quad[(v + 1) % 4])
            if s > bestScore + 0.05 || (s > bestScore - 0.05 && length > bestLength) {
                bestScore = max(s, bestScore); bestCorner = v; bestLength = length
            }
        }
        trace?("component \(quad.map { "(\(Int($0.x)),\(Int($0.y)))" }) sides \(side) finder at \(bestCorner)")
        guard bestCorner >= 0, bestScore > 0 else { return nil }
        let V = quad[bestCorner], P = quad[(bestCorner + 3) % 4], Q = quad[(bestCorner + 1) % 4]
        // A finder arm is thin: one module where the module beside it is
        // light. Blobs and bars of text are not.
        for end in [P, Q] {
            let len = V.distance(to: end)
            let n = normal(V, end, towards: centre)
            var thinnest = Double.infinity
            for k in 1...7 {
                let f = Double(k) / 8
                let o = Point(x: V.x + (end.x - V.x) * f - n.x * 3, y: V.y + (end.y - V.y) * f - n.y * 3)
                if let (d0, d1) = scanInk(img, o, n, length: 3 + 0.4 * len, dark: dark) {
                    thinnest = min(thinnest, d1 - d0)
                }
            }
            if thinnest > 0.2 * len + 1 {
                trace?("arm too thick: \(thinnest) of \(len)")
                return nil
            }
        }
        symbolThreshold = nil
        symbolThreshold = measureLevels(img, V, P, Q, centre, dark: dark)
        defer { symbolThreshold = nil }
        let a = Point(x: P.x - V.x, y: P.y - V.y), b = Point(x: Q.x - V.x, y: Q.y - V.y)
        let crossAB = a.x * b.y - a.y * b.x
        // Upright: bottom arm (1, 0) and left arm (0, -1) have a negative cross product.
        let (bottomEnd, leftEnd) = crossAB < 0 ? (P, Q) : (Q, P)
        return locate(img, corner: V, bottomEnd: bottomEnd, leftEnd: leftEnd, dark: dark)
    }

    /// How solid the side `v`→`p` is: ink just inside, and light just outside.
    private func armScore(_ img: LumaView, _ v: Point, _ p: Point, _ centre: Point, dark: Bool) -> Double {
        let len = v.distance(to: p)
        guard len >= Double(options.minArm) else { return 0 }
        var n = Point(x: -(p.y - v.y) / len, y: (p.x - v.x) / len)
        let mid = Point(x: (v.x + p.x) / 2, y: (v.y + p.y) / 2)
        if n.x * (centre.x - mid.x) + n.y * (centre.y - mid.y) < 0 { n = Point(x: -n.x, y: -n.y) }
        var inside = inkFraction(img, v, p, normal: n, inset: 1.5, dark: dark)
        // A long arm on bent paper bows away from the line between its
        // ends (the outline's corners), by a pixel or two per hundred.
        if inside < 0.4 && len >= 100 {
            inside = inkFraction(img, v, p, normal: n, inset: 0.015 * len, dark: dark)
        }
        // Far from solid: not an arm (the common case, decided with one line).
        if inside < 0.4 { return inside }
        if inside <= 0.95 {
            for inset in [0.8, 2.5, 3.5] {
                inside = max(inside, inkFraction(img, v, p, normal: n, inset: inset, dark: dark))
                if inside > 0.95 { break }
            }
        }
        if inside < 0.8 { return inside }
        // The quiet zone outside. Beyond the frame's edge it is light in
        // still pictures (a symbol cropped to its edge); in video frames it
        // is not in view, and a dark area cut by the frame's edge (a dark
        // object, a letterbox bar) would otherwise pass for a finder whose
        // whole search reads nothing: the camera moves, and the symbol is
        // read once its quiet zone is in view.
        let outside =
            1
            - inkFraction(
                img, v, p, normal: n, inset: -3, dark: dark, margin: 0.15,
                offFrameIsInk: !options.thorough)
        trace?("    arm \(v) \(p): inside \(inside) outside \(outside)")
        return min(inside, outside + 0.1)
    }

    // MARK: - Edges, size and sampling

    /// Scans from `from` along unit `dir` for `length` pixels in half-pixel
    /// steps; the distance of the first ink sample, then of the first
    /// non-ink sample after it (nil when none).
    private func scanInk(
        _ img: LumaView, _ from: Point, _ dir: Point, length: Double, dark: Bool,
        expect: (at: Double, within: Double)? = nil
    ) -> (Double, Double)? {
        var t = 0.0
        var start = -1.0
        // Ink at the start (a border, a neighbour) is passed over first.
        var seenLight = false
        while t <= length {
            let p = Point(x: from.x + dir.x * t, y: from.y + dir.y * t)
            // Outside the frame nothing is known.
            if p.x < 0 || p.y < 0 || p.x >= Double(img.width) || p.y >= Double(img.height) {
                if start >= 0 { return (start, t) }
                // The frame's edge where the symbol's edge is expected: a
                // symbol printed to the edge, with the light outside.
                if let e = expect, abs(t - e.at) <= e.within { seenLight = true }
                t += 0.5
                continue
            }
            let ink = isInk(img, p, dark: dark)
            if !seenLight {
                if !ink { seenLight = true }
            } else if start < 0 {
                if ink { start = t }
            } else if !ink {
                return (start, t)
            }
            t += 0.5
        }
        return start < 0 ? nil : (start, length)
    }

    /// Scans from `from` (inside the symbol) outwards along unit `dir` for
    /// `length` pixels in half-pixel steps: the distance of the last ink
    /// sample before `quiet` pixels of light (the quiet zone), or nil.
    private func scanOut(
        _ img: LumaView, _ from: Point, _ dir: Point, length: Double, quiet: Double,
        minQuiet: Double, dark: Bool
    ) -> Double? {
        var t = 0.0, lastInk = -1.0
        while t <= length {
            let p = Point(x: from.x + dir.x * t, y: from.y + dir.y * t)
            if p.x < 0 || p.y < 0 || p.x >= Double(img.width) || p.y >= Double(img.height) { break }
            if isInk(img, p, dark: dark) {
                lastInk = t
            } else if lastInk >= 0 && t - lastInk >= quiet {
                return lastInk
            }
            t += 0.5
        }
        // The window ends in light: enough for a quiet zone of a module.
        return lastInk >= 0 && t - lastInk >= min(quiet, minQuiet) ? lastInk : nil
    }

    /// Samples along a segment inside the frame a coarse step at a time,
    /// for the scans of video frames (``scanInk(_:_:_:length:dark:expect:)``
    /// and ``scanOut(_:_:_:length:quiet:minQuiet:dark:)`` read in half-pixel
    /// steps): each change of colour is placed to the half pixel by
    /// bisection, which gives the same distances as half-pixel steps as
    /// long as ink and light each run at least a step (the step is at most
    /// half a module) and costs a few samples a module instead of two a
    /// pixel.
    private struct CoarseScan {
        let img: LumaView
        let from: Point, dir: Point
        let dark: Bool
        /// The segment's length, the step (a multiple of half a pixel, at
        /// most half a module) and the segment's last half-pixel point.
        let length: Double, step: Double, last: Double
        /// The detector's thresholds and symbol threshold (``isInk(_:_:dark:)``),
        /// held here: a reference to the detector would be retained and
        /// released at every sample.
        let thresholds: BlockThreshold
        let symbolThreshold: Double?

        init(
            _ detector: DMDetector, _ img: LumaView, _ from: Point, _ dir: Point, length: Double, module: Double,
            dark: Bool
        ) {
            thresholds = detector.thresholds
            symbolThreshold = detector.symbolThreshold
            self.img = img; self.from = from; self.dir = dir; self.dark = dark
            self.length = length
            step = max(0.5, min(6, module.rounded(.down) * 0.5))
            last = (max(0, length) / 0.5).rounded(.down) * 0.5
        }

        /// Whether the segment lies inside the frame, where these scans apply.
        static func fits(_ img: LumaView, _ from: Point, _ dir: Point, length: Double) -> Bool {
            let to = Point(x: from.x + dir.x * length, y: from.y + dir.y * length)
            return min(from.x, to.x) >= 0 && min(from.y, to.y) >= 0
                && max(from.x, to.x) < Double(img.width) && max(from.y, to.y) < Double(img.height)
        }

        @inline(__always) func ink(_ t: Double) -> Bool {
            DMDetector.isInk(
                img, Point(x: from.x + dir.x * t, y: from.y + dir.y * t), dark: dark,
                thresholds: thresholds, symbolThreshold: symbolThreshold)
        }

        /// The first half-pixel point in `a...end` whose colour is `want`.
        func first(from a: Double, to end: Double? = nil, _ want: Bool) -> Double? {
            let end = min(end ?? last, last)
            guard a <= end else { return nil }
            if ink(a) == want { return a }
            var lo = a
            while lo < end {
                let hi = min(lo + step, end)
                if ink(hi) == want {
                    // Bisect (lo, hi] on the half-pixel grid.
                    var l = lo, h = hi
                    while h - l > 0.5 {
                        let m = l + ((h - l) / 1.0).rounded(.down) * 0.5
                        if ink(m) == want { h = m } else { l = m }
                    }
                    return h
                }
                lo = hi
            }
            return nil
        }
    }

    /// ``scanInk(_:_:_:length:dark:expect:)`` with coarse steps (see
    /// ``CoarseScan``), for a segment inside the frame.
    private func scanInkCoarse(_ scan: CoarseScan) -> (Double, Double)? {
        // Ink at the start (a border, a neighbour) is passed over first.
        guard let light = scan.first(from: 0, false), let start = scan.first(from: light + 0.5, true) else {
            return nil
        }
        guard let end = scan.first(from: start + 0.5, false) else { return (start, scan.length) }
        return (start, end)
    }

    /// ``scanOut(_:_:_:length:quiet:minQuiet:dark:)`` with coarse steps
    /// (see ``CoarseScan``), for a segment inside the frame.
    private func scanOutCoarse(_ scan: CoarseScan, quiet: Double, minQuiet: Double) -> Double? {
        var lastInk = -1.0
        var from = 0.0
        while let i = scan.first(from: from, true) {
            guard let e = scan.first(from: i + 0.5, false) else { lastInk = scan.last; break }
            lastInk = e - 0.5
            // The quiet zone: light up to the first half-pixel point
            // `quiet` beyond the last ink.
            let q = ((lastInk + quiet) / 0.5).rounded(.up) * 0.5
            guard let next = scan.first(from: e, to: q, true) else {
                if q <= scan.last { return lastInk }
                break
            }
            from = next
        }
        // The window ends in light: enough for a quiet zone of a module.
        return lastInk >= 0 && scan.last + 0.5 - lastInk >= min(quiet, minQuiet) ? lastInk : nil
    }

    /// Fits a line to the outer edge along `a`→`b`, scanning inwards along
    /// `n` from `outside` pixels out, over `depth` pixels. With `dashed`,
    /// points behind the line (at light clock modules) are dropped in turns.
    /// Also returns the median ink thickness met.
    private func fitEdge(
        _ img: LumaView, _ a: Point, _ b: Point, normal n: Point, outside: Double, depth: Double,
        dark: Bool, dashed: Bool, module: Double, outward: Bool = false,
        anchor: Double? = nil
    ) -> (DMLine, Double)? {
        let len = a.distance(to: b)
        // At most 80 points, and 100 line pairs below, which find the
        // clock track's line (more read no more symbols); in video frames
        // a clock track's first, rough fit (no anchor yet: its scans run
        // deep, as far as perspective may move the track) half as many.
        let most = !options.thorough && dashed && anchor == nil ? 40 : 80
        let samples = max(dashed ? 32 : 8, min(most, Int(len / 1.2)))
        // Video frames: coarse steps where modules are two pixels or more.
        let coarse = !options.thorough && module >= 2
        edge.reserveKeeping(samples)
        edgeThickness.reserveKeeping(samples)
        var count = 0
        // The thickness of each point's ink, while they stay aligned with `edge`.
        let thick = edgeThickness.pointer
        var thickCount = 0
        for s in 0..<samples {
            let t = 0.03 + 0.94 * (Double(s) + 0.5) / Double(samples)
            if dashed && outward {
                // From inside outwards: the last ink before the quiet zone.
                let inner = Point(x: a.x + (b.x - a.x) * t + n.x * depth, y: a.y + (b.y - a.y) * t + n.y * depth)
                let out = Point(x: -n.x, y: -n.y)
                let quiet = max(3, 2.5 * module), minQuiet = max(1.5, module)
                let found =
                    coarse && CoarseScan.fits(img, inner, out, length: depth + outside)
                    ? scanOutCoarse(
                        CoarseScan(self, img, inner, out, length: depth + outside, module: module, dark: dark),
                        quiet: quiet, minQuiet: minQuiet)
                    : scanOut(img, inner, out, length: depth + outside, quiet: quiet, minQuiet: minQuiet, dark: dark)
                guard let d = found else { continue }
                let e = d + 0.25
                edge[count] = Point(x: inner.x - n.x * e, y: inner.y - n.y * e)
                count += 1
                continue
            }
            let start = Point(x: a.x + (b.x - a.x) * t - n.x * outside, y: a.y + (b.y - a.y) * t - n.y * outside)
            let found =
                coarse && CoarseScan.fits(img, start, n, length: depth)
                ? scanInkCoarse(CoarseScan(self, img, start, n, length: depth, module: module, dark: dark))
                : scanInk(img, start, n, length: depth, dark: dark, expect: (outside, 1.5 * module + 1))
            guard let (d0, d1) = found else { continue }
            let e = d0 - 0.25
            edge[count] = Point(x: start.x + n.x * e, y: start.y + n.y * e)
            count += 1
            thick[thickCount] = d1 - d0
            thickCount += 1
        }
        trace?("fitEdge \(a) \(b) dashed \(dashed): \(count) of \(samples) points")
        guard count >= 4 else { return nil }
        var line = DMLine.fit(UnsafeBufferPointer(start: edge.pointer, count: count))
        guard var l = line else { return nil }
        // Orient the normal inwards.
        if l.a * n.x + l.b * n.y < 0 { l = DMLine(a: -l.a, b: -l.b, c: -l.c) }
        line = l
        if dashed {
            // The dark clock modules' outer edges lie on one line and make
            // about half the points; light clock modules give points further
            // in, scattered. The line through two points that most points
            // lie near (a fixed sequence of pairs), outermost on ties.
            let tol = max(0.5, 0.3 * module)
            // Perspective turns a short side little from its guess.
            let minCos = anchor != nil || len < 20 * module ? 0.996 : 0.978
            var bestInliers = 0, bestDepth = Double.infinity
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            let pairs = min(100, count * (count - 1) / 2)
            for _ in 0..<pairs {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let i = Int((state >> 33) % UInt64(count))
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let j = Int((state >> 33) % UInt64(count))
                let p = edge[i], q = edge[j]
                let d = p.distance(to: q)
                guard d > 0.25 * len else { continue }
                var cand = DMLine(a: -(q.y - p.y) / d, b: (q.x - p.x) / d, c: 0)
                cand.c = cand.a * p.x + cand.b * p.y
                if cand.a * n.x + cand.b * n.y < 0 { cand = DMLine(a: -cand.a, b: -cand.b, c: -cand.c) }
                // The line must run along the side, not across it, and near
                // the side's ends when they are known well.
                guard abs(cand.a * n.x + cand.b * n.y) > minCos else { continue }
                if let anchor, abs(cand.distance(a)) > anchor || abs(cand.distance(b)) > anchor { continue }
                var inliers = 0
                for k in 0..<count where abs(cand.distance(edge[k])) < tol { inliers += 1 }
                // Depth of the line along the inward normal at the side's middle.
                let mid = Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
                let depth = -cand.distance(mid)
                if inliers > bestInliers || (inliers == bestInliers && depth < bestDepth) {
                    bestInliers = inliers; bestDepth = depth; l = cand
                }
            }
            if bestInliers >= 4 {
                var kept = 0
                for k in 0..<count where abs(l.distance(edge[k])) < tol { edge[kept] = edge[k]; kept += 1 }
                count = kept
                if var f = DMLine.fit(UnsafeBufferPointer(start: edge.pointer, count: count)) {
                    if f.a * n.x + f.b * n.y < 0 { f = DMLine(a: -f.a, b: -f.b, c: -f.c) }
                    l = f
                }
            }
        }
        // Drop outliers in turns.
        for round in 0..<3 {
            let limit = dashed ? max(0.75, 0.5 * module) : max(1.0, (round < 2 ? 1.0 : 0.5) * module)
            var kept = 0
            let aligned = thickCount == count
            for i in 0..<count where abs(l.distance(edge[i])) < limit {
                edge[kept] = edge[i]
                // The thickness only of the points on the edge (not of specks outside).
                if aligned { thick[kept] = thick[i] }
                kept += 1
            }
            guard kept >= 4 else { break }
            if aligned { thickCount = kept }
            count = kept
            guard var f = DMLine.fit(UnsafeBufferPointer(start: edge.pointer, count: count)) else { break }
            if f.a * n.x + f.b * n.y < 0 { f = DMLine(a: -f.a, b: -f.b, c: -f.c) }
            l = f
        }
        // The finder is one module thick where the module next to it is
        // light: a low quantile of the thickness met.
        var sorted = UnsafeMutableBufferPointer(start: thick, count: thickCount)
        sorted.sort()
        return (l, thickCount == 0 ? module : thick[thickCount / 5])
    }

    /// The inward unit normal of side `a`→`b` towards `c`.
    private func normal(_ a: Point, _ b: Point, towards c: Point) -> Point {
        let len = max(1e-9, a.distance(to: b))
        var n = Point(x: -(b.y - a.y) / len, y: (b.x - a.x) / len)
        let mid = Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
        if n.x * (c.x - mid.x) + n.y * (c.y - mid.y) < 0 { n = Point(x: -n.x, y: -n.y) }
        return n
    }

    /// From the finder's corner and arm ends to a decoded symbol.
    private func locate(_ img: LumaView, corner: Point, bottomEnd: Point, leftEnd: Point, dark: Bool) -> DMCandidate? {
        var bl = corner, br = bottomEnd, tl = leftEnd
        let c0 = Point(x: (tl.x + br.x) / 2, y: (tl.y + br.y) / 2)
        // Arm thickness first: a module.
        guard
            let (left0, tLeft) = fitEdge(
                img, bl, tl, normal: normal(bl, tl, towards: c0), outside: 3, depth: 20,
                dark: dark, dashed: false, module: 3),
            let (bottom0, tBottom) = fitEdge(
                img, bl, br, normal: normal(bl, br, towards: c0), outside: 3, depth: 20,
                dark: dark, dashed: false, module: 3)
        else { trace?("no arm edges"); return nil }
        var module = max(1.0, (tLeft + tBottom) / 2)
        trace?("arm thickness \(tLeft) \(tBottom)")
        var leftLine = left0, bottomLine = bottom0
        // Refit the solid arms with the module known. The component holds
        // the whole arm, so its edge lies no further out than the first
        // fit: a refit further out met other ink beyond a narrow quiet
        // zone (a frame, a textured surface) and is not taken.
        func outward(_ l: DMLine, _ first: DMLine, _ a: Point, _ b: Point) -> Bool {
            max(l.distance(project(a, first)), l.distance(project(b, first))) > max(1.5, 0.25 * module)
        }
        if let (l, t) = fitEdge(
            img, bl, tl, normal: normal(bl, tl, towards: c0), outside: 1.5 * module + 2,
            depth: 3 * module + 4, dark: dark, dashed: false, module: module),
            !outward(l, left0, bl, tl)
        {
            leftLine = l; module = t
        }
        if let (l, t) = fitEdge(
            img, bl, br, normal: normal(bl, br, towards: c0), outside: 1.5 * module + 2,
            depth: 3 * module + 4, dark: dark, dashed: false, module: module),
            !outward(l, bottom0, bl, br)
        {
            bottomLine = l; module = (module + t) / 2
        }
        module = max(1.0, module)
        guard let p = leftLine.intersection(bottomLine) else { return nil }
        bl = p
        // Arm ends projected onto the lines.
        tl = project(tl, leftLine)
        br = project(br, bottomLine)
        let shorterArm = min(tl.distance(to: bl), br.distance(to: bl))
        // Video frames: arms too short for any symbol's finder. The
        // smallest symbols have sides of 8 modules (ISO/IEC 16022:2006,
        // Table 7, 8x18; ISO/IEC 21471, 8x48), and the arm's measured
        // thickness is a module widened by blur: under 4.5 of them, the
        // clock tracks' search below would find no grid (blobs, corners of
        // frames and text), at a good part of a frame's Data Matrix search.
        if !options.thorough && shorterArm < 4.5 * module {
            trace?("arms of \(tl.distance(to: bl) / module) and \(br.distance(to: bl) / module) modules: too short")
            return nil
        }
        // Perspective can move the far corner by a good part of a side.
        let reach = 0.2 * shorterArm
        // The clock tracks: the likeliest edges, then the runners-up when
        // those gave a grid close to a symbol's (the edge of a label's text
        // above the symbol taken for its clock track, say). Runners-up
        // after a grid far from any symbol's read none in still pictures
        // either, at a good part of the Data Matrix search's cost.
        bestPattern = 0
        for (k, (pt, pr)) in DMDetector.clockPicks.enumerated() {
            if k > 0 && bestPattern < DMDetector.nearlyAGrid { break }
            if let c = finishLocate(
                img, bl: bl, tl: tl, br: br, leftLine: leftLine, bottomLine: bottomLine,
                module: module, reach: reach, dark: dark, pickTop: pt, pickRight: pr)
            {
                return c
            }
        }
        return options.thorough ? fitGrid(img, bl: bl, tl: tl, br: br, dark: dark) : nil
    }

    /// How much the point looks like ink: -1 (light) ... 1 (ink), against
    /// the threshold ``isInk(_:_:dark:)`` uses; 24 grey levels from it
    /// count fully.
    @inline(__always)
    private func inkScore(_ img: LumaView, _ p: Point, dark: Bool) -> Double {
        guard p.x >= 0, p.y >= 0, p.x < Double(img.width), p.y < Double(img.height) else { return 0 }
        var th = Double(thresholds.threshold(x: Int(p.x), y: Int(p.y)))
        if let s = symbolThreshold { th = (th + s) / 2 }
        let d = (th - DMDetector.luma(img, p.x, p.y)) / 24
        return max(-1, min(1, dark ? d : -d))
    }

    /// How well the clock tracks of a `rows` by `cols` grid through `t`
    /// read (ISO/IEC 16022:2006, 5.1.1: the top row and right column
    /// alternate, ink at the finder's ends): the mean ink score of their
    /// module centres, negated where they should be light; 1 at best, about
    /// 0 for data or plain paper. The solid finder is left out: it reads
    /// alike for every size.
    private func clockScore(_ img: LumaView, _ t: PerspectiveTransform, rows: Int, cols: Int, dark: Bool) -> Double {
        let fr = Double(rows), fc = Double(cols)
        // ``inkScore(_:_:dark:)`` with what it reads from the detector held
        // here: the grid fit of still pictures scores many grids.
        let thresholds = self.thresholds, symbol = symbolThreshold
        let width = Double(img.width), height = Double(img.height)
        @inline(__always) func ink(_ p: Point) -> Double {
            guard p.x >= 0, p.y >= 0, p.x < width, p.y < height else { return 0 }
            var th = Double(thresholds.threshold(x: Int(p.x), y: Int(p.y)))
            if let s = symbol { th = (th + s) / 2 }
            let d = (th - DMDetector.luma(img, p.x, p.y)) / 24
            return max(-1, min(1, dark ? d : -d))
        }
        var sum = 0.0
        for c in 0..<cols {
            let top = ink(t.map((Double(c) + 0.5) / fc, 0.5 / fr))
            sum += c % 2 == 0 ? top : -top
        }
        for r in 0..<rows {
            let right = ink(t.map(1 - 0.5 / fc, (Double(r) + 0.5) / fr))
            sum += (rows - 1 - r) % 2 == 0 ? right : -right
        }
        return sum / Double(rows + cols)
    }

    /// Still pictures whose clock tracks' edges lead nowhere (a narrow
    /// quiet zone in clutter, faint dotted clock modules): the grid is
    /// fitted to the clock tracks themselves. For every size the finder's
    /// arms allow, the arm ends slide along the arms and the far corner
    /// moves freely, from the parallelogram the arms span, to where the
    /// clock modules read best (``clockScore(_:_:rows:cols:dark:)``); the
    /// best fitting sizes are sampled and decoded.
    private func fitGrid(_ img: LumaView, bl: Point, tl: Point, br: Point, dark: Bool) -> DMCandidate? {
        let hLen = bl.distance(to: tl), wLen = bl.distance(to: br)
        guard hLen >= Double(options.minArm), wLen >= Double(options.minArm) else { return nil }
        let ul = Point(x: (tl.x - bl.x) / hLen, y: (tl.y - bl.y) / hLen)
        let ub = Point(x: (br.x - bl.x) / wLen, y: (br.y - bl.y) / wLen)
        // Parameters: the arm ends' shifts along the arms, the far corner's
        // shift from the parallelogram.
        func corners(_ p: [Double]) -> [Point] {
            let a = Point(x: tl.x + ul.x * p[0], y: tl.y + ul.y * p[0])
            let b = Point(x: br.x + ub.x * p[1], y: br.y + ub.y * p[1])
            let c = Point(x: a.x + b.x - bl.x + p[2], y: a.y + b.y - bl.y + p[3])
            return [a, c, b, bl]
        }
        var fits: [(rows: Int, cols: Int, quad: [Point], score: Double)] = []
        var lattice = [Double](repeating: 0, count: 81)
        var climbed: [(Double, Double, Double, Double, Double)] = []
        climbed.reserveCapacity(160)
        for v in DMVersion.all {
            let shapes = v.rows == v.columns ? [(v.rows, v.columns)] : [(v.rows, v.columns), (v.columns, v.rows)]
            for (rows, cols) in shapes {
                let mr = hLen / Double(rows), mc = wLen / Double(cols)
                let m = min(mr, mc)
                guard m >= 1.2, max(mr, mc) <= 1.4 * m else { continue }
                func score(_ p: [Double]) -> Double {
                    let q = corners(p)
                    let t = PerspectiveTransform.squareToQuadrilateral(q[0], q[1], q[2], q[3])
                    return clockScore(img, t, rows: rows, cols: cols, dark: dark)
                }
                // The far corner first, on a coarse lattice of half modules.
                var p = [0.0, 0.0, 0.0, 0.0]
                var best = -Double.infinity
                for i in -4...4 {
                    for j in -4...4 {
                        let q = [0.0, 0.0, Double(i) * 0.5 * m, Double(j) * 0.5 * m]
                        let s = score(q)
                        lattice[(i + 4) * 9 + j + 4] = s
                        if s > best { best = s; p = q }
                    }
                }
                // Then all four parameters, in ever finer steps. The climb
                // comes back to grids scored already (a step undone, the
                // lattice's points): their scores are looked up, not
                // measured again (the same parameters, bit for bit).
                climbed.removeAll(keepingCapacity: true)
                func known(_ q: [Double]) -> Double? {
                    if q[0] == 0 && q[1] == 0 {
                        let i = (q[2] / (0.5 * m)).rounded(), j = (q[3] / (0.5 * m)).rounded()
                        if abs(i) <= 4 && abs(j) <= 4 && i * 0.5 * m == q[2] && j * 0.5 * m == q[3] {
                            return lattice[(Int(i) + 4) * 9 + Int(j) + 4]
                        }
                    }
                    for e in climbed where e.0 == q[0] && e.1 == q[1] && e.2 == q[2] && e.3 == q[3] { return e.4 }
                    return nil
                }
                var step = 0.5 * m
                while step >= 0.1 * m {
                    var improved = true, rounds = 0
                    while improved && rounds < 6 {
                        improved = false; rounds += 1
                        for i in 0..<4 {
                            for sign in [-1.0, 1.0] {
                                var q = p
                                q[i] += sign * step
                                let s: Double
                                if let k = known(q) {
                                    s = k
                                } else {
                                    s = score(q)
                                    climbed.append((q[0], q[1], q[2], q[3], s))
                                }
                                if s > best + 1e-9 { best = s; p = q; improved = true }
                            }
                        }
                    }
                    step /= 2
                }
                trace?("fit \(rows)x\(cols): \(best)")
                fits.append((rows, cols, corners(p), best))
            }
        }
        fits.sort { $0.score > $1.score }
        for f in fits.prefix(3) where f.score >= 0.3 {
            trace?(
                "fitted \(f.rows)x\(f.cols) \(f.quad.map { "(\(($0.x * 10).rounded() / 10),\(($0.y * 10).rounded() / 10))" })"
            )
            let module =
                (f.quad[3].distance(to: f.quad[0]) / Double(f.rows)
                    + f.quad[3].distance(to: f.quad[2]) / Double(f.cols)) / 2
            if let v = DMVersion.version(rows: f.rows, columns: f.cols),
                let c = read(img, quad: f.quad, v, mirrored: false, module: module, dark: dark)
            {
                return c
            }
            if let v = DMVersion.version(rows: f.cols, columns: f.rows),
                let c = read(img, quad: f.quad, v, mirrored: true, module: module, dark: dark)
            {
                return c
            }
        }
        return nil
    }

    /// The clock tracks, the size and the sampling, from the fitted arms.
    private func finishLocate(
        _ img: LumaView, bl: Point, tl tl0: Point, br br0: Point, leftLine: DMLine,
        bottomLine: DMLine, module: Double, reach: Double, dark: Bool,
        pickTop: Int, pickRight: Int
    ) -> DMCandidate? {
        var tl = tl0, br = br0
        var tr = Point(x: tl.x + br.x - bl.x, y: tl.y + br.y - bl.y)
        // The clock tracks: fitted twice, the second time from the corners of the first.
        var topLine = DMLine(a: 0, b: 0, c: 0), rightLine = topLine
        for round in 0..<2 {
            let c = Point(x: (tl.x + br.x) / 2, y: (tl.y + br.y) / 2)
            let outside = round == 0 ? 2 * module + 2 + reach : 2 * module + 2
            let depth = 2 * module + 2 + (round == 0 ? reach : 0)
            let anchor: Double? = round == 0 ? nil : 2 * module + 1
            guard
                let t = clockLine(
                    img, tl, tr, towards: c, outside: outside, inside: depth, dark: dark, module: module,
                    anchor: anchor, pick: round == 0 ? pickTop : 0),
                let r = clockLine(
                    img, br, tr, towards: c, outside: outside, inside: depth, dark: dark, module: module,
                    anchor: anchor, pick: round == 0 ? pickRight : 0)
            else {
                trace?("no clock edges"); return nil
            }
            topLine = t; rightLine = r
            guard let ntl = leftLine.intersection(topLine), let ntr = topLine.intersection(rightLine),
                let nbr = rightLine.intersection(bottomLine)
            else { return nil }
            tl = ntl; tr = ntr; br = nbr
        }
        // Sanity: a convex quadrilateral of reasonable size.
        let wTop = tl.distance(to: tr), wBottom = bl.distance(to: br)
        let hLeft = tl.distance(to: bl), hRight = tr.distance(to: br)
        guard wTop > 4 * module, hLeft > 4 * module, wTop < 3 * wBottom, wBottom < 3 * wTop,
            hLeft < 3 * hRight, hRight < 3 * hLeft
        else {
            trace?("bad shape \([tl, tr, br, bl]) module \(module)"); return nil
        }
        let quad = [tl, tr, br, bl]
        trace?(
            "corners \(quad.map { "(\(($0.x * 10).rounded() / 10),\(($0.y * 10).rounded() / 10))" }) module \(module)")
        // Module counts along the clock tracks.
        let transform = PerspectiveTransform.squareToQuadrilateral(tl, tr, br, bl)
        let cols0 = (wTop + wBottom) / 2 / module, rows0 = (hLeft + hRight) / 2 / module
        let cols = countClock(img, transform, top: true, across: cols0, other: rows0, dark: dark)
        let rows = countClock(img, transform, top: false, across: rows0, other: cols0, dark: dark)
        // Sizes to try: the count, then those near it and near the estimate.
        var tries: [(DMVersion, Bool)] = []
        func add(_ r: Int, _ c: Int) {
            if let v = DMVersion.version(rows: r, columns: c), !tries.contains(where: { $0.0 == v && !$0.1 }) {
                tries.append((v, false))
            }
            if let v = DMVersion.version(rows: c, columns: r), !tries.contains(where: { $0.0 == v && $0.1 }) {
                tries.append((v, true))
            }
        }
        add(rows, cols)
        // One track misread (a curved surface squeezes one axis): the square
        // sizes of either count.
        if rows != cols { add(rows, rows); add(cols, cols) }
        trace?("clock count \(rows)x\(cols), estimate \(rows0)x\(cols0)")
        if options.thorough || tries.isEmpty {
            let near = DMVersion.all.map { v -> (DMVersion, Double) in
                let d1 = abs(Double(v.rows - rows)) + abs(Double(v.columns - cols))
                let d2 = abs(Double(v.rows) - rows0) + abs(Double(v.columns) - cols0)
                return (v, min(d1, d2 * 1.5))
            }.sorted { $0.1 < $1.1 }
            for (v, d) in near.prefix(4) where d <= 6 { add(v.rows, v.columns) }
        }
        for (v, mirrored) in tries.prefix(options.thorough ? 12 : 3) {
            if let c = read(img, quad: quad, v, mirrored: mirrored, module: module, dark: dark) { return c }
        }
        return nil
    }

    /// Samples and decodes the symbol of size `v` in `quad` (top-left,
    /// top-right, bottom-right, bottom-left as seen, the finder's corner
    /// last); `mirrored` reads it transposed, as a mirror image.
    private func read(
        _ img: LumaView, quad: [Point], _ v: DMVersion, mirrored: Bool, module: Double,
        dark: Bool
    ) -> DMCandidate? {
        let tl = quad[0], tr = quad[1], br = quad[2], bl = quad[3]
        let t =
            mirrored
            ? PerspectiveTransform.squareToQuadrilateral(br, tr, tl, bl)
            : PerspectiveTransform.squareToQuadrilateral(tl, tr, br, bl)
        // Pixel thresholds first, then thresholds from the sampled grid
        // itself; for still pictures, the grid nudged by a fifth of a module.
        let shifts: [(Double, Double)] =
            options.thorough
            ? [(0, 0), (0.2, 0), (-0.2, 0), (0, 0.2), (0, -0.2), (0.2, 0.2), (-0.2, -0.2), (0.2, -0.2), (-0.2, 0.2)]
            : [(0, 0)]
        // Module centres from the clock tracks, when they read cleanly
        // (made when first wanted: most grids read or fail before).
        var gu: [Double]? = nil, gv: [Double]? = nil
        var guidesMade = false, guided = false
        var unguided = 0.0
        for (k, shift) in shifts.enumerated() {
            for method in 0..<4 {
                if method >= 2 {
                    if k == 0 && unguided < DMDetector.guideGate { return nil }
                    if !guidesMade {
                        guidesMade = true
                        gu = clockGuide(img, t, top: true, count: v.columns, other: v.rows, dark: dark)
                        gv = clockGuide(img, t, top: false, count: v.rows, other: v.columns, dark: dark)
                        if options.thorough {
                            // Tracks that do not count cleanly: the template fitted to them.
                            if gu == nil {
                                gu = elasticGuide(img, t, top: true, count: v.columns, other: v.rows, dark: dark)
                            }
                            if gv == nil {
                                gv = elasticGuide(img, t, top: false, count: v.rows, other: v.columns, dark: dark)
                            }
                        }
                        guided = gu != nil || gv != nil
                    }
                    if !guided { break }
                }
                let m = sample(
                    img, t, rows: v.rows, cols: v.columns, dark: dark, gridThreshold: method & 1 == 1,
                    du: shift.0, dv: shift.1, guides: method >= 2 ? (gu, gv) : (nil, nil))
                let score = patternScore(m)
                if method < 2 { unguided = max(unguided, score) }
                if k == 0 && method == 0 {
                    bestPattern = max(bestPattern, score)
                    trace?("try \(v.rows)x\(v.columns) mirrored \(mirrored): pattern \(score)")
                    if trace != nil {
                        for y in 0..<m.height { trace?(String((0..<m.width).map { m[$0, y] ? "#" : "." })) }
                    }
                }
                guard score >= 0.75 else { continue }
                let decoded = DMDecoder.decodeOnce(m, mirrored: mirrored)
                trace?("  shift \(shift) method \(method): \(decoded)")
                if case .success(var d) = decoded {
                    d.mirrored = mirrored
                    let corners = mirrored ? [br, tr, tl, bl] : quad
                    return DMCandidate(
                        decoded: d, corners: corners.map { Point(x: $0.x - 0.5, y: $0.y - 0.5) },
                        isInverted: !dark, moduleSize: module)
                }
            }
            // Nudging only helps a grid that is nearly right.
            if k == 0
                && patternScore(
                    sample(
                        img, t, rows: v.rows, cols: v.columns, dark: dark, gridThreshold: false,
                        du: 0, dv: 0)) < 0.85
            {
                break
            }
        }
        return nil
    }

    /// The outer edge of a clock track along `a`→`b`: fitted both from
    /// outside inwards (first ink) and from inside outwards (last ink before
    /// the quiet zone); the one along which the track alternates best.
    private func clockLine(
        _ img: LumaView, _ a: Point, _ b: Point, towards c: Point, outside: Double, inside: Double,
        dark: Bool, module: Double, anchor: Double? = nil, pick: Int = 0
    ) -> DMLine? {
        let n = normal(a, b, towards: c)
        let first = fitEdge(
            img, a, b, normal: n, outside: outside, depth: outside + inside + 2 * module,
            dark: dark, dashed: true, module: module, anchor: anchor)?.0
        let second = fitEdge(
            img, a, b, normal: n, outside: outside, depth: inside, dark: dark, dashed: true,
            module: module, outward: true, anchor: anchor)?.0
        guard let l1 = first else { return pick == 0 ? second : nil }
        guard let l2 = second else { return pick == 0 ? l1 : nil }
        if pick == 1 {
            // The runner-up, unless it is the same line.
            let mid = Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
            if abs(l1.distance(mid) - l2.distance(mid)) < 0.5 * module { return nil }
            return alternation(img, l1, a, b, module: module, dark: dark)
                >= alternation(img, l2, a, b, module: module, dark: dark) ? l2 : l1
        }
        trace?(
            "clock lines: inward \(alternation(img, l1, a, b, module: module, dark: dark)) \(l1), outward \(alternation(img, l2, a, b, module: module, dark: dark)) \(l2)"
        )
        return alternation(img, l1, a, b, module: module, dark: dark)
            >= alternation(img, l2, a, b, module: module, dark: dark) ? l1 : l2
    }

    /// How regularly the track half a module inside line `l` (between the
    /// projections of `a` and `b`) alternates: runs met per module, ideally 1.
    private func alternation(_ img: LumaView, _ l: DMLine, _ a: Point, _ b: Point, module: Double, dark: Bool) -> Double
    {
        let pa = project(a, l), pb = project(b, l)
        let len = pa.distance(to: pb)
        guard len > 2 * module else { return 0 }
        let n = max(16, min(1600, Int(len / module * 6)))
        let off = 0.5 * module
        // Runs about a module long (a clock module each); random data and
        // blank paper have few.
        let perModule = Double(n) / (len / module)
        var good = 0, current = -1, length = 0
        for k in 0...n {
            var v = -2
            if k < n {
                let f = (Double(k) + 0.5) / Double(n)
                let p = Point(x: pa.x + (pb.x - pa.x) * f + l.a * off, y: pa.y + (pb.y - pa.y) * f + l.b * off)
                v = isInk(img, p, dark: dark) ? 1 : 0
            }
            if v == current { length += 1; continue }
            let r = Double(length) / perModule
            if current >= 0 && r >= 0.5 && r <= 1.6 { good += 1 }
            current = v; length = 1
        }
        return Double(good) / (len / module)
    }

    private func project(_ p: Point, _ l: DMLine) -> Point {
        let d = l.distance(p)
        return Point(x: p.x - l.a * d, y: p.y - l.b * d)
    }

    /// Counts the modules of a clock track: twice its ink runs. The top
    /// track runs left to right half a module below the top edge; the
    /// right one bottom to top half a module inside the right edge.
    private func countClock(
        _ img: LumaView, _ t: PerspectiveTransform, top: Bool, across: Double, other: Double,
        dark: Bool
    ) -> Int {
        let n = max(16, min(2000, Int(across * 8)))
        profile.reserve(n)
        let inset = 0.5 / max(other, 1)
        for s in 0..<n {
            let f = (Double(s) + 0.5) / Double(n)
            let p = top ? t.map(f, inset) : t.map(1 - inset, 1 - f)
            profile[s] = isInk(img, p, dark: dark) ? 1 : 0
        }
        // Runs shorter than a quarter module are noise: merged into their neighbours.
        let minRun = max(1, Int(8.0 / 4))
        var runs = 0, s = 0
        var current: UInt8 = 2
        while s < n {
            var e = s
            while e < n && profile[e] == profile[s] { e += 1 }
            if e - s >= minRun && profile[s] != current {
                current = profile[s]
                if current == 1 { runs += 1 }
            }
            s = e
        }
        return 2 * runs
    }

    /// The module centres along a clock track, as fractions of the side
    /// (0 ... 1, top to bottom or left to right), from where its modules
    /// change colour: they follow curved surfaces and lens distortion that a
    /// perspective transform does not. Nil unless the track shows exactly
    /// `count` modules.
    private func clockGuide(
        _ img: LumaView, _ t: PerspectiveTransform, top: Bool, count: Int, other: Int,
        dark: Bool
    ) -> [Double]? {
        let n = max(16, min(4000, count * 8))
        profile.reserve(n)
        let inset = 0.5 / Double(max(other, 1))
        for s in 0..<n {
            let f = (Double(s) + 0.5) / Double(n)
            let p = top ? t.map(f, inset) : t.map(1 - inset, f)
            profile[s] = isInk(img, p, dark: dark) ? 1 : 0
        }
        // Runs of at least two samples; shorter ones join the run before.
        var starts: [Int] = [0]
        starts.reserveCapacity(count + 1)
        var current = profile[0]
        var s = 0
        while s < n {
            var e = s
            while e < n && profile[e] == profile[s] { e += 1 }
            if profile[s] != current && e - s >= 2 {
                starts.append(s)
                current = profile[s]
                if starts.count > count { return nil }
            }
            s = e
        }
        guard starts.count == count else { return nil }
        starts.append(n)
        return (0..<count).map { (Double(starts[$0]) + Double(starts[$0 + 1])) / 2 / Double(n) }
    }

    /// The module centres along a clock track as ``clockGuide(_:_:top:count:other:dark:)``
    /// gives them, for tracks whose runs do not count cleanly (narrowed
    /// modules merged by blur on a curved surface): the alternating
    /// template fitted to the track's grey levels (``DMClockWarp``).
    private func elasticGuide(
        _ img: LumaView, _ t: PerspectiveTransform, top: Bool, count: Int, other: Int,
        dark: Bool
    ) -> [Double]? {
        let n = count * 6
        gridLuma.reserve(n)
        let g = gridLuma.pointer
        let inset = 0.5 / Double(max(other, 1))
        for s in 0..<n {
            let f = (Double(s) + 0.5) / Double(n)
            g[s] = inkScore(img, top ? t.map(f, inset) : t.map(1 - inset, f), dark: dark)
        }
        // The top track starts with ink at the left; the right track, read
        // from the top, ends with ink at the bottom.
        let firstInk = top ? true : (count % 2 == 1)
        return DMClockWarp.centres(UnsafeBufferPointer(start: g, count: n), count: count, firstInk: firstInk)
    }

    /// Samples the module centres of a `rows` by `cols` grid.
    private func sample(
        _ img: LumaView, _ t: PerspectiveTransform, rows: Int, cols: Int, dark: Bool,
        gridThreshold: Bool, du: Double, dv: Double,
        guides: (u: [Double]?, v: [Double]?) = (nil, nil)
    ) -> BitMatrix {
        var m = BitMatrix(width: cols, height: rows)
        var us = [Double](repeating: 0, count: cols), vs = [Double](repeating: 0, count: rows)
        let fc = Double(cols), fr = Double(rows)
        for c in 0..<cols {
            let base: Double = guides.u?[c] ?? (Double(c) + 0.5) / fc
            us[c] = base + du / fc
        }
        for r in 0..<rows {
            let base: Double = guides.v?[r] ?? (Double(r) + 0.5) / fr
            vs[r] = base + dv / fr
        }
        if !gridThreshold {
            for r in 0..<rows {
                let v = vs[r]
                for c in 0..<cols {
                    let p = t.map(us[c], v)
                    if isInk(img, p, dark: dark) { m[c, r] = true }
                }
            }
            return m
        }
        // The luma of every module centre, then each compared with the
        // middle of the modules around it (7 by 7), which follows blur and
        // uneven light at the symbol's own scale.
        let n = rows * cols
        gridLuma.reserve(n)
        let g = gridLuma.pointer
        for r in 0..<rows {
            let v = vs[r]
            for c in 0..<cols {
                let p = t.map(us[c], v)
                g[r * cols + c] = DMDetector.luma(img, p.x, p.y)
            }
        }
        for r in 0..<rows {
            let r0 = max(0, r - 3), r1 = min(rows - 1, r + 3)
            for c in 0..<cols {
                let c0 = max(0, c - 3), c1 = min(cols - 1, c + 3)
                var lo = 255.0, hi = 0.0, sum = 0.0
                for rr in r0...r1 {
                    for cc in c0...c1 {
                        let x = g[rr * cols + cc]
                        lo = min(lo, x); hi = max(hi, x); sum += x
                    }
                }
                let mean = sum / Double((r1 - r0 + 1) * (c1 - c0 + 1))
                let threshold = hi - lo < 16 ? (symbolLevel ?? 128) : (mean + (lo + hi) / 2) / 2
                if (g[r * cols + c] < threshold) == dark { m[c, r] = true }
            }
        }
        return m
    }

    /// The fraction of the outer finder and clock modules that read right.
    private func patternScore(_ m: BitMatrix) -> Double {
        let w = m.width, h = m.height
        var good = 0, total = 0
        for x in 0..<w {
            if m[x, h - 1] { good += 1 }
            if m[x, 0] == (x % 2 == 0) { good += 1 }
            total += 2
        }
        for y in 0..<h {
            if m[0, y] { good += 1 }
            if m[w - 1, y] == ((h - 1 - y) % 2 == 0) { good += 1 }
            total += 2
        }
        return Double(good) / Double(max(1, total))
    }
}
