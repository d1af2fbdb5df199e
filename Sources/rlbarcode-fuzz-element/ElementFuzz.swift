import FuzzDriver

#if canImport(Glibc)
    import Glibc
#endif

/// The target named by `RLBARCODE_FUZZ_TARGET`; the process stops when the
/// variable is missing or names no element target.
let elementTarget: ElementTarget = {
    guard let raw = getenv("RLBARCODE_FUZZ_TARGET"), let target = ElementTarget(rawValue: String(cString: raw)) else {
        let names = ElementTarget.allCases.map(\.rawValue).joined(separator: ", ")
        fuzzFail("set RLBARCODE_FUZZ_TARGET to one of: \(names)", status: 2)
    }
    return target
}()

/// The element every input runs on, made on first use.
nonisolated(unsafe) let harness = ElementHarness()

/// The tool's entry: each input a program run on the element, by
/// libFuzzer's driver (`-DRLBARCODE_FUZZ`, the element made before the
/// first input) or as a replay of the files given as arguments
/// (``FuzzDriver``).
@main
enum ElementFuzz {
    static func main() {
        _ = elementTarget
        FuzzDriver.main(prepare: { _ = harness }, cannotOpen: { fuzzFail("cannot open \($0)", status: 1) }) {
            elementTarget.run($0, on: harness)
        }
    }
}
