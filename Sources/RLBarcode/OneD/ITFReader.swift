/// Interleaved 2 of 5 (ITF), including ITF-14.
///
/// Implements ISO/IEC 16390:2007 (Interleaved 2 of 5 bar code symbology
/// specification), clause "Requirements":
///
/// - "Symbol structure": leading quiet zone, start pattern, one or more
///   symbol character pairs, stop pattern, trailing quiet zone. Only an
///   even number of digits can be encoded.
/// - "Character encodation": each digit is five elements, two of them
///   wide (ISO/IEC 16390, Table 1: `NNWWN` = 0, `WNNNW` = 1, ... the
///   weights 1-2-4-7-0 of the wide elements summing to the digit, 11 being
///   0). Characters are interleaved in pairs: the five bars carry the first
///   digit of the pair, the five spaces the second.
/// - "Start pattern": four narrow elements, bar space bar space.
/// - "Stop pattern": wide bar, narrow space, narrow bar.
/// - "Dimensions": wide:narrow ratio N from 2.0 to 3.0 (2.2 or more for a
///   narrow element under 0.50 mm); measured ratios a little outside that
///   range (ink spread, blur) are accepted with a growing error.
/// - "Quiet zones": ten times the narrow element width on each side.
/// - "Symbology identifier" (Annex "Symbology identifier"): `]I0` when no
///   check character is verified, `]I1` when the modulo 10 symbol check
///   character is validated and transmitted.
///
/// ITF has no structural check: every choice of two wide elements out of
/// five is a digit, so stray bars (text, grids, other symbologies) can form
/// "digits". To keep misreads out this reader requires, beyond the standard:
/// at least ``minDigits`` digits; quiet zones of nearly ten narrow widths on
/// both sides (the narrow width at that end: a perspective changes it
/// along the symbol) whose grey levels stay near the symbol's space level (a
/// faint speck may cut the space short, a bar may not); the outer edges of
/// the first and last bar as steep as their inner edges (a line leaving
/// through the bars' ends smears them); exact start and stop patterns;
/// wide and narrow elements of every pair cleanly apart, pair widths and
/// narrow widths changing slowly along the symbol (a steep perspective
/// may shrink them faster, but only steadily: such a step needs a
/// neighbouring step of about the same ratio) and a wide:narrow ratio
/// consistent along it; and, when the code has 14 digits (ITF-14, GS1
/// General Specifications), a valid GS1 modulo 10 check digit: a 14-digit
/// reading whose check fails is rejected. Other lengths are reported as
/// read, with `]I0`.
///
/// One exception to the quiet zones and the length: a symbol that fills
/// the scan line from the frame's border to the frame's border, its start
/// pattern near the line's start and its stop pattern near the line's end
/// with only plain background between them and the border (a picture
/// cropped to the symbol), keeps whatever margin the crop left; when both
/// margins are narrower than ``minQuietZoneAtLineEnd`` (a tight crop) it
/// may have ``minDigitsFillingFrame`` (four) digits: nothing else on the
/// line could have made up its bars. The other rules hold for it too. A
/// view that cuts a longer symbol on both sides can look the same; this
/// is the price of reading cropped pictures. The margin may be none, the
/// outer bars cut by the border (``ElementRun/framed(into:)``). A symbol
/// with one end on the frame's border and a quiet zone at the other
/// takes the border for its quiet zone only when its last digit is the
/// modulo-10 check digit of the others (ISO/IEC 16390, Annex "Check
/// digit"), as ITF-14 and other GS1 keys have: the quiet zones of 10X
/// ("Quiet zones") are what keeps a partial scan from reading as a shorter
/// symbol, and without them only the check digit does.
///
/// A line that runs off the frame inside a code gives a part: the start
/// pattern and at least six digits up to the border, or six digits or more
/// from the border to the stop pattern, with their quiet zones.
/// ``PartialCodes`` joins a leading and a trailing part across video
/// frames only when the whole ends in a valid modulo-10 check digit.
///
/// Wide and narrow are decided per character pair from its own widths: the
/// two widest of its five bars and the two widest of its five spaces are
/// wide. How far the widths are from two clean classes (narrow spread, wide
/// spread, ratio outside 2.0-3.0) is the reading's error.
final class ITFReader: StartStopReader {
    var symbologies: Symbology { .itf }

