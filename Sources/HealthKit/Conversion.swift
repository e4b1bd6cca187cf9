#if !canImport(Darwin)
internal import HealthLog

/// Metadata between HealthKit's values and healthlog's.
enum MetadataConversion {
    /// HealthKit's values: strings stay strings; numbers and booleans become `NSNumber`s
    /// (so `as? Int`, `as? Double` and `as? Bool` read them).
    static func values(_ stored: [String: MetadataValue]) -> [String: Any] {
        stored.mapValues { value -> Any in
            switch value {
            case .string(let text): text
            case .number(let number): NSNumber(value: number)
            case .bool(let flag): NSNumber(value: flag)
            }
        }
    }

    /// healthlog's values: strings, numbers and booleans as such; a date as its ISO 8601
    /// text; a quantity as `value unit`; anything else as its description.
    static func stored(_ values: [String: Any]?) -> [String: MetadataValue] {
        guard let values else { return [:] }
        return values.mapValues { value -> MetadataValue in
            // An NSNumber casts to Bool on Linux whatever it holds: its own type says which it is.
            if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
                return String(cString: number.objCType) == "c" ? .bool(number.boolValue) : .number(number.doubleValue)
            }
            return switch value {
            case let text as String: .string(text)
            case let flag as Bool: .bool(flag)
            case let number as Int: .number(Double(number))
            case let number as Double: .number(number)
            case let number as NSNumber: .number(number.doubleValue)
            case let date as Date: .string(ISO8601DateFormatter().string(from: date))
            case let quantity as HKQuantity: .string("\(quantity.value) \(quantity.unit.unitString)")
            default: .string(String(describing: value))
            }
        }
    }
}

/// Samples read from a store, as HealthKit's classes.
enum SampleConversion {
    /// `samples` as HealthKit's classes, in order; a correlation's members are read from
    /// `store` (those still live).
    static func samples(_ samples: [any HealthLog.Sample], store: HealthStore) throws -> [HKSample] {
        var members: [SampleUUID: HKSample] = [:]
        let wanted = Set(samples.compactMap { $0 as? CorrelationSample }.flatMap(\.objects))
        if !wanted.isEmpty {
            let result = try store.result(ReplayRequest(predicate: .uuids(wanted)))
            for sample in try self.samples(result.addedSamples.filter { !($0 is CorrelationSample) }, store: store) {
                members[sample.fields.uuid] = sample
            }
        }
        return samples.map { sample($0, members: members) }
    }

    /// One sample, with the correlation members known.
    static func sample(_ sample: any HealthLog.Sample, members: [SampleUUID: HKSample] = [:]) -> HKSample {
        switch sample {
        case let quantity as QuantitySample: HKQuantitySample(quantity)
        case let category as CategorySample: HKCategorySample(category)
        case let workout as WorkoutSample: HKWorkout(workout)
        case let correlation as CorrelationSample: HKCorrelation(correlation, members: members)
        default: HKSample(type: HKObjectType.sampleType(identifier: sample.sampleType.identifier), fields: sample.fields)
        }
    }
}
#endif
