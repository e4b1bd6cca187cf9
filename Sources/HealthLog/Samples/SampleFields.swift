/// The fields every sample has: UUID, start, end, source, source version, device and
/// metadata. A value type: copies are independent.
public struct SampleFields: Hashable, Sendable {
    /// The sample's UUID, used once ever in a store.
    public var uuid: SampleUUID
    /// When the sample starts, with the UTC offset it was recorded with.
    public var start: Timestamp
    /// When it ends (equal to ``start`` for an instantaneous sample).
    public var end: Timestamp
    /// The source, source version, device and metadata, which the samples a query decodes
    /// from lines that repeat them share.
    var shared: Shared

    /// The app or device that recorded it.
    public var source: String? {
        get { shared.source }
        set { shared = Shared(source: newValue, sourceVersion: shared.sourceVersion, device: shared.device, metadata: shared.metadata) }
    }
    /// The source's version.
    public var sourceVersion: String? {
        get { shared.sourceVersion }
        set { shared = Shared(source: shared.source, sourceVersion: newValue, device: shared.device, metadata: shared.metadata) }
    }
    /// The device.
    public var device: String? {
        get { shared.device }
        set { shared = Shared(source: shared.source, sourceVersion: shared.sourceVersion, device: newValue, metadata: shared.metadata) }
    }
    /// Metadata: strings, numbers or booleans by key.
    public var metadata: [String: MetadataValue] {
        get { shared.metadata }
        set { shared = Shared(source: shared.source, sourceVersion: shared.sourceVersion, device: shared.device, metadata: newValue) }
    }

    /// Fields for a new sample; `end` defaults to `start` and `uuid` to a random one.
    public init(
        uuid: SampleUUID = .random(), start: Timestamp, end: Timestamp? = nil, source: String? = nil,
        sourceVersion: String? = nil, device: String? = nil, metadata: [String: MetadataValue] = [:]
    ) {
        let isBare = source == nil && sourceVersion == nil && device == nil && metadata.isEmpty
        self.init(
            uuid: uuid, start: start, end: end ?? start,
            shared: isBare ? Shared.bare : Shared(source: source, sourceVersion: sourceVersion, device: device, metadata: metadata))
    }

    /// Fields whose source, source version, device and metadata are `shared`'s.
    init(uuid: SampleUUID, start: Timestamp, end: Timestamp, shared: Shared) {
        self.uuid = uuid
        self.start = start
        self.end = end
        self.shared = shared
    }
}
