// rlbarcode-bench: micro benchmarks of the decoding engine, one per
// symbology and for frames without any code. Build and run in release:
//
//     swift run -c release rlbarcode-bench [--size 1280x720] [--seconds 0.5] [--effort balanced] [--threads 1]
//
// or, to time the engine on the frames of a raw video (I420, NV12 or grey:
// the luma plane comes first in each frame) as the element would see them,
// one scanner for the whole clip, optionally with an active region or some
// symbologies only:
//
//     swift run -c release rlbarcode-bench --clip clip.i420 --size 1920x1080 [--region x,y,w,h [--region-only]]
//         [--symbologies ean-13+qr-code] [--rounds 3] [--times frame-ms.txt]
//
// (--times writes each frame's milliseconds, a line each in scan order;
// --results writes what the first round read in each frame, a line per
// code: frame number, symbology, text.)
//
// Each picture is made here: the symbol's modules come from `zint --dump`
// (Debian's zint package), drawn onto a shaded, noisy frame. Every picture
// is scanned repeatedly for at least the given time; the table gives the
// pictures per second, the milliseconds per picture and the nanoseconds per
// pixel, and whether the expected text was read.
import Foundation
import RLBarcode

/// A symbol to draw: zint's symbology number, its data, what the scanner
/// should read, and the module size in pixels.
struct Case {
    var name: String
    var zint: Int
    var data: String
    var expected: String
    var module: Int
    var arguments: [String] = []
    /// Modules per row of a stacked symbol (zint prints each row once).
    var rowHeight = 1
}

let cases = [
    Case(name: "EAN-13", zint: 13, data: "590123412345", expected: "5901234123457", module: 3),
    Case(name: "UPC-A", zint: 34, data: "01234567890", expected: "0012345678905", module: 3),
    Case(name: "EAN-8", zint: 13, data: "9638507", expected: "96385074", module: 3),
    Case(name: "Code 128", zint: 20, data: "RLBARCODE-128", expected: "RLBARCODE-128", module: 2),
    Case(name: "Code 39", zint: 8, data: "RLBARCODE39", expected: "RLBARCODE39", module: 2),
    Case(name: "Code 93", zint: 25, data: "RLBARCODE93", expected: "RLBARCODE93", module: 2),
    Case(name: "ITF", zint: 3, data: "12345678901231", expected: "12345678901231", module: 3),
    Case(name: "Codabar", zint: 18, data: "A123456B", expected: "A123456B", module: 3),
    Case(name: "DataBar", zint: 29, data: "0950110153001", expected: "0109501101530010", module: 3),
    Case(
        name: "DataBar Expanded", zint: 31, data: "[01]98898765432106[3103]000123",
        expected: "01988987654321063103000123", module: 2),
    Case(
        name: "QR Code", zint: 58, data: "https://example.com/rlbarcode", expected: "https://example.com/rlbarcode",
        module: 4),
    Case(
        name: "Data Matrix", zint: 71, data: "RLBARCODE DATA MATRIX 0123456789",
        expected: "RLBARCODE DATA MATRIX 0123456789", module: 4),
    Case(
        name: "Aztec", zint: 92, data: "RLBARCODE AZTEC 0123456789", expected: "RLBARCODE AZTEC 0123456789", module: 4),
    Case(
        name: "PDF417", zint: 55, data: "RLBARCODE PDF417 0123456789", expected: "RLBARCODE PDF417 0123456789",
        module: 2,
        rowHeight: 3),
    Case(
        name: "MicroPDF417", zint: 84, data: "RLBARCODE MICRO 0123456789", expected: "RLBARCODE MICRO 0123456789",
        module: 2, rowHeight: 3)
]

// MARK: - Arguments

