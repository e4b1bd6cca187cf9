/// A record of a kind HealthKit keeps beside its samples: an activity summary
/// (`HKActivitySummaryTypeIdentifier`), a characteristic (`HKCharacteristicTypeIdentifier…`)
/// or another `HKDataType…` record, with an optional value and unit.
public struct OtherSample: Sample, Hashable {
    /// The record's type.
    public let sampleType: SampleType
    /// The value, when it has one.
    public var value: MetadataValue?
    /// The unit, when it has one.
    public var unit: String?
    /// UUID, dates, source, device and metadata.
    public var fields: SampleFields

    /// A record of `type`.
    public init(type: SampleType, value: MetadataValue? = nil, unit: String? = nil, fields: SampleFields) {
        sampleType = type
        self.value = value
        self.unit = unit
        self.fields = fields
    }

    /// `,"value":…,"unit":…` for what is present.
    var kindSpecificJSON: String {
        var out = ""
        if let value { out += #","value":\#(value.json)"# }
        if let unit { out += #","unit":\#(JSONText.string(unit))"# }
        return out
    }
}
