import Foundation
import XCTest
@testable import RLBarcode

/// The module matrix of a 2D symbol made by the `zint` command at test time.
struct QRTestSymbol {
    /// `modules[y][x]`, true = dark.
    var modules: [[Bool]]
    var size: Int { modules.count }

    /// Runs `zint -b SYMBOLOGY [ARGUMENTS] -d DATA --dump` and parses the
    /// rows of hexadecimal digits (one bit a module, most significant first).
    /// Skips the test when zint is not installed.
    static func make(
        symbology: Int, _ data: String, arguments: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> QRTestSymbol {
        guard let text = try ZintRow.dump(symbology: symbology, data, arguments: arguments, file: file, line: line)
        else { return QRTestSymbol(modules: []) }
        let rows = text.split(separator: "\n").filter { !$0.isEmpty }
        let n = rows.count
        var modules: [[Bool]] = []
        for r in rows {
            var bits: [Bool] = []
            for ch in r where ch.isHexDigit {
                let v = Int(String(ch), radix: 16)!
                for bit in (0..<4).reversed() { bits.append(v >> bit & 1 == 1) }
            }
            modules.append(Array(bits.prefix(n)))
        }
        return QRTestSymbol(modules: modules)
    }

    /// A QR Code (zint symbology 58), `version` 0 = automatic.
    static func qr(_ data: String, version: Int = 0, ecc: Int = 0) throws -> QRTestSymbol {
        var args: [String] = []
        if version > 0 { args += ["--vers=\(version)"] }
        if ecc > 0 { args += ["--secure=\(ecc)"] }
        return try make(symbology: 58, data, arguments: args)
    }

    /// A Micro QR symbol (zint symbology 97), M1 to M4.
    static func micro(_ data: String, version: Int) throws -> QRTestSymbol {
        try make(symbology: 97, data, arguments: ["--vers=\(version)"])
    }

    /// The matrix as a ``BitMatrix``.
    var bitMatrix: BitMatrix {
        var m = BitMatrix(size: size)
        for y in 0..<size { for x in 0..<size where modules[y][x] { m[x, y] = true } }
        return m
    }

    /// The mirror image (columns reversed).
    var mirrored: QRTestSymbol { QRTestSymbol(modules: modules.map { Array($0.reversed()) }) }
}

/// A grey picture with QR-like symbols drawn into it under a projective
/// warp, plus the camera troubles of ``TestPicture``.
struct QRPicture {
    var picture: TestPicture

    init(width: Int, height: Int, background: UInt8 = 255) {
        picture = TestPicture(width: width, height: height, background: background)
    }

    /// How a symbol is placed.
    struct Placement {
        /// Centre of the symbol in pixels.
        var cx: Double
        var cy: Double
        /// Pixels per module (at the symbol's centre line before the taper).
        var module: Double = 4
        /// Rotation, degrees clockwise.
        var angle: Double = 0
        /// Perspective: how much shorter (a fraction) the symbol's right edge
        /// is than its left edge, before rotation.
        var taper: Double = 0
        /// Perspective: how much shorter the bottom edge is than the top edge.
        var taperY: Double = 0
        /// Foreshortening: the symbol drawn this fraction as wide as it is
        /// tall, before rotation (a view tilted about the vertical axis by
        /// the angle whose cosine this is).
        var squash: Double = 1
        /// Lens (barrel) distortion about the symbol's centre: a point at
        /// the symbol's corner distance r0 from it moves inwards by
        /// `distortion` times its distance (r² / r0² scaling); 0 is none.
        var distortion: Double = 0
        /// Quiet zone in modules.
        var quietZone: Double = 4
        var dark: Double = 25
        var light: Double = 235
    }

    /// Where the symbol's outer corners land (top-left, top-right,
    /// bottom-right, bottom-left of the symbol as drawn).
    static func corners(size n: Int, _ p: Placement) -> [Point] {
        let h = Double(n) * p.module / 2
        let w = h * p.squash
        var c = [(-w, -h), (w, -h), (w, h), (-w, h)]
        // Taper: the right edge shrinks about the centre line, then the bottom edge.
        c[1].1 *= (1 - p.taper); c[2].1 *= (1 - p.taper)
        c[2].0 *= (1 - p.taperY); c[3].0 *= (1 - p.taperY)
        let a = p.angle * Double.pi / 180
        return c.map { (x, y) in
            Point(x: p.cx + x * cos(a) - y * sin(a), y: p.cy + x * sin(a) + y * cos(a))
        }
    }

