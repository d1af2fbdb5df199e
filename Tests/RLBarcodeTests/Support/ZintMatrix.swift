import Foundation
import XCTest
@testable import RLBarcode

/// The module grid of a 2D symbol, made by the `zint` command at test time.
enum ZintMatrix {
    /// zint's symbology numbers for the matrix codes these tests use.
    enum Kind: Int {
        case qrCode = 58, microQR = 97, dataMatrix = 71
    }

    /// Runs `zint -b KIND [ARGUMENTS] -d DATA --dump` and parses the dump:
    /// one line per row, hexadecimal digits (space separated in groups of
    /// two) whose bits, most significant first, are the modules; the bits
    /// past the symbol's width are padding. Skips the test when zint is not
    /// installed; returns nil (after failing the test) when zint refuses the
    /// data.
    static func make(
        _ kind: Kind, _ data: String, arguments: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> BitMatrix? {
        guard let dump = try ZintRow.dump(symbology: kind.rawValue, data, arguments: arguments, file: file, line: line)
        else { return nil }
        return kind == .dataMatrix ? parseDataMatrix(dump) : parse(dump)
    }

    /// ``make(_:_:arguments:file:line:)``, skipping the test when zint makes no symbol.
    static func symbol(
        _ kind: Kind, _ data: String, arguments: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> BitMatrix {
        guard let m = try make(kind, data, arguments: arguments, file: file, line: line) else {
            throw XCTSkip("zint refused \(data)")
        }
        return m
    }

    /// The matrix of a Data Matrix `--dump` (square or rectangular): the
    /// width is the length of the solid finder row at the bottom.
    static func parseDataMatrix(_ dump: String) -> BitMatrix? {
        let rows = dump.split(separator: "\n").filter { $0.contains(where: \.isHexDigit) }
        guard let last = rows.last else { return nil }
        var bits: [[Bool]] = []
        for row in rows {
            var b: [Bool] = []
            for ch in row where ch.isHexDigit {
                let v = Int(String(ch), radix: 16)!
                for bit in (0..<4).reversed() { b.append(v >> bit & 1 == 1) }
            }
            bits.append(b)
        }
        _ = last
        let width = bits[bits.count - 1].firstIndex(of: false) ?? bits[bits.count - 1].count
        var m = BitMatrix(width: width, height: rows.count)
        for (y, b) in bits.enumerated() {
            guard b.count >= width else { return nil }
            for x in 0..<width where b[x] { m[x, y] = true }
        }
        return m
    }

    /// The square matrix of a `--dump` text: as many columns as rows.
    static func parse(_ dump: String) -> BitMatrix? {
        let rows = dump.split(separator: "\n").filter { $0.contains(where: \.isHexDigit) }
        let n = rows.count
        guard n > 0 else { return nil }
        var m = BitMatrix(size: n)
        for (y, row) in rows.enumerated() {
            var x = 0
            for ch in row where ch.isHexDigit {
                let v = Int(String(ch), radix: 16)!
                for bit in (0..<4).reversed() where x < n {
                    if v >> bit & 1 == 1 { m[x, y] = true }
                    x += 1
                }
            }
            guard x >= n else { return nil }
        }
        return m
    }
}

/// A small deterministic random number generator (SplitMix64), so that a
/// failing seed can be run again.
struct DecoderTestRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
