/// The rows of stacked symbols: lines of their own, then assembly.
extension Scanner {
    /// DataBar Stacked (ISO/IEC 24724, clause "GS1 DataBar Stacked"): the
    /// upper row is 5 modules high, the separator 1, the lower row 7, so
    /// the upper row (and a small symbol's lower one) may hold too few of
    /// the detection pass's cells to be a candidate of its own, and the
    /// lines across the other row miss it. For each half read alike by two
    /// lines or more that no half of the other side completes: lines
    /// parallel to it, 3 to 11 modules above and below, 1.5 modules apart,
    /// where the other row lies, read for DataBar alone.
    func seekOtherRows(_ pass: LinePass, enabled: Symbology) {
        guard seeksOtherRows, enabled.contains(.dataBar), let reader = dataBarReader, lines.rows.count > 0 else {
            return
        }
        let lonely = reader.lonelyHalves(lines.rows)
        guard !lonely.isEmpty else { return }
        var sought: [Point] = []
        lines.rowsCrossBars = false
        defer { lines.rowsCrossBars = true }
        for r in lonely.prefix(4) {
            let row = lines.rows[r]
            let len = row.length
            guard len >= 16 else { continue }
            // A half spans 46 modules between its guards.
            let module = len / 46
            let middle = row.middle
            // A half read both ways (as a left half one way, a right half
            // the other) is sought once.
            if sought.contains(where: { $0.distance(to: middle) < 2 * module }) { continue }
            sought.append(middle)
            let ux = (row.p1.x - row.p0.x) / len, uy = (row.p1.y - row.p0.y) / len
            for k in 0..<6 {
                let across = (3 + 1.5 * Double(k)) * module
                for s in 0..<2 {
                    let side = s == 0 ? -1.0 : 1.0
                    let center = Point(x: middle.x - side * across * uy, y: middle.y + side * across * ux)
                    guard
                        let line = ScanLine.clipped(
                            center: center, dx: ux, dy: uy, halfLength: len / 2 + 6 * module,
                            bounds: pass.frame)
                    else { continue }
                    lines.scanLine(line, pass, enabled: .dataBar, retries: false)
                }
            }
        }
    }

    /// Lets the stacked readers assemble the rows read in the frame into
    /// symbols, which join the votes with every row's line.
    func assembleRows(enabled: Symbology) {
        guard lines.rows.count > 0 else { return }
        for reader in stackedReaders where !reader.symbologies.isDisjoint(with: enabled) {
            lines.sink.reset()
            let made = reader.assemble(lines.rows, enabled: enabled, into: &lines.sink)
            for (h, used) in made.enumerated() where h < lines.sink.hitCount && !used.isEmpty {
                lines.votes.addAssembled(lines.sink.hits[h], from: lines.sink, rows: lines.rows, used: used)
            }
        }
    }
}
