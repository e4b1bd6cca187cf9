import HealthLog

/// The kind-specific options of `add` (`--value`, `--unit`, `--activity`, `--duration`),
/// turned into the sample value of a type's kind.
struct AddedSample {
    let value: String?
    let unit: String?
    let activity: String?
    let duration: String?
    let fields: SampleFields

    /// The sample of `type`.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` for an option the kind requires but is
    ///   missing, one it does not take, or a correlation (whose members `add` cannot give).
    func sample(of type: SampleType) throws -> any Sample {
        switch type.kind {
        case .quantity:
            try refuse(["--activity": activity, "--duration": duration], type)
            let number = try required("--value", value, type)
            guard case .number(let amount) = MetadataValue(commandLine: number) else {
                throw HealthLogError(.badUsage, "--value '\(number)' is not a number; a quantity's value must be one")
            }
            return QuantitySample(type: type, quantity: Quantity(amount, try required("--unit", unit, type)), fields: fields)
        case .category:
            try refuse(["--unit": unit, "--activity": activity, "--duration": duration], type)
            return CategorySample(type: type, value: CategoryValue(text: try required("--value", value, type)), fields: fields)
        case .workout:
            try refuse(["--value": value, "--unit": unit], type)
            return WorkoutSample(activity: try required("--activity", activity, type), duration: try seconds(), fields: fields)
        case .correlation:
            throw HealthLogError(.badUsage, "add cannot build a correlation (\(type)): append it with its members as NDJSON")
        case .workoutRoute:
            throw HealthLogError(.badUsage, "add cannot build a workout route (\(type)): append it with its locations as NDJSON")
        case .dataType, .activitySummary, .characteristic:
            try refuse(["--activity": activity, "--duration": duration], type)
            return OtherSample(type: type, value: value.map { MetadataValue(commandLine: $0) }, unit: unit, fields: fields)
        }
    }

    private func required(_ option: String, _ text: String?, _ type: SampleType) throws -> String {
        guard let text else { throw HealthLogError(.badUsage, "\(option) is required for a \(type.kind.rawValue) type (\(type))") }
        return text
    }

    private func refuse(_ options: [String: String?], _ type: SampleType) throws {
        guard let given = options.filter({ $0.value != nil }).keys.sorted().first else { return }
        throw HealthLogError(.badUsage, "\(given) does not apply to a \(type.kind.rawValue) type (\(type))")
    }

    private func seconds() throws -> Double? {
        guard let duration else { return nil }
        guard case .number(let seconds) = MetadataValue(commandLine: duration), seconds >= 0 else {
            throw HealthLogError(.badUsage, "--duration '\(duration)' is not a number of seconds")
        }
        return seconds
    }
}