    /// The fewest digits accepted (the standard allows two; short ITF reads
    /// are the classic source of misreads).
    var minDigits = 6
    /// The fewest digits of a symbol that fills the scan line from the
    /// frame's border to the frame's border with margins narrower than
    /// ``minQuietZoneAtLineEnd`` (a picture cropped tightly to the
    /// symbol): nothing else on the line could have made up its bars.
    var minDigitsFillingFrame = 4
    /// The quiet zone, in narrow widths, that a symbol filling the scan
    /// line from border to border needs on each side: the picture was cut
    /// there, the margin is whatever the crop left (none when the border
    /// cuts the outer bar's edge, ``ElementRun/isFrameBorder(_:)``).
    var minQuietZoneFillingFrame: Float = 0.1
    /// The most digits read in one symbol.
    let maxDigits = 80
    /// Quiet zone required on each side, in narrow widths (the standard asks
    /// for 10; measurement of the narrow width is not exact).
    var minQuietZone: Float = 9
    /// Quiet zone required where the scan line ends (the frame's edge cuts
    /// the quiet zone): wider than any element inside a symbol.
    var minQuietZoneAtLineEnd: Float = 6
    /// How far (a fraction of the symbol's contrast) the grey levels of a
    /// quiet zone may stray from the symbol's space level.
    var quietTolerance: Float = 0.3
    /// How much the wide:narrow ratio may vary among the symbol's bar
    /// groups (and among its space groups): blur brings narrow elements
    /// nearer to wide ones, unevenly.
    var maxRatioSpread: Float = 1.75
    /// Largest error of one five-element group.
    var maxGroupError: Float = 1.3

    /// Digits by their pattern of wide elements (bit 4 - k set = element k
    /// wide), ISO/IEC 16390 Table 1; 255 where the pattern is not a digit.
    static let digitByPattern: [UInt8] = {
        var t = [UInt8](repeating: 255, count: 32)
        let patterns: [UInt8] = [
            0b00110, 0b10001, 0b01001, 0b11000, 0b00101,
            0b10100, 0b01100, 0b00011, 0b10010, 0b01010
        ]
        for (d, p) in patterns.enumerated() { t[Int(p)] = UInt8(d) }
        return t
    }()

    /// The AIM symbology identifier of a reading with `digitCount` digits:
    /// `]I1` for ITF-14, whose check digit this reader verifies, `]I0`
    /// otherwise (the hit's `aimModifier` carries the `1` or `0`).
    static func symbologyIdentifier(digitCount: Int) -> String {
        digitCount == 14 ? "]I1" : "]I0"
    }

    /// The GS1 modulo-10 check over `count` digit values (the last is the check digit).
    static func checkDigitOK(_ d: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard count >= 2 else { return false }
        var sum = 0
        for i in 0..<(count - 1) {
            let weight = (count - 1 - i) % 2 == 1 ? 3 : 1
            sum += Int(d[i]) * weight
        }
        return (10 - sum % 10) % 10 == Int(d[count - 1])
    }

    /// Digit values of the symbol being read.
    private let digits: UnsafeMutablePointer<UInt8>
    /// The same as ASCII, for the sink.
    private let text: UnsafeMutablePointer<UInt8>
    /// ``digitByPattern`` without array access in the loop.
    private let table: UnsafeMutablePointer<UInt8>

    init() {
        digits = .allocate(capacity: maxDigits + 2)
        digits.initialize(repeating: 0, count: maxDigits + 2)
        text = .allocate(capacity: maxDigits + 2)
        text.initialize(repeating: 0, count: maxDigits + 2)
        table = .allocate(capacity: 32)
        for i in 0..<32 { table[i] = ITFReader.digitByPattern[i] }
    }

    var framed = ElementRun()

    deinit {
        digits.deallocate()
        text.deallocate()
        table.deallocate()
        framed.free()
    }

    /// One group of five elements (the bars or the spaces of a pair).
    struct Group {
        /// Bit 4 - k set: element k is wide.
        var pattern: Int
        /// Mean narrow and mean wide width.
        var narrow: Float
        var wide: Float
        /// 0 (two clean classes, ratio 2-3) upwards.
        var error: Float
    }

