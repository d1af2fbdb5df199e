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

#if RLBARCODE_FUZZ

    /// libFuzzer's entry: one input as a program run on the element.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func elementFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        _ = elementTarget.run(UnsafeBufferPointer(start: data, count: size), on: harness)
        return 0
    }

    /// libFuzzer's driver (see Sources/rlbarcode-fuzz/Fuzz.swift).
    @_silgen_name("LLVMFuzzerRunDriver")
    func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    /// With libFuzzer linked in (`-DRLBARCODE_FUZZ`): the element is made,
    /// then libFuzzer's driver runs the target on every input it makes.
    @main
    enum ElementFuzz {
        static func main() {
            _ = elementTarget
            _ = harness
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(LLVMFuzzerRunDriver(&argc, &argv) { elementFuzzTestOneInput($0, $1) })
        }
    }

#else

    /// Without libFuzzer (a normal build): replays the files given as
    /// arguments through the target, each with one line of outcome.
    @main
    enum ElementReplay {
        static func main() {
            _ = elementTarget
            for path in CommandLine.arguments.dropFirst() {
                guard let file = fopen(path, "rb") else { fuzzFail("cannot open \(path)", status: 1) }
                var bytes: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 65536)
                while case let n = fread(&chunk, 1, chunk.count, file), n > 0 { bytes += chunk[0..<n] }
                fclose(file)
                bytes.withUnsafeBufferPointer { print("\(path): \(elementTarget.run($0, on: harness))") }
            }
        }
    }

#endif
