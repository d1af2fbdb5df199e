/// A rectangle in fractions of the frame (0...1 on both axes).
public struct NormalizedRect: Sendable, Hashable {
    /// Left edge, as a fraction of the frame width.
    public var x: Double
    /// Top edge, as a fraction of the frame height.
    public var y: Double
    /// Width, as a fraction of the frame width.
    public var width: Double
    /// Height, as a fraction of the frame height.
    public var height: Double

    /// Creates a rectangle; it is valid when it lies within the unit square
    /// and has a positive area (see ``isValid``).
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// Whether the rectangle has a positive area inside the unit square.
    public var isValid: Bool {
        x.isFinite && y.isFinite && width.isFinite && height.isFinite
            && x >= 0 && y >= 0 && width > 0 && height > 0
            && x + width <= 1.000001 && y + height <= 1.000001
    }

    /// Parses the element's `"x,y,w,h"` form. An empty string is `nil`
    /// (the whole frame); malformed or out-of-range text throws nothing but
    /// returns `.failure` with a message fit for a warning.
    public static func parse(_ text: String) -> Result<NormalizedRect?, RegionParseError> {
        let trimmed = text.filter { !$0.isWhitespace }
        if trimmed.isEmpty { return .success(nil) }
        let parts = trimmed.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 4 else {
            return .failure(RegionParseError(message: "expected four numbers \"x,y,w,h\", got \"\(text)\""))
        }
        var v = [Double]()
        for p in parts {
            guard let d = Double(p) else {
                return .failure(RegionParseError(message: "\"\(p)\" is not a number in \"\(text)\""))
            }
            v.append(d)
        }
        let r = NormalizedRect(x: v[0], y: v[1], width: v[2], height: v[3])
        guard r.isValid else {
            return .failure(RegionParseError(message: "\"\(text)\" is not a rectangle inside 0..1 with positive size"))
        }
        return .success(r)
    }

    /// The rectangle's text form, `"x,y,w,h"`.
    public var description: String { "\(x),\(y),\(width),\(height)" }
}

/// Why an active-region string was rejected.
public struct RegionParseError: Error, Sendable {
    /// A sentence fit for a warning.
    public let message: String
}
