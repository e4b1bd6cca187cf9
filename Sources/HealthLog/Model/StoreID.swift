/// A store's identity: 16 random bytes chosen when the store is created. Anchors and
/// batch headers carry it (or its first 8 bytes, the ``tag``) so data or anchors from
/// another store are recognised.
struct StoreID: Hashable, Sendable {
    /// The 16 bytes.
    var bytes: [UInt8]

    /// A new random identity.
    static func random() -> StoreID {
        let uuid = SampleUUID.random()
        var bytes: [UInt8] = []
        withUnsafeBytes(of: uuid.high.bigEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: uuid.low.bigEndian) { bytes.append(contentsOf: $0) }
        return StoreID(bytes: bytes)
    }

    /// The first 8 bytes as a little-endian integer, stored in every batch header.
    var tag: UInt64 {
        bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 0, as: UInt64.self)) }
    }

    /// The identity as an upper-case UUID string (for the `meta` file).
    var text: String {
        let high = bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let low = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return SampleUUID(high: high, low: low).description
    }

    /// Parses the UUID string form.
    init?(text: String) {
        guard let uuid = SampleUUID(text) else { return nil }
        var bytes: [UInt8] = []
        withUnsafeBytes(of: uuid.high.bigEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: uuid.low.bigEndian) { bytes.append(contentsOf: $0) }
        self.bytes = bytes
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }
}
