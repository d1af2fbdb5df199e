#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The gradient structure tensors of a frame's square cells, as
/// ``RegionDetector/measure(_:cellSize:x0:y0:x1:y1:flatBelow:)`` left them:
/// for cell `i = cy * cols + cx` (pixels `cx * cellSize ..< (cx + 1) *
/// cellSize` across, likewise down), the means of gx², gy² and gx·gy.
/// Cells that were not measured (flat, or outside the measured rectangle)
/// hold zeros. Valid until the detector measures again.
struct CellTensors {
    let cellSize: Int
    let cols: Int
    let rows: Int
    let sxx: UnsafePointer<Float>
    let syy: UnsafePointer<Float>
    let sxy: UnsafePointer<Float>
    /// Cells to pass over as if they held no bars (nonzero: the bars of a
    /// code already read), one a cell; nil: none.
    var excluded: UnsafePointer<UInt8>? = nil
}

extension CellTensors {
    /// The part of `line` that crosses bars
    /// (``barsCrossed(by:minEnergy:dominance:maxAngle:)``), with
    /// `marginCells` cells or `marginShare` of its length, whichever is
    /// more, of what lies either side (quiet zones, and bars the cells do
    /// not show); nil when the line crosses fewer than `minCells` cells
    /// of bars. Also how many it crosses.
    func partOverBars(
        _ line: ScanLine, minCells: Int, minEnergy: Float, dominance: Float,
        maxAngle: Double = .pi / 2, marginCells: Int = 2,
        marginShare: Double = 0.25
    ) -> (line: ScanLine, cells: Int)? {
        let crossing = barsCrossed(by: line, minEnergy: minEnergy, dominance: dominance, maxAngle: maxAngle)
        guard crossing.cells >= max(1, minCells) else { return nil }
        let norm = line.stepLength
        guard
            let part = line.part(
                over: crossing, margin: Double(marginCells * cellSize) / norm,
                share: marginShare)
        else { return nil }
        return (part, crossing.cells)
    }

    /// Calls `body` with each part of `line` that runs through no
    /// ``excluded`` cell (the whole line when none is), in order; parts
    /// under 20 samples are left out.
    func openParts(of line: ScanLine, _ body: (ScanLine) -> Void) {
        guard let excluded, cols > 0, rows > 0 else { return body(line) }
        let norm = line.stepLength
        guard norm > 0 else { return }
        // Every sample's cell, walked a quarter of a cell at a time.
        let stepT = max(1, (Double(cellSize) / (4 * norm)).rounded(.down))
        var start: Double? = nil
        var t = 0.0
        let end = Double(line.length)
        func close(_ stop: Double) {
            if let s = start, stop - s >= 20 {
                body(ScanLine(origin: line.point(at: s), dx: line.dx, dy: line.dy, length: Int(stop - s)))
            }
            start = nil
        }
        while t < end {
            let p = line.point(at: t)
            let cx = Int(p.x) / cellSize, cy = Int(p.y) / cellSize
            let shut = cx >= 0 && cy >= 0 && cx < cols && cy < rows && excluded[cy * cols + cx] != 0
            if shut { close(t) } else if start == nil { start = t }
            t += stepT
        }
        close(end)
    }

