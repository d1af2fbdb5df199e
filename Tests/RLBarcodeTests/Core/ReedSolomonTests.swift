import XCTest
@testable import RLBarcode

/// Galois field arithmetic and Reed-Solomon error and erasure correction.
final class ReedSolomonTests: XCTestCase {
    private let fields: [(String, GaloisField)] = [
        ("QR GF(256)", .qrCode), ("Data Matrix GF(256)", .dataMatrix), ("Aztec GF(16)", .aztecParameters),
        ("Aztec GF(64)", .aztecData6), ("Aztec GF(1024)", .aztecData10), ("Aztec GF(4096)", .aztecData12),
        ("PDF417 GF(929)", .pdf417)
    ]

    func testFieldTables() {
        for (name, f) in fields {
            var seen = Set<UInt16>()
            for i in 0..<f.order {
                XCTAssertEqual(Int(f.log[Int(f.exp[i])]), i, name)
                seen.insert(f.exp[i])
            }
            XCTAssertEqual(seen.count, f.order, "\(name): alpha is primitive")
            for a in stride(from: 1, to: f.size, by: max(1, f.size / 37)) {
                XCTAssertEqual(f.multiply(a, f.inverse(a)), 1, name)
                for b in stride(from: 1, to: f.size, by: max(1, f.size / 23)) {
                    XCTAssertEqual(f.divide(f.multiply(a, b), b), a, name)
                    XCTAssertEqual(f.subtract(f.add(a, b), b), a, name)
                }
            }
        }
        XCTAssertEqual(GaloisField.qrCode.multiply(2, 128), 0x1D, "x * x^7 = x^8 = 0x11D - 0x100")
    }

    /// A random code word of `n` symbols with `c` check symbols.
    private func codeword(_ f: GaloisField, n: Int, c: Int, _ rng: inout DecoderTestRandom) -> [Int] {
        let data = (0..<(n - c)).map { _ in Int.random(in: 0..<f.size, using: &rng) }
        return data + ReedSolomonEncoder.checkSymbols(field: f, data: data, checkCount: c)
    }

    /// Adds a non-zero error value to each of `positions`.
    private func corrupt(
        _ word: inout [Int], _ positions: ArraySlice<Int>, _ f: GaloisField, _ rng: inout DecoderTestRandom
    ) {
        for p in positions { word[p] = f.add(word[p], Int.random(in: 1..<f.size, using: &rng)) }
    }

    func testEncoderMakesCodeWords() {
        var rng = DecoderTestRandom(seed: 10)
        for (name, f) in fields {
            let n = min(f.order, 40), c = min(10, n - 2)
            var w = codeword(f, n: n, c: c, &rng)
            XCTAssertEqual(ReedSolomonDecoder(field: f).correct(&w, checkCount: c), 0, name)
        }
        // The QR Code example of ISO/IEC 18004 Annex I: 1-M, "01234567".
        let data = [0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11]
        XCTAssertEqual(
            ReedSolomonEncoder.checkSymbols(field: .qrCode, data: data, checkCount: 10),
            [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55])
    }

    func testErrorsUpToCapacity() {
        var rng = DecoderTestRandom(seed: 11)
        for (name, f) in fields {
            let decoder = ReedSolomonDecoder(field: f)
            for c in [2, 7, 10, 17, 30] where c + 4 <= f.order {
                let n = min(f.order, c + 40)
                for trial in 0..<20 {
                    let original = codeword(f, n: n, c: c, &rng)
                    var w = original
                    let e = trial == 0 ? c / 2 : Int.random(in: 0...(c / 2), using: &rng)
                    corrupt(&w, Array(0..<n).shuffled(using: &rng).prefix(e), f, &rng)
                    XCTAssertEqual(decoder.correct(&w, checkCount: c), e, "\(name) n=\(n) c=\(c) e=\(e)")
                    XCTAssertEqual(w, original, name)
                }
            }
        }
    }

