/// Decodes JSON string tokens (quotes included) that ``JSONScanner`` has already
/// validated into Swift strings, resolving escapes and surrogate pairs.
enum JSONStringDecoder {
    /// The string a validated token stands for.
    static func decode(_ token: UnsafeRawBufferPointer) -> String {
        let body = UnsafeRawBufferPointer(rebasing: token[1..<(token.count - 1)])
        guard body.contains(0x5C) else { return String(decoding: body, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(body.count)
        var i = 0
        while i < body.count {
            let c = body[i]
            guard c == 0x5C else {
                out.append(c)
                i += 1
                continue
            }
            let e = body[i + 1]
            i += 2
            switch e {
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0C)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            case 0x74: out.append(0x09)
            case 0x75:
                var scalar = hex4(body, i)
                i += 4
                if (0xD800..<0xDC00).contains(scalar), i + 6 <= body.count, body[i] == 0x5C, body[i + 1] == 0x75 {
                    let low = hex4(body, i + 2)
                    if (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                    }
                }
                appendUTF8(Unicode.Scalar(scalar) ?? "\u{FFFD}", to: &out)
            default: out.append(e)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hex4(_ b: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
        var v: UInt32 = 0
        for k in at..<min(at + 4, b.count) {
            let c = b[k]
            let d: UInt8 = c <= 57 ? c - 48 : (c | 0x20) - 87
            v = v << 4 | UInt32(d)
        }
        return v
    }

    private static func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        out.append(contentsOf: UTF8.encode(scalar)!)
    }
}
