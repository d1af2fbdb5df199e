#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An Aztec Code symbol found in a frame and decoded.
struct AztecSymbol {
    /// What it holds.
    var decoded: AztecDecodeResult
    /// The symbol's outer corners in frame pixels: its own top-left, then
    /// top-right, bottom-right and bottom-left.
    var corners: [Point]
    /// Light modules on a dark background.
    var isInverted: Bool
    /// Estimated module size in pixels.
    var moduleSize: Double
    /// The bull's-eye centre in frame pixels.
    var centre: Point
}

/// Finds Aztec Code symbols and Aztec Runes in luma frames, samples their
/// modules and decodes them (ISO/IEC 24778:2008).
///
/// The steps follow the standard's reference decode algorithm (Annex on
/// the reference decode algorithm):
///
/// 0. ``scan(_:in:thorough:into:)`` first finds the areas with matrix-code
///    texture (``MatrixRegionDetector``); the rest runs in each of them.
/// 1. Block-adaptive thresholds for the area (``BlockThreshold``).
/// 2. Rows are cut into dark and light runs; nine runs whose inner seven
///    are of one width and symmetric about the middle one (the centre
///    module and the rings around it, 7.3.1) are a bull's-eye candidate, in
///    either polarity. A line through the centre of concentric squares
///    crosses them in that ratio at any angle, so the test holds for any
///    rotation; the same test down the column, along the row again and
///    along both diagonals confirms it. For still pictures a second form is
///    searched too, in which blur has merged the centre module into the
///    light ring around it (a three-wide light run).
/// 3. Rays from the centre in 64 directions find the edges of the rings at
///    2.5 and 3.5 modules from the centre (and at 4.5 and 5.5 in a
///    full-range bull's-eye) with sub-pixel precision; straight lines
///    fitted to each side of those squares give their corners, and the
///    corners give a perspective transform from modules to pixels.
/// 4. The rings at 5 and 6 modules tell a full-range bull's-eye (light,
///    then dark) from a compact one. The mode message ring is sampled and
///    decoded (7.3.1.1, with the orientation patterns giving rotation and
///    mirroring) and gives the symbol's size; the whole symbol is sampled
///    and decoded by ``AztecDecoder``. When that fails for a full-range
///    symbol with reference grid lines 16 modules out, the grid's
///    intersections (7.3.4) are located ring by ring and the symbol is
///    sampled again through a mesh of transforms between them
///    (``AztecGridMap``), which follows a bent or distorted symbol.
///
/// The detector owns its scratch buffers and reuses them from frame to
/// frame; the search allocates only for bull's-eye candidates it measures
/// (and symbols it samples). It is not thread-safe.
final class AztecDetector {
    /// Tunables.
    struct Options {
        /// Rows scanned for bull's-eyes: every `rowStep`-th (the centre
        /// module is one module tall; 2 suits modules of 2 pixels and more).
        var rowStep = 2
        /// The most bull's-eye candidates examined per area.
        var maxCentres = 24
        /// The least contrast of a block neighbourhood.
        var minContrast = AreaThresholds.minContrast
        /// Also look for bull's-eyes whose centre module blurred away
        /// (costlier on busy frames; on for still pictures).
        var blurredCentres = false
    }

    var options = Options()
    /// The frame's time limit and stop, checked every row, 256 runs and
    /// candidate.
    var stop = ScanStop()
    private var regionFinder = MatrixRegionDetector()
    private var thresholds = BlockThreshold()
    private var runs = ScratchBuffer<Int32>(capacity: 4096)
    /// Centres rejected on the last scanned row (``findCentres(_:_:)``).
    private var rejected = RejectedCentres()
    /// Rays' luma profiles.
    private var profile = ScratchBuffer<Float>(capacity: 1024)

    /// A bull's-eye candidate.
    struct Centre {
        var x: Double
        var y: Double
        /// Width of one ring along the row.
        var module: Double
        var inverted: Bool
        var count: Int
        /// Found with its centre module lost in blur.
        var collapsed = false
    }
    private var centres: [Centre] = []
    /// How many candidates the last scan examined.
    private(set) var lastCentreCount = 0

    init() { centres.reserveCapacity(64) }

    deinit {
        regionFinder.free(); thresholds.free(); runs.free(); rejected.free(); profile.free()
    }

    /// Finds and decodes the symbols inside `bounds` (the whole frame when
    /// nil), searching the areas of matrix-code texture; with `thorough`,
    /// every row of them, and bull's-eyes whose centre module blurred
    /// away. (A search of the whole area beyond them, once tried, read no
    /// symbol that they missed, at a third of the cost of a still
    /// picture's Aztec search.)
    /// `shared`: the frame's regions when the caller found them already
    /// (shared by the matrix readers); `prepared`, their block thresholds
    /// when the caller measured them; both only read.
    func scan(
        _ image: LumaView, in bounds: PixelRect? = nil, thorough: Bool = false,
        regions shared: MatrixRegionDetector? = nil, prepared: AreaThresholds? = nil,
        into out: inout [AztecSymbol]
    ) {
        lastCentreCount = 0
        let regions: MatrixRegionDetector
        if let shared {
            regions = shared
        } else {
            regionFinder.findAll(image, bounds: bounds)
            regions = regionFinder
        }
        let saved = options
        if thorough {
            options.rowStep = 1; options.blurredCentres = true
        } else {
            // Video frames: fewer candidates per area. Rows stay every other
            // one: a bull's-eye's centre module of two or three pixels has a
            // clean row only one in two or three, as blur greys its edges.
            options.maxCentres = min(options.maxCentres, 8)
        }
        defer { options = saved }
        for k in 0..<regions.regionCount {
            if stop.now { return }
            detect(
                image, in: regions.regions[k],
                prepared: shared != nil ? prepared?.blocks(k, area: regions.regions[k]) : nil, into: &out)
        }
    }

