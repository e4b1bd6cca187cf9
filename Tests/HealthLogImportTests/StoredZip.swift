import HealthLogTestSupport

/// A minimal zip for the import tests: entries stored uncompressed, as
/// ``CraftedZip/stored(_:_:)`` makes them.
enum StoredZip {
    /// The zip holding `entries` (path, content) in order.
    static func make(_ entries: [(path: String, bytes: [UInt8])]) -> [UInt8] {
        CraftedZip.make(entries.map { CraftedZip.stored($0.path, $0.bytes) })
    }
}
