/// Where video frames look for PDF417: the largest regions of bars.
extension Scanner {
    /// Fills ``barAreas`` from the linear stage's candidates that read no
    /// linear code (those centred in `core`, when given): those whose
    /// lines crossed a PDF417 start or stop pattern first, then the largest.
    func collectBarAreas(_ image: LumaView, centredIn core: PixelRect?) {
        barAreas.removeAll(keepingCapacity: true)
        var picked: (Int, Int, Int) = (-1, -1, -1)
        // A crossed pattern counts for more than any size.
        func cells(_ k: Int) -> Int {
            k < 0 ? -1 : detector.candidates[k].cells + (candidateCrossesPDF417[k] ? 1 << 30 : 0)
        }
        for k in 0..<detector.candidateCount where !candidateRead[k] {
            if let core, !core.contains(detector.candidates[k].cx, detector.candidates[k].cy) { continue }
            let n = cells(k)
            if n > cells(picked.0) {
                picked = (k, picked.0, picked.1)
            } else if n > cells(picked.1) {
                picked = (picked.0, k, picked.1)
            } else if n > cells(picked.2) {
                picked.2 = k
            }
        }
        let margin = Double(detector.cellSize)
        for k in [picked.0, picked.1, picked.2] where k >= 0 {
            let c = detector.candidates[k]
            // Half extents of the region's box, a sixth more for the
            // start and stop patterns at its ends.
            let hx = (abs(c.ux) * c.lengthU + abs(c.uy) * c.lengthV) * 0.58 + margin
            let hy = (abs(c.uy) * c.lengthU + abs(c.ux) * c.lengthV) * 0.58 + margin
            let box = PixelRect(
                x0: max(0, Int(c.cx - hx)), y0: max(0, Int(c.cy - hy)),
                x1: min(image.width, Int(c.cx + hx)), y1: min(image.height, Int(c.cy + hy)))
            if box.width >= 16 && box.height >= 8 {
                barAreas.append(BarArea(box: box, ux: c.ux, uy: c.uy, crossesPattern: candidateCrossesPDF417[k]))
            }
        }
    }
}