    /// Finds and decodes the symbols in `region` (the whole frame when nil);
    /// `prepared`: the region's block thresholds, when already measured.
    func detect(
        _ image: LumaView, in region: PixelRect? = nil, prepared: BlockThreshold? = nil,
        into out: inout [AztecSymbol]
    ) {
        let r = (region ?? PixelRect(x0: 0, y0: 0, x1: image.width, y1: image.height))
            .clipped(width: image.width, height: image.height)
        guard r.width >= 11, r.height >= 11 else { return }
        thresholds.prepare(
            image, rect: r, blockSize: AreaThresholds.blockSize(r), minContrast: options.minContrast,
            reusing: prepared)
        centres.removeAll(keepingCapacity: true)
        findCentres(image, r)
        guard !centres.isEmpty else { return }
        // Whole bull's-eyes first, those seen on most rows first.
        centres.sort { $0.collapsed != $1.collapsed ? !$0.collapsed : $0.count > $1.count }
        lastCentreCount += centres.count
        for k in 0..<min(centres.count, options.maxCentres) {
            if stop.now { return }
            let c = centres[k]
            // Inside a symbol already read?
            var seen = false
            for s in out where s.centre.distance(to: Point(x: c.x, y: c.y)) < 3 * c.module { seen = true; break }
            if seen { continue }
            if let s = read(image, c) {
                var duplicate = false
                for o in out
                where o.decoded.bytes == s.decoded.bytes && o.centre.distance(to: s.centre) < 4 * s.moduleSize {
                    duplicate = true
                }
                if !duplicate { out.append(s) }
            }
        }
    }

    // MARK: - Bull's-eye candidates

    /// The ring width if the seven inner runs (`total` pixels together)
    /// are of one width, each within half a width (and 0.75 pixel) of
    /// total / 7, and the outer two at least half of it. Integer
    /// arithmetic: it runs on every run of every scanned row.
    @inline(__always)
    private static func ringWidth(_ p: UnsafeMutablePointer<Int32>, _ total: Int32) -> Double? {
        if total < 7 { return nil }
        // 28 v >= 2 T - 21 and 28 v <= 6 T + 21.
        let lo = 2 &* total &- 21, hi = 6 &* total &+ 21
        var i = 1
        while i <= 7 {
            let v = 28 &* p[i]
            if v < lo || v > hi { return nil }
            i &+= 1
        }
        if 28 &* p[0] < lo || 28 &* p[8] < lo { return nil }
        // The rings as wide on the left as on the right (within half a
        // width and 1.5 pixels): the row passes through the centre.
        let left = p[1] &+ p[2] &+ p[3], right = p[5] &+ p[6] &+ p[7]
        if 14 &* abs(left &- right) > total &+ 21 { return nil }
        // Ring by ring too (a line through the centre of concentric
        // squares is cut symmetrically): within half a width and 1.5 pixels.
        let slack = 2 &* total &+ 42
        if 28 &* abs(p[1] &- p[7]) > slack || 28 &* abs(p[2] &- p[6]) > slack || 28 &* abs(p[3] &- p[5]) > slack {
            return nil
        }
        return Double(total) / 7
    }

    /// The ring width if seven runs are dark, light, dark, three-wide
    /// light, dark, light, dark (of either colours), the outer two at least
    /// half a width: a bull's-eye whose centre module blurred away.
    @inline(__always)
    private static func collapsedRingWidth(_ p: UnsafeMutablePointer<Int32>) -> Double? {
        let total = p[1] &+ p[2] &+ p[3] &+ p[4] &+ p[5]
        if total < 10 { return nil }
        let lo = 2 &* total &- 21, hi = 6 &* total &+ 21
        if 28 &* p[1] < lo || 28 &* p[1] > hi || 28 &* p[2] < lo || 28 &* p[2] > hi { return nil }
        if 28 &* p[4] < lo || 28 &* p[4] > hi || 28 &* p[5] < lo || 28 &* p[5] > hi { return nil }
        // The middle run: between 2 and 4 widths.
        if 7 &* p[3] < 2 &* total &- 7 || 7 &* p[3] > 4 &* total &+ 7 { return nil }
        if 28 &* p[0] < lo || 28 &* p[6] < lo { return nil }
        return Double(total) / 7
    }

    private func findCentres(_ image: LumaView, _ r: PixelRect) {
        runs.reserve(r.width + 2)
        let rp = runs.pointer
        let collapsedToo = options.blurredCentres
        // Video frames (rows scanned every other one or sparser): centres
        // rejected on the previous scanned row are not checked on the
        // next, only on the one after; stripes and woven texture repeat a
        // look-alike of the centre's runs on row after row, and each is
        // rejected the same way.
        let skipRejected = options.rowStep > 1
        rejected.start(width: r.width + 4, rows: 1)
        var y = r.y0 + options.rowStep / 2
        while y < r.y1 && !stop.now {
            var firstDark = false
            let raw = thresholds.rowRuns(image, y: y, x0: r.x0, x1: r.x1, runs: rp, firstDark: &firstDark)
            // A one-pixel run between two of four pixels or more is noise:
            // merged into them (colours keep alternating).
            var n = 0, j = 0
            while j < raw {
                if n > 0 && j + 1 < raw && rp[j] == 1 && rp[n - 1] >= 4 && rp[j + 1] >= 4 {
                    rp[n - 1] += 1 + rp[j + 1]
                    j += 2
                } else {
                    rp[n] = rp[j]
                    n += 1
                    j += 1
                }
            }
            var x = r.x0
            if n >= 9 {
                // The seven inner runs' sum, slid along the row.
                var total: Int32 = 0
                for k in 1...7 { total &+= rp[k] }
                for i in 0...(n - 9) {
                    if i & 255 == 255 && stop.now { break }
                    if i > 0 { total = total &- rp[i] &+ rp[i &+ 7] }
                    // A centre lost in blur: dark, light, dark, three-wide
                    // light, dark, light, dark (runs i + 1 ... i + 7 here).
                    if collapsedToo, let m = AztecDetector.collapsedRingWidth(rp + i + 1) {
                        var cx = x
                        for k in 0..<4 { cx += Int(rp[i + k]) }
                        let centreX = Double(cx) + Double(rp[i + 4]) / 2 - 0.5
                        let centreLight = firstDark != ((i + 4) & 1 == 0)
                        confirm(image, centreX, Double(y), m, inverted: !centreLight, r, collapsed: true)
                    }
                    if let m = AztecDetector.ringWidth(rp + i, total) {
                        var cx = x
                        for k in 0..<4 { cx += Int(rp[i + k]) }
                        let centreX = Double(cx) + Double(rp[i + 4]) / 2 - 0.5
                        // Colour of run i + 4.
                        let centreDark = firstDark == ((i + 4) & 1 == 0)
                        let seen = skipRejected && rejected.wasRejected(at: centreX)
                        if !seen && !confirm(image, centreX, Double(y), m, inverted: !centreDark, r) {
                            rejected.reject(at: centreX)
                        }
                    }
                    x += Int(rp[i])
                }
            }
            rejected.nextRow()
            y += options.rowStep
        }
    }

