// rlbarcode-scan: finds and decodes barcodes in still pictures and video files.
// See `rlbarcode-scan --help`.

import CGStreamer
import Foundation
import RLBarcode

// First of all: a build for a newer x86-64 level than this CPU's (see
// scripts/swift-flags.sh) says so and stops, before any code of that level.
if rlbarcode_cpu_check("rlbarcode-scan") == 0 { exit(ExitStatus.unsupportedCPU.rawValue) }

/// Runs the tool and returns its exit status.
func run() -> ExitStatus {
    let arguments: Arguments
    do {
        let (parsed, action) = try Arguments.parse(Array(CommandLine.arguments.dropFirst()))
        switch action {
        case .help:
            Console.out(helpText)
            return .ran
        case .version:
            Console.out("rlbarcode-scan \(toolVersion)")
            return .ran
        case .scan:
            arguments = parsed
        }
    } catch {
        Console.err(error.message)
        Console.err("try 'rlbarcode-scan --help'")
        return .usage
    }

    var annotator: Annotator? = nil
    if let folder = arguments.annotate {
        do {
            annotator = try Annotator(folder: folder)
        } catch {
            Console.err(error.message)
            return .usage
        }
    }

    if let problem = Gst.initialize() {
        Console.err(problem)
        return .unreadable
    }

    let session = ScanSession(arguments: arguments, annotator: annotator)
    session.run()
    if arguments.timing { Console.err(timingLine(session.scanTimes)) }
    return session.status
}

/// The `--timing` summary of the still pictures' scan times.
func timingLine(_ seconds: [Double]) -> String {
    guard !seconds.isEmpty else { return "timing: 0 still pictures scanned" }
    let ms = seconds.map { $0 * 1000 }.sorted()
    let mean = ms.reduce(0, +) / Double(ms.count)
    let median = ms.count % 2 == 1 ? ms[ms.count / 2] : (ms[ms.count / 2 - 1] + ms[ms.count / 2]) / 2
    return String(
        format: "timing: %d still pictures scanned, mean %.3f ms, median %.3f ms, slowest %.3f ms a picture "
            + "(the scan alone, not the decoding of the file)", ms.count, mean, median, ms.last!)
}

exit(run().rawValue)
