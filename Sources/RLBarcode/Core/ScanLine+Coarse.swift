/// Reads parallel lines numbered 0 ..< `count` coarse to fine: every
/// `coarse`-th line first, and out both ways from each one that found
/// something (`found` counted up by `read`) until `coarse` lines in a
/// row find nothing. Where nothing is found, a `coarse`-th of the lines
/// is read; around what is, every line. `marks` is scratch memory for
/// `count` bytes. With `coarse` 1, every line in turn.
///
/// - Parameters:
///   - found: how many things have been found so far (read before and
///     after each line).
///   - read: reads line `k`.
@inline(__always)
func readCoarseToFine(
    count: Int, coarse: Int, marks m: UnsafeMutablePointer<UInt8>, found: () -> Int,
    read: (Int) -> Void
) {
    guard count > 0 else { return }
    if coarse <= 1 {
        for k in 0..<count { read(k) }
        return
    }
    for k in 0..<count { m[k] = 0 }
    /// Reads line `k` unless read already; whether it found something.
    func readOnce(_ k: Int) -> Bool {
        guard m[k] == 0 else { return false }
        m[k] = 1
        let before = found()
        read(k)
        return found() > before
    }
    func grow(from k: Int, by way: Int) {
        var j = k + way, misses = 0
        while j >= 0, j < count, misses < coarse {
            misses = readOnce(j) ? 0 : misses + 1
            j += way
        }
    }
    var k = 0
    while k < count {
        if readOnce(k) {
            grow(from: k, by: -1)
            grow(from: k, by: 1)
        }
        k += max(1, coarse)
    }
}

extension ScanLine {
    /// Line `k` of those `step` pixels apart that run along (`dx`, `dy`)
    /// (a unit vector) across a disc of radius `reach` around `centre`:
    /// the one at `-reach + (k + 1/2) step` across the direction, clipped
    /// to `bounds` (``clipped(center:dx:dy:halfLength:bounds:margin:step:)``).
    static func numbered(
        _ k: Int, step: Double, reach: Double, centre: Point, dx: Double, dy: Double,
        bounds: PixelRect, margin: Double = 1
    ) -> ScanLine? {
        let t = -reach + (Double(k) + 0.5) * step
        return clipped(
            center: Point(x: centre.x - dy * t, y: centre.y + dx * t), dx: dx, dy: dy, halfLength: reach,
            bounds: bounds, margin: margin)
    }
}

/// Sorts `count` elements at `p` by `order` and makes each its own
/// union-find parent (`parent`), for hits found coarse to fine
/// (``readCoarseToFine(count:coarse:marks:found:read:)``) to be grouped
/// in the order a search of every line would have found them.
@inline(__always)
func sortHits<T>(_ p: UnsafeMutablePointer<T>, count: Int, order: (T) -> Int, parent: WritableKeyPath<T, Int>) {
    guard count > 1 else { return }
    var buffer = UnsafeMutableBufferPointer(start: p, count: count)
    buffer.sort { order($0) < order($1) }
    for i in 0..<count { p[i][keyPath: parent] = i }
}
