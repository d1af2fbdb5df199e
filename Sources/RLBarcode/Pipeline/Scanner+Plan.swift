/// The per-effort settings of a scan.
extension Scanner {
    /// Per-effort settings.
    struct Plan {
        var cellSize: Int
        var minEnergy: Float
        var minCoherence: Float
        var minCells: Int
        var maxCandidates: Int
        var linesPerCandidate: Int
        var thickness: Int
        var relativeEdge: Float
        var floorEdge: Float
        var sweeps: Bool
        var minVotes: Int
        var refine: Bool
        var prune: Float
        var smooth: Bool
        /// Whether lines that read nothing are measured again by bar areas.
        var area: Bool = true
        /// Lines that must read something before a candidate is done.
        var enoughReadings: Int
        /// How many lines of a candidate get the costlier retries (edges at
        /// halfway levels, pruning, bar areas, wider pruning, smoothing)
        /// before it has read anything.
        var retryLines = 4
        /// A candidate whose first lines (from the middle out) read nothing
        /// is given up after this many.
        var giveUpLines = Int.max
        /// The frame's strongest candidates (the first this many in reading
        /// order) get `giveUpLines` lines before they are given up; the
        /// others, `laterGiveUpLines`: in a frame of many candidates most
        /// are text and texture, and a code's middle lines read it.
        var fullLinesCandidates = Int.max
        var laterGiveUpLines = Int.max
        /// A candidate whose first lines all cross fewer than `minLineEdges`
        /// (too few for any symbology) is given up after this many (video
        /// frames: one, the middle line; text and texture make most
        /// candidates).
        var sparseLinesToGiveUp = Int.max
        /// With an orientation hint, read lines only in the hinted direction.
        var hintedDirectionOnly = false
        /// Distance between samples along sweep lines, in pixels.
        var sweepStep: Double = 1
        /// Whether every line is read in both polarities (dark bars on light
        /// and light on dark). Video frames read light-on-dark codes in every
        /// other frame only: they are rare, and a code in view stays there
        /// for many frames.
        var bothPolaritiesEveryFrame = true
        /// Whether light-on-dark linear codes are looked for at all (a
        /// still picture's first look leaves them to the full depth).
        var lightOnDark = true
        /// Whether every matrix search runs whichever frame's turn it is
        /// (``MatrixReaders/prepareSquare(_:bounds:enabled:thorough:everySearch:cells:)``):
        /// the seldom tiles of the rest of a frame with an active region.
        var everySearch = false
        /// Whether parts of codes cut by the frame's border are kept and
        /// joined across frames (video: the camera pans; still pictures
        /// have no other frame).
        var partials = true
        /// Still-picture depth: sweeps, every matrix search at full
        /// resolution, failed symbols sampled again, MicroPDF417.
        var thorough = false
    }

    func plan(for image: LumaView, effort: Effort) -> Plan {
        let small = min(image.width, image.height) < 400
        switch effort {
        case .fast:
            return Plan(
                cellSize: small ? 8 : 16, minEnergy: 120, minCoherence: 0.7, minCells: 3, maxCandidates: 8,
                linesPerCandidate: 5, thickness: 3, relativeEdge: 0.15, floorEdge: 4, sweeps: false, minVotes: 2,
                refine: false, prune: 0.15, smooth: false, enoughReadings: 3,
                hintedDirectionOnly: true, bothPolaritiesEveryFrame: false)
        case .balanced:
            return Plan(
                cellSize: small ? 8 : 16, minEnergy: 40, minCoherence: 0.55, minCells: 2, maxCandidates: 32,
                linesPerCandidate: 21, thickness: 3, relativeEdge: 0.1, floorEdge: 2, sweeps: false, minVotes: 2,
                refine: true, prune: 0.15, smooth: true, enoughReadings: 4,
                giveUpLines: 5, fullLinesCandidates: 4, laterGiveUpLines: 2, sparseLinesToGiveUp: 1,
                bothPolaritiesEveryFrame: false)
        case .thorough:
            return Plan(
                cellSize: small ? 8 : 16, minEnergy: 25, minCoherence: 0.5, minCells: 2, maxCandidates: 64,
                linesPerCandidate: 15, thickness: 3, relativeEdge: 0.1, floorEdge: 2, sweeps: true, minVotes: 2,
                refine: true, prune: 0.15, smooth: true, enoughReadings: 1000, retryLines: 1000, sweepStep: 0.5,
                partials: false, thorough: true)
        }
    }

    /// The reading direction (left to right on the code) that the
    /// orientation hint expects, in frame coordinates.
    var expectedReading: (Double, Double)? {
        switch options.orientation {
        case .any: nil
        case .up: (1, 0)
        case .right: (0, 1)
        case .down: (-1, 0)
        case .left: (0, -1)
        }
    }

    /// The fewest edges a scan line must cross to be read: fewer hold no
    /// symbol of the lengths the linear readers accept.
    static let minLineEdges = 20
}
