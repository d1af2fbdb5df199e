import RLBarcode

/// The version printed by `--version`.
let toolVersion = "0.1.0"

/// Exit statuses, as documented in `--help`.
enum ExitStatus: Int32 {
    /// Every file was read (codes found or not).
    case ran = 0
    /// At least one file could not be read or decoded; the others were scanned.
    case unreadable = 1
    /// The command line was wrong; nothing was scanned.
    case usage = 2
    /// This build needs a newer x86-64 level than this CPU's (a message on
    /// standard error says which); nothing was scanned.
    case unsupportedCPU = 3
    /// Some file was truncated or damaged but partly read (a warning on
    /// standard error says what is wrong); its codes were printed, and no
    /// file was unreadable.
    case damaged = 4

    /// The status of a run in which both `self` and `other` happened: an
    /// unreadable file outweighs a damaged one, which outweighs none.
    func worst(_ other: ExitStatus) -> ExitStatus {
        let rank: [ExitStatus: Int] = [.ran: 0, .damaged: 1, .unreadable: 2, .usage: 3, .unsupportedCPU: 4]
        return rank[other, default: 0] > rank[self, default: 0] ? other : self
    }
}

/// The default of `--max-pixels`: 64 megapixels (8000 by 8000), above every
/// phone camera's usual picture.
let defaultMaxPixels = 64_000_000

/// The text printed by `--help`.
let helpText = """
    Usage: rlbarcode-scan [OPTIONS] PATH...   (PATH '-' is standard input)

    Finds and decodes barcodes in still pictures and video files, and prints one
    line (or JSON object, or CSV row) per code.

    Still pictures (PNG, JPEG, BMP, TIFF, ... anything GStreamer can decode) are
    converted to 8-bit luma and scanned thoroughly: every orientation, inverted
    codes, several scales. Video files (decided by their frame rate, or by their
    file name extension) are played through the `rlbarcode` GStreamer element,
    which reports each code when it first comes into view and again after it was
    lost for a while.

    Options:
      --jsonl                 print one JSON object per code on stdout instead of
                              the readable form (see "JSON lines" below)
      --csv                   print CSV instead: a header line, then one row per
                              code (see "CSV" below)
      --annotate DIR          write PNG pictures with the codes outlined into DIR
                              (created if missing): each still picture with
                              codes as NAME.png; for a video, each frame in which
                              a code was reported, as NAME-frameNNNNNN.png, with
                              the outlines and labels the element draws
      --symbologies LIST      symbologies to report, nicks joined by '+' or ',':
                              ean-13 upc-a upc-e ean-8 ean-2 ean-5 code-128
                              code-39 code-93 itf codabar databar databar-expanded
                              qr-code data-matrix pdf417 aztec, or `all` (default)
      --region X,Y,W,H        where codes are expected, as fractions of the frame
                              (0..1), e.g. 0.25,0.25,0.5,0.5; effort is
                              concentrated there
      --region-only           look for codes inside --region only
      --orientation DIR       where the top edge of the expected codes points:
                              any (default), up, right, down, left; tried first
      --effort LEVEL          fast, balanced or thorough; default: thorough for
                              still pictures, the element's default (balanced)
                              for video files
      --exhaustive            still pictures at thorough effort: every picture
                              searched at full depth, not only those that a
                              first, quicker look reads nothing in (finds every
                              code of a picture with several; slower)
      --threads N             threads one picture or frame may use: 0 (default)
                              one per processor, at most 2; 1 the main thread
                              only (the element's n-threads for video files)
      --no-progress           no progress bar for video files (a bar with the
                              time played and the percentage is drawn on standard
                              error, only when it is a terminal)
      --max-pixels N          refuse still pictures of more than N pixels
                              (default 64000000; 0: no limit): PNG, JPEG, GIF,
                              BMP and WebP by their header, before decoding;
                              other formats once decoded
      --timing                at the end, on standard error: how many still
                              pictures were scanned and the milliseconds their
                              scans took (mean, median, slowest), the decoding
                              of the files left out
      -h, --help              show this help and exit
      --version               show the version and exit
      --                      end of options: every following word is a PATH
      -                       as a PATH: read a picture or a video from standard
                              input (reported as file "-"; a file named '-' is
                              ./-)

    Readable output, one line per code:
      FILE: EAN-13 5901234123457 +12345 at 52,30 248,30 248,160 52,160 (0 deg)
      FILE @ 0:00:01.233 frame 37 #2: UPC-A 0036000291452 at ...
      In it, and in messages on standard error, a backslash is written \\\\,
      control characters \\x{1D} and bidirectional controls and line separators
      \\u{202E} (hexadecimal in braces), file names too; JSON and CSV keep the
      text exactly.

    JSON lines (--jsonl), one object per code, keys in alphabetical order:
      file          the PATH exactly as given
      symbology     "EAN-13", "UPC-A", "QR-Code", ...
      symbology_id  the AIM symbology identifier, e.g. "]E0"
      text          the decoded text (UPC-A and UPC-E as 13-digit GTINs)
      bytes         base64 of the raw payload bytes
      quality       confidence from 0 to 100
      addon         EAN-2/EAN-5 add-on digits ("" when none)
      extended      extra text, e.g. the printed UPC-A/UPC-E digits ("" when none)
      corners       [x0,y0,x1,y1,x2,y2,x3,y3] in pixels, the code's top-left first
      orientation   the code's rotation in degrees, clockwise
      inverted      light bars on a dark background (true/false)
      mirrored      read from a mirror image (true/false)
      sequence      {"id","index","total"}: only for structured-append symbols
      video files also: frame (index), pts, stream_time, running_time (ns), id
      (stable while the code is tracked), first_seen and last_seen (running
      time, ns), new (true when the track starts), duration (ns, when the frame
      has one); still pictures have none of these keys (never null)

    CSV (--csv), RFC 4180 quoting, a header line first, with the columns
      file,symbology,text,bytes,addon,extended,corners,orientation,
      frame,pts,id,first_seen,last_seen
      the same fields as the JSON lines; corners as "x0 y0 x1 y1 x2 y2 x3 y3";
      empty when a field does not apply

    Examples:
      rlbarcode-scan shelf.jpg                       codes of one picture
      rlbarcode-scan --jsonl --symbologies ean-13+upc-a photos/*.png
      rlbarcode-scan --csv clip.mp4 > codes.csv      when each code came into view
      rlbarcode-scan --annotate /tmp/seen clip.mp4   frames with the codes outlined
      rlbarcode-scan --region 0.25,0.25,0.5,0.5 --region-only --orientation up a.mp4

    Environment:
      GST_PLUGIN_PATH         where GStreamer looks for plugins; if the
                              `rlbarcode` element is not found there,
                              libgstrlbarcode.so is loaded from this program's
                              own directory (video files only)

    Exit status:
      0  every file was read, whether or not codes were found
      1  some file could not be read or decoded, or was refused (over
         --max-pixels); a message on standard error names it; the other files
         were still scanned
      2  usage error (unknown option, bad value, no PATH, an --annotate DIR that
         cannot be created); nothing was scanned
      3  this build needs a newer x86-64 CPU than this one (built for another
         machine: rebuild with RLBARCODE_CPU=baseline); nothing was scanned
      4  some file was truncated or damaged (a warning on standard error says
         how) but was partly read, and what was read is printed; no file gave 1
    """

