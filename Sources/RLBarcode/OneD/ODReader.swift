/// One reading of a linear code along one scan line.
struct LinearHit {
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

/// Where readers put what they read on a line: hits and their text bytes,
/// in buffers reused for every line.
struct LinearHitSink {
    var hits = ScratchBuffer<LinearHit>(capacity: 16)
    var hitCount = 0
    var arena = ScratchBuffer<UInt8>(capacity: 1024)
    var arenaCount = 0

    mutating func reset() { hitCount = 0; arenaCount = 0 }
    func free() { hits.free(); arena.free() }

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

    func text(of hit: LinearHit) -> UnsafeBufferPointer<UInt8> {
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
protocol LinearReader: AnyObject {
    /// The symbologies this reader can produce.
    var symbologies: Symbology { get }
    /// Appends every code verified on `run` whose symbology is in `enabled`.
    func decode(_ run: borrowing ElementRun, enabled: Symbology, into sink: inout LinearHitSink)
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
