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

    let scanner = RLBarcode.Scanner(options: arguments.stillOptions)
    let reader = StillPictureReader()
    let videos = VideoScanner(properties: arguments.elementProperties, progress: arguments.progress)
    var status = ExitStatus.ran
    /// Seconds each still picture's scan took (`--timing`).
    var scanTimes: [Double] = []

    /// Prints one code in the chosen form.
    func emit(_ report: Report) {
        Console.out(arguments.jsonl ? report.jsonLine : arguments.csv ? report.csvRow : report.humanLine)
    }

    /// Reports a file that could not be scanned.
    func fail(_ path: String, _ why: String) {
        Console.err("\(path): \(why)")
        status = .unreadable
    }

    /// Writes an annotated picture, reporting a failure to write it.
    func annotate(_ path: String, _ write: (Annotator) -> String?) {
        guard let annotator, let why = write(annotator) else { return }
        fail(path, "--annotate: \(why)")
    }

    if arguments.csv { Console.out(Report.csvHeader) }

    for path in arguments.paths {
        if let why = unreadableReason(path) {
            fail(path, why)
            continue
        }
        let ext = (path as NSString).pathExtension.lowercased()
        var isVideo = videoExtensions.contains(ext)
        if !isVideo {
            let inspect: ((LumaView, [BarcodeResult]) -> Void)? = annotator == nil ? nil : { luma, results in
                guard !results.isEmpty else { return }
                annotate(path) { $0.writeStill(path: path, luma: luma, results: results) }
            }
            switch reader.scan(path: path, with: scanner, inspect: inspect) {
            case .scanned(let results, let seconds):
                scanTimes.append(seconds)
                for result in results { emit(Report(file: path, result: result)) }
            case .video:
                isVideo = true
            case .failure(let why):
                fail(path, "cannot decode: \(why)")
            }
        }
        if isVideo, let why = videos.scan(path: path, report: { report, message in
            emit(report)
            if let sample = VideoScanner.frameSample(message) {
                annotate(path) { $0.writeFrame(path: path, frameIndex: report.frame, sample: sample) }
            }
        }) {
            fail(path, why)
        }
    }
    if arguments.timing { Console.err(timingLine(scanTimes)) }
    return status
}

/// The `--timing` summary of the still pictures' scan times.
func timingLine(_ seconds: [Double]) -> String {
    guard !seconds.isEmpty else { return "timing: 0 still pictures scanned" }
    let ms = seconds.map { $0 * 1000 }.sorted()
    let mean = ms.reduce(0, +) / Double(ms.count)
    let median = ms.count % 2 == 1 ? ms[ms.count / 2] : (ms[ms.count / 2 - 1] + ms[ms.count / 2]) / 2
    return String(format: "timing: %d still pictures scanned, mean %.3f ms, median %.3f ms, slowest %.3f ms a picture "
                  + "(the scan alone, not the decoding of the file)", ms.count, mean, median, ms.last!)
}

exit(run().rawValue)