    /// The cross section of a bull's-eye through (x, y) along the row
    /// (`vertical` false) or the column: the centre of the middle run and
    /// the ring width, when the seven middle runs are of one width.
    private func crossSection(
        _ image: LumaView, _ x: Int, _ y: Int, vertical: Bool, inverted: Bool,
        _ m: Double, _ r: PixelRect, collapsed: Bool = false
    ) -> (centre: Double, module: Double)? {
        vertical
            ? crossSection(image, x, y, dx: 0, dy: 1, inverted: inverted, m, r, collapsed: collapsed)
            : crossSection(image, x, y, dx: 1, dy: 0, inverted: inverted, m, r, collapsed: collapsed)
    }

    /// The cross section through (x, y) along (dx, dy) (one of the axes or
    /// diagonals), in steps along it from (x, y) to the middle run's centre.
    /// With `collapsed`, the centre module is lost in blur: the middle run
    /// is light and three rings wide, and two rings follow it each way.
    private func crossSection(
        _ image: LumaView, _ x: Int, _ y: Int, dx: Int, dy: Int, inverted: Bool,
        _ m: Double, _ r: PixelRect, collapsed: Bool = false,
        runLimit givenRunLimit: Int? = nil
    ) -> (centre: Double, module: Double)? {
        guard x >= r.x0, x < r.x1, y >= r.y0, y < r.y1 else { return nil }
        @inline(__always) func inside(_ k: Int) -> Bool {
            let px = x + k * dx, py = y + k * dy
            return px >= r.x0 && px < r.x1 && py >= r.y0 && py < r.y1
        }
        @inline(__always) func dark(_ k: Int) -> Bool {
            thresholds.isDark(image, x: x + (k - origin) * dx, y: y + (k - origin) * dy) != inverted
        }
        let origin = dx == 0 ? y : x
        guard dark(origin) != collapsed else { return nil }
        let rings = collapsed ? 2 : 3
        let limit = Int(8 * m) + 4
        let runLimit = givenRunLimit ?? Int(6 * m) + 3
        // Runs each way: the centre's part, then three rings, until the
        // fourth ring starts.
        func walk(_ dir: Int) -> (centre: Int, r1: Int, r2: Int, r3: Int)? {
            var k = origin + dir, ring = 0, colour = !collapsed, steps = 0
            var lastChange = 0, colourBefore = colour
            var lengths = (0, 0, 0, 0)
            while inside(k - origin) && steps < limit {
                var d = dark(k)
                // A lone pixel of the other colour in a wide ring is noise.
                if d != colour && m >= 2.5 && inside(k + dir - origin) && dark(k + dir) == colour { d = colour }
                if d != colour {
                    ring += 1
                    colour = d
                    if ring > rings { return lengths }
                }
                // No ring of a bull's-eye is this long along the line.
                if steps - lastChange > runLimit { return nil }
                if d != colourBefore { lastChange = steps; colourBefore = d }
                switch ring {
                case 0: lengths.0 += 1
                case 1: lengths.1 += 1
                case 2: lengths.2 += 1
                default: lengths.3 += 1
                }
                k += dir
                steps += 1
            }
            return nil
        }
        guard let back = walk(-1), let fwd = walk(1) else { return nil }
        let centreLen = back.centre + fwd.centre + 1
        let total = centreLen + back.r1 + back.r2 + back.r3 + fwd.r1 + fwd.r2 + fwd.r3
        let mv = Double(total) / 7
        let lo = 0.5 * mv - 0.75, hi = 1.5 * mv + 0.75
        @inline(__always) func ok(_ v: Int) -> Bool { Double(v) >= lo && Double(v) <= hi }
        if collapsed {
            guard Double(centreLen) >= 2 * mv - 1, Double(centreLen) <= 4 * mv + 1,
                ok(back.r1), ok(back.r2), ok(fwd.r1), ok(fwd.r2)
            else { return nil }
        } else {
            guard ok(centreLen), ok(back.r1), ok(back.r2), ok(back.r3), ok(fwd.r1), ok(fwd.r2), ok(fwd.r3) else {
                return nil
            }
        }
        // Inner rings of equal width each side (the line passes the centre).
        let sideB = back.r1 + back.r2 + back.r3, sideF = fwd.r1 + fwd.r2 + fwd.r3
        guard Double(abs(sideB - sideF)) <= 0.5 * mv + 1.5 else { return nil }
        return (Double(origin - back.centre) + Double(centreLen - 1) / 2, mv)
    }