    /// Classifies five widths `w[0], w[2], ... w[8]` (every other element):
    /// the two widest are wide.
    ///
    /// Rejects groups whose classes are not cleanly apart: the narrower
    /// wide element must be at least 1.3 times the wider narrow one and the
    /// ratio of the means within 1.5 ... 4.5.
    @inline(__always)
    func group(_ w: UnsafePointer<Float>) -> Group? {
        let a0 = w[0], a1 = w[2], a2 = w[4], a3 = w[6], a4 = w[8]
        // The two widest: i1 (widest) and i2.
        var i1 = 0, v1 = a0
        if a1 > v1 { i1 = 1; v1 = a1 }
        if a2 > v1 { i1 = 2; v1 = a2 }
        if a3 > v1 { i1 = 3; v1 = a3 }
        if a4 > v1 { i1 = 4; v1 = a4 }
        var i2 = -1, v2: Float = -.infinity
        var nMax: Float = -.infinity, nMin: Float = .infinity, nSum: Float = 0
        for k in 0..<5 where k != i1 {
            let v = w[2 * k]
            if v > v2 { i2 = k; v2 = v }
        }
        for k in 0..<5 where k != i1 && k != i2 {
            let v = w[2 * k]
            nMax = max(nMax, v); nMin = min(nMin, v); nSum += v
        }
        guard nMin > 0 else { return nil }
        let narrow = nSum / 3, wide = (v1 + v2) / 2
        let ratio = wide / narrow
        guard ratio >= 1.5, ratio <= 4.5, v2 >= 1.3 * nMax else { return nil }
        let diff = wide - narrow
        var error = ((nMax - nMin) + (v1 - v2)) / diff
        if ratio < 2 { error += 2 - ratio } else if ratio > 3 { error += 0.5 * (ratio - 3) }
        guard error <= maxGroupError else { return nil }
        return Group(pattern: (1 << (4 - i1)) | (1 << (4 - i2)), narrow: narrow, wide: wide, error: error)
    }

    /// Whether `r`, a width in units of its reference, lies in `lo ... hi`.
    @inline(__always)
    private func within(_ r: Float, _ lo: Float, _ hi: Float) -> Bool { r >= lo && r <= hi }

    /// Whether space `i` is a quiet zone for the symbol whose narrow width
    /// is `x` (ISO/IEC 16390, "Quiet zones": 10X).
    ///
    /// The space must measure ``minQuietZone`` narrow widths
    /// (``minQuietZoneAtLineEnd`` where the scan line ends), or, cut short
    /// by a faint speck or noise, 1.5. With a profile, the grey levels over
    /// the quiet zone (from one narrow width off the symbol to
    /// ``minQuietZone``) must
    /// moreover stay within ``quietTolerance`` of the symbol's contrast
    /// from its space level, measured on the neighbouring start or stop
    /// pattern (`patternFrom ... patternTo`): a margin is plain. Faint bars
    /// there are what a thick scan line shows when it leaves an oblique
    /// symbol through the ends of its bars.
    private func quiet(
        _ run: borrowing ElementRun, _ i: Int, x: Float, leading: Bool,
        patternFrom: Float, patternTo: Float
    ) -> Bool {
        let w = run.widths[i]
        let last = run.count - 1
        let atLineEnd = i == 0 || i == last
        if atLineEnd {
            if w < minQuietZoneAtLineEnd * x { return false }
        } else if w < 1.5 * x {
            return false
        }
        if !atLineEnd && w < minQuietZone * x {
            // Broken by a speck: the whole quiet zone must lie on the line.
            let far = leading ? run.starts[i + 1] - minQuietZone * x : run.starts[i] + minQuietZone * x
            guard far >= 0, far <= run.lineLength else { return false }
        }
        guard run.profile != nil else { return atLineEnd || w >= minQuietZone * x }
        guard let levels = run.levels(from: patternFrom, to: patternTo),
            abs(levels.space - levels.bar) > 8
        else { return false }
        let level = levels.space + (levels.bar - levels.space) * quietTolerance
        let edge = leading ? run.starts[i + 1] : run.starts[i]
        // A wide space is looked at up to its end (less the next edge's blur).
        let need = minQuietZone * x
        let reach = min(need, w >= need && !atLineEnd ? w - x : need)
        let from = max(0, leading ? edge - reach : edge + x)
        let to = min(run.lineLength - 1, leading ? edge - x : edge + reach)
        if to <= from { return false }
        return run.isClear(from: from, to: to, level: level)
    }

