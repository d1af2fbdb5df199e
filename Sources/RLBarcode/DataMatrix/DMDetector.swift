#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds Data Matrix ECC 200 symbols in luma frames, samples and decodes
/// them (ISO/IEC 16022:2006, 7 and Annex on the reference decode
/// algorithm, in its own way).
///
/// 1. ``scan(_:in:into:)`` first finds the areas with matrix-code texture
///    (``MatrixRegionDetector``, shared in design with QR Code); the rest
///    runs in each.
/// 2. Block-adaptive thresholds (``BlockThreshold``); every row is cut into
///    dark and light runs, and runs of one colour that touch (8-connected)
///    are joined into connected components, in one pass with a union-find.
///    The solid L of the finder pattern (5.1.1: left column and bottom row)
///    is one connected component, dark on light or light on dark.
/// 3. Each large enough component's outline: the convex hull of its row
///    ends, and the quadrilateral of its diameter and the two hull points
///    farthest from it on either side.
/// 4. A corner of that quadrilateral whose two sides are solid for most of
///    their length, with light (quiet zone) outside (in video frames, in
///    view: not beyond the frame's edge), and whose two other
///    sides are less solid, is the finder's corner; the arms must be thin
///    (one module where the module beside is light). The sign of the cross
///    product tells the bottom arm from the left arm (a mirror image swaps
///    them, which the sampling tries).
/// 5. Straight lines are fitted to the outer edges of both arms (scanning
///    inwards across them) and of the two clock tracks (the dashed top row
///    and right column, 5.1.1). A clock track's dark modules have their
///    outer edges on one line, its light modules let the scan run on into
///    the data: its edge points are gathered both from outside inwards and
///    from inside outwards (the last ink before the quiet zone), a line is
///    found by consensus over point pairs, and of the two the one along
///    which the track alternates most regularly is kept (still pictures try
///    the other too). The four lines give the corners; the clock lines are
///    fitted a second time from them.
/// 6. The clock tracks' dark modules are counted for the symbol size, and
///    sizes near the count are tried when it is not a size of the table or
///    the decoding fails. The grid is sampled through the perspective
///    transform of the corners, with the module centres taken from the
///    clock tracks' own module boundaries when they read cleanly (curved
///    surfaces, lens distortion), against the local pixel threshold and
///    against a threshold from the sampled grid itself (blur); still
///    pictures also nudge the grid by a fifth of a module. The finder and
///    clock patterns of the sampled matrix must mostly read right before it
///    goes to ``DMDecoder``. Still pictures whose clock tracks do not count
///    cleanly (blur merging the narrowed modules of a curved symbol) take
///    the module centres from the alternating clock template fitted to the
///    track (``DMClockWarp``).
/// 7. Still pictures whose clock edges lead to no symbol (a narrow quiet
///    zone on a textured surface, faint dotted print) fit the grid to the
///    clock modules themselves: for each size the arms allow, the far
///    corner and the arm ends move to where the clock tracks read best.
///
/// The detector owns its buffers and reuses them from frame to frame. It
/// is not thread-safe.
final class DMDetector {
    /// Tunables.
    struct Options {
        /// The least grey-level difference that counts as contrast.
        var minContrast = AreaThresholds.minContrast
        /// The most components per polarity and region tried as finders
        /// (video frames: half as many). The largest come first: beyond
        /// two dozen in one region, the rest are specks of text and
        /// texture, not finders (24 and 48 read the same symbols).
        var maxComponents = 24
        /// The shortest finder arm, in pixels.
        var minArm = 12
        /// Try harder on symbols that fail (mirror images and neighbouring sizes).
        var thorough = true
        /// Components examined per call when not ``thorough`` (video
        /// frames): a few per frame, the largest of the strongest regions
        /// first; the next frames see the code again.
        var examineBudget = 4
    }

    var options = Options()
    /// Diagnostics: told why a component was not taken for a symbol
    /// (`nil`, the default, costs nothing).
    var trace: ((String) -> Void)? = nil
    /// The frame's time limit and stop, checked between candidates (on a
    /// large still picture of texture, candidates can take seconds).
    var stop = ScanStop()
    var thresholds = BlockThreshold()
    var regionFinder = MatrixRegionDetector()
    var rowBuffer = ScratchBuffer<Int32>(capacity: 4096)
    /// Runs: start, end (exclusive), row, colour (1 dark), union-find parent.
    var rx0 = ScratchBuffer<Int32>(capacity: 1 << 14)
    var rx1 = ScratchBuffer<Int32>(capacity: 1 << 14)
    var ry = ScratchBuffer<Int32>(capacity: 1 << 14)
    var rdark = ScratchBuffer<UInt8>(capacity: 1 << 14)
    var parent = ScratchBuffer<Int32>(capacity: 1 << 14)
    var nextRun = ScratchBuffer<Int32>(capacity: 1 << 14)
    var runCount = 0
    /// Per root run: pixel count, bounding box, first run of its list.
    var area = ScratchBuffer<Int32>(capacity: 1 << 14)
    var minX = ScratchBuffer<Int32>(capacity: 1 << 14)
    var maxX = ScratchBuffer<Int32>(capacity: 1 << 14)
    var minY = ScratchBuffer<Int32>(capacity: 1 << 14)
    var maxY = ScratchBuffer<Int32>(capacity: 1 << 14)
    var head = ScratchBuffer<Int32>(capacity: 1 << 14)
    /// Roots of the components worth a look.
    var candidates = ScratchBuffer<Int32>(capacity: 256)
    /// Outline points, hull, edge points.
    var points = ScratchBuffer<Point>(capacity: 1024)
    /// A component's rows: y, first and last pixel (exclusive), three a row.
    var rowEnds = ScratchBuffer<Int32>(capacity: 768)
    var hull = ScratchBuffer<Point>(capacity: 1024)
    var edge = ScratchBuffer<Point>(capacity: 512)
    /// The ink thickness met at each point of ``edge`` while fitting it.
    var edgeThickness = ScratchBuffer<Double>(capacity: 512)
    var profile = ScratchBuffer<UInt8>(capacity: 2048)
    /// Module-centre lumas of a grid being sampled.
    var gridLuma = ScratchBuffer<Double>(capacity: 4096)
    /// The symbol threshold kept while sampling (``symbolThreshold``).
    var symbolLevel: Double? { symbolThreshold }
    /// Symbols decoded in the current call (their quadrilaterals), so that
    /// components inside them are skipped.
    var found: [[Point]] = []
    /// The insides of codes read already in this frame (``scan(_:in:regions:prepared:avoiding:into:)``),
    /// during a scan.
    var avoided: [PixelRect] = []
    var image: LumaView?

