/// A recorded health sample: HealthKit's `HKSample`. The concrete kinds are
/// ``QuantitySample``, ``CategorySample``, ``WorkoutSample``, ``CorrelationSample`` and
/// ``OtherSample``; query results hold them as `any Sample`, so pick them apart with
/// `as?` as you would `HKSample` subclasses:
///
/// ```swift
/// for case let beat as QuantitySample in result.addedSamples {
///     print(beat.start, beat.quantity)
/// }
/// ```
public protocol Sample: Sendable, CustomStringConvertible {
    /// The sample's type.
    var sampleType: SampleType { get }
    /// UUID, dates, source, device and metadata.
    var fields: SampleFields { get }
}

extension Sample {
    /// The sample's UUID.
    public var uuid: SampleUUID { fields.uuid }
    /// When the sample starts.
    public var start: Timestamp { fields.start }
    /// When the sample ends.
    public var end: Timestamp { fields.end }
    /// The app or device that recorded it.
    public var source: String? { fields.source }
    /// The device.
    public var device: String? { fields.device }
    /// The sample's metadata.
    public var metadata: [String: MetadataValue] { fields.metadata }
}
