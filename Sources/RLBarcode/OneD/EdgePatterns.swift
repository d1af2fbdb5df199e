/// The bar-space patterns of a modular symbology whose characters have a
/// fixed number of elements and modules (Code 128: 6 and 11, Code 93: 6
/// and 9), and their classification.
///
/// A character is compared with every pattern by its edge-to-similar-edge
/// distances (bar start to next bar start, bar end to next bar end), the
/// measure of the reference decode algorithms of ISO/IEC 15417 and AIM
/// USS-93: ink spread and blur move both edges of a bar alike, so these
/// distances keep their module counts while the bar and space widths do
/// not. The element widths count half as much, to separate patterns whose
/// edge distances are close, after the uniform spread that ink and
/// blooming add to bars and take from spaces is taken out.
final class EdgePatterns {
    let count: Int
    let elements: Int
    let modules: Float
    /// `count * elements` widths in modules.
    private let widths: UnsafeMutablePointer<Float>

    /// Patterns as decimal digits, one per element, first element first.
    init(_ table: [UInt32], elements: Int, modules: Int) {
        precondition(elements == 6, "classify(_:maxError:margin:) reads six elements")
        count = table.count
        self.elements = elements
        self.modules = Float(modules)
        widths = .allocate(capacity: table.count * elements)
        for (v, pattern) in table.enumerated() {
            var p = pattern
            for k in (0..<elements).reversed() {
                widths[v * elements + k] = Float(p % 10)
                p /= 10
            }
        }
    }

    deinit { widths.deallocate() }

    /// The largest mismatch accepted for a character at `module` pixels a
    /// module: `maxError`, raised where pixels are coarse. An edge placed to
    /// the nearest pixel is up to half a pixel off, so each of the four
    /// edge-to-similar-edge distances may be a pixel off, 1/`module`
    /// modules: below 2 pixels a module that alone can exceed `maxError` for
    /// a correctly printed character. The reference decode algorithm of
    /// ISO/IEC 15417 rounds each distance to whole modules; the symbol check
    /// character verifies the whole.
    @inline(__always)
    static func tolerance(_ maxError: Float, module: Float) -> Float {
        max(maxError, 4 / module)
    }

    /// Reads the characters that end where element `end` begins, backwards
    /// to the start of the run, each of six elements: the characters of a
    /// code whose start the frame's border cut off. Every one must be a
    /// data character (`isData`) about as wide as the one after it (the
    /// first compared with `width`).
    /// - Returns: how many it read into `values`, in reading order, and the
    ///   element index of the first; `nil` when one does not read (the run
    ///   does not start inside the code) or there are more than `most`.
    func readBackToStart(
        _ run: borrowing ElementRun, end: Int, width: Float, maxError: Float, margin: Float,
        most: Int, isData: (Int) -> Bool, into values: UnsafeMutablePointer<Int>
    ) -> (count: Int, first: Int)? {
        let w = run.widths.pointer
        var count = 0
        var previousWidth = width
        var k = end - 6
        while k >= 1 {
            guard count < most,
                let c = classify(w, at: k, near: previousWidth, maxError: maxError, margin: margin), isData(c.value)
            else { return nil }
            values[count] = c.value
            count += 1
            previousWidth = c.width
            k -= 6
        }
        // Read backwards: into reading order.
        var reading = UnsafeMutableBufferPointer(start: values, count: count)
        reading.reverse()
        return (count, k + 6)
    }

    /// Appends the end of a code that the frame cuts as a trailing part:
    /// the last stop pattern on the line (`stop` gives its module and the
    /// width to compare the character before it with, for the bar `j` it
    /// begins at, when the elements from there are one, with the trailing
    /// quiet zone) whose characters read back to the line's start
    /// (``readBackToStart(_:end:width:maxError:margin:most:isData:into:)``),
    /// `minimum` of them at least; the part ends with element `j + 6`.
    func appendTrailingPart(
        _ symbology: Symbology, _ run: borrowing ElementRun, minimum: Int, maxError: Float, margin: Float,
        most: Int, isData: (Int) -> Bool, values: UnsafeMutablePointer<Int>, into sink: inout LinearHitSink,
        stop: (borrowing ElementRun, _ j: Int) -> (module: Float, width: Float)?
    ) {
        let w = run.widths.pointer, s = run.starts.pointer
        for j in run.barsBackward(from: run.count - 8, through: 1 + 6 * (minimum - 1)) {
            guard let (m, width) = stop(run, j),
                let (count, first) = readBackToStart(
                    run, end: j, width: width, maxError: maxError, margin: margin, most: most, isData: isData,
                    into: values),
                count >= minimum
            else { continue }
            sink.appendPart(
                symbology, leading: false, values: values, count: count,
                start: s[first], end: s[j + 6] + w[j + 6], module: m)
            return
        }
    }