    /// Whether space `i`, which runs from the symbol to the line's end on
    /// the frame's border, is a quiet zone for a symbol that fills the line
    /// from border to border (the picture is cropped to the symbol): at
    /// least ``minQuietZoneFillingFrame`` narrow widths whose grey levels,
    /// up to half a narrow width from the symbol, stay within
    /// ``quietTolerance`` of the symbol's space level (see
    /// ``quiet(_:_:x:leading:patternFrom:patternTo:)``).
    private func borderQuiet(
        _ run: borrowing ElementRun, _ i: Int, x: Float, leading: Bool,
        patternFrom: Float, patternTo: Float
    ) -> Bool {
        if run.isFrameBorder(i) { return true }
        let w = run.widths[i]
        guard w >= minQuietZoneFillingFrame * x else { return false }
        guard run.profile != nil else { return true }
        guard let levels = run.levels(from: patternFrom, to: patternTo) else { return false }
        guard abs(levels.space - levels.bar) > 8 else { return false }
        let level = levels.space + (levels.bar - levels.space) * quietTolerance
        let start = run.starts[i]
        // Half a narrow width next to the symbol (at most half the space)
        // holds its edge's blur.
        let blur = min(x, w) / 2
        let from = leading ? start : start + blur
        let to = leading ? start + w - blur : start + w
        guard to > from else { return false }
        return run.isClear(from: from, to: to, level: level)
    }

    /// Start (4) + the fewest digits / 2 pairs (10 each) + stop (3) + trailing space.
    var shortestSymbol: Int { 4 + 5 * min(minDigits, minDigitsFillingFrame) + 3 }

    /// The fewest digits a part holds.
    static let minPartDigits = 6

    /// Looks for a stop pattern with its quiet zone whose pairs reach back
    /// to the line's start, which lies on the frame's border: the end of a
    /// code that the frame cuts. Appends its digits as a trailing part.
    func readTrailingPart(_ run: borrowing ElementRun, into sink: inout LinearHitSink) {
        let w = UnsafePointer(run.widths.pointer), s = run.starts.pointer
        let n = run.count
        for stop in run.barsBackward(from: n - 4, through: 1 + 5 * ITFReader.minPartDigits) {
            // Wide bar, narrow space, narrow bar against the pair before it.
            guard let bars = group(w + stop - 10), let spaces = group(w + stop - 9),
                within(w[stop] / bars.wide, 0.7, 1.45), within(w[stop + 1] / spaces.narrow, 0.5, 1.6),
                within(w[stop + 2] / bars.narrow, 0.5, 1.6)
            else { continue }
            let x0 = (bars.narrow + spaces.narrow) / 2
            guard w[stop + 3] >= minQuietZone * x0 || (stop + 3 == n - 1 && w[stop + 3] >= minQuietZoneAtLineEnd * x0),
                quiet(run, stop + 3, x: x0, leading: false, patternFrom: s[stop - 10], patternTo: s[stop + 3])
            else { continue }
            // Pair by pair back to the line's start; read backwards.
            var count = 0
            var k = stop - 10
            var pairWidth = span(w, k, 10)
            var barNarrow = bars.narrow, spaceNarrow = spaces.narrow
            while k >= 1 {
                guard count + 2 <= maxDigits, let b = group(w + k), let sp = group(w + k + 1) else { return }
                let width = span(w, k, 10)
                guard within(width / pairWidth, 0.8, 1.25), within(b.narrow / barNarrow, 0.7, 1.43),
                    within(sp.narrow / spaceNarrow, 0.7, 1.43)
                else { return }
                let bd = table[b.pattern], sd = table[sp.pattern]
                guard bd < 10, sd < 10 else { return }
                // Stored backwards: the spaces' digit, then the bars'.
                digits[count] = sd
                digits[count + 1] = bd
                count += 2
                pairWidth = width
                barNarrow = b.narrow; spaceNarrow = sp.narrow
                k -= 10
            }
            guard count >= ITFReader.minPartDigits else { return }
            // Read backwards: into reading order.
            var reading = UnsafeMutableBufferPointer(start: digits, count: count)
            reading.reverse()
            sink.appendPart(
                .itf, leading: false, values: digits, count: count,
                start: s[k + 10], end: s[stop + 2] + w[stop + 2], module: x0)
            return
        }
    }

