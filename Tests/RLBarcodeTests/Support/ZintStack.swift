import Foundation
import XCTest

/// The module grid of a stacked symbol (DataBar Stacked, Stacked
/// Omnidirectional, Expanded Stacked), made by `zint --dump` at test time:
/// every row of the dump, with the height the symbology gives it.
struct ZintStack {
    /// One row of modules (true = dark) and its height in modules.
    struct Row {
        var modules: [Bool]
        var height: Double
        /// A separator row between two rows of bars (not a row of the symbol's data).
        var isSeparator: Bool
    }

    var rows: [Row]

    /// The widest row, in modules.
    var width: Int { rows.map(\.modules.count).max() ?? 0 }
    /// The total height, in modules.
    var height: Double { rows.reduce(0) { $0 + $1.height } }
    /// The rows holding data (separators left out).
    var dataRows: [Row] { rows.filter { !$0.isSeparator } }

    /// Runs `zint -b SYMBOLOGY [ARGUMENTS] -d DATA --dump` and parses every
    /// row. zint's stacked DataBar symbols put separator rows between their
    /// rows: one after the top row of DataBar Stacked (79: 5 modules high,
    /// bottom row 7), three between the rows of Stacked Omnidirectional
    /// and Expanded Stacked (every fourth row is a row of bars). Rows of
    /// bars are `rowHeight` modules high (33 and 34 by default, as zint
    /// draws them), separators one. Skips the test when zint is missing.
    static func make(
        symbology: Int, _ data: String, arguments: [String] = [], rowHeight: Double? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> ZintStack {
        guard let text = try ZintRow.dump(symbology: symbology, data, arguments: arguments, file: file, line: line)
        else { return ZintStack(rows: []) }
        let lines = text.split(separator: "\n").filter { $0.contains(where: \.isHexDigit) }
        var rows: [Row] = []
        for (k, lineText) in lines.enumerated() {
            var modules: [Bool] = []
            for ch in lineText where ch.isHexDigit {
                let v = Int(String(ch), radix: 16)!
                for bit in (0..<4).reversed() { modules.append(v >> bit & 1 == 1) }
            }
            let separator: Bool
            let height: Double
            if symbology == 79 {
                separator = k % 2 == 1
                height = separator ? 1 : rowHeight ?? (k == 0 ? 5 : 7)
            } else {
                separator = k % 4 != 0
                height = separator ? 1 : rowHeight ?? (symbology == 80 ? 33 : 34)
            }
            rows.append(Row(modules: modules, height: height, isSeparator: separator))
        }
        // Trailing padding of each row is background anyway; trim it to the widest row's content.
        let used = rows.map { row in (row.modules.lastIndex(of: true) ?? -1) + 1 }.max() ?? 0
        for k in rows.indices { rows[k].modules = Array(rows[k].modules.prefix(used)) }
        return ZintStack(rows: rows)
    }

    /// Whether the module at column `m` of the symbol's row at height `v`
    /// (modules from the top) is dark.
    func isDark(column m: Int, at v: Double) -> Bool {
        var top = 0.0
        for row in rows {
            if v < top + row.height { return m >= 0 && m < row.modules.count && row.modules[m] }
            top += row.height
        }
        return false
    }
}

extension TestPicture {
    /// Draws `stack` centred at (`p.cx`, `p.cy`), rotated by `p.angle`
    /// degrees clockwise, `p.module` pixels per module, with a light quiet
    /// zone of `p.quietZone` modules around it, 4x4 supersampled
    /// (`p.barHeight` and `p.taper` are not used).
    mutating func draw(_ stack: ZintStack, _ p: Placement) {
        let n = Double(stack.width), h = stack.height
        let halfW = n / 2 + p.quietZone, halfH = h / 2 + p.quietZone
        let a = p.angle * Double.pi / 180
        let ca = cos(a), sa = sin(a)
        let reach = (halfW * halfW + halfH * halfH).squareRoot() * p.module + 2
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
                        let u = (px * ca + py * sa) / p.module
                        let v = (-px * sa + py * ca) / p.module
                        guard abs(u) <= halfW, abs(v) <= halfH else { continue }
                        inside += 1
                        let m = Int((u + n / 2).rounded(.down))
                        if abs(v) < h / 2, stack.isDark(column: m, at: v + h / 2) { cover += 1 }
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
}
