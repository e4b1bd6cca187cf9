/// A category value over a time span, e.g. a sleep stage: HealthKit's `HKCategorySample`.
public struct CategorySample: Sample, Hashable {
    /// The category type.
    public let sampleType: SampleType
    /// The value: an integer or a constant's name, as recorded.
    public var value: CategoryValue
    /// UUID, dates, source, device and metadata.
    public var fields: SampleFields

    /// A category sample of `type` (a `HKCategoryTypeIdentifier…`).
    public init(type: SampleType, value: CategoryValue, fields: SampleFields) {
        sampleType = type
        self.value = value
        self.fields = fields
    }

    /// `,"value":…`.
    var kindSpecificJSON: String {
        switch value {
        case .integer(let number): #","value":\#(number)"#
        case .name(let name): #","value":\#(JSONText.string(name))"#
        }
    }
}
