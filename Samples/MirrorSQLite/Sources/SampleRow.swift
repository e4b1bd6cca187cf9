import HealthLog

/// The columns of one sample's row in the mirror's `samples` table.
struct SampleRow {
    /// The values for `uuid, type, start, end, value, unit, source, device, event`, in
    /// that order; `metadata` is taken from `event` by SQLite's `json_extract`.
    let values: [SQLiteValue]

    /// The row for `sample`: its kind's value and unit in the `value` and `unit` columns,
    /// and the whole sample as its event line in `event`.
    init(_ sample: any Sample) {
        let (value, unit) = SampleRow.valueAndUnit(of: sample)
        values = [
            .text(sample.uuid.description), .text(sample.sampleType.identifier),
            .text(sample.start.description), .text(sample.end.description),
            value, unit.map { .text($0) } ?? .null,
            sample.source.map { .text($0) } ?? .null, sample.device.map { .text($0) } ?? .null,
            .text(sample.description),
        ]
    }

    /// A quantity's number and unit; a category's integer or constant name; a workout's
    /// duration in seconds; an other record's value and unit; nothing for a correlation,
    /// whose members are rows of their own.
    private static func valueAndUnit(of sample: any Sample) -> (SQLiteValue, String?) {
        switch sample {
        case let quantity as QuantitySample:
            return (.real(quantity.quantity.value), quantity.quantity.unit)
        case let category as CategorySample:
            switch category.value {
            case .integer(let number): return (.integer(Int64(number)), nil)
            case .name(let name): return (.text(name), nil)
            }
        case let workout as WorkoutSample:
            return (workout.duration.map { .real($0) } ?? .null, workout.duration == nil ? nil : "s")
        case let other as OtherSample:
            switch other.value {
            case .string(let text): return (.text(text), other.unit)
            case .number(let number): return (.real(number), other.unit)
            case .bool(let flag): return (.integer(flag ? 1 : 0), other.unit)
            case nil: return (.null, other.unit)
            }
        default:
            return (.null, nil)
        }
    }
}
