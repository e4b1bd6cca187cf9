#if !canImport(Darwin)
internal import HealthLog

/// A sample deleted from the store, as an anchored query reports it: HealthKit's
/// `HKDeletedObject`, with the sample's UUID and its sync identifier and version.
public final class HKDeletedObject: NSObject, @unchecked Sendable {
    /// The deleted sample's UUID.
    public let uuid: UUID
    /// `HKMetadataKeySyncIdentifier` and `HKMetadataKeySyncVersion`, when the sample had them.
    public let metadata: [String: Any]?

    init(_ deleted: DeletedObject) {
        uuid = deleted.uuid.foundation
        metadata = deleted.metadata.isEmpty ? nil : MetadataConversion.values(deleted.metadata)
    }

    /// Equal objects hash alike.
    public override var hash: Int { uuid.hashValue }
    /// Whether `object` is equal to this one.
    public override func isEqual(_ object: Any?) -> Bool { (object as? HKDeletedObject)?.uuid == uuid }
    /// A description, for logs.
    public override var description: String { "HKDeletedObject \(uuid)" }
}
#endif