    /// The payload of a whole symbol given as its digit values, when its
    /// last digit is the modulo-10 check digit of the others (ISO/IEC
    /// 16390, Annex "Check digit": the GS1 weights 3 and 1 from the right):
    /// the digits, check digit included, and the modifier `1`.
    func payload(ofSymbol v: [Int32]) -> (bytes: [UInt8], modifier: UInt8)? {
        let count = v.count
        guard count >= ITFReader.minPartDigits, count % 2 == 0, count <= maxDigits else { return nil }
        for k in 0..<count {
            guard v[k] >= 0, v[k] <= 9 else { return nil }
            digits[k] = UInt8(v[k])
        }
        guard ITFReader.checkDigitOK(digits, count: count) else { return nil }
        return (v.map { UInt8($0) + 48 }, UInt8(ascii: "1"))
    }

    /// The digits of a part, as text.
    func payload(ofPart v: [Int32]) -> [UInt8] {
        v.compactMap { $0 >= 0 && $0 <= 9 ? UInt8($0) + 48 : nil }
    }

    /// Reads a symbol whose start pattern begins at bar `b`.
    /// - Returns: the bar after its stop pattern, 0 when none.
    func read(_ run: borrowing ElementRun, at b: Int, borderOnly: Bool, into sink: inout LinearHitSink) -> Int {
        let n = run.count
        let w = UnsafePointer(run.widths.pointer)
        // Start pattern: four narrow elements of one width, and a space before
        // it wider than them (noise can cut a quiet zone short; the profile
        // will decide).
        let x0 = (w[b] + w[b + 1] + w[b + 2] + w[b + 3]) / 4
        // A symbol filling the line from the frame's border may start
        // closer to it; whether it fills the line is known at its end.
        let cutAtStart = run.cutBarAtStart
        let fromBorder = run.startsAtFrameBorder && cutAtStart == 0 && b == 1
        let opensAtBorder = run.isFrameBorder(b - 1)
        guard x0 > 0, opensAtBorder || w[b - 1] >= (fromBorder ? minQuietZoneFillingFrame : 1.5) * x0 else { return 0 }
        for k in 0..<4 where !within(w[b + k] / x0, 0.5, 1.6) { return 0 }

        var count = 0
        var errorSum: Float = 0, errorMax: Float = 0
        var i = b + 4
        // Narrow and wide bar widths and narrow space width of the previous pair.
        var barNarrow: Float = 0, barWide: Float = 0, spaceNarrow: Float = 0
        var pairWidth: Float = 0
        var narrowSum: Float = 0
        // The first pair's narrow width (capped as in `accept`).
        var firstX: Float = 0
        var barRatioMin: Float = .infinity, barRatioMax: Float = 0
        var spaceRatioMin: Float = .infinity, spaceRatioMax: Float = 0
        // The width ratio of the last pair to the one before (0: none yet),
        // whether it was steep, and a steep step still awaiting a neighbour
        // that confirms it.
        var lastStep: Float = 0
        var lastSteep = false, unconfirmed = false
        var stopAt = -1
        while true {
            // Stop pattern: wide bar, narrow space, narrow bar, then the quiet zone.
            var stopShape = false
            if count > 0, i + 3 < n {
                stopShape =
                    within(w[i] / barWide, 0.7, 1.45) && within(w[i + 1] / spaceNarrow, 0.5, 1.6)
                    && within(w[i + 2] / barNarrow, 0.5, 1.6)
                if stopShape {
                    let x = (barNarrow + spaceNarrow) / 2
                    if w[i + 3] >= minQuietZone * x || (i + 3 == n - 1 && w[i + 3] >= minQuietZoneAtLineEnd * x) {
                        stopAt = i; break
                    }
                }
            }
            // One more pair needs its 10 elements, a stop pattern and a space.
            var pair: (Group, Group)? = nil
            if count + 2 <= maxDigits, i + 13 < n, let bars = group(w + i), let spaces = group(w + i + 1) {
                pair = (bars, spaces)
            }
            guard let (bars, spaces) = pair else {
                // A quiet zone broken by a speck: the profile decides.
                if stopShape { stopAt = i; break }
                // The line ends inside the code, on the frame's border: a leading part.
                if !borderOnly, i + 13 >= n, run.endsAtFrameBorder, count >= ITFReader.minPartDigits, !unconfirmed {
                    appendLeadingPart(run, from: b, to: i, count: count, module: narrowSum / Float(count), into: &sink)
                }
                return 0
            }
            let width = span(w, i, 10)
            if count == 0 {
                // Start pattern against the first pair's narrow bars and spaces.
                if !within(w[b] / bars.narrow, 0.55, 1.5) || !within(w[b + 2] / bars.narrow, 0.55, 1.5)
                    || !within(w[b + 1] / spaces.narrow, 0.55, 1.5) || !within(w[b + 3] / spaces.narrow, 0.55, 1.5)
                {
                    return 0
                }
                if !within(bars.narrow / spaces.narrow, 0.45, 2.2) { return 0 }
            } else {
                // Slow change along the symbol, no jumps. A steep perspective
                // (a symbol seen at a grazing angle) may shrink the pairs
                // faster, but then steadily: a steeper step needs a
                // neighbouring step of about the same ratio, the same way.
                let step = width / pairWidth
                let steep = !within(step, 0.8, 1.25)
                if steep && !within(step, 0.7, 1.43) { return 0 }
                if lastStep > 0 && (steep || lastSteep) {
                    let steady = within(step / lastStep, 0.8, 1.25) && (step - 1) * (lastStep - 1) > 0
                    if !steady { return 0 }
                    unconfirmed = false
                } else if steep {
                    unconfirmed = true
                }
                // The narrow widths follow the pairs' scale.
                let scale = steep || lastSteep ? step : 1
                if !within(bars.narrow / barNarrow / scale, 0.7, 1.43)
                    || !within(spaces.narrow / spaceNarrow / scale, 0.7, 1.43)
                {
                    return 0
                }
                lastStep = step
                lastSteep = steep
            }
            let bd = table[bars.pattern], sd = table[spaces.pattern]
            guard bd < 10, sd < 10 else { return 0 }
            digits[count] = bd
            digits[count + 1] = sd
            count += 2
            let e = (bars.error + spaces.error) / 2
            errorSum += e
            errorMax = max(errorMax, e)
            barNarrow = bars.narrow; barWide = bars.wide; spaceNarrow = spaces.narrow
            pairWidth = width
            narrowSum += bars.narrow + spaces.narrow
            if count == 2 { firstX = min((bars.narrow + spaces.narrow) / 2, width / 16) }
            let br = bars.wide / bars.narrow, sr = spaces.wide / spaces.narrow
            barRatioMin = min(barRatioMin, br); barRatioMax = max(barRatioMax, br)
            spaceRatioMin = min(spaceRatioMin, sr); spaceRatioMax = max(spaceRatioMax, sr)
            i += 10
        }
        guard stopAt > 0, !unconfirmed else { return 0 }
        let stats = PairStats(
            errorSum: errorSum, errorMax: errorMax, narrowSum: narrowSum, barNarrow: barNarrow, barWide: barWide,
            spaceNarrow: spaceNarrow, barRatio: (barRatioMin, barRatioMax), spaceRatio: (spaceRatioMin, spaceRatioMax),
            ends: (firstX, min((barNarrow + spaceNarrow) / 2, pairWidth / 16)))
        return accept(
            run, at: b, stopAt: stopAt, count: count, stats: stats, fromBorder: fromBorder,
            opensAtBorder: opensAtBorder, borderOnly: borderOnly, into: &sink)
    }

