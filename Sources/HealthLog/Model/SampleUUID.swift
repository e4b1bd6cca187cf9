/// A 128-bit RFC 4122 UUID held as two integers: cheap to hash and compare, printed in
/// upper case as SPEC §1 asks.
public struct SampleUUID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The first 8 bytes, big-endian.
    public var high: UInt64
    /// The last 8 bytes, big-endian.
    public var low: UInt64

    /// Creates a UUID from its two halves.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Parses the 36-character form `8-4-4-4-12` in any case; `nil` if malformed.
    public init?(_ text: String) {
        var text = text
        guard let parsed = text.withUTF8({ SampleUUID(utf8: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = parsed
    }

    /// Parses the 36-character form from UTF-8 bytes; `nil` if malformed.
    init?(utf8 bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 36, bytes[8] == 45, bytes[13] == 45, bytes[18] == 45, bytes[23] == 45 else { return nil }
        var invalid: UInt8 = 0
        let (high, low) = SampleUUID.hexValues.withUnsafeBufferPointer { table -> (UInt64, UInt64) in
            func run(_ range: Range<Int>, _ acc: inout UInt64) {
                for i in range {
                    let v = table[Int(bytes[i])]
                    invalid |= v
                    acc = acc << 4 | UInt64(v & 0xF)
                }
            }
            var high: UInt64 = 0
            var low: UInt64 = 0
            run(0..<8, &high)
            run(9..<13, &high)
            run(14..<18, &high)
            run(19..<23, &low)
            run(24..<36, &low)
            return (high, low)
        }
        guard invalid & 0x10 == 0 else { return nil }
        self.high = high
        self.low = low
    }

    /// Hex digit values by byte; 0x10 marks a byte that is not a hex digit.
    private static let hexValues: [UInt8] = (0..<256).map { c in
        switch c {
        case 48...57: UInt8(c - 48)
        case 65...70: UInt8(c - 55)
        case 97...102: UInt8(c - 87)
        default: 0x10
        }
    }

    /// A random (version 4) UUID.
    public static func random() -> SampleUUID {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// A random (version 4) UUID drawn from `generator`.
    public static func random(using generator: inout some RandomNumberGenerator) -> SampleUUID {
        let high = (generator.next() as UInt64) & 0xFFFF_FFFF_FFFF_0FFF | 0x0000_0000_0000_4000
        let low = (generator.next() as UInt64) & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000
        return SampleUUID(high: high, low: low)
    }

    /// Appends the 36 upper-case characters to `out`.
    package func render(into out: inout [UInt8]) {
        let digits: StaticString = "0123456789ABCDEF"
        let high = high, low = low
        digits.withUTF8Buffer { hex in
            out.append(contentsOf: repeatElement(0, count: 36))
            out.withUnsafeMutableBufferPointer { buffer in
                var at = buffer.count - 36
                for i in 0..<32 {
                    if i == 8 || i == 12 || i == 16 || i == 20 {
                        buffer[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    let word = i < 16 ? high : low
                    buffer[at] = hex[Int((word >> UInt64(60 - 4 * (i % 16))) & 0xF)]
                    at += 1
                }
            }
        }
    }

    /// The upper-case 36-character form.
    public var description: String {
        var out: [UInt8] = []
        out.reserveCapacity(36)
        render(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Orders by the 128-bit value.
    public static func < (a: SampleUUID, b: SampleUUID) -> Bool {
        (a.high, a.low) < (b.high, b.low)
    }
}
