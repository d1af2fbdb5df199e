#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import FuzzDriver
import RLBarcode
import RLBarcodeFuzzing

/// Writes `message` to standard error and stops with `status`.
func fail(_ message: String, status: Int32) -> Never {
    FuzzDriver.printError("rlbarcode-fuzz: \(message)")
    exit(status)
}

/// The targets of this tool that are not stages of the engine, by name.
let toolTargets: [String: @Sendable (UnsafeBufferPointer<UInt8>) -> String] = ["scanner-video": ScannerVideoTarget.run]

/// The target named by `RLBARCODE_FUZZ_TARGET`: one of ``toolTargets``, else
/// an engine stage; the process stops when the variable is missing or names
/// no target.
let fuzzTarget: @Sendable (UnsafeBufferPointer<UInt8>) -> String = {
    let names = (toolTargets.keys.sorted() + FuzzEntryPoints.Target.allCases.map(\.rawValue))
    guard let raw = getenv("RLBARCODE_FUZZ_TARGET") else {
        fail("set RLBARCODE_FUZZ_TARGET to one of: \(names.joined(separator: ", "))", status: 2)
    }
    let name = String(cString: raw)
    if let tool = toolTargets[name] {
        if name == "scanner-video" { atexit { FuzzDriver.printError(ScannerVideoTarget.summary) } }
        return tool
    }
    guard let target = FuzzEntryPoints.Target(rawValue: name) else {
        fail("set RLBARCODE_FUZZ_TARGET to one of: \(names.joined(separator: ", "))", status: 2)
    }
    return { "\(FuzzEntryPoints.run(target, $0))" }
}()

/// The tool's entry: libFuzzer's driver on the target (`-DRLBARCODE_FUZZ`),
/// else a replay of the files given as arguments (``FuzzDriver``).
@main
enum Fuzz {
    static func main() {
        FuzzDriver.main(prepare: { _ = fuzzTarget }, cannotOpen: { fail("cannot open \($0)", status: 1) }) {
            fuzzTarget($0)
        }
    }
}
