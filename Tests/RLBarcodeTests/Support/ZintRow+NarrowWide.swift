import Foundation
import XCTest
@testable import RLBarcode

/// Runs `zint -b SYMBOLOGY -d DATA [extra arguments] --dump` and returns its
/// module row; skips the test when zint is not installed.
func code39TestZint(_ symbology: Int, _ data: String, _ arguments: [String] = []) throws -> ZintRow {
    try ZintRow.make(symbology: symbology, data, arguments: arguments)
}

extension ZintRow {
    /// The same symbol with other wide elements: zint draws narrow elements
    /// one module and wide ones two; here narrow become `narrow` and wide
    /// `wide` units (draw with a module of one unit).
    func c39Stretched(narrow: Int, wide: Int) -> ZintRow {
        var out: [Bool] = []
        var i = 0
        while i < modules.count {
            var j = i
            while j < modules.count && modules[j] == modules[i] { j += 1 }
            let units = j - i == 1 ? narrow : (j - i == 2 ? wide : (j - i) * narrow)
            out += [Bool](repeating: modules[i], count: units)
            i = j
        }
        return ZintRow(modules: out)
    }
}