    /// Confirms a row candidate down its column, then along the row through
    /// the column's centre and down the column again, and adds or merges it.
    /// - Returns: whether it was taken for a bull's-eye's centre.
    @discardableResult
    private func confirm(
        _ image: LumaView, _ cx: Double, _ cy: Double, _ m: Double, inverted: Bool, _ r: PixelRect,
        collapsed: Bool = false
    ) -> Bool {
        @inline(__always) func px(_ v: Double) -> Int { Int(v.rounded()) }
        // Blur may lose the centre module in some directions only: either
        // form of cross section counts.
        func section(_ x: Int, _ y: Int, _ dx: Int, _ dy: Int) -> (centre: Double, module: Double)? {
            crossSection(image, x, y, dx: dx, dy: dy, inverted: inverted, m, r, collapsed: collapsed)
                ?? crossSection(image, x, y, dx: dx, dy: dy, inverted: inverted, m, r, collapsed: !collapsed)
        }
        // Under 2.5 m, the column's ring width keeps each of its runs under
        // 1.5 times it and 0.75 (crossSection's test; a collapsed centre
        // is longer): no run of a section that passes reaches 4 m + 3, so
        // the walk gives up there (stripes along the column run on).
        guard
            let v1 = crossSection(
                image, px(cx), px(cy), dx: 0, dy: 1, inverted: inverted, m, r, collapsed: collapsed,
                runLimit: collapsed ? nil : Int(4 * m) + 2),
            v1.module > 0.4 * m, v1.module < 2.5 * m
        else { return false }
        guard
            let h = section(px(cx), px(v1.centre), 1, 0),
            let v = section(px(h.centre), px(v1.centre), 0, 1)
        else { return false }
        let x = h.centre, y = v.centre
        // Both diagonals through the centre (their runs are sqrt(2) times longer at most).
        guard section(px(x), px(y), 1, 1) != nil, section(px(x), px(y), 1, -1) != nil else { return false }
        let module = (h.module + v.module) / 2
        for i in 0..<centres.count where centres[i].inverted == inverted && centres[i].collapsed == collapsed {
            let c = centres[i]
            if abs(c.x - x) < 1.5 * c.module && abs(c.y - y) < 1.5 * c.module {
                centres[i].count += 1
                return true
            }
        }
        if centres.count < 256 {
            centres.append(Centre(x: x, y: y, module: module, inverted: inverted, count: 1, collapsed: collapsed))
        }
        return true
    }

    // MARK: - Sampling

    /// Bilinear luma at a sub-pixel position (pixel centres at integers).
    @inline(__always)
    private static func luma(_ image: LumaView, _ x: Double, _ y: Double) -> Float {
        let fx = max(0, min(Double(image.width) - 1.001, x)), fy = max(0, min(Double(image.height) - 1.001, y))
        let x0 = Int(fx), y0 = Int(fy)
        let ax = Float(fx - Double(x0)), ay = Float(fy - Double(y0))
        let p: UnsafePointer<UInt8> = image.base + (y0 &* image.stride &+ x0)
        let a = Float(p[0]), b = Float(p[1])
        let c = Float(p[image.stride]), d = Float(p[image.stride + 1])
        let top: Float = a + (b - a) * ax
        let bottom: Float = c + (d - c) * ax
        return top + (bottom - top) * ay
    }

    /// Reads one candidate.
    private func read(_ image: LumaView, _ c0: Centre) -> AztecSymbol? {
        var c = c0
        // Measure again from the fitted centre when the first one was off.
        if let first = measure(image, c) {
            let p = first.transform.map(0, 0)
            if p.distance(to: Point(x: c.x, y: c.y)) > 0.25 * first.module {
                c.x = p.x; c.y = p.y
            } else {
                return read(image, c, first)
            }
        }
        guard let eye = measure(image, c) else { return nil }
        return read(image, c, eye)
    }

    /// The bull's-eye as measured: a transform from module coordinates
    /// (centre module at (0, 0)) to pixels, and the threshold.
    struct BullsEye {
        var transform: PerspectiveTransform
        /// Fitted to the edges out to 5.5 modules too, when the bull's-eye
        /// has them (full-range).
        var fullTransform: PerspectiveTransform?
        var threshold: Float
        var module: Double
    }