    /// The mismatch between `elements` measured widths and a pattern of
    /// `modules` modules, in modules of the measured character's own
    /// width: the summed differences of the edge-to-similar-edge distances,
    /// plus half the summed differences of the element widths once the
    /// uniform spread (bars wider and spaces narrower by one amount, up to
    /// 0.6 module, as ink spread and blooming make) is taken out, plus half
    /// that spread.
    @inline(__always)
    static func mismatch(_ w: UnsafePointer<Float>, _ p: UnsafePointer<Float>, elements: Int, modules: Float) -> Float {
        var total: Float = 0
        for k in 0..<elements { total += w[k] }
        guard total > 0 else { return .infinity }
        let scale = modules / total
        var edge: Float = 0
        var barResidual: Float = 0, spaceResidual: Float = 0
        var previous: Float = 0
        for k in 0..<elements {
            let r = w[k] * scale - p[k]
            if k % 2 == 0 { barResidual += r } else { spaceResidual += r }
            if k > 0 && k < elements - 1 { edge += abs(previous + r) }
            previous = r
        }
        let bars = Float((elements + 1) / 2), spaces = Float(elements / 2)
        let spread = min(max((barResidual / bars - spaceResidual / spaces) / 2, -0.6), 0.6)
        var element: Float = 0
        for k in 0..<elements {
            let r = w[k] * scale - p[k]
            element += abs(k % 2 == 0 ? r - spread : r + spread)
        }
        return edge + 0.5 * (element + abs(spread))
    }

    /// The mismatch of `elements` widths from `w` with pattern `value`.
    @inline(__always)
    func mismatch(_ w: UnsafePointer<Float>, value: Int) -> Float {
        EdgePatterns.mismatch(w, widths + value * elements, elements: elements, modules: modules)
    }

    /// The pattern that the six widths from `w[j]` match best
    /// (``classify(_:maxError:margin:)``) when their total lies within 0.75
    /// to 1.33 times `width`, that of the character next to them:
    /// neighbouring characters are the same width, which perspective
    /// changes slowly.
    /// - Returns: its index, its mismatch and the character's width.
    @inline(__always)
    func classify(_ w: UnsafePointer<Float>, at j: Int, near width: Float, maxError: Float, margin: Float)
        -> (value: Int, error: Float, width: Float)?
    {
        let total = w[j] + w[j + 1] + w[j + 2] + w[j + 3] + w[j + 4] + w[j + 5]
        let ratio = total / width
        guard ratio > 0.75, ratio < 1.33, let c = classify(w + j, maxError: maxError, margin: margin) else {
            return nil
        }
        return (c.value, c.error, total)
    }

    /// The pattern that six widths from `w` match best (both users have
    /// six-element characters).
    /// - Returns: its index and mismatch; `nil` when the best is worse than
    ///   `maxError` or not better than the second best by `margin`.
    @inline(__always)
    func classify(_ w: UnsafePointer<Float>, maxError: Float, margin: Float) -> (value: Int, error: Float)? {
        var total: Float = 0
        for k in 0..<elements { total += w[k] }
        guard total > 0 else { return nil }
        let scale = modules / total
        // Measured widths in modules (six at most here).
        var n = (Float(0), Float(0), Float(0), Float(0), Float(0), Float(0))
        n.0 = w[0] * scale; n.1 = w[1] * scale; n.2 = w[2] * scale
        n.3 = w[3] * scale; n.4 = w[4] * scale; n.5 = w[5] * scale
        // Measured edge distances.
        let t0 = n.0 + n.1, t1 = n.1 + n.2, t2 = n.2 + n.3, t3 = n.3 + n.4
        var best: Float = .infinity, second: Float = .infinity
        var bestValue = -1
        var p = UnsafePointer(widths)
        for v in 0..<count {
            let edge = abs(t0 - p[0] - p[1]) + abs(t1 - p[1] - p[2]) + abs(t2 - p[2] - p[3]) + abs(t3 - p[3] - p[4])
            if edge < second {
                let r0 = n.0 - p[0], r1 = n.1 - p[1], r2 = n.2 - p[2], r3 = n.3 - p[3], r4 = n.4 - p[4], r5 = n.5 - p[5]
                // The residuals sum to zero: the spread is the bars' mean residual.
                let spread = min(max((r0 + r2 + r4) / 3, -0.6), 0.6)
                let element =
                    abs(r0 - spread) + abs(r1 + spread) + abs(r2 - spread) + abs(r3 + spread)
                    + abs(r4 - spread) + abs(r5 + spread)
                let e = edge + 0.5 * (element + abs(spread))
                if e < best {
                    second = best; best = e; bestValue = v
                } else if e < second {
                    second = e
                }
            }
            p += elements
        }
        guard best <= maxError, second - best >= margin else { return nil }
        return (bestValue, best)
    }
}
