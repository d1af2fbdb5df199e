/// Still pictures: a first look at video depth, then the full depth.
extension Scanner {
    /// A still picture (``Effort/thorough``): first a look at the depth of
    /// a video frame's, with every search of a first frame (linear codes
    /// dark on light only); only when that reads nothing, the still-picture depth
    /// (`plan`). Most pictures are read by the first look at a fraction of
    /// the cost; the pictures it reads nothing in pay for both. When it reads
    /// codes, the places it left unread that still call for the full depth
    /// get it there alone: an add-on's place beside an EAN/UPC code, and
    /// regions of bars whose lines crossed a PDF417 start or stop pattern
    /// (a small PDF417 beside a code read). With
    /// ``ScanOptions/exhaustive``, the still-picture depth alone.
    func scanStill(
        _ image: LumaView, bounds: PixelRect, wholeFrame: Bool, enabled: Symbology,
        plan: Plan
    ) -> [BarcodeResult] {
        if options.exhaustive {
            return scanArea(image, bounds: bounds, wholeFrame: wholeFrame, enabled: enabled, plan: plan)
        }
        var look = self.plan(for: image, effort: .balanced)
        look.everySearch = true
        look.lightOnDark = false
        look.partials = false
        let first = scanArea(image, bounds: bounds, wholeFrame: wholeFrame, enabled: enabled, plan: look)
        if outOfTime || matrix.timedOut { return first }
        // Codes read: the full depth only where the first look left an
        // add-on or a PDF417 unread.
        if !first.isEmpty {
            // (Every box found before any is scanned: a scan measures the
            // cells and candidates again, over its box.)
            let stacked = stackedBoxes(image, within: bounds, enabled: enabled, outside: first)
            var out = withAddOns(first, image, enabled: enabled, look: look, plan: plan)
            for box in stacked {
                let again = scanArea(
                    image, bounds: box, wholeFrame: false, enabled: enabled.intersection(.pdf417), plan: plan)
                for code in again where !out.contains(where: { $0.isSameCode(as: code) }) { out.append(code) }
            }
            return out
        }
        let candidates = lastCandidateCount
        var out = scanArea(image, bounds: bounds, wholeFrame: wholeFrame, enabled: enabled, plan: plan)
        lastCandidateCount += candidates
        // What the first look read and the full depth did not (rare: its
        // lines differ), kept.
        for f in first where !out.contains(where: { $0.isSameCode(as: f) }) { out.append(f) }
        return out
    }

    /// The boxes of the first look's regions of bars that read no code,
    /// whose lines crossed a PDF417 start or stop pattern and whose centre
    /// lies outside every code `read`, within `bounds` (none when PDF417 is
    /// not enabled).
    private func stackedBoxes(
        _ image: LumaView, within bounds: PixelRect, enabled: Symbology, outside read: [BarcodeResult]
    ) -> [PixelRect] {
        guard enabled.contains(.pdf417) else { return [] }
        collectBarAreas(image, centredIn: nil)
        let taken = read.compactMap { code -> PixelRect? in
            guard let b = code.boundingBox(clippedTo: image.width, image.height) else { return nil }
            return PixelRect(x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height)
        }
        let unread = barAreas.filter { area in
            let cx = Double(area.box.x0 + area.box.x1) / 2, cy = Double(area.box.y0 + area.box.y1) / 2
            return area.crossesPattern && !taken.contains { $0.contains(cx, cy) }
        }
        let reach = Double(max(image.width, image.height))
        return unread.compactMap { $0.symbolBox(reach: reach, within: bounds) }
    }

    /// `first`, with the add-on of each EAN/UPC code read without one
    /// where bars follow it as an add-on would, read at the full depth.
    private func withAddOns(
        _ first: [BarcodeResult], _ image: LumaView, enabled: Symbology, look: Plan, plan: Plan
    ) -> [BarcodeResult] {
        guard !enabled.isDisjoint(with: [.ean2, .ean5]), let cells = detector.tensors else { return first }
        // Their surroundings at the full depth, EAN/UPC alone (every box
        // found before any is scanned).
        let frame = PixelRect(x0: 0, y0: 0, x1: image.width, y1: image.height)
        let boxes = first.map { Scanner.addOnBox($0, cells: cells, frame: frame, plan: look) }
        var out = first
        for k in first.indices {
            guard let box = boxes[k] else { continue }
            let again = scanArea(
                image, bounds: box, wholeFrame: false, enabled: enabled.intersection(.eanUPC),
                plan: plan)
            if let better = again.first(where: { !$0.addOn.isEmpty && $0.text == first[k].text }) {
                out[k] = better
            }
        }
        return out
    }

    /// The box to search again for the add-on of `code`, an EAN/UPC code
    /// read without one, when cells of bars square to its reading
    /// direction follow it where an add-on would lie (its gap is 7 to 12
    /// modules, read from 5; it is 20 or 47 modules long), at half or
    /// three quarters of its height: the code and that place. Nil when
    /// nothing follows it.
    static func addOnBox(_ code: BarcodeResult, cells: CellTensors, frame: PixelRect, plan: Plan) -> PixelRect? {
        guard code.addOn.isEmpty, code.corners.count == 4 else { return nil }
        let modules: Double
        switch code.symbology {
        case .ean13, .upcA: modules = 95
        case .ean8: modules = 67
        case .upcE: modules = 51
        default: return nil
        }
        let c = code.corners
        for share in [0.5, 0.75] {
            let left = Point(x: c[0].x + share * (c[3].x - c[0].x), y: c[0].y + share * (c[3].y - c[0].y))
            let right = Point(x: c[1].x + share * (c[2].x - c[1].x), y: c[1].y + share * (c[2].y - c[1].y))
            let width = left.distance(to: right)
            guard width >= 16 else { continue }
            let ux = (right.x - left.x) / width, uy = (right.y - left.y) / width
            let module = width / modules
            // From 5 modules past the end to the end of an EAN-5 add-on 12 modules past it.
            let t0 = 5 * module, t1 = 59 * module
            let centre = Point(x: right.x + ux * (t0 + t1) / 2, y: right.y + uy * (t0 + t1) / 2)
            guard
                let line = ScanLine.clipped(
                    center: centre, dx: ux, dy: uy, halfLength: (t1 - t0) / 2,
                    bounds: frame)
            else { continue }
            guard
                cells.barsCrossed(by: line, minEnergy: 0.5 * plan.minEnergy, dominance: Scanner.sweepDominance)
                    .cells >= 2
            else { continue }
            // The code's corners and theirs moved past the add-on.
            let ends = [c[1], c[2]].map { Point(x: $0.x + ux * t1, y: $0.y + uy * t1) }
            let all = c + ends
            let x0 = all.map(\.x).min()!, x1 = all.map(\.x).max()!, y0 = all.map(\.y).min()!, y1 = all.map(\.y).max()!
            let box = PixelRect(
                x0: max(frame.x0, Int(x0) - 8), y0: max(frame.y0, Int(y0) - 8),
                x1: min(frame.x1, Int(x1.rounded(.up)) + 8), y1: min(frame.y1, Int(y1.rounded(.up)) + 8))
            return box.width >= 16 && box.height >= 8 ? box : nil
        }
        return nil
    }
}