    /// Casts rays from the centre and fits the squares of the ring edges at
    /// 2.5 and 3.5 modules.
    private func measure(_ image: LumaView, _ c: Centre) -> BullsEye? {
        let rayCount = 64
        let reach = 9 * c.module + 3
        let step = max(0.2, min(0.5, c.module / 6))
        let samples = Int(reach / step) + 1
        profile.reserve(samples)
        let pp = profile.pointer
        // The threshold: the two-class mean of samples along a few rays.
        var sum: Float = 0, n: Float = 0
        for k in 0..<8 {
            let a = Double(k) * Double.pi / 4 + 0.3
            let dx = cos(a), dy = sin(a)
            var t = 0.0
            while t < 3.5 * c.module {
                sum += AztecDetector.luma(image, c.x + dx * t, c.y + dy * t)
                n += 1
                t += step
            }
        }
        guard n > 0 else { return nil }
        let mean = sum / n
        var lo: Float = 0, ln: Float = 0, hi: Float = 0, hn: Float = 0
        for k in 0..<8 {
            let a = Double(k) * Double.pi / 4 + 0.3
            let dx = cos(a), dy = sin(a)
            var t = 0.0
            while t < 3.5 * c.module {
                let v = AztecDetector.luma(image, c.x + dx * t, c.y + dy * t)
                if v < mean { lo += v; ln += 1 } else { hi += v; hn += 1 }
                t += step
            }
        }
        guard ln > 0, hn > 0 else { return nil }
        let darkLevel = lo / ln, lightLevel = hi / hn
        guard lightLevel - darkLevel >= 15 else { return nil }
        let threshold = (darkLevel + lightLevel) / 2
        let hysteresis = (lightLevel - darkLevel) * 0.12

        var edges3: [Point] = [], edges4: [Point] = [], edges5: [Point] = [], edges6: [Point] = []
        edges3.reserveCapacity(rayCount); edges4.reserveCapacity(rayCount)
        /// Casts ray `k`; stores its edges when `store`. Whether it crossed the rings as expected.
        func castRay(_ k: Int, store: Bool) -> Bool {
            let a = Double(k) * 2 * Double.pi / Double(rayCount)
            let dx = cos(a), dy = sin(a)
            for s in 0..<samples {
                var v = AztecDetector.luma(image, c.x + dx * Double(s) * step, c.y + dy * Double(s) * step)
                if c.inverted { v = 255 - v }
                pp[s] = v
            }
            let t = c.inverted ? 255 - threshold : threshold
            // Crossings of the threshold, with hysteresis.
            var dark = pp[0] < t
            var crossings = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
            var found = 0
            // A centre module lost in blur: the first edge is the one at 1.5.
            if !dark { found = 1 }
            var lastCross = 0.0
            for s in 1..<samples {
                let v = pp[s], u = pp[s - 1]
                if (u < t) != (v < t) {
                    // Where the profile crosses t between s-1 and s.
                    let f = Double((t - u) / (v - u))
                    lastCross = (Double(s - 1) + f) * step
                }
                let nowDark = dark ? v < t + hysteresis : v < t - hysteresis
                if nowDark != dark {
                    dark = nowDark
                    switch found {
                    case 0: crossings.0 = lastCross
                    case 1: crossings.1 = lastCross
                    case 2: crossings.2 = lastCross
                    case 3: crossings.3 = lastCross
                    case 4: crossings.4 = lastCross
                    default: crossings.5 = lastCross
                    }
                    found += 1
                    if found == 6 { break }
                }
            }
            guard found >= 4 else { return false }
            // Edges at 0.5, 1.5, 2.5, 3.5 modules: roughly evenly spaced.
            let unit = crossings.3 / 3.5
            guard unit > 0.3,
                abs(crossings.1 - 1.5 * unit) < 0.6 * unit,
                abs(crossings.2 - 2.5 * unit) < 0.6 * unit
            else { return false }
            if !store { return true }
            edges3.append(Point(x: c.x + dx * crossings.2, y: c.y + dy * crossings.2))
            edges4.append(Point(x: c.x + dx * crossings.3, y: c.y + dy * crossings.3))
            // A full-range bull's-eye's next two edges, at 4.5 and 5.5.
            if found == 6 && abs(crossings.4 - 4.5 * unit) < 0.6 * unit && abs(crossings.5 - 5.5 * unit) < 0.6 * unit {
                edges5.append(Point(x: c.x + dx * crossings.4, y: c.y + dy * crossings.4))
                edges6.append(Point(x: c.x + dx * crossings.5, y: c.y + dy * crossings.5))
            }
            return true
        }
        // Eight rays first: most look-alikes end here.
        var good = 0
        for k in stride(from: 4, to: rayCount, by: rayCount / 8) where castRay(k, store: false) { good += 1 }
        guard good >= 3 else { return nil }
        for k in 0..<rayCount { _ = castRay(k, store: true) }
        let centre = Point(x: c.x, y: c.y)
        guard edges4.count >= rayCount / 2,
            let q4 = AztecDetector.fitQuad(edges4, centre),
            let q3 = AztecDetector.fitQuad(edges3, centre)
        else { return nil }
        var from: [Point] = [], to: [Point] = []
        guard AztecDetector.addCorners(q4, 3.5, q4, centre, &from, &to),
            AztecDetector.addCorners(q3, 2.5, q4, centre, &from, &to)
        else { return nil }
        var full: PerspectiveTransform? = nil
        if edges6.count >= rayCount / 2, let q5 = AztecDetector.fitQuad(edges5, centre),
            let q6 = AztecDetector.fitQuad(edges6, centre)
        {
            var f2 = from, t2 = to
            if AztecDetector.addCorners(q5, 4.5, q4, centre, &f2, &t2),
                AztecDetector.addCorners(q6, 5.5, q4, centre, &f2, &t2)
            {
                full = PerspectiveTransform.fitting(from: f2, to: t2)
            }
        }
        guard let transform = PerspectiveTransform.fitting(from: from, to: to) else { return nil }
        let side =
            (q4[0].distance(to: q4[1]) + q4[1].distance(to: q4[2]) + q4[2].distance(to: q4[3])
                + q4[3].distance(to: q4[0])) / 28
        return BullsEye(transform: transform, fullTransform: full, threshold: threshold, module: side)
    }

    /// Adds the corners of `quad`, a square of half-side `half` modules, to
    /// the point pairs, each paired with the corner of `reference` (the
    /// 3.5 square, whose corners fix the module axes) nearest in direction.
    private static func addCorners(
        _ quad: [Point], _ half: Double, _ reference: [Point], _ c: Point,
        _ from: inout [Point], _ to: inout [Point]
    ) -> Bool {
        let unit = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        for i in 0..<4 {
            let a = atan2(reference[i].y - c.y, reference[i].x - c.x)
            var best = 0, bestD = 10.0
            for j in 0..<4 {
                var d = abs(atan2(quad[j].y - c.y, quad[j].x - c.x) - a)
                if d > Double.pi { d = 2 * Double.pi - d }
                if d < bestD { bestD = d; best = j }
            }
            guard bestD < 0.5 else { return false }
            from.append(Point(x: half * unit[i].0, y: half * unit[i].1)); to.append(quad[best])
        }
        return true
    }