var width = 1280, height = 720
var seconds = 0.5
var effort = Effort.balanced
/// `ScanOptions.threads`: 0 = one per processor (at most 2).
var threads = 1
/// A raw clip to time instead of the made pictures, whether its frames are
/// luma alone (else I420/NV12), the active region and the rounds through it.
var clipPath: String? = nil
var clipGrey = false
var region: NormalizedRect? = nil
var regionOnly = false
var clipSymbologies = Symbology.all
var rounds = 3
/// Where to write each frame's milliseconds, a line each in scan order.
var timesPath: String? = nil
/// Where `--results` writes each frame's readings.
var resultsPath: String? = nil
var args = Array(CommandLine.arguments.dropFirst())
while !args.isEmpty {
    let a = args.removeFirst()
    switch a {
    case "--size":
        let parts = (args.isEmpty ? "" : args.removeFirst()).split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] >= 64, parts[1] >= 64 else { fatalError("--size WxH, e.g. 1920x1080") }
        width = parts[0]; height = parts[1]
    case "--seconds":
        seconds = Double(args.isEmpty ? "" : args.removeFirst()) ?? 0.5
    case "--effort":
        let name = args.isEmpty ? "" : args.removeFirst()
        guard let e = Effort.allCases.first(where: { $0.nick == name }) else {
            fatalError("--effort fast|balanced|thorough")
        }
        effort = e
    case "--threads":
        guard let n = Int(args.isEmpty ? "" : args.removeFirst()), n >= 0 else {
            fatalError("--threads N (0: one per processor)")
        }
        threads = n
    case "--clip":
        clipPath = args.isEmpty ? nil : args.removeFirst()
    case "--grey":
        clipGrey = true
    case "--region":
        switch NormalizedRect.parse(args.isEmpty ? "" : args.removeFirst()) {
        case .success(let r): region = r
        case .failure(let e): fatalError("--region x,y,w,h: \(e)")
        }
    case "--symbologies":
        guard let set = Symbology(parsing: args.isEmpty ? "" : args.removeFirst()) else {
            fatalError("--symbologies ean-13+qr-code+... (the element's nicks)")
        }
        clipSymbologies = set
    case "--region-only":
        regionOnly = true
    case "--rounds":
        guard let n = Int(args.isEmpty ? "" : args.removeFirst()), n >= 1 else { fatalError("--rounds N (1 or more)") }
        rounds = n
    case "--results":
        guard !args.isEmpty else { fatalError("--results FILE") }
        resultsPath = args.removeFirst()
    case "--times":
        guard !args.isEmpty else { fatalError("--times FILE") }
        timesPath = args.removeFirst()
    case "-h", "--help":
        print("usage: rlbarcode-bench [--size WxH] [--seconds S] [--effort fast|balanced|thorough] [--threads N]")
        print(
            "       rlbarcode-bench --clip FILE --size WxH [--grey] [--region x,y,w,h [--region-only]] [--symbologies S] [--rounds N] [--effort E] [--threads N] [--times FILE] [--results FILE]"
        )
        exit(0)
    default:
        FileHandle.standardError.write("rlbarcode-bench: unknown argument \(a)\n".data(using: .utf8)!)
        exit(2)
    }
}

// MARK: - A raw clip

