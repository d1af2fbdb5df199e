#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Connected components of ink: the places an L finder may be.
extension DMDetector {
    @inline(__always)
    func find(_ i: Int32) -> Int32 {
        let p = parent.pointer
        var x = i
        while p[Int(x)] != x {
            p[Int(x)] = p[Int(p[Int(x)])]
            x = p[Int(x)]
        }
        return x
    }

    @inline(__always)
    func union(_ a: Int32, _ b: Int32) {
        let ra = find(a), rb = find(b)
        if ra == rb { return }
        if ra < rb { parent.pointer[Int(rb)] = ra } else { parent.pointer[Int(ra)] = rb }
    }

    /// Cuts every row of `r` into runs and joins touching runs of one colour.
    func label(_ img: LumaView, _ r: PixelRect) {
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

    func grow(_ need: Int) {
        let n = max(need, rx0.capacity * 2)
        rx0.reserveKeeping(n); rx1.reserveKeeping(n); ry.reserveKeeping(n)
        rdark.reserveKeeping(n); parent.reserveKeeping(n)
    }

    /// Gathers the components of one colour worth a look: large enough,
    /// not touching every side of the region, largest first.
    func pickCandidates(_ r: PixelRect, dark: Bool) {
        let n = runCount
        nextRun.reserve(n); area.reserve(n); minX.reserve(n); maxX.reserve(n)
        minY.reserve(n); maxY.reserve(n); head.reserve(n)
        let want: UInt8 = dark ? 1 : 0
        candidateCount = 0
        // A frame of noise has runs by the ten million: the time limit is
        // looked at every 2^16 runs of each pass.
        for i in 0..<n {
            if i & 0xFFFF == 0 && stop.now { return }
            guard rdark[i] == want else { continue }
            let root = Int(find(Int32(i)))
            parent[i] = Int32(root)
            if root == i {
                area[i] = 0; minX[i] = Int32.max; maxX[i] = Int32.min; minY[i] = ry[i]; maxY[i] = ry[i]; head[i] = -1
            }
        }
        for i in 0..<n {
            if i & 0xFFFF == 0 && stop.now { return }
            guard rdark[i] == want else { continue }
            let root = Int(parent[i])
            area[root] &+= (rx1[i] - rx0[i]) &* Int32(labelStep)
            minX[root] = min(minX[root], rx0[i]); maxX[root] = max(maxX[root], rx1[i])
            minY[root] = min(minY[root], ry[i]); maxY[root] = max(maxY[root], ry[i] + Int32(labelStep))
            nextRun[i] = head[root]; head[root] = Int32(i)
        }
        let minArm = Int32(options.minArm)
        for i in 0..<n {
            if i & 0xFFFF == 0 && stop.now { candidateCount = 0; return }
            guard rdark[i] == want && parent[i] == Int32(i) else { continue }
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
}
