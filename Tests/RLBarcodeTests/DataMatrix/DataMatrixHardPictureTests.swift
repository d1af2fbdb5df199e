import XCTest
@testable import RLBarcode

/// Data Matrix pictures that the clock tracks' edges alone do not read:
/// symbols on curved surfaces, whose modules narrow towards the sides,
/// and symbols in a narrow light frame on a textured surface.
final class DataMatrixHardPictureTests: XCTestCase {
    private func symbol(_ data: String, _ args: [String] = []) throws -> BitMatrix {
        try ZintMatrix.symbol(.dataMatrix, data, arguments: args)
    }

    /// Picture to module coordinates of an `n`-module symbol of `module`-
    /// pixel modules centred on (`cx`, `cy`), turned by `angle` degrees.
    private static func turned(
        cx: Double, cy: Double, angle: Double, module: Double,
        n: Double
    ) -> (Double, Double) -> Point? {
        let a = angle * Double.pi / 180
        return { x, y in
            let px = x - cx, py = y - cy
            return Point(
                x: (px * cos(a) + py * sin(a)) / module + n / 2, y: (-px * sin(a) + py * cos(a)) / module + n / 2)
        }
    }

    /// The cases whose picture, scanned as a still picture or as a video
    /// frame, does not read `text` alone first, each with what it read.
    private func misreadings<Case>(
        _ cases: [Case], _ text: String, thorough: Bool = true,
        _ picture: (Case) -> QRPicture
    ) -> [String] {
        cases.compactMap { c in
            let r = picture(c).scanDataMatrix(thorough: thorough)
            return r.first?.text == text ? nil : "\(c): \(r.map(\.text))"
        }
    }

    /// A clock track whose modules narrow from 1.4 to 0.6 of the mean
    /// width, read with soft edges: the fitted centres land on the modules,
    /// and the true count fits better than its neighbours.
    func testClockWarpFollowsNarrowingModules() {
        let count = 20, perModule = 6
        let n = count * perModule
        // Module edges along the track, widths falling linearly.
        var edges = [0.0]
        for k in 0..<count { edges.append(edges[k] + 1.4 - 0.8 * Double(k) / Double(count - 1)) }
        let scale = Double(n) / edges[count]
        edges = edges.map { $0 * scale }
        var scores = [Double](repeating: 0, count: n)
        for s in 0..<n {
            let x = Double(s) + 0.5
            let k = min(count - 1, edges.lastIndex(where: { $0 <= x }) ?? 0)
            // Soft edges: the score fades within a sample of each boundary.
            let d = min(x - edges[k], edges[k + 1] - x)
            scores[s] = (k % 2 == 0 ? 0.9 : -0.9) * min(1, d)
        }
        let fit = scores.withUnsafeBufferPointer { DMClockWarp.fit($0, count: count, firstInk: true) }
        guard let fit else { return XCTFail("no fit") }
        XCTAssertEqual(fit.centres.count, count)
        for k in 0..<count {
            let truth = (edges[k] + edges[k + 1]) / 2 / Double(n)
            let width = (edges[k + 1] - edges[k]) / Double(n)
            XCTAssertEqual(fit.centres[k], truth, accuracy: 0.3 * width, "module \(k)")
        }
        for other in [count - 2, count + 2] {
            let a = scores.withUnsafeBufferPointer { DMClockWarp.fit($0, count: other, firstInk: true) }?.agreement ?? 0
            XCTAssertLessThan(a, fit.agreement, "count \(other)")
        }
        // Light first: the template is the other way round and fits worse.
        let reversed = scores.withUnsafeBufferPointer { DMClockWarp.fit($0, count: count, firstInk: false) }
        XCTAssertLessThan(reversed?.agreement ?? 0, fit.agreement)
    }
}

extension DataMatrixHardPictureTests {
    /// A surface of square grey cells `cell` pixels wide, each of a grey
    /// picked from `greys`.
    static func texture(width: Int, height: Int, cell: Int, greys: [UInt8], seed: UInt64) -> QRPicture {
        var pic = QRPicture(width: width, height: height)
        var rng = DecoderTestRandom(seed: seed)
        for by in Swift.stride(from: 0, to: height, by: cell) {
            for bx in Swift.stride(from: 0, to: width, by: cell) {
                let g = greys[Int(rng.next() % UInt64(greys.count))]
                for y in by..<min(height, by + cell) {
                    for x in bx..<min(width, bx + cell) { pic.picture.pixels[y * width + x] = g }
                }
            }
        }
        return pic
    }

