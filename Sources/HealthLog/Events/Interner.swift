#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Gives each distinct byte string (a type identifier, a source or device token) a small
/// integer, so per-sample bookkeeping stores integers instead of copies of the text.
/// A short most-recently-used list answers the common case (the same few devices again
/// and again) without hashing or allocating.
struct Interner {
    private var ids: [[UInt8]: UInt32] = [:]
    private(set) var values: [[UInt8]] = [[]]
    /// A direct-mapped cache of recent ids, indexed by a cheap hash of the bytes.
    private var cache = [UInt32](repeating: 0, count: 256)
    /// Every value's bytes one after the other, and where each id's lie: a cache hit is
    /// compared here, without retaining the value's own array.
    private var flat: [UInt8] = []
    private var spans: [Range<Int>] = [0..<0]

    /// The id of `bytes` (0 is reserved for "absent"), adding it if new.
    mutating func id(of bytes: UnsafeRawBufferPointer) -> UInt32 {
        let n = bytes.count
        let key = n == 0 ? 0 : (n &* 31 &+ Int(bytes[n - 1]) &* 7 &+ Int(bytes[n / 2]) &* 131 &+ Int(bytes[n - 2 < 0 ? 0 : n - 2])) & 255
        let cached = cache[key]
        if cached != 0 {
            let span = spans[Int(cached)]
            let same = span.count == n && (n == 0 || flat.withUnsafeBytes { memcmp($0.baseAddress! + span.lowerBound, bytes.baseAddress!, n) == 0 })
            if same { return cached }
        }
        let bytesArray = Array(bytes)
        let id: UInt32
        if let known = ids[bytesArray] {
            id = known
        } else {
            id = UInt32(values.count)
            values.append(bytesArray)
            spans.append(flat.count..<flat.count + n)
            flat.append(contentsOf: bytesArray)
            ids[bytesArray] = id
        }
        cache[key] = id
        return id
    }

    /// The bytes of `id`.
    subscript(id: UInt32) -> [UInt8] { values[Int(id)] }
}
