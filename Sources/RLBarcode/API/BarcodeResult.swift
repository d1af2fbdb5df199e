#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    /// The symbol's place in a structured-append sequence, when it is part of one.
    public var structuredAppend: StructuredAppend? = nil

    /// Creates a result.
    public init(
        symbology: Symbology, text: String, bytes: [UInt8], symbologyIdentifier: String,
        extendedText: String = "", addOn: String = "", corners: [Point], orientation: Int,
        isInverted: Bool = false, isMirrored: Bool = false, quality: Int = 100
    ) {
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

    /// The axis-aligned bounding box of ``corners`` in whole pixels,
    /// clipped to a frame of `width` by `height` pixels: (x, y, width,
    /// height), at least one pixel each way.
    ///
    /// - Returns: `nil` when there are no corners, a corner is not finite, or
    ///   the box lies outside the frame.
    public func boundingBox(clippedTo width: Int, _ height: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard !corners.isEmpty, width > 0, height > 0 else { return nil }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for p in corners {
            guard p.x.isFinite, p.y.isFinite else { return nil }
            minX = Swift.min(minX, p.x); maxX = Swift.max(maxX, p.x)
            minY = Swift.min(minY, p.y); maxY = Swift.max(maxY, p.y)
        }
        guard maxX >= 0, maxY >= 0, minX < Double(width), minY < Double(height) else { return nil }
        let x0 = Int(Swift.max(0, minX.rounded(.down))), y0 = Int(Swift.max(0, minY.rounded(.down)))
        let x1 = Int(Swift.min(Double(width), maxX.rounded(.up))),
            y1 = Int(Swift.min(Double(height), maxY.rounded(.up)))
        let x = Swift.min(x0, width - 1), y = Swift.min(y0, height - 1)
        return (x, y, Swift.max(1, x1 - x), Swift.max(1, y1 - y))
    }
}

extension BarcodeResult {
    /// Whether `other` is this code read again: the same symbology and
    /// payload, in the same place (centres closer than half the larger
    /// code's diagonal).
    func isSameCode(as other: BarcodeResult) -> Bool {
        guard symbology == other.symbology, bytes == other.bytes, text == other.text,
            corners.count == 4, other.corners.count == 4
        else { return false }
        let reach = max(corners[0].distance(to: corners[2]), other.corners[0].distance(to: other.corners[2]), 8) / 2
        return centre.distance(to: other.centre) < reach
    }

    /// The middle of the corners (the origin when there are none).
    var centre: Point {
        var x = 0.0, y = 0.0
        for c in corners { x += c.x; y += c.y }
        let n = Double(max(1, corners.count))
        return Point(x: x / n, y: y / n)
    }
}

extension BarcodeResult {
    /// The direction of the step (`dx`, `dy`) in frame pixels as whole
    /// degrees 0-359, clockwise from the frame's x axis (y points down):
    /// a result's ``orientation`` from the direction its top edge reads.
    static func degrees(dx: Double, dy: Double) -> Int {
        let deg = Int((atan2(dy, dx) * 180 / Double.pi).rounded())
        return ((deg % 360) + 360) % 360
    }
}