    /// The corners, clockwise on screen, of the quadrilateral whose edge
    /// points (ordered by angle around `centre`) are given: first the
    /// extreme points, then lines fitted to the points of each side.
    static func fitQuad(_ pts: [Point], _ centre: Point) -> [Point]? {
        let n = pts.count
        guard n >= 12 else { return nil }
        var ia = 0, best = -1.0
        for i in 0..<n { let d = pts[i].distance(to: centre); if d > best { best = d; ia = i } }
        var ic = 0
        best = -1
        for i in 0..<n { let d = pts[i].distance(to: pts[ia]); if d > best { best = d; ic = i } }
        let ax = pts[ic].x - pts[ia].x, ay = pts[ic].y - pts[ia].y
        var ib = -1, id = -1, bestB = 0.0, bestD = 0.0
        for i in 0..<n {
            let cross = ax * (pts[i].y - pts[ia].y) - ay * (pts[i].x - pts[ia].x)
            if cross > bestB { bestB = cross; ib = i }
            if cross < bestD { bestD = cross; id = i }
        }
        guard ib >= 0, id >= 0 else { return nil }
        // Sides lie between consecutive corners in ray order.
        let corners = [ia, ib, ic, id].sorted()
        guard Set(corners).count == 4 else { return nil }
        var lines: [(Point, Point)] = []  // point and direction
        for s in 0..<4 {
            let i0 = corners[s], i1 = corners[(s + 1) % 4]
            let p0 = pts[i0], p1 = pts[i1]
            let length = p0.distance(to: p1)
            guard length > 1 else { return nil }
            var sx = 0.0, sy = 0.0, cnt = 0.0
            var chosen: [Point] = []
            var i = (i0 + 1) % n
            while i != i1 {
                let p = pts[i]
                if p.distance(to: p0) > 0.2 * length && p.distance(to: p1) > 0.2 * length {
                    chosen.append(p); sx += p.x; sy += p.y; cnt += 1
                }
                i = (i + 1) % n
            }
            if cnt < 3 {
                lines.append((p0, Point(x: p1.x - p0.x, y: p1.y - p0.y)))
                continue
            }
            let mx = sx / cnt, my = sy / cnt
            var sxx = 0.0, syy = 0.0, sxy = 0.0
            for p in chosen {
                sxx += (p.x - mx) * (p.x - mx); syy += (p.y - my) * (p.y - my); sxy += (p.x - mx) * (p.y - my)
            }
            let angle = 0.5 * atan2(2 * sxy, sxx - syy)
            var d = Point(x: cos(angle), y: sin(angle))
            // Keep the direction close to the corner-to-corner chord.
            let chord = Point(x: (p1.x - p0.x) / length, y: (p1.y - p0.y) / length)
            if d.x * chord.x + d.y * chord.y < 0 { d = Point(x: -d.x, y: -d.y) }
            guard d.x * chord.x + d.y * chord.y > 0.9 else {
                lines.append((p0, Point(x: p1.x - p0.x, y: p1.y - p0.y)))
                continue
            }
            lines.append((Point(x: mx, y: my), d))
        }
        var out: [Point] = []
        for s in 0..<4 {
            // Corner s+1 is where side s meets side s+1.
            let (p, d) = lines[s], (q, e) = lines[(s + 1) % 4]
            let den = d.x * e.y - d.y * e.x
            guard abs(den) > 1e-9 else { return nil }
            let t = ((q.x - p.x) * e.y - (q.y - p.y) * e.x) / den
            out.append(Point(x: p.x + t * d.x, y: p.y + t * d.y))
        }
        // out[s] is the corner after side s: rotate so that out[0] is the corner at corners[0].
        return [out[3], out[0], out[1], out[2]]
    }

    /// Samples the module at centred module coordinates (u, v): dark?
    @inline(__always)
    private func sample(
        _ image: LumaView, _ t: AztecGridMap, _ u: Double, _ v: Double, _ inverted: Bool,
        _ fixed: Float?
    ) -> Bool {
        guard let d = darkness(image, t, u, v, fixed) else { return false }
        return inverted ? d <= 0 : d > 0
    }

    /// How much darker than the threshold (`fixed`, or the block
    /// threshold there) the picture is at centred module coordinates
    /// (u, v); nil outside the frame.
    @inline(__always)
    private func darkness(_ image: LumaView, _ t: AztecGridMap, _ u: Double, _ v: Double, _ fixed: Float?) -> Float? {
        let p = t.map(u, v)
        guard p.x >= -0.5, p.y >= -0.5, p.x <= Double(image.width) - 0.5, p.y <= Double(image.height) - 0.5 else {
            return nil
        }
        // The block of the pixel whose centre is nearest (pixel centres at integers).
        let th = fixed ?? Float(thresholds.threshold(x: Int(p.x.rounded()), y: Int(p.y.rounded())))
        return th - AztecDetector.luma(image, p.x, p.y)
    }

    /// Samples the core, reads the mode message and then the symbol.
    private func read(_ image: LumaView, _ c: Centre, _ eye: BullsEye) -> AztecSymbol? {
        let t = AztecGridMap(eye.transform)
        // Compact or full-range: rings at radius 5 (light) and 6 (dark).
        var light5 = 0, dark6 = 0
        for k in -5...5 {
            for (u, v) in [(k, -5), (k, 5), (-5, k), (5, k)]
            where !sample(image, t, Double(u), Double(v), c.inverted, eye.threshold) {
                light5 += 1
            }
        }
        for k in -6...6 {
            for (u, v) in [(k, -6), (k, 6), (-6, k), (6, k)]
            where sample(image, t, Double(u), Double(v), c.inverted, eye.threshold) {
                dark6 += 1
            }
        }
        let fullLikely = light5 >= 36 && dark6 >= 42
        for compact in fullLikely ? [false, true] : [true] {
            if let s = read(image, c, eye, compact: compact) { return s }
        }
        return nil
    }