    /// Draws `m` turned by `angle` degrees about (`cx`, `cy`) inside a light
    /// frame `frame` modules wide with a thin dark outline, on a surface of
    /// grey blocks; the picture is blurred a little.
    private func framedOnTexture(
        _ m: BitMatrix, module: Double, angle: Double, frame: Double,
        seed: UInt64
    ) -> QRPicture {
        let width = 220, height = 200
        var pic = Self.texture(width: width, height: height, cell: 4, greys: [40, 90, 140, 200, 240], seed: seed)
        let n = Double(m.width)
        let toModules = Self.turned(cx: Double(width) / 2, cy: Double(height) / 2, angle: angle, module: module, n: n)
        for y in 0..<height {
            for x in 0..<width {
                guard let p = toModules(Double(x), Double(y)) else { continue }
                let d = max(-p.x, p.x - n, -p.y, p.y - n)
                if d < frame {
                    pic.picture.pixels[y * width + x] = 190
                } else if d < frame + 0.35 {
                    pic.picture.pixels[y * width + x] = 40
                }
            }
        }
        pic.draw(matrix: m, dark: 35, light: 190, quietZone: 0, toModules: toModules)
        pic.picture.blur(radius: 1, passes: 1)
        return pic
    }

    /// A small symbol in a light frame little more than a module wide, on
    /// a textured surface: the arms' edges stay on the symbol (not on the
    /// frame's outline), and the grid is fitted to the finder and clock
    /// modules where the clock tracks' edges run into the texture.
    func testNarrowFrameOnTexturedSurface() throws {
        let m = try symbol("24I44", ["--vers=1"])
        var failures: [String] = []
        for (module, angle, frame) in [(5.0, 20.0, 1.5), (5.0, -35.0, 1.2), (4.5, 60.0, 1.5), (5.5, 5.0, 1.3)] {
            let pic = framedOnTexture(m, module: module, angle: angle, frame: frame, seed: 3)
            let r = pic.scanDataMatrix()
            if r.first?.text != "24I44" { failures.append("module \(module) angle \(angle) frame \(frame)") }
            // Video frames do not fit grids; whatever they read is right.
            for x in pic.scanDataMatrix(thorough: false) { XCTAssertEqual(x.text, "24I44") }
        }
        XCTAssertEqual(failures, [])
    }
}

extension DataMatrixHardPictureTests {
    /// A 26x26 symbol printed on a cylinder seen side on (its axis upright
    /// in the picture): the modules narrow towards the left and right
    /// edges, and blur merges the narrow clock modules there, so the top
    /// clock track does not count cleanly; the module centres come from the
    /// clock template fitted to it.
    func testSymbolOnACylinder() throws {
        let text = "Curved surface 0123456789 ABCDEFGHIJKLMNOP"
        let m = try symbol(text, ["--vers=9"])
        XCTAssertEqual(m.width, 26)
        let cases = [(radius: 42.0, module: 3.0, blur: 1), (45.0, 2.8, 1), (48.0, 2.6, 1), (40.0, 3.2, 1)]
        XCTAssertEqual(
            misreadings(cases, text) { (radius, module, passes) in
                var pic = QRPicture(width: 200, height: 200)
                let n = Double(m.width)
                pic.draw(matrix: m, quietZone: 3) { x, y in
                    let dx = x - 100
                    guard abs(dx) < radius else { return nil }
                    // Arc length along the surface from the axis facing the camera.
                    let s = radius * asin(dx / radius)
                    return Point(x: s / module + n / 2, y: (y - 100) / module + n / 2)
                }
                pic.picture.blur(radius: 1, passes: passes)
                return pic
            }, [])
    }
}

extension DataMatrixHardPictureTests {
    /// A symbol of large modules on paper that bends a little: the bottom
    /// arm of its finder runs straight for half its length, then bows down
    /// by a third of a module. The line between the outline's corners then
    /// runs below the arm's middle stretch, outside its ink.
    func testFinderArmBowedByBentPaper() throws {
        let text = "http://example.com/m"
        let m = try symbol(text, ["--vers=6"])
        XCTAssertEqual(m.width, 20)
        let cases = [(module: 11.0, bow: 4.0), (12.0, 5.0), (10.0, 3.5)]
        XCTAssertEqual(
            misreadings(cases, text, thorough: false) { (module, bow) in
                let n = Double(m.width)
                let size = Int((n + 8) * module)
                var pic = QRPicture(width: size, height: size)
                let half = Double(size) / 2, span = n * module
                pic.draw(matrix: m, quietZone: 3) { x, y in
                    // Past the middle the paper bends away: the modules there
                    // lie lower the further right, by `bow` pixels at the edge.
                    let t = max(0, (x - half) / (span / 2))
                    let drop = bow * t * t
                    return Point(x: (x - half) / module + n / 2, y: (y - half - drop) / module + n / 2)
                }
                pic.picture.blur(radius: 1, passes: 1)
                return pic
            }, [])
    }
}

