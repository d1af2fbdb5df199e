/// One decoded barcode.
public struct BarcodeResult: Sendable, Hashable {
    /// The symbology that was read (a single member of ``Symbology``).
    public var symbology: Symbology
    /// The decoded text, following the project's text conventions: UPC-A and
    /// UPC-E as 13-digit GTINs, GS1 content as the raw element string.
    public var text: String
    /// The exact payload bytes (for EAN/UPC, the ASCII digits of ``text``).
    public var bytes: [UInt8]
    /// The AIM symbology identifier, such as `]E0`.
    public var symbologyIdentifier: String
    /// Extra text: the printed 12- or 8-digit form of UPC-A/UPC-E, the GS1
    /// human-readable form `(01)...`; empty when there is none.
    public var extendedText: String
    /// The digits of an associated EAN-2 or EAN-5 add-on; empty when none.
    public var addOn: String
    /// The four corners in frame pixels: the code's own top-left first, then
    /// top-right, bottom-right, bottom-left (as read, whatever the rotation).
    public var corners: [Point]
    /// The code's rotation in degrees clockwise from upright (0 ..< 360).
    public var orientation: Int
    /// Light bars or modules on a dark background.
    public var isInverted: Bool
    /// Mirrored (read from a mirror image).
    public var isMirrored: Bool
    /// A confidence from 0 to 100 (how many scan lines agreed, or how few
    /// errors were corrected).
    public var quality: Int

    /// Creates a result.
    public init(symbology: Symbology, text: String, bytes: [UInt8], symbologyIdentifier: String,
                extendedText: String = "", addOn: String = "", corners: [Point], orientation: Int,
                isInverted: Bool = false, isMirrored: Bool = false, quality: Int = 100) {
        self.symbology = symbology
        self.text = text
        self.bytes = bytes
        self.symbologyIdentifier = symbologyIdentifier
        self.extendedText = extendedText
        self.addOn = addOn
        self.corners = corners
        self.orientation = orientation
        self.isInverted = isInverted
        self.isMirrored = isMirrored
        self.quality = quality
    }

    /// The axis-aligned bounding box of ``corners`` in whole pixels:
    /// (x, y, width, height), clamped to be non-negative.
    public var boundingBox: (x: Int, y: Int, width: Int, height: Int) {
        guard let first = corners.first else { return (0, 0, 0, 0) }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for p in corners {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        let x0 = max(0, Int(minX.rounded(.down))), y0 = max(0, Int(minY.rounded(.down)))
        let x1 = max(x0, Int(maxX.rounded(.up))), y1 = max(y0, Int(maxY.rounded(.up)))
        return (x0, y0, x1 - x0, y1 - y0)
    }
}
