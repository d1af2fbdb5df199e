import CGStreamer
import RLBarcode

/// The property ids of `rlbarcode` (GObject numbers them from 1).
enum Property: guint, CaseIterable {
    case symbologies = 1
    case activeRegion
    case regionOnly
    case orientation
    case effort
    case message
    case report
    case lostAfter
    case attachMeta
    case attachFrame
    case frameClean
    case frameMaxSize
    case draw
    case drawLabels
    case outlineColor
    case unwantedColor
    case paused
    case nThreads
    case framesAnalysed
    case framesSkipped
    case framesRejected
    case analysisThreads

    /// The name users type.
    var name: String {
        switch self {
        case .symbologies: "symbologies"
        case .activeRegion: "active-region"
        case .regionOnly: "region-only"
        case .orientation: "orientation"
        case .effort: "effort"
        case .message: "message"
        case .report: "report"
        case .lostAfter: "lost-after"
        case .attachMeta: "attach-meta"
        case .attachFrame: "attach-frame"
        case .frameClean: "frame-clean"
        case .frameMaxSize: "frame-max-size"
        case .draw: "draw"
        case .drawLabels: "draw-labels"
        case .outlineColor: "outline-color"
        case .unwantedColor: "unwanted-color"
        case .paused: "paused"
        case .nThreads: "n-threads"
        case .framesAnalysed: "frames-analysed"
        case .framesSkipped: "frames-skipped"
        case .framesRejected: "frames-rejected"
        case .analysisThreads: "analysis-threads"
        }
    }

    /// The setting of a boolean property, nil for the others.
    var flag: WritableKeyPath<Settings, Bool>? {
        switch self {
        case .regionOnly: \.regionOnly
        case .message: \.postMessages
        case .attachMeta: \.attachMeta
        case .attachFrame: \.attachFrame
        case .frameClean: \.frameClean
        case .draw: \.draw
        case .drawLabels: \.drawLabels
        case .paused: \.paused
        default: nil
        }
    }

