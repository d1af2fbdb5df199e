import RLBarcode

/// When the element posts a `barcode` message for a code.
enum ReportMode: Int, Sendable, CaseIterable {
    /// When a code is first seen, and again after it was lost (default).
    case new = 0
    /// For every code in every frame.
    case everyFrame

    /// The name users type.
    var nick: String {
        switch self {
        case .new: "new"
        case .everyFrame: "every-frame"
        }
    }
}

/// A code the application marked as unwanted with the `report-unwanted`
/// action signal: it is no longer reported and is drawn crossed out.
struct UnwantedCode: Sendable, Hashable {
    /// The symbology (a single member).
    var symbology: Symbology
    /// The decoded text.
    var text: String
}

/// Everything the properties set. Written by the application thread,
/// read by the streaming thread, which copies it at the start of each frame.
struct Settings: Sendable {
    /// Default of `symbologies`: all.
    static let defaultSymbologies = Symbology.all
    /// Default of `lost-after`: one second, in nanoseconds.
    static let defaultLostAfter: UInt64 = 1_000_000_000
    /// Default of `outline-color`: opaque green (ARGB).
    static let defaultOutlineColor: UInt32 = 0xFF00_FF00
    /// Default of `unwanted-color`: opaque red (ARGB).
    static let defaultUnwantedColor: UInt32 = 0xFFFF_0000

    /// `symbologies`: what the scanner looks for.
    var symbologies = Settings.defaultSymbologies
    /// `active-region` as the user wrote it ("" = whole frame).
    var activeRegionText = ""
    /// `active-region` parsed.
    var activeRegion: NormalizedRect? = nil
    /// `region-only`.
    var regionOnly = false
    /// `orientation`.
    var orientation = Orientation.any
    /// `effort`.
    var effort = Effort.balanced
    /// `message`: post `barcode` messages.
    var postMessages = true
    /// `report`.
    var report = ReportMode.new
    /// `lost-after`, in nanoseconds.
    var lostAfter = Settings.defaultLostAfter
    /// `attach-meta`.
    var attachMeta = true
    /// `attach-frame`.
    var attachFrame = false
    /// `frame-clean`: the attached frame is taken before drawing.
    var frameClean = false
    /// `frame-max-size`: the attached frame's longest side, in pixels (0: full size).
    var frameMaxSize = 0
    /// `draw`.
    var draw = false
    /// `draw-labels`.
    var drawLabels = true
    /// `outline-color` (ARGB).
    var outlineColor = Settings.defaultOutlineColor
    /// `unwanted-color` (ARGB).
    var unwantedColor = Settings.defaultUnwantedColor
    /// `paused`: frames pass without analysis.
    var paused = false
    /// `n-threads`: 0 = one per processor (at most 2), else how many.
    var threads = 0
    /// `analysis-threads`: the size asked of the shared analysis pool (0: its default).
    var analysisThreads = 0

    /// Bumped by `clear-results`; the streaming thread clears its table
    /// when it sees a new value.
    var clearGeneration: UInt64 = 0
    /// Codes marked with `report-unwanted`.
    var unwanted: Set<UnwantedCode> = []

    /// The scanner options these settings ask for.
    var scanOptions: ScanOptions {
        ScanOptions(
            symbologies: symbologies, activeRegion: activeRegion, regionOnly: regionOnly,
            orientation: orientation, effort: effort, threads: threads)
    }
}
