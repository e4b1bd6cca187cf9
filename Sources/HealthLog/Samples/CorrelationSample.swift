/// A group of samples recorded together, e.g. a blood pressure reading's systolic and
/// diastolic values: HealthKit's `HKCorrelation`. Its members are samples of their own,
/// saved in the same append; the correlation holds their UUIDs.
public struct CorrelationSample: Sample, Hashable {
    /// The correlation type.
    public let sampleType: SampleType
    /// The member samples' UUIDs.
    public var objects: [SampleUUID]
    /// UUID, dates, source, device and metadata.
    public var fields: SampleFields

    /// A correlation of `type` (a `HKCorrelationTypeIdentifier…`).
    public init(type: SampleType, objects: [SampleUUID], fields: SampleFields) {
        sampleType = type
        self.objects = objects
        self.fields = fields
    }

    /// `,"objects":[…]`.
    var kindSpecificJSON: String {
        #","objects":[\#(objects.map { "\"\($0)\"" }.joined(separator: ","))]"#
    }
}
