#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds Aztec Code symbols and Aztec Runes in luma frames, samples their
/// modules and decodes them (ISO/IEC 24778:2008).
///
/// The steps follow the standard's reference decode algorithm (Annex on
/// the reference decode algorithm):
///
/// 0. ``scan(_:in:thorough:into:)`` first finds the areas with matrix-code
///    texture (``MatrixRegionDetector``); the rest runs in each of them.
/// 1. Block-adaptive thresholds for the area (``BlockThreshold``).
/// 2. Rows are cut into dark and light runs; nine runs whose inner seven
///    are of one width and symmetric about the middle one (the centre
///    module and the rings around it, 7.3.1) are a bull's-eye candidate, in
///    either polarity. A line through the centre of concentric squares
///    crosses them in that ratio at any angle, so the test holds for any
///    rotation; the same test down the column, along the row again and
///    along both diagonals confirms it. For still pictures a second form is
///    searched too, in which blur has merged the centre module into the
///    light ring around it (a three-wide light run).
/// 3. Rays from the centre in 64 directions find the edges of the rings at
///    2.5 and 3.5 modules from the centre (and at 4.5 and 5.5 in a
///    full-range bull's-eye) with sub-pixel precision; straight lines
///    fitted to each side of those squares give their corners, and the
///    corners give a perspective transform from modules to pixels.
/// 4. The rings at 5 and 6 modules tell a full-range bull's-eye (light,
///    then dark) from a compact one. The mode message ring is sampled and
///    decoded (7.3.1.1, with the orientation patterns giving rotation and
///    mirroring) and gives the symbol's size; the whole symbol is sampled
///    and decoded by ``AztecDecoder``. When that fails for a full-range
///    symbol with reference grid lines 16 modules out, the grid's
///    intersections (7.3.4) are located ring by ring and the symbol is
///    sampled again through a mesh of transforms between them
///    (``AztecGridMap``), which follows a bent or distorted symbol.
///
/// The detector owns its scratch buffers and reuses them from frame to
/// frame; the search allocates only for bull's-eye candidates it measures
/// (and symbols it samples). It is not thread-safe.
final class AztecDetector {
    /// Tunables.
    struct Options {
        /// Rows scanned for bull's-eyes: every `rowStep`-th (the centre
        /// module is one module tall; 2 suits modules of 2 pixels and more).
        var rowStep = 2
        /// The most bull's-eye candidates examined per area.
        var maxCentres = 24
        /// The least contrast of a block neighbourhood.
        var minContrast = AreaThresholds.minContrast
        /// Also look for bull's-eyes whose centre module blurred away
        /// (costlier on busy frames; on for still pictures).
        var blurredCentres = false
    }

    var options = Options()
    /// The frame's time limit and stop, checked every row, 256 runs and
    /// candidate.
    var stop = ScanStop()
    var regionFinder = MatrixRegionDetector()
    var thresholds = BlockThreshold()
    var runs = ScratchBuffer<Int32>(capacity: 4096)
    /// Centres rejected on the last scanned row (``findCentres(_:_:)``).
    var rejected = RejectedCentres()
    /// Rays' luma profiles.
    var profile = ScratchBuffer<Float>(capacity: 1024)

    /// A bull's-eye candidate.
    struct Centre {
        var x: Double
        var y: Double
        /// Width of one ring along the row.
        var module: Double
        var inverted: Bool
        var count: Int
        /// Found with its centre module lost in blur.
        var collapsed = false
    }
    var centres: [Centre] = []
    /// How many candidates the last scan examined.
    var lastCentreCount = 0

    init() { centres.reserveCapacity(64) }

    deinit {
        regionFinder.free(); thresholds.free(); runs.free(); rejected.free(); profile.free()
    }

    /// Finds and decodes the symbols inside `bounds` (the whole frame when
    /// nil), searching the areas of matrix-code texture; with `thorough`,
    /// every row of them, and bull's-eyes whose centre module blurred
    /// away. (A search of the whole area beyond them, once tried, read no
    /// symbol that they missed, at a third of the cost of a still
    /// picture's Aztec search.)
    /// `shared`: the frame's regions when the caller found them already
    /// (shared by the matrix readers); `prepared`, their block thresholds
    /// when the caller measured them; both only read.
    func scan(
        _ image: LumaView, in bounds: PixelRect? = nil, thorough: Bool = false,
        regions shared: MatrixRegionDetector? = nil, prepared: AreaThresholds? = nil,
        into out: inout [AztecSymbol]
    ) {
        lastCentreCount = 0
        let regions: MatrixRegionDetector
        if let shared {
            regions = shared
        } else {
            regionFinder.findAll(image, bounds: bounds)
            regions = regionFinder
        }
        let saved = options
        if thorough {
            options.rowStep = 1; options.blurredCentres = true
        } else {
            // Video frames: fewer candidates per area. Rows stay every other
            // one: a bull's-eye's centre module of two or three pixels has a
            // clean row only one in two or three, as blur greys its edges.
            options.maxCentres = min(options.maxCentres, 8)
        }
        defer { options = saved }
        for k in 0..<regions.regionCount {
            if stop.now { return }
            detect(
                image, in: regions.regions[k],
                prepared: shared != nil ? prepared?.blocks(k, area: regions.regions[k]) : nil, into: &out)
        }
    }

    /// Finds and decodes the symbols in `region` (the whole frame when nil);
    /// `prepared`: the region's block thresholds, when already measured.
    func detect(
        _ image: LumaView, in region: PixelRect? = nil, prepared: BlockThreshold? = nil,
        into out: inout [AztecSymbol]
    ) {
        let r = (region ?? PixelRect(x0: 0, y0: 0, x1: image.width, y1: image.height))
            .clipped(width: image.width, height: image.height)
        guard r.width >= 11, r.height >= 11 else { return }
        thresholds.prepare(
            image, rect: r, blockSize: AreaThresholds.blockSize(r), minContrast: options.minContrast,
            reusing: prepared)
        centres.removeAll(keepingCapacity: true)
        findCentres(image, r)
        guard !centres.isEmpty else { return }
        // Whole bull's-eyes first, those seen on most rows first.
        centres.sort { $0.collapsed != $1.collapsed ? !$0.collapsed : $0.count > $1.count }
        lastCentreCount += centres.count
        for k in 0..<min(centres.count, options.maxCentres) {
            if stop.now { return }
            let c = centres[k]
            // Inside a symbol already read?
            var seen = false
            for s in out where s.centre.distance(to: Point(x: c.x, y: c.y)) < 3 * c.module { seen = true; break }
            if seen { continue }
            if let s = read(image, c) {
                var duplicate = false
                for o in out
                where o.decoded.bytes == s.decoded.bytes && o.centre.distance(to: s.centre) < 4 * s.moduleSize {
                    duplicate = true
                }
                if !duplicate { out.append(s) }
            }
        }
    }

}