    private func read(_ image: LumaView, _ c: Centre, _ eye: BullsEye, compact: Bool) -> AztecSymbol? {
        let t = AztecGridMap(compact ? eye.transform : eye.fullTransform ?? eye.transform)
        let radius = compact ? 5 : 7
        let coreSize = 2 * radius + 1
        var core = BitMatrix(size: coreSize)
        for y in 0..<coreSize {
            for x in 0..<coreSize
            where sample(image, t, Double(x - radius), Double(y - radius), c.inverted, eye.threshold) {
                core[x, y] = true
            }
        }
        let coreLayout = AztecLayout(compact: compact, layers: 0)
        for o in AztecDecoder.orientation(core, radius: radius) where o.misses <= 2 {
            let view = AztecDecoder.View(matrix: core, rotation: o.rotation, mirrored: o.mirrored)
            var bits: UInt64 = 0
            for (dx, dy) in coreLayout.modeMessageOffsets {
                bits = bits << 1 | (view[radius + dx, radius + dy] ? 1 : 0)
            }
            guard let mode = AztecModeMessage.decode(bits: bits, compact: compact, runeAllowed: compact) else {
                continue
            }
            let layout = AztecLayout(compact: compact, layers: mode.runeValue != nil ? 0 : mode.layers)
            // The transform of the full bull's-eye first, then that of
            // its inner rings; then each refitted to the reference grid.
            var transforms = [t]
            if !compact && eye.fullTransform != nil { transforms.append(AztecGridMap(eye.transform)) }
            for tr in transforms {
                if let s = sampleAndDecode(image, c, eye, tr, layout) { return s }
            }
            if !compact && layout.size / 2 >= 16 {
                for tr in transforms {
                    if let refined = refineWithGrid(image, c, tr, layout),
                        let s = sampleAndDecode(image, c, eye, refined, layout)
                    {
                        return s
                    }
                }
            }
            return nil
        }
        return nil
    }

