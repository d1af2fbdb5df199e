import CGStreamer
import Foundation
import RLBarcode

/// One run of the tool over its PATHs: scans each file in turn, prints the
/// codes and keeps the exit status.
final class ScanSession {
    /// The command line.
    let arguments: Arguments
    /// The `--annotate` writer, if asked for.
    let annotator: Annotator?
    /// The engine for still pictures.
    let scanner: RLBarcode.Scanner
    /// The still-picture decoder.
    let reader: StillPictureReader
    /// The video player.
    let videos: VideoScanner
    /// Standard input, for the PATH `-`.
    let standardInput = StandardInput()
    /// The PATHs that are not valid UTF-8, with their bytes shown.
    let namesNotUTF8 = wordsNotUTF8()
    /// The exit status so far.
    private(set) var status = ExitStatus.ran
    /// Seconds each still picture's scan took (`--timing`).
    private(set) var scanTimes: [Double] = []

    /// A session for `arguments`, writing pictures through `annotator`.
    init(arguments: Arguments, annotator: Annotator?) {
        self.arguments = arguments
        self.annotator = annotator
        scanner = RLBarcode.Scanner(options: arguments.stillOptions)
        var reader = StillPictureReader()
        reader.maxPixels = arguments.maxPixels
        self.reader = reader
        videos = VideoScanner(properties: arguments.elementProperties, progress: arguments.progress)
    }

    /// Scans every PATH, then removes the copy of standard input.
    func run() {
        if arguments.csv { Console.out(Report.csvHeader) }
        for word in arguments.paths {
            if word == StandardInput.word {
                switch standardInput.path() {
                case .success(let path): scan(name: word, path: path)
                case .failure(let error): fail(word, error.message)
                }
            } else if let bytes = namesNotUTF8[word] {
                Console.errPrintable(
                    bytes + ": the name is not valid UTF-8, and this tool opens only UTF-8 "
                        + "names: rename the file, or give it as standard input ('-')")
                status = status.worst(.unreadable)
            } else if let why = unreadableReason(word) {
                fail(word, why)
            } else {
                scan(name: word, path: word)
            }
        }
        standardInput.remove()
    }

    /// Prints one code in the chosen form.
    private func emit(_ report: Report) {
        Console.out(arguments.jsonl ? report.jsonLine : arguments.csv ? report.csvRow : report.humanLine)
    }

    /// Reports a file that could not be scanned.
    private func fail(_ name: String, _ why: String) {
        Console.err("\(name): \(why)")
        status = status.worst(.unreadable)
    }

    /// Reports a file that was truncated or damaged but partly read.
    private func warn(_ name: String, _ reasons: [String]) {
        guard !reasons.isEmpty else { return }
        Console.err(
            "warning: \(name): truncated or damaged: \(Self.clauses(reasons)); "
                + "the codes read in what could be decoded are printed")
        status = status.worst(.damaged)
    }

    /// Sentences (such as the decoders' messages) as clauses of one: each
    /// without its closing full stop, joined by "; ".
    static func clauses(_ parts: [String]) -> String {
        parts.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }.joined(separator: "; ")
    }

    /// The name the annotated pictures of `name` are written under.
    private func annotationName(_ name: String) -> String {
        name == StandardInput.word ? "stdin" : name
    }

    /// Writes an annotated picture, reporting a failure to write it.
    private func annotate(_ name: String, _ write: (Annotator) -> String?) {
        guard let annotator, let why = write(annotator) else { return }
        fail(name, "--annotate: \(why)")
    }

    /// Scans the file at `path`, reported as `name`: a still picture, or a
    /// video when it has more than one frame or a video file extension.
    private func scan(name: String, path: String) {
        let layout = FileLayout.read(path: path)
        if let size = layout.size,
            let refusal = pixelLimitRefusal(width: size.width, height: size.height, limit: arguments.maxPixels)
        {
            fail(name, refusal + "; not decoded")
            return
        }
        let truncation = layout.truncation.map { [$0] } ?? []
        let ext = (path as NSString).pathExtension.lowercased()
        if !videoExtensions.contains(ext) {
            let inspect: ((LumaView, [BarcodeResult]) -> Void)? =
                annotator == nil
                ? nil
                : { luma, results in
                    guard !results.isEmpty else { return }
                    self.annotate(name) { $0.writeStill(path: self.annotationName(name), luma: luma, results: results) }
                }
            switch reader.scan(path: path, with: scanner, inspect: inspect) {
            case .scanned(let results, let seconds, let warnings):
                scanTimes.append(seconds)
                for result in results { emit(Report(file: name, result: result)) }
                warn(name, truncation + warnings)
                return
            case .video:
                break
            case .failure(let why):
                fail(name, Self.clauses([why.hasPrefix("cannot") ? why : "cannot decode: \(why)"] + truncation))
                return
            }
        }
        let outcome = videos.scan(path: path, name: name) { report, message in
            emit(report)
            if let sample = VideoScanner.frameSample(message) {
                annotate(name) { $0.writeFrame(path: annotationName(name), frameIndex: report.frame, sample: sample) }
            }
        }
        switch outcome {
        case .played(let warnings): warn(name, truncation + warnings)
        case .stopped(let why): warn(name, truncation + [why])
        case .failed(let why): fail(name, Self.clauses([why] + truncation))
        }
    }
}
