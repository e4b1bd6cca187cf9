/// What the writer remembers of every sample ever added: enough to refuse a reused UUID,
/// to check a delete targets a live sample, and to copy the deleted sample's type, dates,
/// source and device into the delete event.
struct SampleStub {
    /// The add event's sequence number.
    var seq: UInt64
    /// Interned type identifier.
    var type: UInt32
    /// Interned source token (quotes included), 0 when absent.
    var source: UInt32
    /// Interned device token (quotes included), 0 when absent.
    var device: UInt32
    /// The sample's start.
    var start: Timestamp
    /// The sample's end.
    var end: Timestamp
    /// Whether the sample is still live (not deleted).
    var isLive: Bool
}

/// A live sample's sync identifier and version (HealthKit's `HKMetadataKeySyncIdentifier`
/// and `HKMetadataKeySyncVersion`), copied into its delete event.
struct SyncStub: Equatable {
    /// The identifier's JSON string token.
    var identifier: [UInt8]
    /// The version's JSON token.
    var versionToken: [UInt8]
    /// The version.
    var version: Int64
}

extension SyncStub {
    /// The sync stub of `event`, parsed from `line`; `nil` when it carries no sync identifier.
    init?(_ event: ParsedEvent, line: UnsafeRawBufferPointer) {
        guard let id = event.syncIdentifier, let token = event.syncVersionToken, let version = event.syncVersion else { return nil }
        self.init(identifier: Array(line[id]), versionToken: Array(line[token]), version: version)
    }
}