/// Times one scanner through the clip's frames, `rounds` times, as a video
/// (every frame once, in order); prints the milliseconds per frame (median,
/// 90th and 99th percentile, mean) and the frames where something was read.
@MainActor func timeClip(_ path: String) -> Int32 {
    guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write("rlbarcode-bench: cannot read \(path)\n".data(using: .utf8)!)
        return 1
    }
    let frameBytes = clipGrey ? width * height : width * height + 2 * ((width + 1) / 2) * ((height + 1) / 2)
    let frames = data.count / frameBytes
    guard frames > 0 else {
        FileHandle.standardError.write(
            "rlbarcode-bench: \(path) holds no whole \(width)x\(height) frame\n".data(using: .utf8)!)
        return 1
    }
    let scanner = Scanner(
        options: ScanOptions(
            symbologies: clipSymbologies, activeRegion: region, regionOnly: regionOnly, effort: effort, threads: threads
        ))
    var times: [Double] = []
    times.reserveCapacity(frames * rounds)
    var found = 0
    var readings: [String] = []
    data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
        let base = raw.bindMemory(to: UInt8.self).baseAddress!
        for round in 0..<rounds {
            for f in 0..<frames {
                let view = LumaView(base: base + f * frameBytes, width: width, height: height, stride: width)
                let start = DispatchTime.now().uptimeNanoseconds
                let results = scanner.scan(view)
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                if round == 0 && !results.isEmpty { found += 1 }
                if round == 0 && resultsPath != nil {
                    for r in results {
                        readings.append("\(f)\t\(r.symbology.name ?? "?")\t\(r.text.debugDescription)\n")
                    }
                }
            }
        }
    }
    if let timesPath,
        !FileManager.default.createFile(
            atPath: timesPath,
            contents: times.map { String(format: "%.4f\n", $0) }.joined().data(using: .utf8))
    {
        FileHandle.standardError.write("rlbarcode-bench: cannot write \(timesPath)\n".data(using: .utf8)!)
        return 1
    }
    if let resultsPath,
        !FileManager.default.createFile(
            atPath: resultsPath,
            contents: readings.joined().data(using: .utf8))
    {
        FileHandle.standardError.write("rlbarcode-bench: cannot write \(resultsPath)\n".data(using: .utf8)!)
        return 1
    }
    let sorted = times.sorted()
    func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(p * Double(sorted.count)))] }
    let mean = times.reduce(0, +) / Double(times.count)
    let regionText = region.map { "\($0.x),\($0.y),\($0.width),\($0.height)" } ?? "whole frame"
    print(
        "# rlbarcode-bench: \(path), \(frames) frames of \(width)x\(height), \(rounds) rounds, effort \(effort.nick), "
            + "threads \(threads), \(clipSymbologies == .all ? "every symbology" : clipSymbologies.members.compactMap(\.nick).joined(separator: "+")), region \(regionText)\(regionOnly ? " only" : "")"
    )
    print(
        String(
            format: "clip median_ms=%.3f p90_ms=%.3f p99_ms=%.3f mean_ms=%.3f frames_read=%d of %d",
            percentile(0.5), percentile(0.9), percentile(0.99), mean, found, frames))
    return 0
}

if let clipPath { exit(timeClip(clipPath)) }

// MARK: - Pictures

/// A deterministic pseudo-random sequence.
struct Random {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state >> 33
    }
}

/// A shaded frame with sensor-like noise.
@MainActor func background(seed: UInt64) -> [UInt8] {
    var px = [UInt8](repeating: 0, count: width * height)
    var r = Random(state: seed)
    for y in 0..<height {
        for x in 0..<width {
            let shade = 150 + 60 * x / width + 20 * y / height
            px[y * width + x] = UInt8(clamping: shade + Int(r.next() % 13) - 6)
        }
    }
    return px
}

/// The rows of modules zint prints for a symbol, or nil when zint is missing or refuses.
@MainActor func modules(_ c: Case) -> [[Bool]]? {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/zint")
    p.arguments = ["-b", String(c.zint)] + c.arguments + ["-d", c.data, "--dump"]
    let out = Pipe()
    p.standardOutput = out
    p.standardError = Pipe()
    guard (try? p.run()) != nil else { return nil }
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    var rows: [[Bool]] = []
    for line in text.split(separator: "\n") {
        var row: [Bool] = []
        for ch in line where ch.isHexDigit {
            let v = Int(String(ch), radix: 16)!
            for bit in (0..<4).reversed() { row.append(v >> bit & 1 == 1) }
        }
        if !row.isEmpty { rows.append(row) }
    }
    return rows.isEmpty ? nil : rows
}

/// Draws the symbol in the middle of a frame: one-row symbols 60 modules
/// tall, matrix symbols square.
@MainActor func picture(_ c: Case, _ rows: [[Bool]]) -> [UInt8] {
    var px = background(seed: UInt64(c.zint))
    let square = rows.count > 1
    let symbolWidth = rows.map { $0.lastIndex(of: true).map { $0 + 1 } ?? 0 }.max() ?? 0
    let moduleRows = square ? rows.count * c.rowHeight : 60
    let w = symbolWidth * c.module, h = moduleRows * c.module
    let x0 = (width - w) / 2, y0 = (height - h) / 2
    let quiet = 10 * c.module
    for y in max(0, y0 - quiet)..<min(height, y0 + h + quiet) {
        for x in max(0, x0 - quiet)..<min(width, x0 + w + quiet) { px[y * width + x] = 225 }
    }
    for y in 0..<h where y0 + y >= 0 && y0 + y < height {
        let row = rows[square ? y / (c.module * c.rowHeight) : 0]
        for x in 0..<w where x0 + x >= 0 && x0 + x < width && x / c.module < row.count && row[x / c.module] {
            px[(y0 + y) * width + x0 + x] = 30
        }
    }
    return px
}

