/// The record of a deleted sample, as an anchored query returns it: HealthKit's
/// `HKDeletedObject`, plus the fields of the deleted sample copied at delete time, so that
/// type filters and predicates apply to it (<doc:SyncingWithAnchors#What-a-query-returns>).
public struct DeletedObject: Hashable, Sendable {
    /// The deleted sample's UUID.
    public var uuid: SampleUUID
    /// The deleted sample's type.
    public var sampleType: SampleType
    /// The deleted sample's start.
    public var start: Timestamp
    /// The deleted sample's end.
    public var end: Timestamp
    /// The deleted sample's source.
    public var source: String?
    /// The deleted sample's device.
    public var device: String?
    /// `HKMetadataKeySyncIdentifier` and `HKMetadataKeySyncVersion` when the sample had
    /// them; nothing else (as in HealthKit).
    public var metadata: [String: MetadataValue]
}
