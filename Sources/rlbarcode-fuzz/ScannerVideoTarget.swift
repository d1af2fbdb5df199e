#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import RLBarcode

/// The `scanner-video` target: `Scanner.scan` on frames up to 3840 x 2160
/// with every ``ScanOptions`` field chosen by the input, and a time budget
/// per input (the scan's own time limit plus a margin).
///
/// Input format (byte 0 first; missing bytes are 0):
/// - 0-1: width - 1, big-endian, modulo 3840; 2-3: height - 1, modulo 2160.
/// - 4: stride padding in pixels.
/// - 5: bits 0-1 effort (modulo 3), bit 2 two threads, bit 3 exhaustive,
///   bits 4-6 orientation (modulo 5), bit 7 region only.
/// - 6: bit 0 an active region (bytes 7-10), bit 1 a second scan of the
///   frame, bit 2 the frame number of bytes 14-15, bit 3 no time limit
///   (taken only for frames of 256 x 256 pixels or fewer).
/// - 7-10: the active region's x, y, width, height, each `byte / 200 - 0.1`
///   (so that some regions reach outside the frame or are empty).
/// - 11-13: the symbologies, bits of ``Symbology``, little-endian.
/// - 14-15: the frame number - 1, big-endian.
/// - 16: the time limit, `5 + byte` milliseconds.
/// - 17: the pattern's scale (1 + bits 0-3) and whether it is mirrored on
///   odd tiles (bit 4); 18: the pattern's tile width - 1, in pattern pixels.
/// - 19 on: the pattern's pixels, tiled over the frame row by row.
enum ScannerVideoTarget {
    /// The largest frame, pixels.
    static let maxWidth = 3840
    /// The largest frame, pixels.
    static let maxHeight = 2160
    /// Where the pattern starts in an input.
    static let headerSize = 19
    /// How long past its time limit a scan may run before the input counts
    /// as an overrun, seconds (`RLBARCODE_FUZZ_MARGIN_MS`, default 250).
    static let margin: Double = {
        guard let raw = getenv("RLBARCODE_FUZZ_MARGIN_MS"), let ms = Double(String(cString: raw)) else {
            return 0.25
        }
        return ms / 1000
    }()

    /// Every frame's size when `RLBARCODE_FUZZ_FRAME` is `WIDTHxHEIGHT`
    /// (at most 3840x2160; the input's size bytes are then ignored): a run
    /// spends every input on frames of one size, 4K say.
    static let fixedSize: (width: Int, height: Int)? = {
        guard let raw = getenv("RLBARCODE_FUZZ_FRAME") else { return nil }
        let parts = String(cString: raw).split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, (1...maxWidth).contains(parts[0]), (1...maxHeight).contains(parts[1]) else {
            return nil
        }
        return (parts[0], parts[1])
    }()

    /// The frame and the options an input asks for.
    struct Plan {
        var width: Int
        var height: Int
        var stride: Int
        var options: ScanOptions
        var frameNumber: Int?
        var secondScan: Bool
    }

    /// Reads the header of `d` into a plan.
    static func plan(_ d: UnsafeBufferPointer<UInt8>) -> Plan {
        func byte(_ i: Int) -> Int { i < d.count ? Int(d[i]) : 0 }
        let width = fixedSize?.width ?? (byte(0) << 8 | byte(1)) % maxWidth + 1
        let height = fixedSize?.height ?? (byte(2) << 8 | byte(3)) % maxHeight + 1
        let flags = byte(5), more = byte(6)
        var options = ScanOptions()
        options.effort = Effort(rawValue: (flags & 3) % Effort.allCases.count) ?? .balanced
        options.threads = flags & 4 != 0 ? 2 : 1
        options.exhaustive = flags & 8 != 0
        options.orientation = Orientation(rawValue: (flags >> 4 & 7) % Orientation.allCases.count) ?? .any
        options.regionOnly = flags & 128 != 0
        if more & 1 != 0 {
            func f(_ i: Int) -> Double { Double(byte(i)) / 200 - 0.1 }
            options.activeRegion = NormalizedRect(x: f(7), y: f(8), width: f(9), height: f(10))
        }
        let bits = UInt32(byte(11) | byte(12) << 8 | byte(13) << 16)
        options.symbologies = Symbology(rawValue: bits & Symbology.all.rawValue)
        let small = width * height <= 256 * 256
        options.timeLimit = more & 8 != 0 && small ? nil : (5 + Double(byte(16))) / 1000
        return Plan(
            width: width, height: height, stride: width + byte(4), options: options,
            frameNumber: more & 4 != 0 ? (byte(14) << 8 | byte(15)) + 1 : nil, secondScan: more & 2 != 0)
    }

