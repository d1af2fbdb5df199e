import Foundation
import RLBarcode

/// One code as the tool reports it, from a still picture or from a video.
struct Report {
    /// The path exactly as given on the command line.
    var file: String
    /// The symbology's readable name ("EAN-13").
    var symbology: String
    /// The decoded text.
    var text: String
    /// The raw payload, if known.
    var bytes: [UInt8]?
    /// The add-on digits; empty when none.
    var addon: String = ""
    /// Extra text (printed UPC digits, GS1 human-readable form); empty when none.
    var extended: String = ""
    /// Corners as x0,y0,...,x3,y3 in pixels.
    var corners: [Int] = []
    /// Rotation in degrees, clockwise.
    var orientation: Int? = nil
    /// The structured-append position (index, total, id), when the symbol has one.
    var sequence: (index: Int, total: Int, id: String)? = nil
    /// The AIM symbology identifier ("]E0"), when known.
    var symbologyID: String? = nil
    /// The confidence from 0 to 100, when known.
    var quality: Int? = nil
    /// Light bars on a dark background, when known.
    var inverted: Bool? = nil
    /// Read from a mirror image, when known.
    var mirrored: Bool? = nil
    /// Video only: the frame index.
    var frame: Int? = nil
    /// Video only: the buffer's presentation time in ns.
    var pts: UInt64? = nil
    /// Video only: the buffer's stream time in ns.
    var streamTime: UInt64? = nil
    /// Video only: the buffer's running time in ns.
    var runningTime: UInt64? = nil
    /// Video only: the buffer's duration in ns (when the buffer has one).
    var duration: UInt64? = nil
    /// Video only: the tracking id.
    var id: UInt32? = nil
    /// Video only: running time (ns) when the code was first seen.
    var firstSeen: UInt64? = nil
    /// Video only: running time (ns) when the code was last seen.
    var lastSeen: UInt64? = nil
    /// Video only: whether this sighting starts the code's track.
    var isNew: Bool? = nil

    /// A report from an engine result for a still picture.
    init(file: String, result: BarcodeResult) {
        self.file = file
        self.symbology = result.symbology.name ?? "unknown"
        self.text = result.text
        self.bytes = result.bytes
        self.addon = result.addOn
        self.extended = result.extendedText
        self.corners = result.corners.flatMap { [Int($0.x.rounded()), Int($0.y.rounded())] }
        self.orientation = result.orientation
        self.symbologyID = result.symbologyIdentifier
        self.quality = result.quality
        self.inverted = result.isInverted
        self.mirrored = result.isMirrored
        if let sa = result.structuredAppend { sequence = (sa.index, sa.total, sa.id) }
    }

    /// An empty report to be filled from a bus message.
    init(file: String, symbology: String, text: String) {
        self.file = file
        self.symbology = symbology
        self.text = text
    }

    /// The JSON object on one line (see ``JSONLine``), keys sorted.
    var jsonLine: String { JSONLine.text(of: self) }

    /// The CSV columns, in the order of ``csvRow``.
    static let csvHeader =
        "file,symbology,text,bytes,addon,extended,corners,orientation,frame,pts,id,first_seen,last_seen"

    /// The CSV row (RFC 4180: fields with a comma, quote or line break are quoted).
    var csvRow: String {
        /// `v` as text, empty when nil.
        func opt<T>(_ v: T?) -> String { v.map { "\($0)" } ?? "" }
        let fields = [
            file, symbology, text, bytes.map { Data($0).base64EncodedString() } ?? "", addon, extended,
            corners.map(String.init).joined(separator: " "), opt(orientation), opt(frame), opt(pts), opt(id),
            opt(firstSeen), opt(lastSeen)
        ]
        return fields.map(CSV.field).joined(separator: ",")
    }

    /// The readable line.
    var humanLine: String {
        var line = printable(file)
        if let pts { line += " @ " + formatTime(pts) }
        if let frame { line += " frame \(frame)" }
        if let id { line += " #\(id)" }
        line += ": \(printable(symbology)) \(printable(text))"
        if !addon.isEmpty { line += " +\(printable(addon))" }
        if !extended.isEmpty && extended != text { line += " (\(printable(extended)))" }
        if corners.count == 8 {
            line +=
                " at "
                + stride(from: 0, to: 8, by: 2).map { "\(corners[$0]),\(corners[$0 + 1])" }
                .joined(separator: " ")
        }
        if let orientation { line += " (\(orientation) deg)" }
        return line
    }
}

/// `h:mm:ss.mmm` for a time in nanoseconds.
func formatTime(_ ns: UInt64) -> String {
    let ms = ns / 1_000_000
    let h = ms / 3_600_000, m = (ms / 60_000) % 60, s = (ms / 1000) % 60, frac = ms % 1000
    /// `v` in decimal, zero-padded to `n` digits.
    func pad(_ v: UInt64, _ n: Int) -> String {
        let t = String(v)
        return String(repeating: "0", count: max(0, n - t.count)) + t
    }
    return "\(h):\(pad(m, 2)):\(pad(s, 2)).\(pad(frac, 3))"
}

/// Minimal CSV text helpers.
enum CSV {
    /// One field: quoted (with quotes doubled) when it holds a comma, a
    /// quote, a line break or leading/trailing spaces; as it is otherwise.
    static func field(_ text: String) -> String {
        let special =
            text.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
            || text.first == " " || text.last == " "
        return special ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
}

/// Writes lines to stdout and stderr; stdout is flushed per file so that a
/// consumer sees results while a long batch runs.
enum Console {
    /// Prints a line on standard output.
    static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Prints a line on standard error, prefixed with the program name.
    /// The line is escaped as the readable output is (``printable(_:)``),
    /// file names and the decoders' messages with it.
    static func err(_ line: String) {
        errPrintable(printable(line))
    }

    /// Prints a line that is already escaped on standard error, prefixed
    /// with the program name.
    static func errPrintable(_ line: String) {
        FileHandle.standardError.write(Data(("rlbarcode-scan: " + line + "\n").utf8))
    }

    /// Writes raw text on standard error (for the progress bar).
    static func rawErr(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
