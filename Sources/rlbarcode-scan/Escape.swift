import Foundation

/// Text made safe and unambiguous for the readable output and for standard
/// error: a terminal shows it as it is, with nothing hidden or reordered.
///
/// - A backslash is doubled: `\\`.
/// - Control characters (C0, DEL, C1: Unicode category Cc) are written
///   `\x{1D}`, in hexadecimal between braces.
/// - Bidirectional controls (U+061C, U+200E, U+200F, U+202A to U+202E,
///   U+2066 to U+2069) and the line and paragraph separators U+2028 and
///   U+2029 are written `\u{202E}`.
///
/// Every other character is kept. The braces end each escape, so `\x{1}0`
/// (U+0001, then "0") cannot be read as `\x{10}`.
func printable(_ text: String) -> String {
    var out = ""
    out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
        let props = scalar.properties
        if scalar == "\\" {
            out += "\\\\"
        } else if props.generalCategory == .control {
            out += "\\x{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else if props.isBidiControl || props.generalCategory == .lineSeparator
            || props.generalCategory == .paragraphSeparator
        {
            out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return out
}

/// Bytes that are not valid UTF-8 (a file name as the system gave it),
/// shown unambiguously: printable ASCII as it is (a backslash doubled),
/// every other byte as `\x{E9}`.
func printableBytes(_ bytes: [UInt8]) -> String {
    var out = ""
    for byte in bytes {
        switch byte {
        case UInt8(ascii: "\\"): out += "\\\\"
        case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(byte))
        default: out += "\\x{" + String(byte, radix: 16, uppercase: true) + "}"
        }
    }
    return out
}

/// The command-line words that are not valid UTF-8, keyed by the text
/// Swift made of them (each bad byte replaced by U+FFFD), with their bytes
/// shown by ``printableBytes(_:)``.
func wordsNotUTF8() -> [String: String] {
    var words: [String: String] = [:]
    for i in 1..<Int(CommandLine.argc) {
        guard let raw = CommandLine.unsafeArgv[i], String(validatingCString: raw) == nil else { continue }
        let bytes = UnsafeRawBufferPointer(start: raw, count: strlen(raw))
        words[CommandLine.arguments[i]] = printableBytes(Array(bytes))
    }
    return words
}
