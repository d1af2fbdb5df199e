@testable import RLBarcode

extension TestPicture {
    /// The picture turned clockwise by `quarterTurns` right angles, pixel for pixel.
    func c39Turned(_ quarterTurns: Int) -> TestPicture {
        var pic = self
        for _ in 0..<((quarterTurns % 4 + 4) % 4) {
            var out = TestPicture(width: pic.height, height: pic.width)
            for y in 0..<pic.height {
                for x in 0..<pic.width {
                    // (x, y) goes to (height - 1 - y, x).
                    out.pixels[x * out.stride + (pic.height - 1 - y)] = pic.pixels[y * pic.stride + x]
                }
            }
            pic = out
        }
        return pic
    }

    /// A picture of `row` upright, `module` pixels a module, whose first
    /// bar (`start`) and/or last bar (`end`) touches the picture's left or
    /// right border; a side not touching keeps a margin of `margin` modules.
    static func c39Touching(
        _ row: ZintRow, module: Double, start: Bool, end: Bool, margin: Double = 24,
        height: Int = 120
    ) -> TestPicture {
        let n = Double(row.modules.count)
        let left = start ? 0 : margin, right = end ? 0 : margin
        let width = Int(((left + n + right) * module).rounded())
        var pic = TestPicture(width: width, height: height)
        pic.draw(
            row,
            .init(
                cx: (left + n / 2) * module, cy: Double(height) / 2, module: module,
                barHeight: Double(height) / module, quietZone: margin))
        return pic
    }

    /// A picture fitted to `row` drawn at `angle` degrees, `module` pixels a
    /// module, with quiet zones of `quiet` modules.
    static func fitted(_ row: ZintRow, module: Double = 1, quiet: Double = 24, angle: Double = 0) -> TestPicture {
        let length = (Double(row.modules.count) + 2 * quiet) * module
        let size = angle == 0 ? Int(length) + 20 : Int(length * 1.05) + 40
        var pic = TestPicture(width: size, height: angle == 0 ? 140 : size)
        pic.draw(
            row,
            .init(
                cx: Double(size) / 2, cy: Double(pic.height) / 2, module: module, barHeight: 80,
                angle: angle, quietZone: quiet))
        return pic
    }
}