    /// The frame's pixels, reused between inputs.
    nonisolated(unsafe) static var pixels: [UInt8] = []
    /// Inputs run, frames of 1920 x 1080 or more, frames of 3840 x 2160.
    nonisolated(unsafe) static var counts = (inputs: 0, hd: 0, uhd: 0, overruns: 0)
    /// The longest time a scan ran past its limit, seconds.
    nonisolated(unsafe) static var worstOverrun = 0.0

    /// Fills the frame of `plan` with the pattern of `d`, tiled.
    static func fill(_ plan: Plan, _ d: UnsafeBufferPointer<UInt8>) {
        let count = plan.stride * plan.height
        if pixels.count < count { pixels = [UInt8](repeating: 0, count: count) }
        let pattern = d.count > headerSize ? UnsafeBufferPointer(rebasing: d[headerSize...]) : nil
        let scaleByte = headerSize - 2 < d.count ? Int(d[headerSize - 2]) : 0
        let scale = 1 + scaleByte & 15, mirrored = scaleByte & 16 != 0
        let tile = 1 + (headerSize - 1 < d.count ? Int(d[headerSize - 1]) : 0)
        pixels.withUnsafeMutableBufferPointer { p in
            guard let pattern, !pattern.isEmpty else {
                p.baseAddress!.update(repeating: 255, count: count)
                return
            }
            for y in 0..<plan.height {
                let row = p.baseAddress! + y * plan.stride
                let py = y / scale
                if y > 0 && py == (y - 1) / scale {
                    row.update(from: row - plan.stride, count: plan.stride)
                    continue
                }
                for x in 0..<plan.width {
                    var px = x / scale
                    let t = px / tile
                    px %= tile
                    if mirrored && t & 1 == 1 { px = tile - 1 - px }
                    row[x] = pattern[(py * tile + px) % pattern.count]
                }
                for x in plan.width..<plan.stride { row[x] = 0x5A }
            }
        }
    }

    /// Runs one input; an input whose scan overruns its budget is written
    /// to `RLBARCODE_FUZZ_OVERRUN_DIR` when set, and stops the process when
    /// `RLBARCODE_FUZZ_OVERRUN=abort`.
    static func run(_ d: UnsafeBufferPointer<UInt8>) -> String {
        let plan = plan(d)
        fill(plan, d)
        counts.inputs += 1
        if plan.width >= 1920 && plan.height >= 1080 { counts.hd += 1 }
        if plan.width >= 3840 && plan.height >= 2160 { counts.uhd += 1 }
        let scanner = Scanner(options: plan.options)
        var texts: [String] = []
        var over = 0.0
        pixels.withUnsafeBufferPointer { p in
            let view = LumaView(base: p.baseAddress!, width: plan.width, height: plan.height, stride: plan.stride)
            for pass in 0..<(plan.secondScan ? 2 : 1) {
                let start = MonotonicSeconds.now
                let results =
                    plan.frameNumber.map { scanner.scan(view, frameNumber: $0 + pass) } ?? scanner.scan(view)
                let took = MonotonicSeconds.now - start
                if let limit = plan.options.timeLimit { over = max(over, took - limit) }
                texts += results.map(\.text)
            }
        }
        worstOverrun = max(worstOverrun, over)
        if over > margin { overrun(d, by: over, plan) }
        return texts.isEmpty ? "nothing read" : texts.joined(separator: "\n")
    }

    /// Reports an input whose scan ran `seconds` past its limit plus margin.
    static func overrun(_ d: UnsafeBufferPointer<UInt8>, by seconds: Double, _ plan: Plan) {
        counts.overruns += 1
        let what =
            "\(plan.width)x\(plan.height) effort \(plan.options.effort.nick) threads \(plan.options.threads)"
            + " limit \(Int((plan.options.timeLimit ?? 0) * 1000)) ms"
        var line = "scanner-video: overrun by \(Int(seconds * 1000)) ms (\(what))\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        if let dir = getenv("RLBARCODE_FUZZ_OVERRUN_DIR") {
            let path = String(cString: dir) + "/overrun-\(counts.inputs)-\(Int(seconds * 1000))ms"
            if let f = fopen(path, "wb") {
                _ = fwrite(d.baseAddress, 1, d.count, f)
                fclose(f)
            }
        }
        if let mode = getenv("RLBARCODE_FUZZ_OVERRUN"), String(cString: mode) == "abort" { abort() }
    }

    /// The counts, for the end of a run.
    static var summary: String {
        "scanner-video: \(counts.inputs) inputs, \(counts.hd) of 1920x1080 or more, \(counts.uhd) of 3840x2160,"
            + " \(counts.overruns) overruns past the margin, worst \(Int(worstOverrun * 1000)) ms past the limit"
    }
}

/// The monotonic clock in seconds.
enum MonotonicSeconds {
    /// Now, seconds since an arbitrary start.
    static var now: Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
