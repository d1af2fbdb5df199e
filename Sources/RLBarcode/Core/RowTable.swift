/// The rows of stacked symbols read during one frame, each with where it
/// lies, for ``StackedLinearReader``s to assemble into symbols.
///
/// Many scan lines cross the same row; their identical readings are kept
/// once, with the number of lines that agreed (`support`). The table lives
/// with the scanner and is reused for every frame.
struct RowTable: ~Copyable {
    /// One row reading.
    struct Row {
        var symbology: Symbology
        var valueOffset: Int
        var valueCount: Int
        /// Where the row starts and ends, in frame pixels, in reading order.
        var p0: Point
        var p1: Point
        /// Light bars on a dark background.
        var inverted: Bool
        /// The best (lowest) width error among the lines that read it.
        var error: Float
        /// How many scan lines read it.
        var support: Int
        /// The last line that read it, so that one line read several ways counts once.
        var lastLine: Int

        /// The row's middle.
        var middle: Point { Point(x: (p0.x + p1.x) / 2, y: (p0.y + p1.y) / 2) }
        /// The row's length in pixels.
        var length: Double {
            let dx = p1.x - p0.x, dy = p1.y - p0.y
            return (dx * dx + dy * dy).squareRoot()
        }
    }

    private var rows = ScratchBuffer<Row>(capacity: 64)
    private var values = ScratchBuffer<Int32>(capacity: 1024)
    private var valueCount = 0
    /// Rows in the table.
    private(set) var count = 0

    /// The most rows kept in a frame; further ones are dropped.
    static let capacityLimit = 4096

    init() {}

    deinit { rows.free(); values.free() }

    mutating func reset() { count = 0; valueCount = 0 }

    /// Row `i` (`0 <= i < count`).
    subscript(i: Int) -> Row {
        assert(i >= 0 && i < count)
        return rows[i]
    }

    /// The values of row `i`.
    func values(of i: Int) -> UnsafeBufferPointer<Int32> {
        let r = rows[i]
        return UnsafeBufferPointer(start: values.pointer + r.valueOffset, count: r.valueCount)
    }

    /// Where row `j`'s middle lies seen from row `i`: `along` its reading
    /// direction and `across` it (positive to the right of the reading
    /// direction, which is "down" for an upright row), in pixels.
    func offset(of j: Int, from i: Int) -> (along: Double, across: Double) {
        let a = rows[i], b = rows[j]
        let len = a.length
        guard len > 0 else { return (0, 0) }
        let ux = (a.p1.x - a.p0.x) / len, uy = (a.p1.y - a.p0.y) / len
        let ma = a.middle, mb = b.middle
        let dx = mb.x - ma.x, dy = mb.y - ma.y
        return (dx * ux + dy * uy, -dx * uy + dy * ux)
    }

    /// The cosine of the angle between the reading directions of rows `i` and `j`.
    func parallelism(_ i: Int, _ j: Int) -> Double {
        let a = rows[i], b = rows[j]
        let la = a.length, lb = b.length
        guard la > 0, lb > 0 else { return 0 }
        return ((a.p1.x - a.p0.x) * (b.p1.x - b.p0.x) + (a.p1.y - a.p0.y) * (b.p1.y - b.p0.y)) / (la * lb)
    }

    /// The most lines that read any one row added at index `first` or later.
    func mostSupport(since first: Int) -> Int {
        var most = 0
        var i = max(0, first)
        while i < count {
            most = max(most, rows[i].support)
            i += 1
        }
        return most
    }

