import Foundation
import XCTest
@testable import RLBarcode

/// A PDF417 symbol made by the `zint` command at test time: its rows of
/// modules (zint symbologies 55, PDF417, and 56, compact PDF417).
struct ZintPDF417 {
    /// `rows[r][x]`, true = dark, one entry per module of the symbol's width.
    var rows: [[Bool]]
    /// The stop pattern's width: 18 modules, 1 in compact PDF417.
    var stopWidth = 18
    var width: Int { rows.first?.count ?? 0 }

    /// zint's symbology numbers.
    static let pdf417 = 55, compact = 56

    /// Runs `zint -b SYMBOLOGY [ARGUMENTS] -d DATA --dump` (`--secure=N`
    /// for the error correction level, `--cols=N`, `--binary`, `--eci=N`,
    /// `--structapp=I,C[,ID]`) and parses the rows; the symbol's width is
    /// the last dark module of any row plus one. Skips the test when zint
    /// is missing.
    static func make(
        _ data: String, arguments: [String] = [], symbology: Int = pdf417,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> ZintPDF417? {
        guard let dump = try ZintRow.dump(symbology: symbology, data, arguments: arguments, file: file, line: line)
        else { return nil }
        var rows: [[Bool]] = []
        for text in dump.split(separator: "\n") where text.contains(where: \.isHexDigit) {
            var bits: [Bool] = []
            for ch in text where ch.isHexDigit {
                let v = Int(String(ch), radix: 16)!
                for bit in (0..<4).reversed() { bits.append(v >> bit & 1 == 1) }
            }
            rows.append(bits)
        }
        let width = rows.map { ($0.lastIndex(of: true) ?? -1) + 1 }.max() ?? 0
        return ZintPDF417(rows: rows.map { Array($0.prefix(width)) }, stopWidth: symbology == compact ? 1 : 18)
    }

    /// The symbol as a module matrix whose rows are `rowHeight` modules tall.
    func matrix(rowHeight: Int = 3) -> BitMatrix {
        var m = BitMatrix(width: width, height: rows.count * rowHeight)
        for (r, row) in rows.enumerated() {
            for x in 0..<width where row[x] {
                for k in 0..<rowHeight { m[x, r * rowHeight + k] = true }
            }
        }
        return m
    }

    /// The codewords of every row, read straight from the modules
    /// (row indicators included), or nil where a pattern is no codeword.
    func codewords() -> [[(cluster: Int, value: Int)?]] {
        rows.map { row in
            var out: [(cluster: Int, value: Int)?] = []
            var x = 17
            while x + 17 <= width - stopWidth {
                var widths: [Float] = []
                var k = x, run: Float = 0
                while k < x + 17 {
                    run += 1
                    if k + 1 == x + 17 || row[k + 1] != row[k] { widths.append(run); run = 0 }
                    k += 1
                }
                out.append(
                    widths.count == 8 ? widths.withUnsafeBufferPointer { PDF417Codewords.decode($0.baseAddress!) } : nil
                )
                x += 17
            }
            return out
        }
    }
}

extension QRPicture {
    /// Scans the picture for PDF417 only.
    func scanPDF417(thorough: Bool = true) -> [BarcodeResult] {
        var out: [BarcodeResult] = []
        let reader = PDF417Reader()
        picture.withLumaView { reader.read($0, bounds: nil, thorough: thorough, into: &out) }
        return out
    }
}