/// A frame of text-like clutter: short dark strokes in lines, as on a page.
@MainActor func textFrame() -> [UInt8] {
    var px = [UInt8](repeating: 215, count: width * height)
    var r = Random(state: 77)
    var y = 20
    while y + 14 < height {
        var x = 20
        while x + 10 < width {
            let glyph = Int(r.next() % 8) + 4
            for k in 0..<Int(r.next() % 3 + 1) {
                let gx = x + Int(r.next() % UInt64(glyph)), top = y + Int(r.next() % 4)
                for yy in top..<(y + 12) { px[yy * width + min(width - 1, gx + k)] = 40 }
            }
            for xx in x..<min(width, x + glyph) where r.next() % 5 == 0 { px[(y + 6) * width + xx] = 40 }
            x += glyph + 3 + (r.next() % 6 == 0 ? 8 : 0)
        }
        y += 22
    }
    return px
}

// MARK: - Timing

/// Scans `px` for at least `seconds` (and 5 times); returns the mean seconds per scan and the texts read.
@MainActor func time(_ px: [UInt8]) -> (Double, [String]) {
    let scanner = Scanner(options: ScanOptions(symbologies: .all, effort: effort, threads: threads))
    return px.withUnsafeBufferPointer { buf in
        let view = LumaView(base: buf.baseAddress!, width: width, height: height, stride: width)
        // A scanner's first frame runs every search (later video frames
        // share the 2D searches out among them); then warm-up.
        let texts = scanner.scan(view).map(\.text)
        _ = scanner.scan(view)
        var runs = 0
        let start = DispatchTime.now().uptimeNanoseconds
        var elapsed = 0.0
        while runs < 5 || elapsed < seconds {
            _ = scanner.scan(view)
            runs += 1
            elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        return (elapsed / Double(runs), texts)
    }
}

@MainActor func row(_ name: String, _ seconds: Double, _ read: String) {
    let pixels = Double(width * height)
    print(
        name.padding(toLength: 18, withPad: " ", startingAt: 0)
            + String(format: "%10.1f %9.3f %8.2f  ", 1 / seconds, seconds * 1000, seconds * 1e9 / pixels) + read)
}

print("# rlbarcode-bench: \(width)x\(height), effort \(effort.nick), every symbology enabled, threads \(threads)")
print("picture            pictures/s  ms/pic  ns/pixel  read")
for (name, px) in [
    ("no code: flat", [UInt8](repeating: 180, count: width * height)),
    ("no code: noise", background(seed: 1)), ("no code: text", textFrame())
] {
    let (s, texts) = time(px)
    row(name, s, texts.isEmpty ? "nothing (right)" : "FALSE ALARM \(texts)")
}
var missing = 0
for c in cases {
    guard let rows = modules(c) else {
        print("\(c.name): skipped (zint is missing or refused the data)")
        missing += 1
        continue
    }
    let (s, texts) = time(picture(c, rows))
    row(c.name, s, texts.contains(c.expected) ? "yes" : "NO \(texts)")
}

// MARK: - Memory

/// The process's resident memory in bytes (Linux; nil elsewhere).
func residentBytes() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

// One scanner through every picture above, round after round: its memory
// must not grow after the first round.
var pictures: [[UInt8]] = [textFrame(), background(seed: 2)]
for c in cases { if let rows = modules(c) { pictures.append(picture(c, rows)) } }
let memoryScanner = Scanner(options: ScanOptions(symbologies: .all, effort: effort, threads: threads))
@MainActor func round() {
    for px in pictures {
        px.withUnsafeBufferPointer {
            _ = memoryScanner.scan(LumaView(base: $0.baseAddress!, width: width, height: height, stride: width))
        }
    }
}
round()
if let first = residentBytes() {
    for _ in 0..<10 { round() }
    let last = residentBytes() ?? first
    print(
        String(
            format: "memory: %.1f MB resident after the first round of %d pictures, %.1f MB after 10 more (%+.0f kB)",
            Double(first) / 1_048_576, pictures.count, Double(last) / 1_048_576, Double(last - first) / 1024))
}
exit(missing == cases.count ? 1 : 0)