/// What the command line asks for.
struct Arguments {
    /// Print JSON lines instead of readable text.
    var jsonl = false
    /// Print CSV (a header line, then a row per code) instead of readable text.
    var csv = false
    /// `--annotate DIR`: where to write PNG pictures with the codes outlined.
    var annotate: String? = nil
    /// The symbologies to report.
    var symbologies: Symbology = .all
    /// The `--region` rectangle, if given.
    var region: NormalizedRect? = nil
    /// `--region-only`.
    var regionOnly = false
    /// The orientation hint.
    var orientation: Orientation = .any
    /// The effort, if given; `nil` keeps the per-kind defaults.
    var effort: Effort? = nil
    /// `--threads`: 0 = one per processor (at most 2).
    var threads = 0
    /// Show a progress bar for videos when standard error is a terminal.
    var progress = true
    /// `--timing`: print how long the still pictures' scans took.
    var timing = false
    /// `--exhaustive`: every still picture at full thorough depth.
    var exhaustive = false
    /// `--max-pixels`: the largest still picture scanned, in pixels; 0 for no limit.
    var maxPixels = defaultMaxPixels
    /// The paths, exactly as given.
    var paths: [String] = []

    /// What parsing decided besides scanning.
    enum Action {
        /// Scan `paths`.
        case scan
        /// Print the help and exit 0.
        case help
        /// Print the version and exit 0.
        case version
    }

    /// A usage error with its message.
    struct UsageError: Error {
        /// A sentence naming the problem.
        let message: String
    }

