@testable import RLBarcode

/// zint's bracketed GS1 input (`[01]...[10]...`).
enum BracketedGS1 {
    /// The raw element string `bracketed` stands for: AIs and data, GS after
    /// variable-length data that is not last.
    static func raw(_ bracketed: String) -> String {
        var parts: [(String, String)] = []
        var rest = Substring(bracketed)
        while let open = rest.firstIndex(of: "["), let close = rest.firstIndex(of: "]") {
            let ai = String(rest[rest.index(after: open)..<close])
            let after = rest[rest.index(after: close)...]
            let next = after.firstIndex(of: "[") ?? after.endIndex
            parts.append((ai, String(after[..<next])))
            rest = after[next...]
        }
        var result = ""
        for (k, (ai, data)) in parts.enumerated() {
            result += ai + data
            if k + 1 < parts.count, !isFixed(ai) { result += "\u{1D}" }
        }
        return result
    }

    /// Whether the AI `ai` (digits) has data of a fixed length.
    static func isFixed(_ ai: String) -> Bool {
        let digits = ai.utf8.map { $0 - 48 }
        return digits.withUnsafeBufferPointer { GS1.fixedDataLength($0) } != nil
    }
}