    /// Draws `symbol` with 4x4 supersampling and returns its corners.
    @discardableResult
    mutating func draw(_ symbol: QRTestSymbol, _ p: Placement) -> [Point] {
        let n = symbol.size
        var c = QRPicture.corners(size: n, p)
        let r0 = Double(n) * p.module / 2 * 2.0.squareRoot()
        /// Where a point of the undistorted picture lands.
        func distorted(_ q: Point) -> Point {
            var d = q
            for _ in 0..<30 {
                let r2 = ((d.x - p.cx) * (d.x - p.cx) + (d.y - p.cy) * (d.y - p.cy)) / (r0 * r0)
                d = Point(
                    x: p.cx + (q.x - p.cx) / (1 + p.distortion * r2), y: p.cy + (q.y - p.cy) / (1 + p.distortion * r2))
            }
            return d
        }
        let dn = Double(n)
        let toPicture = PerspectiveTransform.quadrilateralToQuadrilateral(
            from: Point(x: 0, y: 0), Point(x: dn, y: 0), Point(x: dn, y: dn), Point(x: 0, y: dn),
            to: c[0], c[1], c[2], c[3])
        let toModules = toPicture.inverse
        let q = p.quietZone
        let outer = [
            toPicture.map(-q, -q), toPicture.map(dn + q, -q), toPicture.map(dn + q, dn + q), toPicture.map(-q, dn + q)
        ]
        let x0 = max(0, Int(outer.map(\.x).min()!.rounded(.down)) - 1)
        let x1 = min(picture.width - 1, Int(outer.map(\.x).max()!.rounded(.up)) + 1)
        let y0 = max(0, Int(outer.map(\.y).min()!.rounded(.down)) - 1)
        let y1 = min(picture.height - 1, Int(outer.map(\.y).max()!.rounded(.up)) + 1)
        guard x0 <= x1, y0 <= y1 else { return c }
        for y in y0...y1 {
            for x in x0...x1 {
                var cover = 0.0, inside = 0
                for sy in 0..<4 {
                    for sx in 0..<4 {
                        let px = Double(x) + (Double(sx) + 0.5) / 4 - 0.5
                        let py = Double(y) + (Double(sy) + 0.5) / 4 - 0.5
                        let r2 = ((px - p.cx) * (px - p.cx) + (py - p.cy) * (py - p.cy)) / (r0 * r0)
                        let f = 1 + p.distortion * r2
                        let m = toModules.map(p.cx + (px - p.cx) * f, p.cy + (py - p.cy) * f)
                        guard m.x >= -q, m.y >= -q, m.x < dn + q, m.y < dn + q else { continue }
                        inside += 1
                        let mx = Int(m.x.rounded(.down)), my = Int(m.y.rounded(.down))
                        if mx >= 0, my >= 0, mx < n, my < n, symbol.modules[my][mx] { cover += 1 }
                    }
                }
                guard inside > 0 else { continue }
                let i = y * picture.stride + x
                let bg = Double(picture.pixels[i])
                let grey = p.light + (p.dark - p.light) * cover / Double(inside)
                let value = bg + (grey - bg) * Double(inside) / 16
                picture.pixels[i] = UInt8(max(0, min(255, value.rounded())))
            }
        }
        if p.distortion != 0 { c = c.map(distorted) }
        return c
    }

    /// Uneven light: scales every pixel by a factor going linearly from
    /// `left` at the left edge to `right` at the right edge (and from `top`
    /// to `bottom` down the picture), plus an offset doing the same.
    mutating func light(left: Double, right: Double, top: Double = 1, bottom: Double = 1, offset: Double = 0) {
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let fx = left + (right - left) * Double(x) / Double(max(1, picture.width - 1))
                let fy = top + (bottom - top) * Double(y) / Double(max(1, picture.height - 1))
                let i = y * picture.stride + x
                let v = Double(picture.pixels[i]) * fx * fy + offset * Double(x) / Double(picture.width)
                picture.pixels[i] = UInt8(max(0, min(255, v.rounded())))
            }
        }
    }

    /// Fills with text-like clutter: short dark strokes of random lengths
    /// on a light background, in lines (for pictures without codes).
    mutating func textClutter(seed: UInt64 = 7) {
        var state = seed
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        let lineHeight = 14
        var y = 6
        while y + lineHeight < picture.height {
            var x = 4
            while x < picture.width - 12 {
                let w = 2 + next(9), h = 4 + next(8)
                if next(5) > 0 {
                    for yy in (y + lineHeight - h)..<(y + lineHeight) {
                        for xx in x..<min(picture.width, x + w) where next(4) > 0 || yy == y + lineHeight - 1 {
                            picture.pixels[yy * picture.stride + xx] = UInt8(30 + next(30))
                        }
                    }
                }
                x += w + 1 + next(4)
            }
            y += lineHeight + 4
        }
    }

    /// Runs the detector over the picture: with `regions`, as a scanner
    /// does (the 2D pre-pass, then the search in each region found), else
    /// the finder search over the whole picture.
    func detect(_ detector: QRDetector = QRDetector(), regions: Bool = true) -> [QRCandidate] {
        var out: [QRCandidate] = []
        picture.withLumaView { view in
            if regions { detector.scan(view, into: &out) } else { detector.detect(view, in: nil, into: &out) }
        }
        return out
    }

    /// Writes the picture as a binary PGM (for looking at a failing case).
    func writePGM(_ path: String) {
        var data = Data("P5\n\(picture.width) \(picture.height)\n255\n".utf8)
        for y in 0..<picture.height {
            data.append(contentsOf: picture.pixels[(y * picture.stride)..<(y * picture.stride + picture.width)])
        }
        try? data.write(to: URL(fileURLWithPath: path))
    }
}

extension BitMatrix {
    /// How many modules differ from `other` (of the same size).
    func differences(from other: BitMatrix) -> Int {
        guard width == other.width, height == other.height else { return Int.max }
        var n = 0
        for y in 0..<height { for x in 0..<width where self[x, y] != other[x, y] { n += 1 } }
        return n
    }
}
