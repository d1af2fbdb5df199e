#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bull's-eye candidates: centres of concentric rings along rows and columns.
extension AztecDetector {
    /// The ring width if the seven inner runs (`total` pixels together)
    /// are of one width, each within half a width (and 0.75 pixel) of
    /// total / 7, and the outer two at least half of it. Integer
    /// arithmetic: it runs on every run of every scanned row.
    @inline(__always)
    static func ringWidth(_ p: UnsafeMutablePointer<Int32>, _ total: Int32) -> Double? {
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
    static func collapsedRingWidth(_ p: UnsafeMutablePointer<Int32>) -> Double? {
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

    func findCentres(_ image: LumaView, _ r: PixelRect) {
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
    func crossSection(
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
    func crossSection(
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
    func confirm(
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
}