    /// Samples the whole symbol through `t` and decodes it.
    private func sampleAndDecode(
        _ image: LumaView, _ c: Centre, _ eye: BullsEye, _ t: AztecGridMap,
        _ layout: AztecLayout
    ) -> AztecSymbol? {
        let size = layout.size, half = size / 2
        // The symbol must lie in the frame (a little slack for a cut quiet zone).
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for (u, v) in [(-half, -half), (half, -half), (half, half), (-half, half)] {
            let p = t.map(Double(u), Double(v))
            guard p.x > -eye.module, p.y > -eye.module, p.x < Double(image.width) + eye.module,
                p.y < Double(image.height) + eye.module
            else { return nil }
            x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y)
        }
        let useBlocks = size > 15
        // The thresholds must cover the whole symbol, which may reach past
        // the textured area they were prepared for.
        let tr = thresholds.rect
        let need = PixelRect(
            x0: max(0, Int(x0 - eye.module) - 1), y0: max(0, Int(y0 - eye.module) - 1),
            x1: min(image.width, Int(x1 + eye.module) + 2), y1: min(image.height, Int(y1 + eye.module) + 2))
        if useBlocks && (need.x0 < tr.x0 || need.y0 < tr.y0 || need.x1 > tr.x1 || need.y1 > tr.y1) {
            let union = PixelRect(
                x0: min(need.x0, tr.x0), y0: min(need.y0, tr.y0),
                x1: max(need.x1, tr.x1), y1: max(need.y1, tr.y1))
            thresholds.prepare(image, rect: union, blockSize: thresholds.blockSize, minContrast: options.minContrast)
        }
        var m = BitMatrix(size: size)
        for y in 0..<size {
            for x in 0..<size
            where sample(
                image, t, Double(x - half), Double(y - half), c.inverted,
                useBlocks ? nil : eye.threshold)
            {
                m[x, y] = true
            }
        }
        // Modules outside the frame (a symbol cut by the picture's edge).
        var outside: BitMatrix? = nil
        for (u, v) in [(-half, -half), (half, -half), (half, half), (-half, half)] {
            let p = t.map(Double(u), Double(v))
            if p.x < -0.5 || p.y < -0.5 || p.x > Double(image.width) - 0.5 || p.y > Double(image.height) - 0.5 {
                var mask = BitMatrix(size: size)
                for y in 0..<size {
                    for x in 0..<size {
                        let q = t.map(Double(x - half), Double(y - half))
                        if q.x < -0.5 || q.y < -0.5 || q.x > Double(image.width) - 0.5
                            || q.y > Double(image.height) - 0.5
                        {
                            mask[x, y] = true
                        }
                    }
                }
                outside = mask
                break
            }
        }
        var decoded = AztecDecoder.decode(m, unreliable: outside)
        if decoded == nil && useBlocks {
            // The bull's-eye's own threshold (even light, fine modules).
            for y in 0..<size {
                for x in 0..<size {
                    m[x, y] = sample(image, t, Double(x - half), Double(y - half), c.inverted, eye.threshold)
                }
            }
            decoded = AztecDecoder.decode(m, unreliable: outside)
        }
        guard let d = decoded else { return nil }
        // The symbol's own corners, through its orientation in the matrix.
        let nn = Double(size)
        var corners: [Point] = []
        for (u0, v0) in [(0.0, 0.0), (nn, 0.0), (nn, nn), (0.0, nn)] {
            var u = u0, v = v0
            if d.mirrored { swap(&u, &v) }
            let mu: Double, mv: Double
            switch d.rotation & 3 {
            case 0: (mu, mv) = (u, v)
            case 1: (mu, mv) = (nn - v, u)
            case 2: (mu, mv) = (nn - u, nn - v)
            default: (mu, mv) = (v, nn - u)
            }
            corners.append(t.map(mu - nn / 2, mv - nn / 2))
        }
        let centre = t.map(0, 0)
        return AztecSymbol(decoded: d, corners: corners, isInverted: c.inverted, moduleSize: eye.module, centre: centre)
    }

    /// Refits the transform of a full-range symbol to its reference grid
    /// (7.3.4): each grid line's modules alternate, so along the line the
    /// sampled colours alternate; the line is searched within half a module
    /// of where the bull's-eye puts it, ring by ring outwards, each ring's
    /// refit transform predicting the next.
    private func refineWithGrid(
        _ image: LumaView, _ c: Centre, _ start: AztecGridMap,
        _ layout: AztecLayout
    ) -> AztecGridMap? {
        var t = start
        let half = layout.size / 2, g = half / 16
        guard g >= 1 else { return nil }
        var from: [Point] = [], to: [Point] = []
        // The bull's-eye's own squares first.
        for (u, v) in [
            (-3.5, -3.5), (3.5, -3.5), (3.5, 3.5), (-3.5, 3.5), (-2.5, -2.5), (2.5, -2.5), (2.5, 2.5), (-2.5, 2.5)
        ] {
            from.append(Point(x: u, y: v)); to.append(start.map(u, v))
        }
        // Located intersections, by grid index; nil where not found.
        let side = 2 * g + 1
        var located = [Point?](repeating: nil, count: side * side)
        located[g * side + g] = start.map(0, 0)
        for ring in 1...g {
            var added = 0
            for j in -ring...ring {
                for i in -ring...ring where max(abs(i), abs(j)) == ring {
                    if let p = locateGridPoint(image, c, t, 16 * i, 16 * j, half) {
                        from.append(Point(x: Double(16 * i), y: Double(16 * j))); to.append(p)
                        located[(j + g) * side + i + g] = p
                        added += 1
                    }
                }
            }
            if added >= 4, let f = PerspectiveTransform.fitting(from: from, to: to) { t = AztecGridMap(f) }
        }
        guard from.count > 8 else { return nil }
        // A mesh of cells between the intersections follows a bent or
        // distorted symbol; intersections not found come from the fit.
        var cells: [PerspectiveTransform] = []
        cells.reserveCapacity(4 * g * g)
        func corner(_ i: Int, _ j: Int) -> Point {
            located[(j + g) * side + i + g] ?? t.map(Double(16 * i), Double(16 * j))
        }
        for j in -g..<g {
            for i in -g..<g {
                let u0 = Double(16 * i), v0 = Double(16 * j), u1 = u0 + 16, v1 = v0 + 16
                cells.append(
                    PerspectiveTransform.quadrilateralToQuadrilateral(
                        from: Point(x: u0, y: v0), Point(x: u1, y: v0), Point(x: u1, y: v1), Point(x: u0, y: v1),
                        to: corner(i, j), corner(i + 1, j), corner(i + 1, j + 1), corner(i, j + 1)))
            }
        }
        var mesh = t
        mesh.cells = cells
        mesh.lines = g
        return mesh
    }

    /// Where the grid intersection at module (u, v) lies: the offset within
    /// ±1 module at which the modules along both its grid lines are
    /// farthest on the expected side of the threshold (summed over the
    /// line, so the estimate does not favour any direction), as long as at
    /// least four in five of them have the expected colour there.
    private func locateGridPoint(
        _ image: LumaView, _ c: Centre, _ t: AztecGridMap, _ u: Int, _ v: Int,
        _ half: Int
    ) -> Point? {
        var bestMargin = -Float.infinity, bestScore = 0, bestDu = 0.0, bestDv = 0.0, possible = 0
        let reach = 5
        for a in -4...4 {
            for b in -4...4 {
                let du = Double(a) * 0.25, dv = Double(b) * 0.25
                var score = 0, margin: Float = 0
                possible = 0
                @inline(__always) func check(_ x: Double, _ y: Double, _ expectDark: Bool) {
                    possible += 1
                    // Outside the frame: light, on neither side.
                    guard let d = darkness(image, t, x, y, nil) else {
                        if !expectDark { score += 1 }
                        return
                    }
                    if (c.inverted ? d <= 0 : d > 0) == expectDark { score += 1 }
                    let signed = c.inverted ? -d : d
                    margin += expectDark ? signed : -signed
                }
                for k in -reach...reach {
                    // Along the horizontal line (v fixed) and the vertical one (u fixed).
                    let expect = k & 1 == 0
                    if abs(u + k) <= half { check(Double(u + k) + du, Double(v) + dv, expect) }
                    if abs(v + k) <= half { check(Double(u) + du, Double(v + k) + dv, expect) }
                }
                if margin > bestMargin { bestMargin = margin; bestScore = score; bestDu = du; bestDv = dv }
            }
        }
        guard bestScore * 10 >= possible * 8 else { return nil }
        return t.map(Double(u) + bestDu, Double(v) + bestDv)
    }
}

/// Module coordinates (centre module at (0, 0)) to frame pixels: one
/// perspective transform, or a mesh of them between the reference grid's
/// intersections (ISO/IEC 24778:2008, 7.3.4), each 16 by 16 modules, the
/// outer ones extended to the symbol's edge.
struct AztecGridMap {
    var global: PerspectiveTransform
    /// (2 lines) x (2 lines) cells, row by row from the top-left; empty for
    /// a single transform.
    var cells: [PerspectiveTransform] = []
    /// Grid lines each way from the centre.
    var lines = 0

    init(_ t: PerspectiveTransform) { global = t }

    @inline(__always)
    func map(_ u: Double, _ v: Double) -> Point {
        if cells.isEmpty { return global.map(u, v) }
        let i = max(-lines, min(lines - 1, Int((u / 16).rounded(.down))))
        let j = max(-lines, min(lines - 1, Int((v / 16).rounded(.down))))
        return cells[(j + lines) * 2 * lines + i + lines].map(u, v)
    }
}
