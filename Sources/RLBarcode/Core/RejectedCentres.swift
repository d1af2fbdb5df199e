/// The centres of pattern look-alikes (a letter, a bar of a linear code,
/// stripes) that a row-by-row search rejected on its last scanned rows: a
/// look-alike repeats on row after row and is rejected the same way, so one
/// rejected on a row is not checked again within a pixel of the same place
/// on the next `rows` scanned rows, only on the one after. The QR Code
/// finder and Aztec Code bull's-eye searches keep one each.
///
/// Centres are looked up and rejected in ascending order within a row.
struct RejectedCentres {
    private var keys = ScratchBuffer<Int32>(capacity: 3072)
    /// The most centres a row (each row's slot in `keys`).
    private var width = 0
    /// Rows remembered before the current one: 1 or 2.
    private var rows = 1
    /// Slots of the current row, the last one and the one before it.
    private var slots = (0, 1, 2)
    /// Centres rejected on those rows.
    private var counts = (0, 0, 0)
    /// Where the lookups have come to in the last row and the one before.
    private var scans = (0, 0)

    /// Starts a search over rows of up to `width` centres, remembering
    /// those rejected on the last `rows` scanned rows (1 or 2).
    mutating func start(width: Int, rows: Int) {
        self.width = max(1, width)
        self.rows = min(2, max(1, rows))
        keys.reserve((self.rows + 1) * self.width)
        slots = (0, 1, 2); counts = (0, 0, 0); scans = (0, 0)
    }

    @inline(__always)
    private static func key(_ x: Double) -> Int32 { Int32(x.rounded(.down)) }

    /// Whether a centre within a pixel of `x` was rejected on the
    /// remembered rows.
    mutating func wasRejected(at x: Double) -> Bool {
        let key = RejectedCentres.key(x)
        let last = keys.pointer + slots.1 * width
        while scans.0 < counts.1 && last[scans.0] < key - 1 { scans.0 += 1 }
        if scans.0 < counts.1 && last[scans.0] <= key + 1 { return true }
        guard rows > 1 else { return false }
        let before = keys.pointer + slots.2 * width
        while scans.1 < counts.2 && before[scans.1] < key - 1 { scans.1 += 1 }
        return scans.1 < counts.2 && before[scans.1] <= key + 1
    }

    /// Records the centre at `x` as rejected on the current row.
    mutating func reject(at x: Double) {
        keys[slots.0 * width + counts.0] = RejectedCentres.key(x)
        counts.0 += 1
    }

    /// Moves on to the next scanned row.
    mutating func nextRow() {
        if rows > 1 {
            slots = (slots.2, slots.0, slots.1)
            counts = (0, counts.0, counts.1)
        } else {
            slots = (slots.1, slots.0, slots.2)
            counts = (0, counts.0, 0)
        }
        scans = (0, 0)
    }

    func free() { keys.free() }
}