extension DataMatrixHardPictureTests {
    /// A symbol with a line of print a module or so above it (a label's
    /// caption): the likeliest outer edge of the top clock track is the
    /// caption's lower edge, which gives a grid a little off the symbol's.
    /// Video frames then also try the runner-up edges.
    func testCaptionJustAboveTheClockTrack() throws {
        let text = "tec-it"
        let m = try symbol(text, ["--vers=6"])
        XCTAssertEqual(m.width, 20)
        let cases = [(module: 8.0, angle: 6.0, gap: 1.5), (8.5, -4.0, 2.0), (9.0, 3.0, 2.5)]
        XCTAssertEqual(
            misreadings(cases, text, thorough: false) { (module, angle, gap) in
                let n = Double(m.width)
                let size = Int((n + 10) * module)
                var pic = QRPicture(width: size, height: size)
                let c = Double(size) / 2
                let toModules = Self.turned(cx: c, cy: c, angle: angle, module: module, n: n)
                pic.draw(matrix: m, quietZone: 1, toModules: toModules)
                // The caption: letters a module or so wide with narrower gaps,
                // 2.5 modules tall, `gap` modules above the symbol.
                for y in 0..<size {
                    for x in 0..<size {
                        guard let p = toModules(Double(x), Double(y)),
                            p.y < -gap, p.y > -gap - 2.5, p.x > -0.5, p.x < n + 0.5
                        else { continue }
                        let phase = (p.x * 0.73).truncatingRemainder(dividingBy: 1)
                        if phase < 0.7 { pic.picture.pixels[y * size + x] = 30 }
                    }
                }
                pic.picture.blur(radius: 1, passes: 1)
                return pic
            }, [])
    }
}

extension DataMatrixHardPictureTests {
    /// Small symbols with the one module of quiet zone the standard asks
    /// for, 2.5 and 3 pixels a module, on a surface of grey cells: a ray
    /// three pixels out of an arm lands on the surface, half a module out
    /// on the quiet zone.
    func testOneModuleQuietZoneOnTexture() throws {
        var failures: [String] = []
        for (data, module, angle) in [
            ("ZkLIVV", 3.0, 0.0), ("12345678", 2.5, 0.0), ("ZkLIVV", 3, 8), ("Q1Z", 3, -6), ("ZkLIVV", 2.5, -6)
        ] {
            let m = try symbol(data)
            let width = 100, height = 100
            var pic = Self.texture(width: width, height: height, cell: 3, greys: [60, 100, 140, 180, 210], seed: 11)
            let toModules = Self.turned(
                cx: Double(width) / 2, cy: Double(height) / 2, angle: angle, module: module, n: Double(m.width))
            pic.draw(matrix: m, dark: 35, light: 240, quietZone: 1, toModules: toModules)
            let r = pic.scanDataMatrix()
            if r.map(\.text) != [data] { failures.append("\(data) \(module) px \(angle) deg: \(r.map(\.text))") }
        }
        XCTAssertEqual(failures, [])
    }
}

extension DataMatrixHardPictureTests {
    /// Steep views: the far side much shorter than the near one, so the
    /// clock tracks run at an angle far from the parallelogram of the
    /// finder's arms; the outline's far corner guides their search.
    func testSteepPerspective() throws {
        var failures: [String] = []
        // Widths of 0.7 to 0.5 of the height (45 to 60 degrees), the far
        // side a fifth to a quarter shorter. (A 14x14 symbol at half its
        // height and a third shorter still fails.)
        var cases: [(String, Double, Double)] = []
        for data in ["ZkLIVV", "U2BnUshg BpU4FNZ"] {
            for squash in [0.7, 0.6, 0.5] { for taper in [0.2, 0.28] { cases.append((data, squash, taper)) } }
        }
        for (data, squash, taper) in cases {
            let m = try symbol(data)
            var pic = QRPicture(width: 140, height: 160)
            var p = QRPicture.Placement(cx: 70, cy: 80)
            p.module = 3; p.squash = squash; p.taper = taper; p.quietZone = 3
            pic.draw(matrix: m, p)
            let r = pic.scanDataMatrix()
            if r.map(\.text) != [data] { failures.append("\(data) squash \(squash) taper \(taper): \(r.map(\.text))") }
        }
        XCTAssertEqual(failures, [])
    }
}