    /// How GObject declares the property.
    var declaration: PropertyDeclaration {
        switch self {
        case .symbologies:
            PropertyDeclaration(
                "Symbologies", "The barcode symbologies to look for (e.g. ean-13+qr-code)",
                .flags(symbologiesFlagsType, default: guint(Settings.defaultSymbologies.rawValue)))
        case .activeRegion:
            PropertyDeclaration(
                "Active region",
                "Where codes are expected, \"x,y,w,h\" in fractions of the frame (0..1); "
                    + "empty for the whole frame",
                .string(default: ""))
        case .regionOnly:
            PropertyDeclaration(
                "Region only", "Look for codes only inside active-region (no effect while it is empty)",
                .boolean(default: false))
        case .orientation:
            PropertyDeclaration(
                "Orientation", "Where the top edge of the expected codes points; tried first",
                .enumeration(orientationEnumType, default: gint(Orientation.any.rawValue)))
        case .effort:
            PropertyDeclaration(
                "Effort",
                "How much work to spend per frame; still pictures (framerate 0/1) "
                    + "get thorough depth at balanced",
                .enumeration(effortEnumType, default: gint(Effort.balanced.rawValue)))
        case .message:
            PropertyDeclaration(
                "Message", "Post a \"barcode\" element message per reported code", .boolean(default: true))
        case .report:
            PropertyDeclaration(
                "Report", "When a code is reported",
                .enumeration(reportEnumType, default: gint(ReportMode.new.rawValue)))
        case .lostAfter:
            PropertyDeclaration(
                "Lost after",
                "Time (ns) a code must go unseen before it counts as lost (and is new when seen again)",
                .uint64(default: Settings.defaultLostAfter))
        case .attachMeta:
            PropertyDeclaration(
                "Attach meta", "Attach a GstVideoRegionOfInterestMeta of type \"barcode\" per code",
                .boolean(default: true))
        case .attachFrame:
            PropertyDeclaration(
                "Attach frame", "Add the frame as a GstSample (field \"frame\") to barcode messages",
                .boolean(default: false))
        case .frameClean:
            PropertyDeclaration(
                "Frame clean", "With attach-frame, the frame as it came in, before draw drew on it",
                .boolean(default: false))
        case .frameMaxSize:
            PropertyDeclaration(
                "Frame max size",
                "With attach-frame, scale the frame down so that its longest side is at "
                    + "most this many pixels (0 = full size)",
                .uint(max: guint(Int32.max), default: 0))
        case .draw:
            PropertyDeclaration("Draw", "Draw code outlines into the frames", .boolean(default: false))
        case .drawLabels:
            PropertyDeclaration(
                "Draw labels", "With draw, also write the decoded text next to each code", .boolean(default: true))
        case .outlineColor:
            PropertyDeclaration(
                "Outline color", "Color of code outlines, ARGB (alpha 0 hides them)",
                .uint(max: guint.max, default: Settings.defaultOutlineColor))
        case .unwantedColor:
            PropertyDeclaration(
                "Unwanted color", "Color of codes marked with report-unwanted, ARGB (alpha 0 hides them)",
                .uint(max: guint.max, default: Settings.defaultUnwantedColor))
        case .paused:
            PropertyDeclaration("Paused", "Pass frames through without analysis", .boolean(default: false))
        case .nThreads:
            PropertyDeclaration(
                "Threads",
                "Threads one frame's analysis may use: 0 = one per processor, at most 2 "
                    + "(the matrix codes' searches beside the linear ones); 1 = the streaming "
                    + "thread only; more than 2 counts as 2",
                .uint(max: guint(Int32.max), default: 0))
        case .analysisThreads:
            PropertyDeclaration(
                "Analysis threads",
                "Scans that may run at once in the analysis pool every rlbarcode element of the process "
                    + "shares, taking turns stream by stream: 0 = RLBARCODE_ANALYSIS_THREADS, else one per "
                    + "online processor; setting it on any element sets it for the process",
                .uint(max: 256, default: 0))
        case .framesAnalysed:
            PropertyDeclaration(
                "Frames analysed", "Frames given to analysis since the element started",
                .uint64(default: 0), readOnly: true)
        case .framesSkipped:
            PropertyDeclaration(
                "Frames skipped",
                "Frames passed on unanalysed because they were late (QoS events, or live frames due at the sink)",
                .uint64(default: 0), readOnly: true)
        case .framesRejected:
            PropertyDeclaration(
                "Frames rejected",
                "Buffers passed on unread because their planes (offset, stride, rows) do not fit their memory",
                .uint64(default: 0), readOnly: true)
        }
    }
}

/// A property as GObject declares it: nick, blurb, value type with its
/// range and default, and whether it can be written.
struct PropertyDeclaration {
    /// The value type, its range and its default.
    enum Value {
        case boolean(default: Bool)
        case uint(max: guint, default: guint)
        case uint64(default: UInt64)
        case string(default: String)
        case enumeration(GType, default: gint)
        case flags(GType, default: guint)
    }

    /// The short name tools show.
    let nick: String
    /// The description.
    let blurb: String
    /// The value type.
    let value: Value
    /// Whether only reading is allowed (the counters); the others are
    /// readable, writable and changeable while PLAYING.
    let readOnly: Bool

    init(_ nick: String, _ blurb: String, _ value: Value, readOnly: Bool = false) {
        self.nick = nick
        self.blurb = blurb
        self.value = value
        self.readOnly = readOnly
    }

    /// The `GParamSpec` of a property called `name` (unsigned values from 0).
    func paramSpec(name: String) -> UnsafeMutablePointer<GParamSpec>? {
        let flags = readOnly ? GParamFlags(rawValue: G_PARAM_READABLE.rawValue) : elementParamFlags
        switch value {
        case .boolean(let d): return g_param_spec_boolean(name, nick, blurb, d ? 1 : 0, flags)
        case .uint(let max, let d): return g_param_spec_uint(name, nick, blurb, 0, max, d, flags)
        case .uint64(let d): return g_param_spec_uint64(name, nick, blurb, 0, UInt(UInt64.max), UInt(d), flags)
        case .string(let d): return g_param_spec_string(name, nick, blurb, d, flags)
        case .enumeration(let type, let d): return g_param_spec_enum(name, nick, blurb, type, d, flags)
        case .flags(let type, let d): return g_param_spec_flags(name, nick, blurb, type, d, flags)
        }
    }
}
