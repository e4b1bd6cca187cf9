/// Adds samples up into ``Statistics`` per (interval, unit).
struct StatisticsAccumulator {
    private struct Key: Hashable {
        var start: Int64
        var unit: String
    }

    private struct Figures {
        var key: Key
        var interval: LocalInterval
        var count = 0
        var values = 0
        var sum = CompensatedSum()
        var minimum = Double.infinity
        var maximum = -Double.infinity
        var micros: Int64 = 0
    }

    let query: StatisticsQuery
    private var figures: [Figures] = []
    private var slots: [Key: Int] = [:]
    /// The slot of the last sample's interval and unit, which the next sample most often
    /// shares (samples come in time order), saving a hash of the unit; with
    /// ``StatisticsTimeZone/recorded`` only for a sample of the same offset and zone.
    private var last: (start: Int64, end: Int64, unit: String, offset: Int16, zone: String?, slot: Int)?
    /// The zones `HKTimeZone` metadata named so far (`nil`: not in the tz database).
    private var zones: [String: TimeZoneRules?] = [:]

    /// No samples yet, for `query`.
    init(_ query: StatisticsQuery) {
        self.query = query
    }

    /// Whether ``add(start:end:value:unit:offsetMinutes:zone:)`` needs each sample's
    /// `HKTimeZone` metadata.
    var needsZones: Bool { query.timeZone == .recorded }

    /// Counts one sample; `offsetMinutes` is the offset its start was recorded with and
    /// `zone` its `HKTimeZone` metadata (both used only by ``StatisticsTimeZone/recorded``).
    mutating func add(start: Int64, end: Int64, value: Double?, unit: String, offsetMinutes: Int16 = 0, zone: String? = nil) {
        let slot: Int
        if let last, start >= last.start, start < last.end, unit == last.unit, !needsZones || (offsetMinutes == last.offset && zone == last.zone) {
            slot = last.slot
        } else {
            let interval = self.interval(of: start, offsetMinutes: offsetMinutes, zone: zone)
            let key = Key(start: interval.key, unit: unit)
            if let found = slots[key] {
                slot = found
            } else {
                slot = figures.count
                slots[key] = slot
                figures.append(Figures(key: key, interval: interval))
            }
            last = (interval.start, interval.end, unit, offsetMinutes, zone, slot)
        }
        figures[slot].count += 1
        figures[slot].micros += end - start
        if let value {
            figures[slot].values += 1
            figures[slot].sum.add(value)
            figures[slot].minimum = min(figures[slot].minimum, value)
            figures[slot].maximum = max(figures[slot].maximum, value)
        }
    }

    /// The interval of a sample starting at `start` on the query's clock.
    private mutating func interval(of start: Int64, offsetMinutes: Int16, zone: String?) -> LocalInterval {
        switch query.timeZone {
        case .fixed(let minutes): return query.interval.interval(of: start, offsetMinutes: minutes)
        case .named(let rules): return query.interval.interval(of: start, in: rules)
        case .recorded:
            var local = query.interval.interval(of: start, offsetMinutes: Int(offsetMinutes))
            if let zone {
                if zones[zone] == nil { zones[zone] = .some(try? TimeZoneRules(named: zone)) }
                if let rules = zones[zone] ?? nil { local = query.interval.interval(of: start, in: rules) }
            }
            local.key = local.localStart
            return local
        }
    }

    /// The statistics, by interval, then unit.
    func results() -> [Statistics] {
        let o = query.options
        let hourWithOffset: Bool = {
            if case .named = query.timeZone { return query.interval == .hour }
            return false
        }()
        return figures.sorted { ($0.key.start, $0.key.unit) < ($1.key.start, $1.key.unit) }.map { f in
            let i = f.interval
            let hasValues = f.values > 0
            var label = query.interval.label(of: i.localStart, offsetMinutes: 0)
            if hourWithOffset { label += Timestamp(microseconds: 0, offsetMinutes: Int16(i.startOffset), isZulu: false).offsetText }
            return Statistics(
                start: Timestamp(microseconds: i.start, offsetMinutes: Int16(i.startOffset), isZulu: i.startOffset == 0, fractionDigits: 0),
                end: Timestamp(microseconds: i.end, offsetMinutes: Int16(i.endOffset), isZulu: i.endOffset == 0, fractionDigits: 0),
                label: label, unit: f.key.unit, count: f.count,
                sum: o.contains(.sum) && hasValues ? f.sum.value : nil,
                average: o.contains(.average) && hasValues ? f.sum.value / Double(f.values) : nil,
                minimum: o.contains(.minimum) && hasValues ? f.minimum : nil,
                maximum: o.contains(.maximum) && hasValues ? f.maximum : nil,
                duration: o.contains(.duration) ? Double(f.micros) / 1_000_000 : nil)
        }
    }
}
