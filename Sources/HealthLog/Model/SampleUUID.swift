/// A 128-bit RFC 4122 UUID held as two integers: cheap to hash and compare, printed in
/// upper case, as event lines hold it.
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

    /// Appends the 36 upper-case characters to `out`: the digits of each half made eight at
    /// a time in a word (``hexDigits(_:)``) and stored between the dashes, not a digit per
    /// loop turn (every add line an append encodes renders its UUID).
    package func render(into out: inout [UInt8]) {
        let start = out.count
        out.append(contentsOf: repeatElement(UInt8(ascii: "-"), count: 36))
        let high = (Self.hexDigits(UInt32(truncatingIfNeeded: self.high >> 32)), Self.hexDigits(UInt32(truncatingIfNeeded: self.high)))
        let low = (Self.hexDigits(UInt32(truncatingIfNeeded: self.low >> 32)), Self.hexDigits(UInt32(truncatingIfNeeded: self.low)))
        out.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: high.0.bigEndian, toByteOffset: start, as: UInt64.self)
            raw.storeBytes(of: UInt32(truncatingIfNeeded: high.1 >> 32).bigEndian, toByteOffset: start + 9, as: UInt32.self)
            raw.storeBytes(of: UInt32(truncatingIfNeeded: high.1).bigEndian, toByteOffset: start + 14, as: UInt32.self)
            raw.storeBytes(of: UInt32(truncatingIfNeeded: low.0 >> 32).bigEndian, toByteOffset: start + 19, as: UInt32.self)
            raw.storeBytes(of: UInt32(truncatingIfNeeded: low.0).bigEndian, toByteOffset: start + 24, as: UInt32.self)
            raw.storeBytes(of: low.1.bigEndian, toByteOffset: start + 28, as: UInt64.self)
        }
    }

    /// The eight upper-case hex digits of `value` as the bytes of a word, the first digit
    /// in the most significant byte: each nibble spread into a byte of its own, then made a
    /// digit (`0` + n, and 7 more for `A`–`F`, whose n + 6 carries into bit 4).
    @inline(__always)
    private static func hexDigits(_ value: UInt32) -> UInt64 {
        var x = UInt64(value)
        x = (x | x << 16) & 0x0000_FFFF_0000_FFFF
        x = (x | x << 8) & 0x00FF_00FF_00FF_00FF
        x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F
        let letters = ((x &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        return x &+ 0x3030_3030_3030_3030 &+ letters &* 7
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
