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

    /// Appends a hit of the whole symbol from bar `first` to bar `last` of
    /// `run`, its payload `text` stored in the arena.
    @inline(__always)
    mutating func appendSymbol(
        _ symbology: Symbology, text: UnsafeBufferPointer<UInt8>, run: borrowing ElementRun,
        first: Int, last: Int, error: Float, aimModifier: UInt8 = UInt8(ascii: "0")
    ) {
        let textOffset = store(text)
        let w = run.widths.pointer, s = run.starts.pointer
        append(
            LinearHit(
                symbology: symbology, textOffset: textOffset, textCount: text.count,
                addOnOffset: textOffset, addOnCount: 0,
                firstElement: first, lastElement: last,
                start: s[first], end: s[last] + w[last],
                error: error, aimModifier: aimModifier))
    }

    /// Appends the `count` characters `values` read from bar `first` up to
    /// element `last` of `run` as a leading part when the line ends inside
    /// the symbol (`cut`) on the frame's border and `count` is `minimum` at
    /// least; never for a reading of the cut bars (`borderOnly`).
    @inline(__always)
    mutating func appendLeadingPart<Value: BinaryInteger>(
        _ symbology: Symbology, values: UnsafePointer<Value>, count: Int, minimum: Int,
        run: borrowing ElementRun, first: Int, last: Int, module: Float, cut: Bool, borderOnly: Bool
    ) {
        guard !borderOnly, cut, run.endsAtFrameBorder, count >= minimum else { return }
        let w = run.widths.pointer, s = run.starts.pointer
        appendPart(
            symbology, leading: true, values: values, count: count,
            start: s[first], end: s[last] + w[last], module: module)
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
