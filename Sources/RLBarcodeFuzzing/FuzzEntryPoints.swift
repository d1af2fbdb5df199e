import RLBarcode

/// Narrow entry points into the engine's decoding stages for the fuzz
/// targets (`rlbarcode-fuzz`) and their regression tests
/// (`FuzzRegressionTests`).
///
/// Each target builds its stage's input from raw bytes and runs the stage
/// as the scanner does. Every input, however short or odd, gives an
/// ``Outcome``: a decoded text, a failure, or a rejection of input too
/// short to build anything from. A trap, a hang or unbounded memory is a
/// bug in the engine.
///
/// Input formats (byte 0 first):
/// - `qr-matrix`, `dm-matrix`, `aztec-matrix`: width (1 ... 255), height
///   (1 ... 255), flags (bit 0: also try the mirror image, QR Code and Data
///   Matrix), then the modules row by row, one bit each, most significant
///   bit first; 1 is dark, missing bits are light.
/// - `qr-bitstream`: version byte (bit 7: Micro QR; the low six bits modulo
///   40, or 4, plus 1 are the version), then the corrected data code words.
/// - `dm-bitstream`: the corrected data code words.
/// - `aztec-bitstream`: flags (bit 0: compact), five bytes of mode message
///   bits, then the unstuffed data bits, eight to a byte, most significant
///   bit first.
/// - `pdf417-codewords`: the error correction level (modulo 9), then the
///   codewords, two bytes each, big-endian, modulo 1024 (929 and above
///   are erasures), error correction included: Reed-Solomon and compaction.
/// - `micropdf417-codewords`: the symbol size (modulo 34, in the order of
///   ISO/IEC 24728 Table 1), then for each of the size's codewords three
///   bytes: the codeword, two bytes big-endian modulo 1024 (929 and above
///   are erasures), and how surely it was read (modulo 8); missing
///   codewords are erasures. Reed-Solomon, erasure of weak cells and
///   compaction, as the MicroPDF417 reader runs them.
/// - `pdf417-bitstream`: the data codewords, two bytes each, big-endian,
///   modulo 929 (the first is the symbol length descriptor).
/// - `linear`: flags (bit 0: the rest are grey levels of one scan line,
///   else element widths in pixels, light space first, each byte plus 1;
///   bit 1: the line starts on the frame's border; bit 2: it ends there;
///   bit 3: weak edges are pruned),
///   then the line. Every linear reader runs on it, both polarities, both
///   directions.
/// - `text`: a selector (modulo 5: GS1 element string to human-readable
///   form, byte data by guessed character set, ECI character set of byte 1,
///   Shift JIS, GB 2312), then the bytes.
/// - `scanner`: width - 1, height - 1, stride padding (modulo 16), flags
///   (bits 0-1: effort, bit 2: a second frame, bits 3-5: orientation), then
///   the luma pixels; missing pixels are white.
package enum FuzzEntryPoints {
    /// What one run of a stage gave.
    package enum Outcome: Equatable, Sendable {
        /// The stage decoded a payload, given as text (several results
        /// joined by newlines).
        case decoded(String)
        /// The stage refused the input, for the reason given.
        case failed(String)
        /// The input is too short to build the stage's input from.
        case rejected
    }

    /// The fuzz targets, by the name `RLBARCODE_FUZZ_TARGET` gives them.
    package enum Target: String, CaseIterable, Sendable {
        case qrMatrix = "qr-matrix"
        case qrBitstream = "qr-bitstream"
        case dmMatrix = "dm-matrix"
        case dmBitstream = "dm-bitstream"
        case aztecMatrix = "aztec-matrix"
        case aztecBitstream = "aztec-bitstream"
        case pdf417Codewords = "pdf417-codewords"
        case pdf417Bitstream = "pdf417-bitstream"
        case microPDF417Codewords = "micropdf417-codewords"
        case linear
        case text
        case scanner
    }

    /// The largest scanner picture side, pixels.
    package static let maxScannerSide = 256
    /// The longest linear scan line, pixels.
    package static let maxLineLength = 8192

    /// Runs `target` on `data`.
    package static func run(_ target: Target, _ data: UnsafeBufferPointer<UInt8>) -> Outcome {
        switch target {
        case .qrMatrix: return qrMatrix(data)
        case .qrBitstream: return qrBitstream(data)
        case .dmMatrix: return dmMatrix(data)
        case .dmBitstream: return dmBitstream(data)
        case .aztecMatrix: return aztecMatrix(data)
        case .aztecBitstream: return aztecBitstream(data)
        case .pdf417Codewords: return pdf417Codewords(data)
        case .pdf417Bitstream: return pdf417Bitstream(data)
        case .microPDF417Codewords: return microPDF417Codewords(data)
        case .linear: return linear(data)
        case .text: return text(data)
        case .scanner: return scanner(data)
        }
    }

    /// Runs `target` on `data`.
    package static func run(_ target: Target, _ data: [UInt8]) -> Outcome {
        data.withUnsafeBufferPointer { run(target, $0) }
    }

    // MARK: Matrix codes

    /// The matrix of a matrix target's input, and its flags.
    private static func matrix(_ d: UnsafeBufferPointer<UInt8>) -> (BitMatrix, UInt8)? {
        guard d.count >= 3, d[0] > 0, d[1] > 0 else { return nil }
        let width = Int(d[0]), height = Int(d[1])
        var m = BitMatrix(width: width, height: height)
        let bits = d.count - 3
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                guard i < bits * 8 else { return (m, d[2]) }
                if d[3 + i >> 3] >> (7 - UInt8(i & 7)) & 1 == 1 { m[x, y] = true }
            }
        }
        return (m, d[2])
    }

    private static func qrMatrix(_ d: UnsafeBufferPointer<UInt8>) -> Outcome {
        guard let (m, flags) = matrix(d) else { return .rejected }
        switch QRDecoder.decodeResult(m, tryMirrored: flags & 1 == 1) {
        case .success(let r): return .decoded(r.text)
        case .failure(let f): return .failed("\(f)")
        }
    }

    private static func dmMatrix(_ d: UnsafeBufferPointer<UInt8>) -> Outcome {
        guard let (m, flags) = matrix(d) else { return .rejected }
        switch DMDecoder.decodeResult(m, tryMirrored: flags & 1 == 1) {
        case .success(let r): return .decoded(r.text)
        case .failure(let f): return .failed("\(f)")
        }
    }

    private static func aztecMatrix(_ d: UnsafeBufferPointer<UInt8>) -> Outcome {
        guard let (m, _) = matrix(d) else { return .rejected }
        switch AztecDecoder.decodeResult(m) {
        case .success(let r): return .decoded(r.text)
        case .failure(let f): return .failed("\(f)")
        }
    }

    // MARK: Bit streams

    private static func qrBitstream(_ d: UnsafeBufferPointer<UInt8>) -> Outcome {
        guard d.count >= 1 else { return .rejected }
        let micro = d[0] & 0x80 != 0
        let version = Int(d[0] & 0x3F) % (micro ? 4 : 40) + 1
        let data = UnsafeBufferPointer(rebasing: d[1...])
        switch QRBitstream.decode(data, bitCount: data.count * 8, version: version, micro: micro) {
        case .success(let content): return .decoded(QRDecoder.text(of: content))
        case .failure(let f): return .failed("\(f)")
        }
    }

    private static func dmBitstream(_ d: UnsafeBufferPointer<UInt8>) -> Outcome {
        switch DMBitstream.decode(d) {
        case .success(let content): return .decoded(DMDecoder.text(of: content))
        case .failure(let f): return .failed("\(f)")
        }
    }

    private static func aztecBitstream(_ d: UnsafeBufferPointer<UInt8>) -> Outcome {
        guard d.count >= 6 else { return .rejected }
        var modeBits: UInt64 = 0
        for k in 1...5 { modeBits = modeBits << 8 | UInt64(d[k]) }
        let compact = d[0] & 1 == 1
        // The mode message: 28 bits compact, 40 full-range.
        let mode = AztecModeMessage.decode(
            bits: compact ? modeBits >> 12 : modeBits, compact: compact,
            runeAllowed: compact)
        var bits: [UInt8] = []
        bits.reserveCapacity((d.count - 6) * 8)
        for byte in d[6...] {
            for k in (0..<8).reversed() { bits.append(byte >> UInt8(k) & 1) }
        }
        guard let content = AztecBitstream.decode(bits) else {
            return .failed(mode == nil ? "mode message, bit stream" : "bit stream")
        }
        return .decoded(AztecBitstream.text(of: content))
    }

    /// Codewords of two bytes each, big-endian, modulo `modulus`.
    private static func words(_ d: Slice<UnsafeBufferPointer<UInt8>>, modulo modulus: Int) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(d.count / 2)
        var i = d.startIndex
        while i + 1 < d.endIndex {
            out.append((Int(d[i]) << 8 | Int(d[i + 1])) % modulus)
            i += 2
        }
        return out
    }

    private static func pdf417Codewords(_ d: UnsafeBufferPointer<UInt8>) -> Outcome {
        guard d.count >= 1 else { return .rejected }
        let read = words(d[1...], modulo: 1024).map { $0 >= 929 ? -1 : $0 }
        guard let r = PDF417Decoder.decode(read, ecLevel: Int(d[0]) % 9) else { return .failed("codewords") }
        return .decoded(r.text)
    }

    private static func pdf417Bitstream(_ d: UnsafeBufferPointer<UInt8>) -> Outcome {
        let words = words(d[...], modulo: 929)
        guard !words.isEmpty else { return .rejected }
        guard let content = PDF417Bitstream.decode(words) else { return .failed("bit stream") }
        return .decoded(content.text)
    }

    private static func microPDF417Codewords(_ d: UnsafeBufferPointer<UInt8>) -> Outcome {
        guard d.count >= 1 else { return .rejected }
        let size = MicroPDF417.sizes[Int(d[0]) % MicroPDF417.sizes.count]
        let count = size.columns * size.rows
        var read = [Int](repeating: -1, count: count)
        var margin = [Int32](repeating: 0, count: count)
        var i = 1
        for k in 0..<count where i + 2 < d.count {
            let word = (Int(d[i]) << 8 | Int(d[i + 1])) % 1024
            read[k] = word >= 929 ? -1 : word
            margin[k] = Int32(d[i + 2] % 8)
            i += 3
        }
        guard let r = MicroPDF417Reader.decode(read, margin: margin, checkCount: size.checkCount) else {
            return .failed("codewords")
        }
        return .decoded(r.text)
    }

    // MARK: Linear codes

    private static func linear(_ d: UnsafeBufferPointer<UInt8>) -> Outcome {
        guard d.count >= 2 else { return .rejected }
        let flags = d[0]
        var profile: [Float] = []
        if flags & 1 == 1 {
            for b in d[1...].prefix(maxLineLength) { profile.append(Float(b)) }
        } else {
            for (k, b) in d[1...].enumerated() {
                let width = Int(b) + 1
                guard profile.count + width <= maxLineLength else { break }
                profile.append(contentsOf: repeatElement(k % 2 == 0 ? 220 : 30, count: width))
            }
        }
        var edges = EdgeExtractor(), run = ElementRun(), sink = LinearHitSink()
        defer { edges.free(); run.free(); sink.free() }
        let readers = makeLinearReaders()
        var texts: [String] = []
        profile.withUnsafeBufferPointer { p in
            guard let base = p.baseAddress else { return }
            edges.extract(base, count: p.count, relative: 0.1, floor: 2)
            if flags & 8 != 0 { edges.prune(base, count: p.count, fraction: 0.15) }
            for inverted in [false, true] {
                run.fill(
                    from: edges, lineLength: p.count, inverted: inverted,
                    startsAtFrameBorder: flags & 2 != 0, endsAtFrameBorder: flags & 4 != 0)
                run.profile = base
                for reverse in [false, true] {
                    if reverse { run.reverse() }
                    sink.reset()
                    for reader in readers { reader.decode(run, enabled: .all, into: &sink) }
                    for h in 0..<sink.hitCount {
                        texts.append(String(decoding: sink.text(of: sink.hits[h]), as: UTF8.self))
                    }
                }
            }
        }
        return texts.isEmpty ? .failed("no code") : .decoded(texts.joined(separator: "\n"))
    }

    // MARK: Text

    private static func text(_ d: UnsafeBufferPointer<UInt8>) -> Outcome {
        guard d.count >= 2 else { return .rejected }
        let bytes = Array(d[1...])
        switch d[0] % 5 {
        case 0:
            guard let s = GS1.humanReadable(bytes) else { return .failed("not a GS1 element string") }
            return .decoded(s)
        case 1: return .decoded(QRCharacterSet.text(bytes[...], .guess))
        case 2: return .decoded(QRCharacterSet.text(bytes.dropFirst(), .eci(Int(bytes[0]))))
        case 3: return .decoded(QRCharacterSet.text(bytes[...], .shiftJIS))
        default: return .decoded(QRCharacterSet.text(bytes[...], .gb2312))
        }
    }

    // MARK: Scanner

    private static func scanner(_ d: UnsafeBufferPointer<UInt8>) -> Outcome {
        guard d.count >= 4 else { return .rejected }
        let width = min(Int(d[0]) + 1, maxScannerSide), height = min(Int(d[1]) + 1, maxScannerSide)
        let stride = width + Int(d[2]) % 16
        let flags = d[3]
        var pixels = [UInt8](repeating: 255, count: stride * height)
        let given = min(pixels.count, d.count - 4)
        for i in 0..<given { pixels[i] = d[4 + i] }
        var options = ScanOptions()
        options.effort = Effort(rawValue: Int(flags & 3) % Effort.allCases.count) ?? .thorough
        options.orientation = Orientation(rawValue: Int(flags >> 3 & 7) % Orientation.allCases.count) ?? .any
        let scanner = Scanner(options: options)
        var results: [BarcodeResult] = []
        pixels.withUnsafeBufferPointer { p in
            let view = LumaView(base: p.baseAddress!, width: width, height: height, stride: stride)
            results = scanner.scan(view)
            if flags & 4 != 0 { results = scanner.scan(view) }
        }
        return results.isEmpty ? .failed("no code") : .decoded(results.map(\.text).joined(separator: "\n"))
    }
}
