import Foundation
import RLBarcode

/// A grey picture made by the tests, with the camera troubles they need:
/// rotation, perspective, blur, noise, low contrast and inversion.
struct TestPicture {
    var width: Int
    var height: Int
    /// Bytes from one row to the next (may exceed `width`).
    var stride: Int
    var pixels: [UInt8]

    init(width: Int, height: Int, stride: Int? = nil, background: UInt8 = 255) {
        self.width = width
        self.height = height
        self.stride = stride ?? width
        pixels = [UInt8](repeating: background, count: self.stride * max(height, 1))
    }

    /// How a row of modules is placed in the picture.
    struct Placement {
        /// Centre of the symbol in pixels.
        var cx: Double
        var cy: Double
        /// Pixels per module.
        var module: Double = 2
        /// Bar height in modules.
        var barHeight: Double = 40
        /// Rotation, degrees clockwise.
        var angle: Double = 0
        /// Perspective: how much narrower (as a fraction) the symbol's right end
        /// appears than its left end; 0 is none.
        var taper: Double = 0
        /// Grey levels of bars and background.
        var dark: Double = 20
        var light: Double = 235
        /// Quiet zone drawn in `light` around the symbol, in modules.
        var quietZone: Double = 12
    }

    /// Draws `row` with 4x4 supersampling.
    mutating func draw(_ row: ZintRow, _ p: Placement) {
        let n = Double(row.modules.count)
        let halfW = n / 2 + p.quietZone, halfH = p.barHeight / 2 + p.quietZone
        let a = p.angle * Double.pi / 180
        let ca = cos(a), sa = sin(a)
        let reach = (halfW * halfW + halfH * halfH).squareRoot() * p.module * (1 + p.taper) + 2
        let x0 = max(0, Int(p.cx - reach)), x1 = min(width - 1, Int(p.cx + reach))
        let y0 = max(0, Int(p.cy - reach)), y1 = min(height - 1, Int(p.cy + reach))
        guard x0 <= x1, y0 <= y1 else { return }
        for y in y0...y1 {
            for x in x0...x1 {
                var cover = 0.0, inside = 0
                for sy in 0..<4 {
                    for sx in 0..<4 {
                        let px = Double(x) + (Double(sx) + 0.5) / 4 - 0.5 - p.cx
                        let py = Double(y) + (Double(sy) + 0.5) / 4 - 0.5 - p.cy
                        // Into the symbol's frame, in modules.
                        var u = (px * ca + py * sa) / p.module
                        var v = (-px * sa + py * ca) / p.module
                        // Perspective: the scale shrinks linearly from left to right.
                        let t = min(max(u / (2 * halfW) + 0.5, 0), 1)
                        let s = max(1 - p.taper * t, 0.2)
                        u /= s; v /= s
                        guard abs(u) <= halfW, abs(v) <= halfH else { continue }
                        inside += 1
                        let m = Int((u + n / 2).rounded(.down))
                        if abs(v) <= p.barHeight / 2, m >= 0, m < row.modules.count, row.modules[m] { cover += 1 }
                    }
                }
                guard inside > 0 else { continue }
                let bg = Double(pixels[y * stride + x])
                let symbolGrey = p.light + (p.dark - p.light) * cover / Double(inside)
                let value = bg + (symbolGrey - bg) * Double(inside) / 16
                pixels[y * stride + x] = UInt8(max(0, min(255, value.rounded())))
            }
        }
    }

    /// Box blur of the given radius, `passes` times (three passes are close to a Gaussian).
    mutating func blur(radius: Int, passes: Int = 3) {
        guard radius > 0 else { return }
        var tmp = [Double](repeating: 0, count: width * height)
        for _ in 0..<passes {
            for y in 0..<height {
                for x in 0..<width {
                    var s = 0.0, c = 0.0
                    for k in -radius...radius where x + k >= 0 && x + k < width {
                        s += Double(pixels[y * stride + x + k]); c += 1
                    }
                    tmp[y * width + x] = s / c
                }
            }
            for y in 0..<height {
                for x in 0..<width {
                    var s = 0.0, c = 0.0
                    for k in -radius...radius where y + k >= 0 && y + k < height {
                        s += tmp[(y + k) * width + x]; c += 1
                    }
                    pixels[y * stride + x] = UInt8(max(0, min(255, (s / c).rounded())))
                }
            }
        }
    }

    /// Adds uniform noise of the given amplitude from a fixed-seed generator.
    mutating func addNoise(amplitude: Int, seed: UInt64 = 1) {
        var state = seed &* 6364136223846793005 &+ 1442695040888963407
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let r = Int((state >> 33) % UInt64(2 * amplitude + 1)) - amplitude
                let i = y * stride + x
                pixels[i] = UInt8(max(0, min(255, Int(pixels[i]) + r)))
            }
        }
    }

    /// Light-on-dark.
    mutating func invert() {
        for y in 0..<height { for x in 0..<width { pixels[y * stride + x] = 255 - pixels[y * stride + x] } }
    }

    /// Scans the picture.
    func scan(_ options: ScanOptions = ScanOptions()) -> [BarcodeResult] {
        scan(with: Scanner(options: options))
    }

    /// ImageMagick's `convert`, which the tests read PNG images with, or nil
    /// when it is not installed.
    static var convertTool: String? {
        ["/usr/local/bin/convert", "/usr/bin/convert"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A PNG image as 8-bit grey levels, through `convert FILE ppm:-`.
    static func load(png path: String, convert: String) throws -> TestPicture? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: convert)
        p.arguments = [path, "ppm:-"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = [UInt8](out.fileHandleForReading.readDataToEndOfFile())
        p.waitUntilExit()
        // P6 <width> <height> <maxval> then RGB pixels.
        var fields: [Int] = []
        var i = 2
        while fields.count < 3 && i < data.count {
            while i < data.count && (data[i] == 32 || data[i] == 10 || data[i] == 13 || data[i] == 9) { i += 1 }
            var v = 0
            while i < data.count && data[i] >= 48 && data[i] <= 57 { v = v * 10 + Int(data[i] - 48); i += 1 }
            fields.append(v)
        }
        i += 1
        guard data.count >= 2, data[0] == 80, data[1] == 54, fields.count == 3, fields[2] == 255,
            data.count - i >= 3 * fields[0] * fields[1]
        else { return nil }
        var pic = TestPicture(width: fields[0], height: fields[1])
        for k in 0..<(fields[0] * fields[1]) {
            let r = Int(data[i + 3 * k]), g = Int(data[i + 3 * k + 1]), b = Int(data[i + 3 * k + 2])
            pic.pixels[k] = UInt8((299 * r + 587 * g + 114 * b) / 1000)
        }
        return pic
    }
}
