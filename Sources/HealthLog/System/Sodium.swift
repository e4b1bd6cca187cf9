internal import CSodium

/// libsodium's start-up and its random numbers: the one source of keys, nonces and salts.
package enum Sodium {
    /// Initialises libsodium (safe to call from any thread, any number of times).
    ///
    /// - Throws: ``HealthLogError/Code/io`` when it cannot start (no entropy source).
    static func ready() throws {
        guard sodium_init() >= 0 else { throw HealthLogError(.io, "libsodium: cannot initialise") }
    }

    /// `count` random bytes (`randombytes_buf`).
    static func random(count: Int) throws -> [UInt8] {
        try ready()
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { if let base = $0.baseAddress { randombytes_buf(base, count) } }
        return bytes
    }

    /// Overwrites `bytes` with zeros in a way the compiler does not remove (`sodium_memzero`).
    package static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { sodium_memzero($0.baseAddress, $0.count) }
    }
}
