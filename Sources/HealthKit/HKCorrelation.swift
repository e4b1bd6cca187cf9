#if !canImport(Darwin)
internal import HealthLog

/// Samples recorded together (a blood pressure reading's systolic and diastolic values, a
/// meal's nutrients), as HealthKit's `HKCorrelation`.
public class HKCorrelation: HKSample, @unchecked Sendable {
    /// The samples correlated: those of the store's members that are live.
    public let objects: Set<HKSample>
    /// The correlation's type.
    public var correlationType: HKCorrelationType { sampleType as! HKCorrelationType }

    /// A new correlation of `objects`.
    public init(type: HKCorrelationType, start: Date, end: Date, objects: Set<HKSample>, device: HKDevice?, metadata: [String: Any]?) {
        self.objects = objects
        super.init(type: type, start: start, end: end, device: device, metadata: metadata)
    }

    /// A new correlation of `objects`.
    public convenience init(type: HKCorrelationType, start: Date, end: Date, objects: Set<HKSample>, metadata: [String: Any]? = nil) {
        self.init(type: type, start: start, end: end, objects: objects, device: nil, metadata: metadata)
    }

    init(_ sample: CorrelationSample, members: [SampleUUID: HKSample]) {
        objects = Set(sample.objects.compactMap { members[$0] })
        super.init(type: HKCorrelationType(HKCorrelationTypeIdentifier(rawValue: sample.sampleType.identifier)), fields: sample.fields)
    }

    /// The correlated samples of `objectType`.
    public func objects(for objectType: HKObjectType) -> Set<HKSample> {
        objects.filter { $0.sampleType == objectType }
    }

    override var stored: (any HealthLog.Sample)? {
        CorrelationSample(type: sampleType.sampleType, objects: objects.map(\.fields.uuid), fields: fields)
    }
}
#endif
