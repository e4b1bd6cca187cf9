/// Writes samples and deletes as event lines for ``HealthStore/save(_:)`` and
/// ``HealthStore/delete(_:)``, which append them through the same parser as any input.
enum SampleEncoder {
    /// The line that adds `sample`.
    static func addLine(_ sample: any Sample) -> String {
        let f = sample.fields
        var out = #"{"op":"add","uuid":"\#(f.uuid)","type":"\#(sample.sampleType.identifier)","start":"\#(f.start)","end":"\#(f.end)""#
        out += kindSpecificJSON(sample)
        if let source = f.source { out += #","source":\#(JSONText.string(source))"# }
        if let version = f.sourceVersion { out += #","sourceVersion":\#(JSONText.string(version))"# }
        if let device = f.device { out += #","device":\#(JSONText.string(device))"# }
        if !f.metadata.isEmpty {
            let members = f.metadata.sorted { $0.key < $1.key }.map { "\(JSONText.string($0.key)):\($0.value.json)" }
            out += #","metadata":{\#(members.joined(separator: ","))}"#
        }
        return out + "}"
    }

    /// The line that deletes the sample with `uuid`.
    static func deleteLine(_ uuid: SampleUUID) -> String {
        #"{"op":"delete","uuid":"\#(uuid)"}"#
    }

    private static func kindSpecificJSON(_ sample: any Sample) -> String {
        switch sample {
        case let s as QuantitySample: s.kindSpecificJSON
        case let s as CategorySample: s.kindSpecificJSON
        case let s as WorkoutSample: s.kindSpecificJSON
        case let s as CorrelationSample: s.kindSpecificJSON
        case let s as OtherSample: s.kindSpecificJSON
        case let s as WorkoutRouteSample: s.kindSpecificJSON
        case let s as ElectrocardiogramSample: s.kindSpecificJSON
        default: ""
        }
    }
}

extension Sample {
    /// The event line that adds the sample, without a newline.
    public var description: String { SampleEncoder.addLine(self) }
}
