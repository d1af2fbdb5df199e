#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sampling the symbol's grid from the bull's-eye out, and decoding it.
extension AztecDetector {
    /// Samples the module at centred module coordinates (u, v): dark?
    @inline(__always)
    func sample(
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
    func darkness(_ image: LumaView, _ t: AztecGridMap, _ u: Double, _ v: Double, _ fixed: Float?) -> Float? {
        let p = t.map(u, v)
        guard p.x >= -0.5, p.y >= -0.5, p.x <= Double(image.width) - 0.5, p.y <= Double(image.height) - 0.5 else {
            return nil
        }
        // The block of the pixel whose centre is nearest (pixel centres at integers).
        let th = fixed ?? Float(thresholds.threshold(x: Int(p.x.rounded()), y: Int(p.y.rounded())))
        return th - AztecDetector.luma(image, p.x, p.y)
    }

    /// Samples the core, reads the mode message and then the symbol.
    func read(_ image: LumaView, _ c: Centre, _ eye: BullsEye) -> AztecSymbol? {
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

    func read(_ image: LumaView, _ c: Centre, _ eye: BullsEye, compact: Bool) -> AztecSymbol? {
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
    func sampleAndDecode(
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
    func refineWithGrid(
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
    func locateGridPoint(
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
