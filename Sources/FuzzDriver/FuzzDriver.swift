#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The driver both fuzz tools (`rlbarcode-fuzz`, `rlbarcode-fuzz-element`)
/// share: built with libFuzzer (`-DRLBARCODE_FUZZ`, see `scripts/fuzz.sh`)
/// it hands the process to libFuzzer's driver, which runs a target on every
/// input it makes; in a normal build it replays the files given as
/// arguments through the target, one line of outcome each, to reproduce a
/// finding with the normal build or in a debugger.
public enum FuzzDriver {
    /// Writes `text` and a newline to standard error, unbuffered.
    public static func printError(_ text: String) {
        var line = text + "\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }

    /// Runs `target` on the inputs, then stops the process (libFuzzer) or
    /// returns (replay). Under libFuzzer `prepare` runs first, before the
    /// first input (what it makes is not counted as the inputs' work);
    /// a replay prints `FILE: OUTCOME` for each file and calls
    /// `cannotOpen` with the path of a file it cannot read.
    public static func main(
        prepare: () -> Void = {}, cannotOpen: (String) -> Never,
        _ target: @escaping (UnsafeBufferPointer<UInt8>) -> String
    ) {
        #if RLBARCODE_FUZZ
            prepare()
            current = target
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(LLVMFuzzerRunDriver(&argc, &argv) { fuzzTestOneInput($0, $1) })
        #else
            for path in CommandLine.arguments.dropFirst() {
                guard let bytes = contents(of: path) else { cannotOpen(path) }
                bytes.withUnsafeBufferPointer { print("\(path): \(target($0))") }
            }
        #endif
    }

    /// The bytes of the file at `path`; `nil` when it cannot be opened.
    static func contents(of path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while case let n = fread(&chunk, 1, chunk.count, file), n > 0 { bytes += chunk[0..<n] }
        return bytes
    }

    /// The target libFuzzer's inputs go to, set once before the first.
    nonisolated(unsafe) static var current: (UnsafeBufferPointer<UInt8>) -> String = { _ in "" }
}

#if RLBARCODE_FUZZ

    /// libFuzzer's entry: one input through the target.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        _ = FuzzDriver.current(UnsafeBufferPointer(start: data, count: size))
        return 0
    }

    /// libFuzzer's driver, which parses libFuzzer's own arguments and calls
    /// `callback` with every input. (SwiftPM makes a tool's `@main` entry
    /// the executable's `main`, so the driver is started from there rather
    /// than from libFuzzer's own `main`.)
    @_silgen_name("LLVMFuzzerRunDriver")
    func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

#endif