    /// Parses the words after the program name.
    ///
    /// Options may come before, between or after the paths; `--opt=value`
    /// and `--opt value` are both accepted.
    static func parse(_ words: [String]) throws(UsageError) -> (Arguments, Action) {
        var args = Arguments()
        var index = 0
        var onlyPaths = false

        /// The value of an option: after `=` or the next word.
        func value(_ name: String, _ inline: String?) throws(UsageError) -> String {
            if let inline { return inline }
            index += 1
            guard index < words.count else { throw UsageError(message: "\(name) needs a value") }
            return words[index]
        }

        while index < words.count {
            let word = words[index]
            if onlyPaths || !word.hasPrefix("-") || word == "-" {
                args.paths.append(word)
                index += 1
                continue
            }
            var name = word
            var inline: String? = nil
            if word.hasPrefix("--"), let eq = word.firstIndex(of: "=") {
                name = String(word[..<eq])
                inline = String(word[word.index(after: eq)...])
            }
            switch name {
            case "--":
                onlyPaths = true
            case "-h", "--help":
                return (args, .help)
            case "--version":
                return (args, .version)
            case "--jsonl":
                args.jsonl = true
            case "--csv":
                args.csv = true
            case "--annotate":
                let dir = try value(name, inline)
                guard !dir.isEmpty else { throw UsageError(message: "--annotate needs a folder") }
                args.annotate = dir
            case "--region-only":
                args.regionOnly = true
            case "--no-progress":
                args.progress = false
            case "--timing":
                args.timing = true
            case "--exhaustive":
                args.exhaustive = true
            case "--symbologies":
                let text = try value(name, inline)
                guard let set = Symbology(parsing: text), !set.isEmpty else {
                    throw UsageError(
                        message: "--symbologies: \"\(text)\" names no known symbology "
                            + "(try ean-13+upc-a, or see --help)")
                }
                args.symbologies = set
            case "--region":
                let text = try value(name, inline)
                switch NormalizedRect.parse(text) {
                case .success(let rect): args.region = rect
                case .failure(let error): throw UsageError(message: "--region: \(error.message)")
                }
            case "--orientation":
                let text = try value(name, inline).lowercased()
                guard let o = Orientation.allCases.first(where: { $0.nick == text }) else {
                    throw UsageError(message: "--orientation: \"\(text)\" is not one of any, up, right, down, left")
                }
                args.orientation = o
            case "--effort":
                let text = try value(name, inline).lowercased()
                guard let e = Effort.allCases.first(where: { $0.nick == text }) else {
                    throw UsageError(message: "--effort: \"\(text)\" is not one of fast, balanced, thorough")
                }
                args.effort = e
            case "--max-pixels":
                let text = try value(name, inline)
                guard let n = Int(text), n >= 0 else {
                    throw UsageError(message: "--max-pixels: \"\(text)\" is not a whole number of pixels (0: no limit)")
                }
                args.maxPixels = n
            case "--threads":
                let text = try value(name, inline)
                guard let n = Int(text), n >= 0, n <= 64 else {
                    throw UsageError(message: "--threads: \"\(text)\" is not a number from 0 to 64")
                }
                args.threads = n
            default:
                throw UsageError(message: "unknown option \(word)")
            }
            if inline != nil,
                ["--jsonl", "--csv", "--region-only", "--no-progress", "--timing", "--exhaustive", "--"].contains(name)
            {
                throw UsageError(message: "\(name) takes no value")
            }
            index += 1
        }
        if args.jsonl && args.csv {
            throw UsageError(message: "--jsonl and --csv exclude each other: choose one output format")
        }
        if args.regionOnly && args.region == nil {
            throw UsageError(message: "--region-only needs --region X,Y,W,H")
        }
        if args.paths.isEmpty {
            throw UsageError(message: "no PATH given")
        }
        return (args, .scan)
    }

    /// The engine options for still pictures (thorough unless `--effort` says otherwise).
    var stillOptions: ScanOptions {
        ScanOptions(
            symbologies: symbologies, activeRegion: region, regionOnly: regionOnly,
            orientation: orientation, effort: effort ?? .thorough, threads: threads,
            exhaustive: exhaustive)
    }

    /// The `rlbarcode` element properties for video files, as name/value strings.
    /// Only properties that differ from the element's defaults are set.
    var elementProperties: [(String, String)] {
        var props: [(String, String)] = []
        if symbologies != .all {
            props.append(("symbologies", symbologies.members.compactMap(\.nick).joined(separator: "+")))
        }
        if let region {
            props.append(("active-region", region.description))
        }
        if regionOnly { props.append(("region-only", "true")) }
        if orientation != .any { props.append(("orientation", orientation.nick)) }
        if let effort { props.append(("effort", effort.nick)) }
        if threads != 0 { props.append(("n-threads", String(threads))) }
        // --annotate: the element draws outlines and labels into the frames
        // and hands each reported code's frame over in its message.
        if annotate != nil { props += [("draw", "true"), ("attach-frame", "true")] }
        return props
    }
}
