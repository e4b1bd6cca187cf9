/// Adds samples up into ``Statistics`` per (interval, unit).
struct StatisticsAccumulator {
    private struct Key: Hashable {
        var start: Int64
        var unit: String
    }

    private struct Figures {
        var key: Key
        var end: Int64
        var count = 0
        var values = 0
        var sum = 0.0
        var minimum = Double.infinity
        var maximum = -Double.infinity
        var micros: Int64 = 0
    }

    let query: StatisticsQuery
    private var figures: [Figures] = []
    private var slots: [Key: Int] = [:]
    /// The slot of the last sample's interval and unit, which the next sample most often
    /// shares (samples come in time order), saving a hash of the unit.
    private var last: (start: Int64, end: Int64, unit: String, slot: Int)?

    init(_ query: StatisticsQuery) {
        self.query = query
    }

    /// Counts one sample.
    mutating func add(start: Int64, end: Int64, value: Double?, unit: String) {
        let slot: Int
        if let last, start >= last.start, start < last.end, unit == last.unit {
            slot = last.slot
        } else {
            let bounds = query.interval.bounds(of: start, offsetMinutes: query.offsetMinutes)
            let key = Key(start: bounds.start, unit: unit)
            if let found = slots[key] {
                slot = found
            } else {
                slot = figures.count
                slots[key] = slot
                figures.append(Figures(key: key, end: bounds.end))
            }
            last = (bounds.start, bounds.end, unit, slot)
        }
        figures[slot].count += 1
        figures[slot].micros += end - start
        if let value {
            figures[slot].values += 1
            figures[slot].sum += value
            figures[slot].minimum = min(figures[slot].minimum, value)
            figures[slot].maximum = max(figures[slot].maximum, value)
        }
    }

    /// The statistics, by interval, then unit.
    func results() -> [Statistics] {
        let o = query.options
        return figures.sorted { ($0.key.start, $0.key.unit) < ($1.key.start, $1.key.unit) }.map { f in
            let key = f.key
            let hasValues = f.values > 0
            return Statistics(
                start: Timestamp(microseconds: key.start, offsetMinutes: Int16(query.offsetMinutes), isZulu: query.offsetMinutes == 0, fractionDigits: 0),
                end: Timestamp(microseconds: f.end, offsetMinutes: Int16(query.offsetMinutes), isZulu: query.offsetMinutes == 0, fractionDigits: 0),
                label: query.interval.label(of: key.start, offsetMinutes: query.offsetMinutes),
                unit: key.unit, count: f.count,
                sum: o.contains(.sum) && hasValues ? f.sum : nil,
                average: o.contains(.average) && hasValues ? f.sum / Double(f.values) : nil,
                minimum: o.contains(.minimum) && hasValues ? f.minimum : nil,
                maximum: o.contains(.maximum) && hasValues ? f.maximum : nil,
                duration: o.contains(.duration) ? Double(f.micros) / 1_000_000 : nil)
        }
    }
}
