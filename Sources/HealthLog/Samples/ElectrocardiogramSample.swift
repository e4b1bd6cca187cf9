/// An electrocardiogram: HealthKit's `HKElectrocardiogram`
/// (`HKDataTypeIdentifierElectrocardiogram`), a series sample of voltages at a fixed
/// sampling frequency. The classification is its `value` (`Sinus Rhythm`), the voltages'
/// unit its `unit` (`µV`); symptoms, lead, sampling frequency and average heart rate are
/// metadata under ``Key``.
public struct ElectrocardiogramSample: Sample, Hashable {
    /// The metadata keys of an electrocardiogram's other figures.
    public enum Key {
        /// The symptoms recorded with it, as text.
        public static let symptoms = "symptoms"
        /// The lead, e.g. `Lead I`.
        public static let lead = "lead"
        /// The sampling frequency in hertz, a number.
        public static let samplingFrequency = "samplingFrequency"
        /// The average heart rate in beats per minute, a number, where recorded.
        public static let averageHeartRate = "averageHeartRate"
    }

    /// `HKDataTypeIdentifierElectrocardiogram`.
    public static let type = SampleType("HKDataTypeIdentifierElectrocardiogram")!
    /// Always ``type``.
    public var sampleType: SampleType { Self.type }
    /// The classification, e.g. `Sinus Rhythm`, when recorded.
    public var classification: String?
    /// The voltages' unit, e.g. `µV`.
    public var voltageUnit: String?
    /// Every voltage measured, in order.
    public var voltages: [Double]
    /// UUID, dates, source, device and metadata.
    public var fields: SampleFields

    /// An electrocardiogram.
    public init(classification: String?, voltageUnit: String?, voltages: [Double], fields: SampleFields) {
        self.classification = classification
        self.voltageUnit = voltageUnit
        self.voltages = voltages
        self.fields = fields
    }

    /// The sampling frequency in hertz, from the metadata.
    public var samplingFrequency: Double? {
        if case .number(let hertz)? = fields.metadata[Key.samplingFrequency] { return hertz }
        return nil
    }

    /// `,"value":…,"unit":…,"voltages":[…]`.
    var kindSpecificJSON: String {
        var out = ""
        if let classification { out += #","value":\#(JSONText.string(classification))"# }
        if let voltageUnit { out += #","unit":\#(JSONText.string(voltageUnit))"# }
        return out + #","voltages":[\#(voltages.map(JSONText.number).joined(separator: ","))]"#
    }
}
