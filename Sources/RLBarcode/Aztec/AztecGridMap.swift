#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Module coordinates (centre module at (0, 0)) to frame pixels: one
/// perspective transform, or a mesh of them between the reference grid's
/// intersections (ISO/IEC 24778:2008, 7.3.4), each 16 by 16 modules, the
/// outer ones extended to the symbol's edge.
struct AztecGridMap {
    var global: PerspectiveTransform
    /// (2 lines) x (2 lines) cells, row by row from the top-left; empty for
    /// a single transform.
    var cells: [PerspectiveTransform] = []
    /// Grid lines each way from the centre.
    var lines = 0

    init(_ t: PerspectiveTransform) { global = t }

    @inline(__always)
    func map(_ u: Double, _ v: Double) -> Point {
        if cells.isEmpty { return global.map(u, v) }
        let i = max(-lines, min(lines - 1, Int((u / 16).rounded(.down))))
        let j = max(-lines, min(lines - 1, Int((v / 16).rounded(.down))))
        return cells[(j + lines) * 2 * lines + i + lines].map(u, v)
    }
}
