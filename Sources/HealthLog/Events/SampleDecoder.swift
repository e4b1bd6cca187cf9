/// Turns decoded stored lines into the library's values: a sample of the right kind, or a
/// deleted object.
enum SampleDecoder {
    /// The sample an add line records.
    static func sample(_ r: EventRecord) -> any Sample {
        let fields = SampleFields(
            uuid: r.uuid, start: r.start, end: r.end, source: r.source, sourceVersion: r.sourceVersion, device: r.device,
            metadata: r.metadataDictionary)
        switch r.type.kind {
        case .quantity:
            return QuantitySample(type: r.type, quantity: Quantity(r.number ?? 0, r.unit ?? ""), fields: fields)
        case .category:
            return CategorySample(type: r.type, value: r.categoryValue ?? .integer(0), fields: fields)
        case .workout:
            return WorkoutSample(activity: r.activity ?? "", duration: r.duration, totals: r.totals, fields: fields)
        case .correlation:
            return CorrelationSample(type: r.type, objects: r.objects, fields: fields)
        case .workoutRoute:
            return WorkoutRouteSample(workout: r.workout, locations: r.locations, fields: fields)
        case .dataType where r.type == ElectrocardiogramSample.type:
            return ElectrocardiogramSample(classification: r.text, voltageUnit: r.unit, voltages: r.voltages, fields: fields)
        case .activitySummary, .characteristic, .dataType:
            let value: MetadataValue? = r.text.map { .string($0) } ?? r.number.map { .number($0) }
            return OtherSample(type: r.type, value: value, unit: r.unit, fields: fields)
        }
    }

    /// The deleted object a delete line records.
    static func deletedObject(_ r: EventRecord) -> DeletedObject {
        DeletedObject(
            uuid: r.uuid, sampleType: r.type, start: r.start, end: r.end, source: r.source, device: r.device,
            metadata: r.metadataDictionary)
    }
}
