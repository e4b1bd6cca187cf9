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

    /// Parses the 36-character form from UTF-8 bytes; `nil` if malformed. Each run of digits
    /// is read eight (or four and four) at a time in a word (``hexValue(_:)``), not a digit
    /// per loop turn: a query decodes one UUID for every line it returns.
    init?(utf8 bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 36, bytes[8] == 45, bytes[13] == 45, bytes[18] == 45, bytes[23] == 45 else { return nil }
        let base = bytes.baseAddress!
        func word(_ at: Int) -> UInt64 { UInt64(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        func halves(_ first: Int, _ second: Int) -> UInt64 {
            UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: first, as: UInt32.self)))
                | UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: second, as: UInt32.self))) << 32
        }
        guard let a = Self.hexValue(word(0)), let b = Self.hexValue(halves(9, 14)), let c = Self.hexValue(halves(19, 24)), let d = Self.hexValue(word(28))
        else { return nil }
        self.high = a << 32 | b
        self.low = c << 32 | d
    }

    /// The value of the eight hex digits (either case) whose characters are the bytes of
    /// `word`, the first in its least significant byte; `nil` when one is not a hex digit.
    /// Each byte is checked against the ranges `0`–`9` and (in lower case) `a`–`f` by adding
    /// to it without a carry out of the byte, then the nibbles are gathered pairwise.
    @inline(__always)
    static func hexValue(_ word: UInt64) -> UInt64? {
        let high: UInt64 = 0x8080_8080_8080_8080
        let lower = word | 0x2020_2020_2020_2020
        // 0x80 - 0x30 and 0x7F - 0x39 in each byte; 0x80 - 0x61 and 0x7F - 0x66.
        let isDigit = (word &+ 0x5050_5050_5050_5050) & ~(word &+ 0x4646_4646_4646_4646)
        let isLetter = (lower &+ 0x1F1F_1F1F_1F1F_1F1F) & ~(lower &+ 0x1919_1919_1919_1919)
        guard word & high == 0, (isDigit | isLetter) & high == high else { return nil }
        let nibbles = (word & 0x0F0F_0F0F_0F0F_0F0F) &+ ((isLetter & high) >> 7) &* 9
        let pairs = ((nibbles & 0x00FF_00FF_00FF_00FF) << 4) | ((nibbles >> 8) & 0x00FF_00FF_00FF_00FF)
        let quads = ((pairs & 0x0000_FFFF_0000_FFFF) << 8) | ((pairs >> 16) & 0x0000_FFFF_0000_FFFF)
        return ((quads & 0xFFFF_FFFF) << 16) | (quads >> 32)
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

    /// Appends the 36 upper-case characters to `out` (``withText(_:)``).
    package func render(into out: inout [UInt8]) {
        withText { out.append(contentsOf: $0) }
    }

    /// Calls `body` with the 36 upper-case characters: the digits of each half made eight at
    /// a time in a word (``hexDigits(_:)``) and stored between the dashes, not a digit per
    /// loop turn (every add line an append encodes renders its UUID).
    @inline(__always)
    package func withText<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let high = (Self.hexDigits(UInt32(truncatingIfNeeded: self.high >> 32)), Self.hexDigits(UInt32(truncatingIfNeeded: self.high)))
        let low = (Self.hexDigits(UInt32(truncatingIfNeeded: self.low >> 32)), Self.hexDigits(UInt32(truncatingIfNeeded: self.low)))
        // Made in a word-aligned buffer on the stack and appended with one copy: appending
        // 36 dashes to overwrite took more than the digits.
        var text: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &text) { raw in
            raw.storeBytes(of: high.0.bigEndian, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: 45, toByteOffset: 8, as: UInt8.self)
            raw.storeBytes(of: UInt32(truncatingIfNeeded: high.1 >> 32).bigEndian, toByteOffset: 9, as: UInt32.self)
            raw.storeBytes(of: 45, toByteOffset: 13, as: UInt8.self)
            raw.storeBytes(of: UInt32(truncatingIfNeeded: high.1).bigEndian, toByteOffset: 14, as: UInt32.self)
            raw.storeBytes(of: 45, toByteOffset: 18, as: UInt8.self)
            raw.storeBytes(of: UInt32(truncatingIfNeeded: low.0 >> 32).bigEndian, toByteOffset: 19, as: UInt32.self)
            raw.storeBytes(of: 45, toByteOffset: 23, as: UInt8.self)
            raw.storeBytes(of: UInt32(truncatingIfNeeded: low.0).bigEndian, toByteOffset: 24, as: UInt32.self)
            raw.storeBytes(of: low.1.bigEndian, toByteOffset: 28, as: UInt64.self)
        }
        return withUnsafeBytes(of: &text) { raw in
            body(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: 36))
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
