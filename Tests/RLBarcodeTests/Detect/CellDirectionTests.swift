import Foundation
import XCTest
@testable import RLBarcode

/// The detection pass joins neighbouring bar cells whose main directions
/// lie within 0.40 radians of each other, a half turn apart counting as the
/// same direction.
final class CellDirectionTests: XCTestCase {
    /// A structure tensor whose main direction is `theta`, with
    /// `coherence` of its energy `energy` along it.
    func direction(_ theta: Double, energy: Double = 1000, coherence: Double = 0.8) -> SIMD2<Float> {
        // sxx - syy = c e cos 2θ, 2 sxy = c e sin 2θ.
        let d = Float(coherence * energy * cos(2 * theta)), twiceXY = Float(coherence * energy * sin(2 * theta))
        return RegionDetector.doubledDirection(d: d, twiceXY: twiceXY, norm: (d * d + twiceXY * twiceXY).squareRoot())
    }

    /// Against the definition on angles: the difference of two directions
    /// in -π/2 ... π/2, folded by a half turn, at most 0.40 (pairs within
    /// a thousandth of a radian of the limit are left out).
    func testDirectionsJoinWithinFortyHundredthsOfARadian() {
        var generator = SystemRandomNumberGenerator()
        var checked = 0
        for _ in 0..<20_000 {
            let a = Double.random(in: -Double.pi / 2...Double.pi / 2, using: &generator)
            let b = Double.random(in: -Double.pi / 2...Double.pi / 2, using: &generator)
            var diff = abs(a - b)
            if diff > Double.pi / 2 { diff = Double.pi - diff }
            guard abs(diff - 0.40) > 0.001 else { continue }
            checked += 1
            XCTAssertEqual(RegionDetector.sameDirection(direction(a), direction(b)), diff <= 0.40, "\(a) \(b)")
        }
        XCTAssertGreaterThan(checked, 19_000)
        // Across the half turn: nearly vertical both ways.
        XCTAssertTrue(RegionDetector.sameDirection(direction(Double.pi / 2 - 0.1), direction(-Double.pi / 2 + 0.1)))
        XCTAssertFalse(RegionDetector.sameDirection(direction(0.2), direction(-0.21)))
        XCTAssertTrue(RegionDetector.sameDirection(direction(0.2), direction(-0.19)))
    }

    /// A cell whose tensor has no direction at all points along x.
    func testATensorWithoutDirection() {
        XCTAssertEqual(RegionDetector.doubledDirection(d: 0, twiceXY: 0, norm: 0), SIMD2(1, 0))
    }
}
