/// The block thresholds of the areas with 2D texture that a
/// ``MatrixRegionDetector`` found, prepared once for every matrix reader
/// that searches those areas with the same blocks (they all take blocks of
/// 16 pixels in areas 720 pixels or more across, else 8, and the same
/// contrast). A reader copies an area's blocks (``BlockThreshold/copy(from:)``)
/// instead of measuring its pixels again; the readers may run on different
/// threads, as they only read these.
final class AreaThresholds {
    private var blocks: [BlockThreshold] = []
    /// The area each of `blocks` was prepared for.
    private var areas: [PixelRect] = []
    /// How many areas are prepared (0: none, every reader measures its own).
    private(set) var count = 0

    deinit { for b in blocks { b.free() } }

    /// Forgets the prepared blocks: every reader measures its own.
    func clear() { count = 0 }

    /// Prepares the blocks of every area of `regions` in `image`.
    func prepare(_ image: LumaView, regions: MatrixRegionDetector, minContrast: Int) {
        count = 0
        for k in 0..<regions.regionCount {
            let r = regions.regions[k].clipped(width: image.width, height: image.height)
            if blocks.count <= k {
                blocks.append(BlockThreshold())
                areas.append(regions.regions[k])
            } else {
                areas[k] = regions.regions[k]
            }
            blocks[k].prepare(image, rect: r, blockSize: AreaThresholds.blockSize(r), minContrast: minContrast)
        }
        count = regions.regionCount
    }

    /// The prepared blocks of `area`, the `k`th area of the regions
    /// prepared or, once codes read were taken out of them
    /// (``MatrixRegionDetector/carve(_:)``), another; nil when there are
    /// none (a part left by carving: its reader measures its own).
    func blocks(_ k: Int, area: PixelRect) -> BlockThreshold? {
        if k < count && areas[k] == area { return blocks[k] }
        for j in 0..<count where areas[j] == area { return blocks[j] }
        return nil
    }

    /// The block size the matrix readers take for an area.
    static func blockSize(_ r: PixelRect) -> Int { min(r.width, r.height) >= 720 ? 16 : 8 }

    /// The grey-level difference below which the matrix readers see a
    /// flat neighbourhood (their options' default).
    static let minContrast = 20
}
