/// XXH32 (Yann Collet's xxHash, 32-bit), the content checksum and header checksum of the
/// LZ4 frame format, computed here rather than by liblz4's frame code: the distribution's
/// liblz4 is built for baseline x86-64, where the compiler turns its four lanes into SSE2
/// vectors without a 32-bit multiply and emulates each multiply with shifts and adds,
/// about half the speed of these four scalar lanes. The same function, bit for bit.
enum XXH32 {
    private static let prime1: UInt32 = 0x9E37_79B1
    private static let prime2: UInt32 = 0x85EB_CA77
    private static let prime3: UInt32 = 0xC2B2_AE3D
    private static let prime4: UInt32 = 0x27D4_EB2F
    private static let prime5: UInt32 = 0x1656_67B1

    /// The XXH32 of `bytes` with `seed` (the LZ4 frame format uses seed 0).
    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
        let count = bytes.count
        var at = 0
        var h: UInt32
        if count >= 16, let base = bytes.baseAddress {
            var v1 = seed &+ prime1 &+ prime2
            var v2 = seed &+ prime2
            var v3 = seed
            var v4 = seed &- prime1
            let limit = count - 16
            while at <= limit {
                v1 = round(v1, base.loadUnaligned(fromByteOffset: at, as: UInt32.self))
                v2 = round(v2, base.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self))
                v3 = round(v3, base.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self))
                v4 = round(v4, base.loadUnaligned(fromByteOffset: at + 12, as: UInt32.self))
                at += 16
            }
            h = rotl(v1, 1) &+ rotl(v2, 7) &+ rotl(v3, 12) &+ rotl(v4, 18)
        } else {
            h = seed &+ prime5
        }
        h = h &+ UInt32(truncatingIfNeeded: count)
        while at + 4 <= count {
            h = h &+ UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self)) &* prime3
            h = rotl(h, 17) &* prime4
            at += 4
        }
        while at < count {
            h = h &+ UInt32(bytes[at]) &* prime5
            h = rotl(h, 11) &* prime1
            at += 1
        }
        h ^= h >> 15
        h = h &* prime2
        h ^= h >> 13
        h = h &* prime3
        h ^= h >> 16
        return h
    }

    /// One lane's step over the next four bytes (little-endian).
    @inline(__always)
    private static func round(_ lane: UInt32, _ word: UInt32) -> UInt32 {
        rotl(lane &+ UInt32(littleEndian: word) &* prime2, 13) &* prime1
    }

    /// `x` rotated left by `r` bits.
    @inline(__always)
    private static func rotl(_ x: UInt32, _ r: UInt32) -> UInt32 {
        (x << r) | (x >> (32 - r))
    }
}
