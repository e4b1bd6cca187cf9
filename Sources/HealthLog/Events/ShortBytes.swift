/// Comparison of the short byte runs a stored line's reader compares by the dozen per line
/// (field keys, remembered tokens, dates): inline, eight bytes at a time, where a call to
/// `memcmp(3)` would cost more than the comparison.
enum ShortBytes {
    /// Whether the `count` bytes at `a` and at `b` are the same.
    @inline(__always)
    static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
        var k = 0
        while k + 8 <= count {
            guard a.loadUnaligned(fromByteOffset: k, as: UInt64.self) == b.loadUnaligned(fromByteOffset: k, as: UInt64.self) else { return false }
            k += 8
        }
        if k + 4 <= count {
            guard a.loadUnaligned(fromByteOffset: k, as: UInt32.self) == b.loadUnaligned(fromByteOffset: k, as: UInt32.self) else { return false }
            k += 4
        }
        while k < count {
            guard a.load(fromByteOffset: k, as: UInt8.self) == b.load(fromByteOffset: k, as: UInt8.self) else { return false }
            k += 1
        }
        return true
    }
}
