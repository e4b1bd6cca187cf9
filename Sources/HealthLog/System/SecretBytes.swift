internal import CSodium

/// Bytes that must never reach the disk or outlive their use: a key. Held in libsodium's
/// guarded allocation (`sodium_malloc`: guard pages around it, locked into memory with
/// `mlock` where the system allows, so it is never swapped out), read-only once filled, and
/// wiped (`sodium_free` zeroes it) when the last reference goes. Since each allocation costs
/// a mapping, guard pages and a lock, small secrets take their room in the process's
/// ``SecretPool`` (one such allocation, wiped part by part), and a part of one
/// (``init(part:of:)``) shares its allocation.
final class SecretBytes: @unchecked Sendable {
    /// The number of bytes.
    let count: Int
    private let base: UnsafeMutableRawPointer
    /// The allocation this is a part of, kept while the part lives; `nil` when this owns its own.
    private let whole: SecretBytes?
    /// Whether its own room is in the ``SecretPool`` rather than an allocation of its own.
    private let pooled: Bool

    /// `count` bytes filled by `fill`, then made read-only.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when libsodium cannot start or allocate.
    init(count: Int, fill: (UnsafeMutableRawBufferPointer) throws -> Void) throws {
        try Sodium.ready()
        if count > 0, let base = SecretPool.shared.reserve(count) {
            self.count = count
            self.base = base
            whole = nil
            pooled = true
            // As below: when `fill` throws, `deinit` wipes the room.
            try SecretPool.shared.writing { try fill(UnsafeMutableRawBufferPointer(start: base, count: count)) }
            return
        }
        guard count > 0, let base = sodium_malloc(count) else {
            throw HealthLogError(.io, "libsodium: cannot allocate \(count) bytes of guarded memory for a key")
        }
        self.count = count
        self.base = base
        whole = nil
        pooled = false
        // Every stored property is set: when `fill` throws, `deinit` runs and frees `base`
        // (freeing it here too would free it twice).
        try fill(UnsafeMutableRawBufferPointer(start: base, count: count))
        sodium_mprotect_readonly(base)
    }

    /// The bytes `range` of `whole`, in its allocation: wiped and freed with it once neither
    /// is referenced.
    init(part range: Range<Int>, of whole: SecretBytes) {
        precondition(range.lowerBound >= 0 && range.upperBound <= whole.count && !range.isEmpty, "a part of the bytes")
        count = range.count
        base = whole.base + range.lowerBound
        self.whole = whole.whole ?? whole
        pooled = false
    }

    /// `count` random bytes (`randombytes_buf`): a new key.
    static func random(count: Int) throws -> SecretBytes {
        try SecretBytes(count: count) { randombytes_buf($0.baseAddress!, $0.count) }
    }

    /// A copy of `bytes`; the caller wipes its own copy.
    convenience init(copying bytes: UnsafeRawBufferPointer) throws {
        try self.init(count: bytes.count) { $0.copyMemory(from: bytes) }
    }

    deinit {
        guard whole == nil else { return }
        if pooled {
            SecretPool.shared.writing { sodium_memzero(base, count) }
        } else {
            sodium_free(base)
        }
    }

    /// Calls `body` with the bytes, valid only during the call.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Whether `other` holds the same bytes (compared in constant time).
    func isEqual(to other: SecretBytes) -> Bool {
        count == other.count && sodium_memcmp(base, other.base, count) == 0
    }
}