    /// The `count` digits read from the start pattern at bar `b` up to
    /// element `i`, where the line ends on the frame's border, as a leading
    /// part of a code wider than the frame, when a quiet zone precedes them.
    @inline(__always)
    private func appendLeadingPart(
        _ run: borrowing ElementRun, from b: Int, to i: Int, count: Int, module x: Float,
        into sink: inout LinearHitSink
    ) {
        let w = UnsafePointer(run.widths.pointer)
        let s = run.starts.pointer
        if quiet(run, b - 1, x: x, leading: true, patternFrom: s[b], patternTo: s[b + 14]) {
            sink.appendPart(
                .itf, leading: true, values: digits, count: count,
                start: s[b], end: s[i - 1] + w[i - 1], module: x)
        }
    }

    /// What ``decode(_:at:borderOnly:into:)`` measured of a symbol's pairs:
    /// their errors, narrow widths, the last pair's widths, the spread
    /// of their wide:narrow ratios, and the narrow width at either end.
    private struct PairStats {
        var errorSum: Float, errorMax: Float, narrowSum: Float
        var barNarrow: Float, barWide: Float, spaceNarrow: Float
        var barRatio: (min: Float, max: Float), spaceRatio: (min: Float, max: Float)
        /// The narrow width of the first and of the last pair (each capped
        /// by its pair's width, as the symbol's is): under perspective the
        /// narrow width changes along the symbol, and each quiet zone is
        /// measured in the narrow width at its own end.
        var ends: (first: Float, last: Float)
    }

