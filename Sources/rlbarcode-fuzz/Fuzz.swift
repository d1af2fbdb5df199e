#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import RLBarcode
import RLBarcodeFuzzing

/// Writes `message` to standard error and stops with `status`.
func fail(_ message: String, status: Int32) -> Never {
    var line = "rlbarcode-fuzz: \(message)\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
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
        if name == "scanner-video" { atexit { printSummary(ScannerVideoTarget.summary) } }
        return tool
    }
    guard let target = FuzzEntryPoints.Target(rawValue: name) else {
        fail("set RLBARCODE_FUZZ_TARGET to one of: \(names.joined(separator: ", "))", status: 2)
    }
    return { "\(FuzzEntryPoints.run(target, $0))" }
}()

/// Writes `text` and a newline to standard error.
func printSummary(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

#if RLBARCODE_FUZZ

    /// libFuzzer's entry: one input through the target's stage.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        _ = fuzzTarget(UnsafeBufferPointer(start: data, count: size))
        return 0
    }

    /// libFuzzer's driver, which parses libFuzzer's own arguments and calls
    /// `callback` with every input.
    @_silgen_name("LLVMFuzzerRunDriver")
    func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    /// With libFuzzer linked in (`-DRLBARCODE_FUZZ`): hands the process to
    /// libFuzzer's driver, which runs the target on every input it makes.
    /// (SwiftPM makes this module's entry point the executable's `main`, so the
    /// driver is started from here rather than from libFuzzer's own `main`.)
    @main
    enum Fuzz {
        static func main() {
            _ = fuzzTarget
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(LLVMFuzzerRunDriver(&argc, &argv) { fuzzTestOneInput($0, $1) })
        }
    }

#else

    /// Without libFuzzer (a normal build): replays the files given as
    /// arguments through the target and prints each outcome, to reproduce a
    /// fuzzer's finding with the engine's normal build or in a debugger.
    @main
    enum Replay {
        static func main() {
            for path in CommandLine.arguments.dropFirst() {
                guard let file = fopen(path, "rb") else { fail("cannot open \(path)", status: 1) }
                var bytes: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let n = fread(&buffer, 1, buffer.count, file)
                    if n <= 0 { break }
                    bytes += buffer[0..<n]
                }
                fclose(file)
                bytes.withUnsafeBufferPointer { print("\(path): \(fuzzTarget($0))") }
            }
        }
    }

#endif
