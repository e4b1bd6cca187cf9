/// What every sample carries whatever its kind: HealthKit's `HKObject` and `HKSample`
/// properties.
public struct SampleFields: Hashable, Sendable {
    /// The sample's UUID, used once ever in a store.
    public var uuid: SampleUUID
    /// When the sample starts, with the UTC offset it was recorded with.
    public var start: Timestamp
    /// When it ends (equal to ``start`` for an instantaneous sample).
    public var end: Timestamp
    /// The app or device that recorded it.
    public var source: String?
    /// The source's version.
    public var sourceVersion: String?
    /// The device.
    public var device: String?
    /// Metadata: strings, numbers or booleans by key.
    public var metadata: [String: MetadataValue]

    /// Fields for a new sample; `end` defaults to `start` and `uuid` to a random one.
    public init(
        uuid: SampleUUID = .random(), start: Timestamp, end: Timestamp? = nil, source: String? = nil,
        sourceVersion: String? = nil, device: String? = nil, metadata: [String: MetadataValue] = [:]
    ) {
        self.uuid = uuid
        self.start = start
        self.end = end ?? start
        self.source = source
        self.sourceVersion = sourceVersion
        self.device = device
        self.metadata = metadata
    }
}