    /// Whether another reading of the same row (same symbology and
    /// polarity, reading the same way, its middle within `along` and
    /// `across` pixels of row `i`'s) read other values on more lines: the
    /// lines disagree about the row, and the majority wins. Readings of
    /// the same kind are told apart by their first `kindValues` values.
    func isOutvoted(_ i: Int, along: Double, across: Double, kindValues: Int = 0) -> Bool {
        let a = rows[i]
        let va = values(of: i)
        for j in 0..<count where j != i {
            let b = rows[j]
            guard b.support > a.support, b.symbology == a.symbology, b.inverted == a.inverted,
                b.valueCount >= kindValues, a.valueCount >= kindValues, parallelism(i, j) > 0.9
            else { continue }
            let vb = values(of: j)
            var sameKind = true
            for k in 0..<kindValues where va[k] != vb[k] { sameKind = false }
            guard sameKind else { continue }
            let o = offset(of: j, from: i)
            if abs(o.along) < along, abs(o.across) < across { return true }
        }
        return false
    }

    /// Adds the rows of `other` (another thread's scan lines of the same
    /// frame): each joins a row of this table as
    /// ``add(_:values:p0:p1:inverted:line:)`` joins a reading, with the
    /// lines that read it, or is kept as a row of its own.
    mutating func absorb(_ other: borrowing RowTable) {
        for j in 0..<other.count {
            let o = other.rows[j]
            if let i = match(o, values: other.values(of: j)) {
                var r = rows[i]
                r.support += o.support
                if o.error < r.error { r.error = o.error }
                rows[i] = r
                continue
            }
            guard count < RowTable.capacityLimit else { return }
            append(o, values: other.values(of: j))
        }
    }

    /// Keeps `row` with its values `v` as a row of its own.
    private mutating func append(_ row: Row, values v: UnsafeBufferPointer<Int32>) {
        values.reserveKeeping(valueCount + v.count)
        for (k, x) in v.enumerated() { values[valueCount + k] = x }
        rows.reserveKeeping(count + 1)
        var stored = row
        stored.valueOffset = valueCount
        rows[count] = stored
        valueCount += v.count
        count += 1
    }

    /// The row that a reading `row` of values `v` joins: the same
    /// symbology, polarity and values, read the same way, its middle
    /// close along and across it; nil when none.
    private func match(_ row: Row, values v: UnsafeBufferPointer<Int32>) -> Int? {
        let len = row.length
        guard len > 0 else { return nil }
        let ux = (row.p1.x - row.p0.x) / len, uy = (row.p1.y - row.p0.y) / len
        let m = row.middle
        for i in 0..<count {
            let r = rows[i]
            guard r.symbology == row.symbology, r.inverted == row.inverted, r.valueCount == v.count else { continue }
            let rl = r.length
            guard rl > 0 else { continue }
            // Same direction, middles close along and across the row.
            let dot = ((r.p1.x - r.p0.x) * ux + (r.p1.y - r.p0.y) * uy) / rl
            guard dot > 0.9 else { continue }
            let rm = r.middle
            let dx = m.x - rm.x, dy = m.y - rm.y
            let along = abs(dx * ux + dy * uy), across = abs(-dx * uy + dy * ux)
            guard along < 0.1 * len + 4, across < 0.25 * len + 4 else { continue }
            var same = true
            for k in 0..<v.count where values[r.valueOffset + k] != v[k] { same = false; break }
            if same { return i }
        }
        return nil
    }

    /// Adds a row read by scan line `line`; a row with the same values
    /// read nearby in the same direction joins it instead.
    mutating func add(
        _ f: LinearFragment, values v: UnsafeBufferPointer<Int32>, p0: Point, p1: Point,
        inverted: Bool, line: Int
    ) {
        let row = Row(
            symbology: f.symbology, valueOffset: 0, valueCount: v.count, p0: p0, p1: p1,
            inverted: inverted, error: f.error, support: 1, lastLine: line)
        guard row.length > 0 else { return }
        if let i = match(row, values: v) {
            var r = rows[i]
            if r.lastLine != line { r.support += 1; r.lastLine = line }
            if f.error < r.error { r.error = f.error }
            rows[i] = r
            return
        }
        guard count < RowTable.capacityLimit else { return }
        append(row, values: v)
    }
}
