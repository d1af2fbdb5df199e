/// A set of barcode symbologies.
///
/// The bit order is part of the public contract: the GStreamer element's
/// `symbologies` flags use the same bits, and ``Symbology/nick`` names them
/// as users type them (`ean-13+qr-code`).
public struct Symbology: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    /// Creates a set from its raw bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// EAN-13 (ISO/IEC 15420).
    public static let ean13 = Symbology(rawValue: 1 << 0)
    /// UPC-A (ISO/IEC 15420).
    public static let upcA = Symbology(rawValue: 1 << 1)
    /// UPC-E (ISO/IEC 15420).
    public static let upcE = Symbology(rawValue: 1 << 2)
    /// EAN-8 (ISO/IEC 15420).
    public static let ean8 = Symbology(rawValue: 1 << 3)
    /// EAN-2 add-on, reported with its main code (ISO/IEC 15420, Annex 5).
    public static let ean2 = Symbology(rawValue: 1 << 4)
    /// EAN-5 add-on, reported with its main code (ISO/IEC 15420, Annex 5).
    public static let ean5 = Symbology(rawValue: 1 << 5)
    /// Code 128 and GS1-128 (ISO/IEC 15417).
    public static let code128 = Symbology(rawValue: 1 << 6)
    /// Code 39 (ISO/IEC 16388).
    public static let code39 = Symbology(rawValue: 1 << 7)
    /// Code 93 (AIM USS-93).
    public static let code93 = Symbology(rawValue: 1 << 8)
    /// Interleaved 2 of 5 (ISO/IEC 16390).
    public static let itf = Symbology(rawValue: 1 << 9)
    /// Codabar (EN 798).
    public static let codabar = Symbology(rawValue: 1 << 10)
    /// GS1 DataBar Omnidirectional, Truncated, Stacked and Limited (ISO/IEC 24724).
    public static let dataBar = Symbology(rawValue: 1 << 11)
    /// GS1 DataBar Expanded and Expanded Stacked (ISO/IEC 24724).
    public static let dataBarExpanded = Symbology(rawValue: 1 << 12)
    /// QR Code (ISO/IEC 18004).
    public static let qrCode = Symbology(rawValue: 1 << 13)
    /// Data Matrix ECC 200 (ISO/IEC 16022).
    public static let dataMatrix = Symbology(rawValue: 1 << 14)
    /// PDF417 (ISO/IEC 15438).
    public static let pdf417 = Symbology(rawValue: 1 << 15)
    /// Aztec Code (ISO/IEC 24778).
    public static let aztec = Symbology(rawValue: 1 << 16)
    /// MicroPDF417 (ISO/IEC 24728): the symbology of results only. It has
    /// no flag and no nick of its own: ``pdf417`` enables it (see
    /// ``flag``), and it is not in ``allCases`` or ``all``.
    public static let microPDF417 = Symbology(rawValue: 1 << 17)

    /// The member of ``allCases`` whose flag enables this symbology:
    /// ``pdf417`` for ``microPDF417``, else the symbology itself.
    public var flag: Symbology { self == .microPDF417 ? .pdf417 : self }

    /// Every symbology the project names, in bit order.
    public static let allCases: [Symbology] = [
        .ean13, .upcA, .upcE, .ean8, .ean2, .ean5, .code128, .code39, .code93, .itf,
        .codabar, .dataBar, .dataBarExpanded, .qrCode, .dataMatrix, .pdf417, .aztec
    ]
    /// Every symbology.
    public static let all = Symbology(rawValue: (1 << 17) - 1)
    /// The EAN/UPC family with its add-ons.
    public static let eanUPC: Symbology = [.ean13, .upcA, .upcE, .ean8, .ean2, .ean5]
    /// The symbologies this version of the engine decodes.
    public static let supported: Symbology = makeLinearReaders().reduce(MatrixReaders.symbologies) {
        $0.union($1.symbologies)
    }

    /// The name users type (`ean-13`), for a single symbology; `nil` for a set.
    public var nick: String? {
        switch self {
        case .ean13: "ean-13"
        case .upcA: "upc-a"
        case .upcE: "upc-e"
        case .ean8: "ean-8"
        case .ean2: "ean-2"
        case .ean5: "ean-5"
        case .code128: "code-128"
        case .code39: "code-39"
        case .code93: "code-93"
        case .itf: "itf"
        case .codabar: "codabar"
        case .dataBar: "databar"
        case .dataBarExpanded: "databar-expanded"
        case .qrCode: "qr-code"
        case .dataMatrix: "data-matrix"
        case .pdf417: "pdf417"
        case .aztec: "aztec"
        default: nil
        }
    }

    /// The name users read (`EAN-13`, `QR-Code`), for a single symbology; `nil` for a set.
    ///
    /// This is the `type` field of the element's `barcode` message and the
    /// `symbology` of the CLI's JSON lines.
    public var name: String? {
        switch self {
        case .ean13: "EAN-13"
        case .upcA: "UPC-A"
        case .upcE: "UPC-E"
        case .ean8: "EAN-8"
        case .ean2: "EAN-2"
        case .ean5: "EAN-5"
        case .code128: "Code-128"
        case .code39: "Code-39"
        case .code93: "Code-93"
        case .itf: "ITF"
        case .codabar: "Codabar"
        case .dataBar: "DataBar"
        case .dataBarExpanded: "DataBar-Expanded"
        case .qrCode: "QR-Code"
        case .dataMatrix: "Data-Matrix"
        case .pdf417: "PDF417"
        case .aztec: "Aztec"
        case .microPDF417: "MicroPDF417"
        default: nil
        }
    }

    /// Parses a list of nicks joined by `+`, `,`, `|` or spaces (`ean-13+qr-code`),
    /// also accepting `all` and the names users read (`EAN-13`), case-insensitively.
    ///
    /// - Returns: the set, or `nil` when a word names no symbology.
    public init?(parsing text: String) {
        var set = Symbology()
        let words = text.split(whereSeparator: { "+,| ".contains($0) })
        if words.isEmpty { return nil }
        for word in words {
            let w = word.lowercased()
            if w == "all" { set.formUnion(.all); continue }
            guard
                let one = Symbology.allCases.first(where: {
                    $0.nick == w || $0.name?.lowercased() == w
                        || ($0.nick.map { String($0.filter { $0 != "-" }) } == String(w.filter { $0 != "-" }))
                })
            else { return nil }
            set.formUnion(one)
        }
        self = set
    }

    /// The single symbologies in this set, in bit order.
    public var members: [Symbology] { Symbology.allCases.filter { contains($0) } }
}
