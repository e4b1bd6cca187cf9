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
        guard bytes.count == 36 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        var nibbles = 0
        for i in 0..<36 {
            let c = bytes[i]
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard c == UInt8(ascii: "-") else { return nil }
                continue
            }
            let v: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = c &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = c &- UInt8(ascii: "A") &+ 10
            default: return nil
            }
            if nibbles < 16 { high = high << 4 | UInt64(v) } else { low = low << 4 | UInt64(v) }
            nibbles += 1
        }
        self.high = high
        self.low = low
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
    func render(into out: inout [UInt8]) {
        let digits: StaticString = "0123456789ABCDEF"
        digits.withUTF8Buffer { hex in
            for i in 0..<32 {
                if i == 8 || i == 12 || i == 16 || i == 20 { out.append(UInt8(ascii: "-")) }
                let word = i < 16 ? high : low
                let shift = UInt64(60 - 4 * (i % 16))
                out.append(hex[Int((word >> shift) & 0xF)])
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
