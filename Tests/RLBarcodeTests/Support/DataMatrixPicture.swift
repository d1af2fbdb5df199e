import Foundation
@testable import RLBarcode

extension QRPicture {
    /// Draws a matrix of any shape (rows by columns, such as a rectangular
    /// Data Matrix) with 4x4 supersampling, placed as ``draw(_:_:)`` places
    /// a square symbol (the module size applies to both axes); with
    /// `mirrored`, as seen in a mirror (columns reversed). Returns the outer
    /// corners as drawn: top-left, top-right, bottom-right, bottom-left.
    @discardableResult
    mutating func draw(matrix: BitMatrix, _ p: Placement, mirrored: Bool = false) -> [Point] {
        let w = Double(matrix.width), h = Double(matrix.height)
        let hw = w * p.module / 2 * p.squash, hh = h * p.module / 2
        var c = [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)]
        c[1].1 *= (1 - p.taper); c[2].1 *= (1 - p.taper)
        c[2].0 *= (1 - p.taperY); c[3].0 *= (1 - p.taperY)
        let a = p.angle * Double.pi / 180
        let corners = c.map { (x, y) in Point(x: p.cx + x * cos(a) - y * sin(a), y: p.cy + x * sin(a) + y * cos(a)) }
        let toPicture = PerspectiveTransform.quadrilateralToQuadrilateral(
            from: Point(x: 0, y: 0), Point(x: w, y: 0), Point(x: w, y: h), Point(x: 0, y: h),
            to: corners[0], corners[1], corners[2], corners[3])
        let toModules = toPicture.inverse
        let q = p.quietZone
        let outer = [
            toPicture.map(-q, -q), toPicture.map(w + q, -q), toPicture.map(w + q, h + q), toPicture.map(-q, h + q)
        ]
        let x0 = max(0, Int(outer.map(\.x).min()!.rounded(.down)) - 1)
        let x1 = min(picture.width - 1, Int(outer.map(\.x).max()!.rounded(.up)) + 1)
        let y0 = max(0, Int(outer.map(\.y).min()!.rounded(.down)) - 1)
        let y1 = min(picture.height - 1, Int(outer.map(\.y).max()!.rounded(.up)) + 1)
        guard x0 <= x1, y0 <= y1 else { return corners }
        for y in y0...y1 {
            for x in x0...x1 {
                var cover = 0.0, inside = 0
                for sy in 0..<4 {
                    for sx in 0..<4 {
                        let m = toModules.map(
                            Double(x) + (Double(sx) + 0.5) / 4 - 0.5, Double(y) + (Double(sy) + 0.5) / 4 - 0.5)
                        guard m.x >= -q, m.y >= -q, m.x < w + q, m.y < h + q else { continue }
                        inside += 1
                        var mx = Int(m.x.rounded(.down))
                        let my = Int(m.y.rounded(.down))
                        if mirrored { mx = matrix.width - 1 - mx }
                        if mx >= 0, my >= 0, mx < matrix.width, my < matrix.height, matrix[mx, my] { cover += 1 }
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
        return corners
    }

    /// Draws a matrix on any surface: `toModules` maps a picture position
    /// (pixel centres at whole numbers) to module coordinates (x across, y
    /// down; the symbol covers 0 ..< width by 0 ..< height), nil where the
    /// surface is out of sight. 4x4 supersampling. Dark modules are inked
    /// over the middle `ink` of their width and height only (dot-like print
    /// below 1); a quiet zone `quietZone` modules wide is painted `light`.
    mutating func draw(
        matrix: BitMatrix, ink: Double = 1, dark: Double = 25, light: Double = 235,
        quietZone: Double = 2, toModules: (Double, Double) -> Point?
    ) {
        let w = Double(matrix.width), h = Double(matrix.height)
        let lo = (1 - ink) / 2, hi = 1 - lo
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                var cover = 0.0, inside = 0
                for sy in 0..<4 {
                    for sx in 0..<4 {
                        guard
                            let m = toModules(
                                Double(x) + (Double(sx) + 0.5) / 4 - 0.5,
                                Double(y) + (Double(sy) + 0.5) / 4 - 0.5),
                            m.x >= -quietZone, m.y >= -quietZone, m.x < w + quietZone, m.y < h + quietZone
                        else { continue }
                        inside += 1
                        let mx = Int(m.x.rounded(.down)), my = Int(m.y.rounded(.down))
                        let fx = m.x - Double(mx), fy = m.y - Double(my)
                        if mx >= 0, my >= 0, mx < matrix.width, my < matrix.height, matrix[mx, my],
                            fx >= lo, fx < hi, fy >= lo, fy < hi
                        {
                            cover += 1
                        }
                    }
                }
                guard inside > 0 else { continue }
                let i = y * picture.stride + x
                let bg = Double(picture.pixels[i])
                let grey = light + (dark - light) * cover / Double(inside)
                picture.pixels[i] = UInt8(max(0, min(255, (bg + (grey - bg) * Double(inside) / 16).rounded())))
            }
        }
    }

    /// Scans the picture for Data Matrix only.
    func scanDataMatrix(thorough: Bool = true) -> [BarcodeResult] {
        var out: [BarcodeResult] = []
        let reader = DataMatrixReader()
        picture.withLumaView { reader.read($0, bounds: nil, thorough: thorough, into: &out) }
        return out
    }
}