    /// The checks of a symbol read from bar `b` to its stop pattern at
    /// `stopAt` (digit count, ratio spread, quiet zones, square ends,
    /// check digits) and its hit in `sink`.
    /// - Returns: the bar after its stop pattern, 0 when rejected.
    @inline(__always)
    private func accept(
        _ run: borrowing ElementRun, at b: Int, stopAt: Int, count: Int, stats: PairStats, fromBorder: Bool,
        opensAtBorder: Bool, borderOnly: Bool, into sink: inout LinearHitSink
    ) -> Int {
        let n = run.count
        let w = UnsafePointer(run.widths.pointer)
        let errorSum = stats.errorSum, errorMax = stats.errorMax, narrowSum = stats.narrowSum
        let barNarrow = stats.barNarrow, barWide = stats.barWide, spaceNarrow = stats.spaceNarrow
        let barRatioMin = stats.barRatio.min, barRatioMax = stats.barRatio.max
        let spaceRatioMin = stats.spaceRatio.min, spaceRatioMax = stats.spaceRatio.max
        // The symbol fills the line from the frame's border to the frame's border.
        let cutAtEnd = run.cutBarAtEnd
        let endsAtBorder = run.endsAtFrameBorder && cutAtEnd == 0
        let fillsFrame = fromBorder && stopAt + 3 == n - 1 && endsAtBorder
        // Fewer digits only for a tight crop: where both margins are
        // narrower than a quiet zone cut by the line's end could be.
        let tightX = (w[b] + w[b + 2] + w[stopAt + 1] + w[stopAt + 2]) / 4
        let tight =
            fillsFrame && w[b - 1] < minQuietZoneAtLineEnd * tightX
            && w[stopAt + 3] < minQuietZoneAtLineEnd * tightX
        guard count >= (tight ? min(minDigits, minDigitsFillingFrame) : minDigits) else { return 0 }
        // One printing: the wide:narrow ratio stays about the same along the symbol.
        guard barRatioMax <= maxRatioSpread * barRatioMin, spaceRatioMax <= maxRatioSpread * spaceRatioMin else {
            return 0
        }
        let pairs = Float(count / 2)
        // The narrow width: blur widens narrow elements at the expense of
        // wide ones, so the mean narrow width is capped by the pairs' mean
        // width at a ratio of 2.5 (16 narrow widths a pair).
        let x = min(narrowSum / (2 * pairs), span(w, b + 4, count * 5) / (16 * pairs))
        let s = run.starts.pointer
        let last = stopAt + 2
        let closesAtBorder = run.isFrameBorder(stopAt + 3)
        if borderOnly, !opensAtBorder, !closesAtBorder { return 0 }
        // A symbol with one end on the frame's border and a quiet zone at
        // the other takes the border for its quiet zone only with a valid
        // modulo-10 check digit: ITF has no structural check, and a longer
        // symbol the border cuts between pairs reads as a shorter one.
        let checked = !fillsFrame && ITFReader.checkDigitOK(digits, count: count)
        let reachesStart = run.reachesFrameBorder(b - 1), reachesEnd = run.reachesFrameBorder(stopAt + 3)
        let leadingBorder = fillsFrame || (checked && reachesStart)
        let trailingBorder = fillsFrame || (checked && reachesEnd)
        let xs = min(x, stats.ends.first), xe = min(x, stats.ends.last)
        guard
            leadingBorder
                ? borderQuiet(run, b - 1, x: xs, leading: true, patternFrom: s[b], patternTo: s[b + 14])
                : quiet(run, b - 1, x: xs, leading: true, patternFrom: s[b], patternTo: s[b + 14]),
            trailingBorder
                ? borderQuiet(
                    run, stopAt + 3, x: xe, leading: false, patternFrom: s[stopAt - 10],
                    patternTo: s[stopAt + 3])
                : quiet(run, stopAt + 3, x: xe, leading: false, patternFrom: s[stopAt - 10], patternTo: s[stopAt + 3])
        else { return 0 }
        // The line must leave through the quiet zones, not through the bars'
        // ends (a bar the frame's border cuts has no outer edge to look at).
        let squareStart = opensAtBorder ? true : squareEnd(run, bar: b, outerEdge: s[b])
        let squareStop = closesAtBorder ? true : squareEnd(run, bar: last, outerEdge: s[last] + w[last])
        guard squareStart, squareStop else { return 0 }
        // ITF-14: the GS1 check digit must hold.
        if count == 14 && !ITFReader.checkDigitOK(digits, count: 14) { return 0 }

        // Start and stop deviation from their ideal widths.
        var edgeError: Float = 0
        edgeError += abs(w[b] / barNarrow - 1) + abs(w[b + 2] / barNarrow - 1)
        edgeError += abs(w[b + 1] / spaceNarrow - 1) + abs(w[b + 3] / spaceNarrow - 1)
        edgeError +=
            abs(w[stopAt] / barWide - 1) + abs(w[stopAt + 1] / spaceNarrow - 1) + abs(w[stopAt + 2] / barNarrow - 1)
        let mean = errorSum / pairs
        let error = mean + 0.5 * (errorMax - mean) + 0.3 * edgeError / 7

        for k in 0..<count { text[k] = digits[k] &+ 48 }
        sink.appendSymbol(
            .itf, text: UnsafeBufferPointer(start: text, count: count), run: run, first: b, last: last, error: error,
            aimModifier: count == 14 ? 49 : 48)
        return last + 2
    }

