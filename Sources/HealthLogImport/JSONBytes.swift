/// JSON written straight into bytes, for the import's hot path (one event line per record):
/// a string literal is the UTF-8 of the text with only `"`, `\` and control characters
/// escaped, the same output as ``JSONText/string(_:)`` without building a `String`.
enum JSONBytes {
    /// Appends `text` as a JSON string literal, quotes included.
    static func appendString(_ text: String, to out: inout some ByteOutput) {
        var text = text
        text.withUTF8 { appendString(bytes: $0, to: &out) }
    }

    /// Appends the UTF-8 text `bytes` as a JSON string literal, quotes included. Text with
    /// nothing to escape (nearly every value of an export) is found so eight bytes at a time
    /// and copied at once.
    static func appendString(bytes: UnsafeBufferPointer<UInt8>, to out: inout some ByteOutput) {
        out.write(0x22)
        guard needsEscaping(bytes) else {
            out.write(UnsafeRawBufferPointer(bytes))
            out.write(0x22)
            return
        }
        var clean = 0
        for (i, c) in bytes.enumerated() where c == 0x22 || c == 0x5C || c < 0x20 {
            out.write(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[clean..<i]))
            out.write(0x5C)
            switch c {
            case 0x22: out.write(0x22)
            case 0x5C: out.write(0x5C)
            case 0x0A: out.write(0x6E)
            case 0x0D: out.write(0x72)
            case 0x09: out.write(0x74)
            default:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                for digit in [0x75, 0x30, 0x30, hex[Int(c >> 4)], hex[Int(c & 0xF)]] { out.write(digit) }
            }
            clean = i + 1
        }
        out.write(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[clean...]))
        out.write(0x22)
    }

    /// Whether `bytes` holds a `"`, a `\` or a control character (below 0x20): eight bytes
    /// at a time by the bit tricks that find a zero byte (`"` and `\` as zeros after an
    /// exclusive or) and a byte below a bound, then the last few one by one.
    static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var at = 0
        while at + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let below = (word &- ones &* 0x20) & ~word
            let quotes = (quote &- ones) & ~quote
            let backslashes = (backslash &- ones) & ~backslash
            if (below | quotes | backslashes) & highs != 0 { return true }
            at += 8
        }
        while at < bytes.count {
            let c = base[at]
            if c == 0x22 || c == 0x5C || c < 0x20 { return true }
            at += 1
        }
        return false
    }

    /// Appends `value` in decimal, as `String(value)` spells it, without building the `String`:
    /// two digits at a time from a table of the pairs `00` to `99`, then the last one.
    static func appendInteger(_ value: Int64, to out: inout some ByteOutput) {
        if value < 0 { out.write(0x2D) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for the 20 digits of a UInt64, written from the end
        let pairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
        withUnsafeMutableBytes(of: &digits) { room in
            var at = room.count
            while magnitude >= 100 {
                let pair = Int(magnitude % 100) * 2
                magnitude /= 100
                at -= 2
                room[at] = pairs.utf8Start[pair]
                room[at + 1] = pairs.utf8Start[pair + 1]
            }
            repeat {
                at -= 1
                room[at] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30
                magnitude /= 10
            } while magnitude > 0
            out.write(UnsafeRawBufferPointer(rebasing: room[at...]))
        }
    }

    /// Appends `text` unchanged (a JSON number or literal already checked by the caller).
    static func appendRaw(_ text: String, to out: inout some ByteOutput) {
        var text = text
        text.withUTF8 { out.write(UnsafeRawBufferPointer($0)) }
    }
}
