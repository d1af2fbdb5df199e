import Foundation
import XCTest

/// The module pattern of a linear symbol, made by the `zint` command at test time.
struct ZintRow {
    /// true = bar, one entry per module.
    var modules: [Bool]

    /// zint's symbology numbers for the codes these tests use.
    enum Kind: Int {
        case eanx = 13, upca = 34, upce = 37
    }

    /// Runs `zint -b KIND -d DATA --dump` and parses the hexadecimal row.
    /// Skips the test when zint is not installed.
    static func make(_ kind: Kind, _ data: String, file: StaticString = #filePath, line: UInt = #line) throws -> ZintRow
    {
        try make(symbology: kind.rawValue, data, file: file, line: line)
    }

    /// Runs `zint -b SYMBOLOGY [ARGUMENTS] -d DATA --dump` and parses the
    /// first row of the dump (stacked symbols have more). Skips the test when
    /// zint is not installed.
    static func make(
        symbology: Int, _ data: String, arguments: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> ZintRow {
        guard let text = try ZintRow.dump(symbology: symbology, data, arguments: arguments, file: file, line: line)
        else { return ZintRow(modules: []) }
        var modules: [Bool] = []
        for ch in text.split(separator: "\n").first ?? "" where ch.isHexDigit {
            let v = Int(String(ch), radix: 16)!
            for bit in (0..<4).reversed() { modules.append(v >> bit & 1 == 1) }
        }
        // Trailing padding is background anyway; trim it.
        while modules.last == false { modules.removeLast() }
        return ZintRow(modules: modules)
    }

    /// Runs `zint -b SYMBOLOGY [ARGUMENTS] -d DATA --dump` and returns what
    /// it printed: rows of hexadecimal digits, one bit a module. Skips the
    /// test when zint is not installed; fails it and returns nil when zint
    /// refuses the data (warnings, exit codes below 5, still give a symbol).
    static func dump(
        symbology: Int, _ data: String, arguments: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> String? {
        guard let zint = ZintRow.executable else {
            throw XCTSkip("zint is not installed (apt-get install zint); symbol tests need it to make their pictures")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: zint)
        p.arguments = ["-b", String(symbology)] + arguments + ["-d", data, "--dump"]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0 || (p.terminationStatus < 5 && !text.isEmpty) else {
            XCTFail("zint -b \(symbology) \(arguments) failed for \(data): \(message)", file: file, line: line)
            return nil
        }
        return text
    }

    static let executable: String? = ["/usr/bin/zint", "/usr/local/bin/zint"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
}
