/// A field's key as it stands in a line written without blanks, `"name":`, as two
/// little-endian words and the masks of the bytes they hold, so that the parser tells
/// whether the next bytes are exactly that key with two compares (``TokenMemo/expectedField(_:in:)``).
/// Every field's name is at most 13 bytes, so `"name":` fits in 16.
struct FieldKey {
    /// The first eight bytes of `"name":`, zero past its end.
    let low: UInt64
    /// Bytes 8–15 of `"name":`, zero past its end.
    let high: UInt64
    /// The bytes of ``low`` that belong to the key.
    let lowMask: UInt64
    /// The bytes of ``high`` that belong to the key.
    let highMask: UInt64
    /// The key's length in bytes, quotes and colon included.
    let length: Int

    /// The key of `field`.
    init(_ field: Field) {
        let bytes = [0x22] + Array(field.name.utf8) + [0x22, 0x3A]
        precondition(bytes.count <= 16, "FieldKey: a field name longer than 13 bytes")
        func word(_ from: Int) -> (value: UInt64, mask: UInt64) {
            var value: UInt64 = 0
            var mask: UInt64 = 0
            for k in 0..<8 where from + k < bytes.count {
                value |= UInt64(bytes[from + k]) << (8 * k)
                mask |= 0xFF << (8 * k)
            }
            return (value, mask)
        }
        (low, lowMask) = word(0)
        (high, highMask) = word(8)
        length = bytes.count
    }

    /// Every field's key, by the field's raw value.
    static let all: [FieldKey] = Field.allCases.map(FieldKey.init)

    /// Whether the 16 bytes of `bytes` from `at` (which must lie within it) start with this key.
    @inline(__always)
    func isAt(_ at: Int, of bytes: UnsafeRawBufferPointer) -> Bool {
        let first = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        let second = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self))
        return first & lowMask == low && second & highMask == high
    }
}
