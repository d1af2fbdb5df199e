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

/// Where readers put what they read on a line: hits and their text bytes,
/// fragments of stacked symbols and parts of codes cut by the frame's
/// border with their values, in buffers reused for every line.
package struct LinearHitSink {
    /// An empty value; buffers grow on first use.
    package init() {}

    package var hits = ScratchBuffer<LinearHit>(capacity: 16)
    package var hitCount = 0
    var arena = ScratchBuffer<UInt8>(capacity: 1024)
    var arenaCount = 0
    var fragments = ScratchBuffer<LinearFragment>(capacity: 16)
    var fragmentCount = 0
    var values = ScratchBuffer<Int32>(capacity: 256)
    var valueCount = 0
    var parts = ScratchBuffer<LinearPart>(capacity: 4)
    var partCount = 0

    package mutating func reset() { hitCount = 0; arenaCount = 0; fragmentCount = 0; valueCount = 0; partCount = 0 }
    package func free() { hits.free(); arena.free(); fragments.free(); values.free(); parts.free() }

    /// Appends a part of a code cut by the frame's border, its values taken
    /// from `v[0 ..< count]`.
    mutating func appendPart<Value: BinaryInteger>(
        _ symbology: Symbology, leading: Bool,
        values v: UnsafePointer<Value>, count: Int,
        start: Float, end: Float, module: Float
    ) {
        values.reserveKeeping(valueCount + count)
        for i in 0..<count { values[valueCount + i] = Int32(truncatingIfNeeded: v[i]) }
        parts.reserveKeeping(partCount + 1)
        parts[partCount] = LinearPart(
            symbology: symbology, leading: leading, valueOffset: valueCount,
            valueCount: count, start: start, end: end, module: module)
        partCount += 1
        valueCount += count
    }

    /// The values of a part.
    func values(of p: LinearPart) -> UnsafeBufferPointer<Int32> {
        UnsafeBufferPointer(start: values.pointer + p.valueOffset, count: p.valueCount)
    }

    /// Appends a fragment whose values are `values`.
    mutating func appendFragment(
        _ symbology: Symbology, values v: UnsafeBufferPointer<Int32>,
        start: Float, end: Float, error: Float
    ) {
        values.reserveKeeping(valueCount + v.count)
        for (i, x) in v.enumerated() { values[valueCount + i] = x }
        fragments.reserveKeeping(fragmentCount + 1)
        fragments[fragmentCount] = LinearFragment(
            symbology: symbology, valueOffset: valueCount, valueCount: v.count,
            start: start, end: end, error: error)
        fragmentCount += 1
        valueCount += v.count
    }

    /// The values of a fragment.
    func values(of f: LinearFragment) -> UnsafeBufferPointer<Int32> {
        UnsafeBufferPointer(start: values.pointer + f.valueOffset, count: f.valueCount)
    }

    /// Stores bytes in the arena and returns their offset.
    mutating func store(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        arena.reserveKeeping(arenaCount + bytes.count)
        let off = arenaCount
        for (i, b) in bytes.enumerated() { arena[off + i] = b }
        arenaCount += bytes.count
        return off
    }

    mutating func append(_ hit: LinearHit) {
        hits.reserveKeeping(hitCount + 1)
        hits[hitCount] = hit
        hitCount += 1
    }

    package func text(of hit: LinearHit) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: arena.pointer + hit.textOffset, count: hit.textCount)
    }

    func extra(of hit: LinearHit) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: arena.pointer + hit.extraOffset, count: hit.extraCount)
    }

    func addOn(of hit: LinearHit) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: arena.pointer + hit.addOnOffset, count: hit.addOnCount)
    }
}

/// The contract of a linear (1D) symbology reader.
///
/// A reader receives the bar and space widths of one scan line, in reading
/// order and in one polarity (``ElementRun``: `widths[0]` is the leading
/// space), and appends a ``LinearHit`` for every code it can verify on that
/// line (guard patterns, quiet zones, check characters). It does not look at
/// pixels, keeps no state between lines and allocates nothing per line (its
/// scratch memory is made once, with the reader). The scanner
/// runs every enabled reader on each line in both directions and both
/// polarities, votes among lines and builds the results.
package protocol LinearReader: AnyObject {
    /// The symbologies this reader can produce.
    var symbologies: Symbology { get }
    /// Appends every code verified on `run` whose symbology is in `enabled`.
    func decode(_ run: borrowing ElementRun, enabled: Symbology, into sink: inout LinearHitSink)
}

/// A reader of stacked symbols, whose rows single lines read as
/// ``LinearFragment``s. At the end of a frame the scanner hands it every
/// row read in the frame (``RowTable``) and it assembles whole symbols.
protocol StackedLinearReader: LinearReader {
    /// Assembles the rows of `rows` into symbols: appends a hit to `sink`
    /// for each (its `start`, `end`, `firstElement` and `lastElement` are
    /// not used) and returns, hit by hit, the indices of the rows each is
    /// made of (top row first as the symbol is read). Each symbol once.
    func assemble(_ rows: borrowing RowTable, enabled: Symbology, into sink: inout LinearHitSink) -> [[Int]]
}

extension ScratchBuffer {
    /// Grows to hold `count` elements, keeping the current contents.
    mutating func reserveKeeping(_ count: Int) {
        if count <= capacity { return }
        let newCapacity = max(count, capacity * 2)
        let p = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        p.update(from: pointer, count: capacity)
        pointer.deallocate()
        pointer = p
        capacity = newCapacity
    }
}
