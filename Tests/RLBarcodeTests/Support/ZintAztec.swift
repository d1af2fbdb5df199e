import Foundation
import XCTest
@testable import RLBarcode

/// Aztec Code and Aztec Rune module grids made by the `zint` command at
/// test time (zint symbologies 92 and 128).
enum ZintAztec {
    /// zint's symbology number of Aztec Code.
    static let aztec = 92
    /// zint's symbology number of Aztec Runes.
    static let rune = 128

    /// An Aztec Code symbol of `data`; `arguments` as for zint (`--vers=N`:
    /// 1 ... 4 compact, 5 ... 36 full-range with N - 4 layers; `--secure=N`;
    /// `--gs1`, `--eci=N`, `--binary`, `--structapp=I,C[,ID]`, `--init`).
    static func make(
        _ data: String, arguments: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> BitMatrix? {
        guard let dump = try ZintRow.dump(symbology: aztec, data, arguments: arguments, file: file, line: line)
        else { return nil }
        return ZintMatrix.parse(dump)
    }

    /// An Aztec Rune of `value` (0 ... 255).
    static func rune(_ value: Int, file: StaticString = #filePath, line: UInt = #line) throws -> BitMatrix? {
        guard let dump = try ZintRow.dump(symbology: rune, String(value), file: file, line: line) else { return nil }
        return ZintMatrix.parse(dump)
    }
}

extension QRTestSymbol {
    /// An Aztec Code symbol of `data` as a module grid to draw (nil when zint
    /// makes none); `arguments` as for ``ZintAztec/make(_:arguments:file:line:)``.
    static func aztec(_ data: String, _ arguments: [String] = []) throws -> QRTestSymbol? {
        guard let m = try ZintAztec.make(data, arguments: arguments) else { return nil }
        return QRTestSymbol(modules: (0..<m.height).map { y in (0..<m.width).map { m[$0, y] } })
    }
}

extension TestPicture {
    /// The Aztec symbols ``AztecDetector`` finds in the picture.
    func detectAztec(thorough: Bool, blurredCentres: Bool = false) -> [AztecSymbol] {
        let detector = AztecDetector()
        detector.options.blurredCentres = blurredCentres
        var out: [AztecSymbol] = []
        withLumaView { detector.scan($0, thorough: thorough, into: &out) }
        return out
    }
}
