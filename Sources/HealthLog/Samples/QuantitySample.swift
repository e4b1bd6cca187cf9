/// A number with a unit over a time span, e.g. a heart rate: HealthKit's
/// `HKQuantitySample`.
///
/// ```swift
/// let beat = QuantitySample(type: .quantity("HeartRate"), quantity: Quantity(72, "count/min"),
///                           fields: SampleFields(start: Timestamp(iso8601: "2024-03-01T08:00:00Z")!))
/// ```
public struct QuantitySample: Sample, Hashable {
    /// The quantity type.
    public let sampleType: SampleType
    /// The value in its own unit.
    public var quantity: Quantity
    /// UUID, dates, source, device and metadata.
    public var fields: SampleFields

    /// A quantity sample of `type` (a `HKQuantityTypeIdentifier…`).
    public init(type: SampleType, quantity: Quantity, fields: SampleFields) {
        sampleType = type
        self.quantity = quantity
        self.fields = fields
    }

    /// `,"value":…,"unit":…`.
    var kindSpecificJSON: String { #","value":\#(JSONText.number(quantity.value)),"unit":\#(JSONText.string(quantity.unit))"# }
}
