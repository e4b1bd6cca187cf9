/// Gives each distinct byte string (a type identifier, a source or device token) a small
/// integer, so per-sample bookkeeping stores integers instead of copies of the text.
/// A short most-recently-used list answers the common case (the same few devices again
/// and again) without hashing or allocating.
struct Interner {
    private var ids: [[UInt8]: UInt32] = [:]
    private(set) var values: [[UInt8]] = [[]]
    private var recent: [UInt32] = []

    /// The id of `bytes` (0 is reserved for "absent"), adding it if new.
    mutating func id(of bytes: UnsafeRawBufferPointer) -> UInt32 {
        for (k, id) in recent.enumerated() where values[Int(id)].elementsEqual(bytes) {
            if k > 0 { recent.swapAt(k, k - 1) }
            return id
        }
        let key = Array(bytes)
        let id: UInt32
        if let known = ids[key] {
            id = known
        } else {
            id = UInt32(values.count)
            values.append(key)
            ids[key] = id
        }
        if recent.count < 8 { recent.append(id) } else { recent[recent.count - 1] = id }
        return id
    }

    /// The bytes of `id`.
    subscript(id: UInt32) -> [UInt8] { values[Int(id)] }
}
