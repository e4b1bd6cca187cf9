/// JSON written straight into bytes, for the import's hot path (one event line per record):
/// a string literal is the UTF-8 of the text with only `"`, `\` and control characters
/// escaped, the same output as ``JSONText/string(_:)`` without building a `String`.
enum JSONBytes {
    /// Appends `text` as a JSON string literal, quotes included.
    static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(0x22)
        var text = text
        text.withUTF8 { bytes in
            var clean = 0
            for (i, c) in bytes.enumerated() where c == 0x22 || c == 0x5C || c < 0x20 {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean..<i]))
                switch c {
                case 0x22: out.append(contentsOf: [0x5C, 0x22])
                case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
                case 0x0D: out.append(contentsOf: [0x5C, 0x72])
                case 0x09: out.append(contentsOf: [0x5C, 0x74])
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(c >> 4)], hex[Int(c & 0xF)]])
                }
                clean = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean...]))
        }
        out.append(0x22)
    }

    /// Appends `text` unchanged (a JSON number or literal already checked by the caller).
    static func appendRaw(_ text: String, to out: inout [UInt8]) {
        out.append(contentsOf: text.utf8)
    }
}