    /// The steepest grey-level step of the profile within one sample of
    /// run position `t`.
    @inline(__always)
    private func steepness(_ run: borrowing ElementRun, _ p: UnsafePointer<Float>, at t: Float) -> Float {
        let n = Int(run.lineLength)
        let c = run.isReversed ? run.lineLength - t : t
        let a = max(0, Int((c - 1).rounded(.down))), z = min(n - 2, Int(c.rounded(.down)))
        guard a <= z else { return 0 }
        var m: Float = 0
        for i in a...z { m = max(m, abs(p[i + 1] - p[i])) }
        return m
    }

    /// Whether the outer edge of the symbol's first or last bar is about as
    /// steep as its inner edge.
    ///
    /// A scan line that crosses the bars obliquely can leave the symbol
    /// through the ends of its bars into the light above or below it, which
    /// looks like a stop pattern followed by a quiet zone (or, entering, a
    /// quiet zone and a start pattern) inside a longer symbol. The bar's end
    /// then runs nearly along the line, and the line's sampling thickness
    /// and the pixels smear that edge over several samples: it is much less
    /// steep than the bar's sides. Without a profile nothing is known: true.
    private func squareEnd(_ run: borrowing ElementRun, bar: Int, outerEdge: Float) -> Bool {
        guard let p = run.profile else { return true }
        let s = run.starts[bar], w = run.widths[bar]
        let innerEdge = outerEdge == s ? s + w : s
        let outer = steepness(run, p, at: outerEdge), inner = steepness(run, p, at: innerEdge)
        return outer >= 0.5 * inner
    }

    /// Sum of `count` widths from `i`.
    @inline(__always)
    private func span(_ w: UnsafePointer<Float>, _ i: Int, _ count: Int) -> Float {
        var t: Float = 0
        for k in i..<(i + count) { t += w[k] }
        return t
    }
}
