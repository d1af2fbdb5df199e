import Foundation

/// Module patterns from `zint --dump` (1 = bar), rendered by the tests.
enum Zint {
    /// The module bits of a symbol: `zint -b <symbology> -d <data> --dump`.
    static func modules(symbology: Int, data: String) throws -> [Bool] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["zint", "-b", String(symbology), "-d", data, "--dump"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = Pipe()
        try process.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let text = String(data: out, encoding: .utf8),
            let firstRow = text.split(separator: "\n").first
        else {
            throw NSError(
                domain: "zint", code: Int(process.terminationStatus),
                userInfo: [NSLocalizedDescriptionKey: "zint failed for \(data)"])
        }
        var bits: [Bool] = []
        for c in firstRow where c.isHexDigit {
            guard let nibble = c.hexDigitValue else { continue }
            for shift in stride(from: 3, through: 0, by: -1) { bits.append(nibble >> shift & 1 == 1) }
        }
        while bits.last == false { bits.removeLast() }
        return bits
    }
}

/// A grey frame to draw test codes into.
struct Canvas {
    var width: Int
    var height: Int
    var pixels: [UInt8]

    /// A frame filled with `background`.
    init(width: Int, height: Int, background: UInt8 = 200) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: background, count: width * height)
    }

    /// Draws a linear code: a white quiet-zone box of 10 modules on both
    /// sides, then the bars, `moduleWidth` pixels per module, `barHeight`
    /// tall, its left quiet zone starting at (`x`, `y`).
    ///
    /// - Returns: the bars' rectangle (x, y, width, height).
    @discardableResult
    mutating func drawLinear(_ modules: [Bool], x: Int, y: Int, moduleWidth: Int = 2, barHeight: Int = 60)
        -> (x: Int, y: Int, width: Int, height: Int)
    {
        let quiet = 10 * moduleWidth
        let total = modules.count * moduleWidth + 2 * quiet
        fill(x: x, y: y - 8, width: total, height: barHeight + 16, value: 240)
        for (i, bar) in modules.enumerated() where bar {
            fill(x: x + quiet + i * moduleWidth, y: y, width: moduleWidth, height: barHeight, value: 20)
        }
        return (x + quiet, y, modules.count * moduleWidth, barHeight)
    }

    /// Fills a rectangle, clipped.
    mutating func fill(x: Int, y: Int, width w: Int, height h: Int, value: UInt8) {
        let x0 = max(0, x), x1 = min(width, x + w), y0 = max(0, y), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        for yy in y0..<y1 {
            for xx in x0..<x1 { pixels[yy * width + xx] = value }
        }
    }

    /// This canvas as a frame of `format`.
    func frame(_ format: String, rowPadding: Int = 0) -> TestFrame {
        TestFrame(format: format, width: width, height: height, luma: pixels, rowPadding: rowPadding)
    }
}

/// Test codes.
enum Codes {
    /// EAN-13 5901234123457.
    static let ean13Data = "590123412345"
    static let ean13Text = "5901234123457"
}
