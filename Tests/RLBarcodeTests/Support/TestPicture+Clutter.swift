extension TestPicture {
    /// A 400 x 200 picture of bars and spaces of random widths (2, 4 or 6
    /// pixels) from x = 30 to 370, rows 40 to 159; `mix` scrambles `seed`.
    static func randomStripes(seed: Int, mix: UInt64) -> TestPicture {
        var random = TestPicture(width: 400, height: 200)
        var state = UInt64(seed) &* mix
        var x = 30
        var dark = true
        while x < 370 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let w = 2 * (1 + Int((state >> 33) % 3))
            if dark { for y in 40..<160 { for k in x..<min(x + w, 400) { random.pixels[y * 400 + k] = 20 } } }
            x += w
            dark.toggle()
        }
        return random
    }

    /// A 400 x 240 picture of six lines of glyph-like strokes: glyphs drawn
    /// at random from `glyphs` shapes, `advance` pixels apart, each 22 rows
    /// high and `glyphWidth` columns wide, where `on(glyph, column, row)` is
    /// dark.
    static func textLike(
        seed: UInt64, glyphs: UInt64, glyphWidth: Int, advance: Int, on: (Int, Int, Int) -> Bool
    ) -> TestPicture {
        var text = TestPicture(width: 400, height: 240)
        var state = seed
        for line in 0..<6 {
            var x = 20
            while x < 380 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let glyph = Int((state >> 33) % glyphs)
                let y0 = 20 + line * 36
                for y in y0..<(y0 + 22) {
                    for k in 0..<glyphWidth where on(glyph, k, y - y0) { text.pixels[y * 400 + min(399, x + k)] = 30 }
                }
                x += advance
            }
        }
        return text
    }
}