    /// Which cells along `line` hold bars that it crosses: cells where
    /// the mean squared gradient along the line is `minEnergy` or more and
    /// `dominance` times that across it or more (bars square to the line
    /// and turned by up to atan(1 / sqrt(dominance)) from square; the rows
    /// of a stacked symbol add gradients across the line, so these want a
    /// low `dominance`), and whose main gradient direction lies within
    /// `maxAngle` radians of the line's.
    func barsCrossed(by line: ScanLine, minEnergy: Float, dominance: Float, maxAngle: Double = .pi / 2) -> BarCrossing {
        var crossing = BarCrossing(cells: 0, first: 0, last: 0)
        guard cols > 0, rows > 0, line.length > 0 else { return crossing }
        let norm = line.stepLength
        guard norm > 0 else { return crossing }
        let ux = Float(line.dx / norm), uy = Float(line.dy / norm)
        let uxx = ux * ux, uyy = uy * uy, uxy = 2 * ux * uy
        // cos and sin of twice the line's direction, and the least cosine
        // of twice the angle between it and a cell's main direction.
        let c2 = uxx - uyy, s2 = uxy
        let limit = maxAngle >= .pi / 2 ? -2 : Float(cos(2 * maxAngle))
        let samplesPerHalfCell = Double(cellSize) / (2 * norm)
        var last = -1
        var t = 0.0
        let end = Double(line.length - 1)
        while t <= end {
            let p = line.point(at: t)
            let here = t
            t += samplesPerHalfCell
            let cx = Int(p.x) / cellSize, cy = Int(p.y) / cellSize
            guard cx >= 0, cy >= 0, cx < cols, cy < rows else { continue }
            let i = cy * cols + cx
            if i == last { continue }
            last = i
            if let excluded, excluded[i] != 0 { continue }
            let a = sxx[i], b = syy[i], c = sxy[i]
            let along = uxx * a + uyy * b + uxy * c
            let across = uyy * a + uxx * b - uxy * c
            guard along >= minEnergy, along >= dominance * across else { continue }
            if limit > -2 {
                let d = a - b, r = (d * d + 4 * c * c).squareRoot()
                guard r > 0, c2 * d + s2 * 2 * c >= limit * r else { continue }
            }
            if crossing.cells == 0 { crossing.first = max(0, here - 2 * samplesPerHalfCell) }
            crossing.last = min(end, here + 2 * samplesPerHalfCell)
            crossing.cells += 1
        }
        return crossing
    }
}

extension CellTensors {
    /// How far bars parallel to each other reach from `center` in the
    /// direction (`ux`, `uy`) (a unit vector across them): walks out from
    /// `start` pixels half a cell at a time, through cells whose gradient
    /// along the direction is `minEnergy` or more, `dominance` times that
    /// across it, and whose main direction lies within `maxAngle` radians
    /// of it, and stops after `maxGap` cells without any (the flat inside
    /// of a wide bar leaves such cells between bar cells), at the frame's
    /// edge, or at `limit` pixels.
    /// - Returns: the distance of the farthest bar cell reached, a cell's
    ///   width past where the walk saw it; `start` when none.
    func barsReach(
        from center: Point, ux: Double, uy: Double, start: Double, minEnergy: Float, dominance: Float,
        maxAngle: Double, maxGap: Int, limit: Double
    ) -> Double {
        guard cols > 0, rows > 0 else { return start }
        let fx = Float(ux), fy = Float(uy)
        let uxx = fx * fx, uyy = fy * fy, uxy = 2 * fx * fy
        let c2 = uxx - uyy, s2 = uxy
        let cosLimit = Float(cos(2 * min(maxAngle, .pi / 2)))
        let stepT = Double(cellSize) / 2
        var reach = start
        var t = start
        var last = -1
        var gapCells = 0
        while t <= limit {
            let x = center.x + t * ux, y = center.y + t * uy
            guard x >= 0, y >= 0 else { break }
            let cx = Int(x) / cellSize, cy = Int(y) / cellSize
            guard cx < cols, cy < rows else { break }
            let i = cy * cols + cx
            if i != last {
                last = i
                let a = sxx[i], b = syy[i], c = sxy[i]
                let along = uxx * a + uyy * b + uxy * c
                let across = uyy * a + uxx * b - uxy * c
                let d = a - b, r = (d * d + 4 * c * c).squareRoot()
                if along >= minEnergy && along >= dominance * across && r > 0 && c2 * d + s2 * 2 * c >= cosLimit * r {
                    reach = t + Double(cellSize)
                    gapCells = 0
                } else {
                    gapCells += 1
                    if gapCells > maxGap { break }
                }
            }
            t += stepT
        }
        return min(reach, limit)
    }
}
