/// One reading of a linear code along one scan line.
package struct LinearHit {
    var symbology: Symbology
    /// The payload, stored in the sink's byte arena.
    var textOffset: Int
    var textCount: Int
    /// Add-on digits in the arena (count 0 when none).
    var addOnOffset: Int
    var addOnCount: Int
    /// Extra text in the arena (the printed form of UPC-A/UPC-E), count 0 when none.
    var extraOffset: Int = 0
    var extraCount: Int = 0
    /// Element indices of the first and last bar of the main code.
    var firstElement: Int
    var lastElement: Int
    /// The line position (pixels) where the code starts and ends, add-on excluded.
    var start: Float
    var end: Float
    /// How well the widths matched, 0 (perfect) upwards.
    var error: Float
    /// The modifier character (ASCII) of the AIM symbology identifier
    /// `]` + symbology letter + modifier, for symbologies other than EAN/UPC
    /// (whose modifier depends on the add-on, decided across lines).
    var aimModifier: UInt8 = 48
}

/// One row of a stacked symbol (or another part of a symbol that a single
/// line cannot verify) read on one scan line, kept until the end of the
/// frame, when the reader that made it assembles rows into symbols
/// (``StackedLinearReader``).
struct LinearFragment {
    var symbology: Symbology
    /// Reader-defined values (character values, finder numbers, row
    /// kind...), stored in the sink's value arena.
    var valueOffset: Int
    var valueCount: Int
    /// The line positions (pixels) where the row starts and ends.
    var start: Float
    var end: Float
    /// How well the widths matched, 0 (perfect) upwards.
    var error: Float
}

/// A part of a linear code read on one line that ran off the frame before
/// the code ended (a leading part: the start character and the characters
/// after it) or began inside the code (a trailing part: the characters
/// before the stop character, the check character last). Parts seen in
/// different frames of a pan are joined into the whole code
/// (``PartialCodes``).
struct LinearPart {
    var symbology: Symbology
    /// Whether the part holds the code's start (else its stop).
    var leading: Bool
    /// Character values in reading order, in the sink's value arena.
    var valueOffset: Int
    var valueCount: Int
    /// The line positions (pixels) of the part's ends.
    var start: Float
    var end: Float
    /// The module width, pixels.
    var module: Float
}