    init(options: Options = Options()) { self.options = options; found.reserveCapacity(8) }

    deinit {
        thresholds.free(); regionFinder.free(); rowBuffer.free()
        rx0.free(); rx1.free(); ry.free(); rdark.free(); parent.free(); nextRun.free()
        area.free(); minX.free(); maxX.free(); minY.free(); maxY.free(); head.free()
        candidates.free(); points.free(); rowEnds.free(); hull.free(); edge.free(); profile.free(); gridLuma.free()
        edgeThickness.free()
    }

    /// Finds and decodes symbols: first the areas with matrix-code texture,
    /// then the finder search in each. This is what a scanner calls each frame.
    ///
    /// - Parameters:
    ///   - shared: the regions of this frame when another reader found them
    ///     already with the same settings (QR Code's pre-pass); only read,
    ///     during this call.
    ///   - prepared: the block thresholds of `shared`'s areas when the
    ///     caller prepared them (``AreaThresholds``); only read.
    ///   - avoiding: the insides of codes read already, taken out of
    ///     `shared`'s areas (``MatrixRegionDetector/carve(_:)``): the parts
    ///     of those codes left in the areas around them (their edges) are
    ///     not examined, and take none of the frame's budget.
    func scan(
        _ image: LumaView, in bounds: PixelRect? = nil, regions shared: MatrixRegionDetector? = nil,
        prepared: AreaThresholds? = nil, avoiding: [PixelRect] = [], into out: inout [DMCandidate]
    ) {
        found.removeAll(keepingCapacity: true)
        avoided = avoiding
        defer { avoided = [] }
        examineBudget = options.thorough ? Int.max : max(1, options.examineBudget)
        if let shared {
            // Video frames: each area gets its share of the components left
            // (one at least), so that the largest components of the first
            // areas (another symbol's modules, text) leave some for the
            // symbols of the others.
            var left = examineBudget
            for k in 0..<shared.regionCount where left > 0 {
                let share = options.thorough ? left : max(1, left / (shared.regionCount - k))
                examineBudget = share
                detect(image, in: shared.regions[k], prepared: prepared?.blocks(k, area: shared.regions[k]), into: &out)
                left -= share - examineBudget
            }
            return
        }
        regionFinder.findAll(image, bounds: bounds)
        for k in 0..<regionFinder.regionCount {
            detect(image, in: regionFinder.regions[k], into: &out)
        }
    }

    /// Finds and decodes symbols in `region` (the whole frame when nil);
    /// `prepared`: the region's block thresholds, when already measured.
    func detect(
        _ img: LumaView, in region: PixelRect? = nil, prepared: BlockThreshold? = nil,
        into out: inout [DMCandidate]
    ) {
        let r = (region ?? PixelRect(x0: 0, y0: 0, x1: img.width, y1: img.height))
            .clipped(width: img.width, height: img.height)
        guard r.width >= 12, r.height >= 12, !stop.now else { return }
        if region == nil { found.removeAll(keepingCapacity: true) }
        thresholds.prepare(
            img, rect: r, blockSize: AreaThresholds.blockSize(r), minContrast: options.minContrast,
            reusing: prepared)
        label(img, r)
        for dark in [true, false] where !stop.now {
            pickCandidates(r, dark: dark)
            for k in 0..<candidateCount {
                // Video frames: a few components per frame, the largest of
                // the strongest regions first; the next frames see the code again.
                if examineBudget == 0 || stop.now { return }
                examineBudget -= 1
                if let c = examine(img, root: Int(candidates[k]), dark: dark) {
                    found.append(c.corners)
                    out.append(c)
                }
            }
        }
    }

    var candidateCount = 0
    /// Components that may still be examined in this frame.
    var examineBudget = Int.max
    /// The best finder and clock pattern score of the grids sampled for
    /// the component being located (0 to 1).
    var bestPattern = 0.0
    /// A pattern score that a grid misplaced by a module or so reaches, and
    /// other shapes rarely do: only then are the runners-up among the
    /// clock tracks' edges tried.
    static let nearlyAGrid = 0.65
    /// A grid whose unguided samplings match the finder and clock
    /// patterns less than this (chance is about half) is no symbol: it
    /// gets no module guides from its clock tracks, nor nudges.
    static let guideGate = 0.6
    /// Which of the top and right clock tracks' edges to take, in turn:
    /// the likeliest (0) or the runner-up (1).
    static let clockPicks = [(0, 0), (1, 0), (0, 1)]
    /// Rows between labelled rows.
    var labelStep = 1

    /// With the symbol's own ink and background levels known (from the
    /// finder and the quiet zone beside it), the midpoint between them;
    /// each test then uses the mean of it and the local block threshold,
    /// which keeps faint borders and shadows near the symbol on the light side.
    var symbolThreshold: Double? = nil
}
