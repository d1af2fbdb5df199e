import Foundation
@testable import RLBarcode

/// Zint symbols of any kind for the Code 128 and Code 93 tests, and a way to
/// run a reader on a clean row of modules without a picture.
enum LinearSymbolTestKit {
    /// zint's symbology numbers.
    static let code128 = 20, gs1128 = 16, code93 = 25

    /// Runs `zint -b SYMBOLOGY -d DATA --dump` (plus `arguments`) and parses the row.
    static func row(
        _ symbology: Int, _ data: String, arguments: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> ZintRow {
        try ZintRow.make(symbology: symbology, data, arguments: arguments, file: file, line: line)
    }

    /// Module runs of a row, bars and spaces alternating, the first a bar.
    static func runs(_ row: ZintRow) -> [Int] {
        var runs: [Int] = []
        var previous: Bool? = nil
        for m in row.modules {
            if m == previous { runs[runs.count - 1] += 1 } else { runs.append(1); previous = m }
        }
        return runs
    }

    /// Runs `reader` on `row` drawn with `module` pixels per module and the
    /// given quiet zones, with `spread` added to every bar (and taken from
    /// every space); `reversed` reads it backwards.
    /// - Returns: the texts (payload bytes), errors and AIM modifiers of the hits.
    static func decode(
        _ reader: any LinearReader, _ enabled: Symbology, _ row: ZintRow, module: Float = 3,
        quiet: Float = 12, trailingQuiet: Float? = nil, spread: Float = 0, reversed: Bool = false
    )
        -> [(bytes: [UInt8], error: Float, modifier: Character)]
    {
        var bars = runs(row).map { Float($0) * module }
        for k in bars.indices { bars[k] += k % 2 == 0 ? spread : -spread }
        // Framed by a bar on either side, so that the quiet zones do not run to the line's ends.
        var widths =
            [5 * module, 3 * module, quiet * module] + bars + [
                (trailingQuiet ?? quiet) * module, 3 * module, 5 * module
            ]
        if reversed { widths.reverse() }
        return hits(reader, enabled, widths) { sink, hit in
            (Array(sink.text(of: hit)), hit.error, Character(Unicode.Scalar(hit.aimModifier)))
        }
    }

    /// Runs `reader` on one line of element widths in pixels, the first a
    /// space (no grey levels: quiet zones count by width alone).
    /// - Returns: the texts and errors of the hits.
    static func decodeWidths(
        _ widths: [Float], _ reader: any LinearReader, _ enabled: Symbology
    ) -> [(text: String, error: Float)] {
        hits(reader, enabled, widths) { sink, hit in (String(decoding: sink.text(of: hit), as: UTF8.self), hit.error) }
    }

    /// Runs `reader` on the line of `widths` and maps each hit with `describe`.
    private static func hits<T>(
        _ reader: any LinearReader, _ enabled: Symbology, _ widths: [Float],
        _ describe: (LinearHitSink, LinearHit) -> T
    ) -> [T] {
        var run = ElementRun()
        run.reserve(widths.count)
        var x: Float = 0
        for (i, w) in widths.enumerated() { run.widths[i] = w; run.starts[i] = x; x += w }
        run.count = widths.count
        run.lineLength = x
        var sink = LinearHitSink()
        defer { run.free(); sink.free() }
        reader.decode(run, enabled: enabled, into: &sink)
        return (0..<sink.hitCount).map { describe(sink, sink.hits[$0]) }
    }

    /// Element widths of `row`, `unit` pixels a module, between quiet zones
    /// of `leading` and `trailing` pixels.
    static func widths(_ row: ZintRow, unit: Float, leading: Float, trailing: Float) -> [Float] {
        [leading] + runs(row).map { Float($0) * unit } + [trailing]
    }

    /// Scans a picture with the given readers only.
    static func scan(
        _ pic: TestPicture, _ symbologies: Symbology, _ readers: [any LinearReader],
        effort: Effort = .balanced
    ) -> [BarcodeResult] {
        pic.scan(ScanOptions(symbologies: symbologies, effort: effort), readers: readers)
    }

    /// Frames that hold no code: blank, noise, stripes, random bars (text or
    /// a grid seen edge-on), blocks of text-like glyphs.
    static func falsePositiveFrames() -> [TestPicture] {
        var frames: [TestPicture] = []
        var blank = TestPicture(width: 320, height: 240, background: 128)
        frames.append(blank)
        blank.addNoise(amplitude: 60, seed: 7)
        frames.append(blank)
        for period in [2, 3, 5] {
            var stripes = TestPicture(width: 320, height: 240)
            for y in 0..<240 { for x in 0..<320 where (x / period) % 2 == 0 { stripes.pixels[y * 320 + x] = 0 } }
            frames.append(stripes)
        }
        var state: UInt64 = 42
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
        for seed in 0..<6 {
            state = UInt64(seed) &* 7919 &+ 3
            var random = TestPicture(width: 400, height: 240)
            var x = 20
            var dark = true
            while x < 380 {
                // One to four units of 2 pixels: the widths of Code 128 and Code 93 elements.
                let w = 2 * (1 + Int(next() % 4))
                if dark { for y in 40..<200 { for k in x..<min(x + w, 400) { random.pixels[y * 400 + k] = 10 } } }
                x += w
                dark.toggle()
            }
            frames.append(random)
        }
        // Text-like: rows of glyphs, vertical strokes of random widths with gaps between words.
        for seed in 0..<3 {
            state = UInt64(seed) &* 104729 &+ 11
            var text = TestPicture(width: 480, height: 240)
            for lineY in stride(from: 20, to: 220, by: 24) {
                var x = 10
                while x < 460 {
                    let glyphs = 2 + Int(next() % 8)
                    for _ in 0..<glyphs {
                        let strokes = 1 + Int(next() % 3)
                        for _ in 0..<strokes where x < 470 {
                            let w = 1 + Int(next() % 3)
                            let top = lineY + Int(next() % 6)
                            for y in top..<(lineY + 16) {
                                for k in x..<min(x + w, 480) { text.pixels[y * 480 + k] = 20 }
                            }
                            x += w + 1 + Int(next() % 3)
                        }
                        x += 2
                    }
                    x += 8 + Int(next() % 6)
                }
            }
            frames.append(text)
        }
        return frames
    }
}