    func testErasuresAndErrors() {
        var rng = DecoderTestRandom(seed: 12)
        for (name, f) in fields {
            let decoder = ReedSolomonDecoder(field: f)
            for c in [4, 9, 16, 24] where c + 4 <= f.order {
                let n = min(f.order, c + 30)
                for trial in 0..<20 {
                    let original = codeword(f, n: n, c: c, &rng)
                    var w = original
                    let erasures = trial == 0 ? c : Int.random(in: 0...c, using: &rng)
                    let errors = (c - erasures) / 2
                    let positions = Array(0..<n).shuffled(using: &rng)
                    let erased = Array(positions.prefix(erasures))
                    // Erased symbols may or may not be wrong; errors are.
                    for p in erased where Bool.random(using: &rng) { w[p] = Int.random(in: 0..<f.size, using: &rng) }
                    corrupt(&w, positions.dropFirst(erasures).prefix(errors), f, &rng)
                    let fixed = decoder.correct(&w, checkCount: c, erasures: erased)
                    XCTAssertNotNil(fixed, "\(name) c=\(c) erasures=\(erasures) errors=\(errors)")
                    XCTAssertEqual(w, original, name)
                }
            }
        }
    }

    /// Past the capacity a word is refused and left unchanged, or, rarely,
    /// "corrected" into some other code word; never into a non-code word.
    func testPastCapacity() {
        var rng = DecoderTestRandom(seed: 13)
        let f = GaloisField.qrCode, decoder = ReedSolomonDecoder(field: f)
        var refused = 0, trials = 0
        for c in [2, 6, 10, 16, 22, 30] {
            let n = c + 30
            for _ in 0..<100 {
                let original = codeword(f, n: n, c: c, &rng)
                var w = original
                let e = Int.random(in: (c / 2 + 1)...min(n, c + 4), using: &rng)
                corrupt(&w, Array(0..<n).shuffled(using: &rng).prefix(e), f, &rng)
                let before = w
                trials += 1
                if let changed = decoder.correct(&w, checkCount: c) {
                    XCTAssertLessThanOrEqual(changed, c / 2)
                    var check = w
                    XCTAssertEqual(decoder.correct(&check, checkCount: c), 0, "the result is a code word")
                    XCTAssertNotEqual(w, original)
                } else {
                    refused += 1
                    XCTAssertEqual(w, before, "a refused word is left as it was")
                }
            }
        }
        XCTAssertGreaterThan(refused, trials * 8 / 10)
        // Erasures past the capacity.
        var w = codeword(f, n: 30, c: 8, &rng)
        XCTAssertNil(decoder.correct(&w, checkCount: 8, erasures: Array(0..<9)))
    }

    func testMaxErrorsKeepsChecksBack() {
        var rng = DecoderTestRandom(seed: 14)
        let f = GaloisField.qrCode, decoder = ReedSolomonDecoder(field: f)
        let original = codeword(f, n: 26, c: 7, &rng)
        var w = original
        corrupt(&w, [3, 9, 20][...], f, &rng)
        XCTAssertNil(decoder.correct(&w, checkCount: 7, maxErrors: 2))
        XCTAssertEqual(decoder.correct(&w, checkCount: 7, maxErrors: 3), 3)
        XCTAssertEqual(w, original)
    }

    func testInvalidInputIsRefused() {
        let decoder = ReedSolomonDecoder(field: .qrCode)
        var tooLong = [UInt16](repeating: 0, count: 256)
        XCTAssertNil(decoder.correct(&tooLong, checkCount: 10))
        var outOfField: [UInt16] = [300, 0, 0, 0]
        XCTAssertNil(decoder.correct(&outOfField, checkCount: 2))
        var w: [UInt8] = [1, 2, 3, 4]
        XCTAssertNil(decoder.correct(&w, checkCount: 0))
        XCTAssertNil(decoder.correct(&w, checkCount: 5))
        XCTAssertNil(decoder.correct(&w, checkCount: 2, erasures: [7]))
        XCTAssertNil(decoder.correct(&w, checkCount: 2, erasures: [1, 1]))
        var huge: [UInt64] = [UInt64.max, 0, 0, 0]
        XCTAssertNil(decoder.correct(&huge, checkCount: 2))
        var negative: [Int16] = [-1, 0, 0, 0]
        XCTAssertNil(decoder.correct(&negative, checkCount: 2))
        var empty: [UInt8] = []
        XCTAssertNil(decoder.correct(&empty, checkCount: 1))
    }
}
