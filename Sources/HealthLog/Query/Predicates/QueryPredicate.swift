/// Which samples and deleted objects a query returns, beyond their types: HealthKit's
/// `HKQuery.predicateFor…` family as values. Predicates combine with ``and(_:)``,
/// ``or(_:)`` and ``not(_:)``, nested as deep as needed.
///
/// A deleted object carries its sample's UUID, type, dates, source, device and sync
/// metadata, and predicates on those fields apply to it; a predicate on a
/// field it does not carry (a quantity's value, a category value, other metadata) lets the
/// deletion of a sample of a matching kind through, so a client never misses the deletion
/// of a sample it was sent. Such a field counts as unknown, also under ``not(_:)`` and
/// ``or(_:)``: a deletion goes through unless the fields it carries rule it out.
///
/// ```swift
/// let morning = QueryPredicate.samples(withStart: Timestamp(commandLine: "2024-03-01"),
///                                      end: Timestamp(commandLine: "2024-03-02"))
/// let high = QueryPredicate.and([morning, .quantity(.greaterThan, 100), .sources(["Apple Watch"])])
/// ```
public struct QueryPredicate: Hashable, Sendable {
    /// The conditions, all of which must hold.
    let conditions: [PredicateCondition]

    /// Matches everything.
    public static let all = QueryPredicate(conditions: [])

    /// Samples in the date range `[start, end)`, either bound open when `nil`. With no
    /// options a sample matches when it overlaps the range: `start < end` of the range and
    /// its end `≥` the range's start, so an instantaneous sample at `start` matches and
    /// one at `end` does not. ``DateOptions/strictStartDate`` needs its start in the range,
    /// ``DateOptions/strictEndDate`` its end; both apply both.
    public static func samples(withStart start: Timestamp?, end: Timestamp?, options: DateOptions = []) -> QueryPredicate {
        QueryPredicate(conditions: [.dates(start: start?.microseconds, end: end?.microseconds, options: options)])
    }

    /// Samples in the local date range `[start, end)` read on each sample's own
    /// ``LocalClock`` (its `HKTimeZone`, else the offset its start was recorded with):
    /// `start` and `end` are wall-clock times, given as their UTC fields
    /// (`Timestamp(commandLine: "2024-03-01")` is local midnight of 1 March wherever the
    /// sample was recorded). Options as in ``samples(withStart:end:options:)``.
    public static func samples(withLocalStart start: Timestamp?, end: Timestamp?, options: DateOptions = []) -> QueryPredicate {
        QueryPredicate(conditions: [.localDates(start: start?.microseconds, end: end?.microseconds, options: options)])
    }

    /// Samples recorded by any of `sources`.
    public static func sources(_ sources: Set<String>) -> QueryPredicate { QueryPredicate(conditions: [.sources(sources)]) }

    /// Samples recorded on any of `devices`.
    public static func devices(_ devices: Set<String>) -> QueryPredicate { QueryPredicate(conditions: [.devices(devices)]) }

    /// The samples with any of `uuids`.
    public static func uuids(_ uuids: Set<SampleUUID>) -> QueryPredicate { QueryPredicate(conditions: [.uuids(uuids)]) }

    /// Samples whose metadata has `key`.
    public static func metadata(key: String) -> QueryPredicate { QueryPredicate(conditions: [.metadataKey(key)]) }

    /// Samples whose metadata value for `key`, as text, is `value`: a string's characters,
    /// or a number's or boolean's JSON text (`1` matches `1` and `"1"`).
    public static func metadata(key: String, equals value: String) -> QueryPredicate {
        QueryPredicate(conditions: [.metadataEquals(key, value)])
    }

    /// Quantity samples whose value satisfies `value OP number`: in `unit`, converted from
    /// the sample's (a sample whose unit does not convert to it never matches); without a
    /// unit, in the sample's own unit.
    public static func quantity(_ op: ComparisonOperator, _ number: Double, unit: HealthUnit? = nil) -> QueryPredicate {
        QueryPredicate(conditions: [.quantity(op, number, unit)])
    }

    /// Category samples with any of `values`, each read for the sample's type: an integer,
    /// a constant's full name, or the part after the type's prefix, in any case,
    /// so `3`, `AsleepCore` and
    /// `HKCategoryValueSleepAnalysisAsleepCore` match the same sleep samples.
    public static func categoryValues(_ values: [CategoryValue]) -> QueryPredicate {
        QueryPredicate(conditions: [.categories(values)])
    }

    /// Workouts whose activity is any of `activities`, each a full name
    /// (`HKWorkoutActivityTypeRunning`) or the part after the prefix (`Running`), in any
    /// case. The deletion of a workout goes through, as it carries no activity.
    public static func workoutActivities(_ activities: Set<String>) -> QueryPredicate {
        QueryPredicate(conditions: [.workoutActivities(Set(activities.map(PredicateCondition.activityKey)))])
    }

    /// All of `predicates`.
    public static func and(_ predicates: [QueryPredicate]) -> QueryPredicate {
        QueryPredicate(conditions: predicates.flatMap(\.conditions))
    }

    /// Any of `predicates`; an empty list matches nothing.
    public static func or(_ predicates: [QueryPredicate]) -> QueryPredicate {
        if let all = predicates.first(where: \.isAll) { return all }
        if predicates.count == 1 { return predicates[0] }
        return QueryPredicate(conditions: [.any(predicates)])
    }

    /// Whatever `predicate` does not match.
    public static func not(_ predicate: QueryPredicate) -> QueryPredicate {
        QueryPredicate(conditions: [.not(predicate)])
    }

    /// The date range the predicate's date conditions allow, in µs (`nil` bounds open):
    /// what statistics clip their intervals to.
    var dateRange: (start: Int64?, end: Int64?) {
        var range: (start: Int64?, end: Int64?) = (nil, nil)
        for case .dates(let start, let end, _) in conditions {
            if let start { range.start = max(range.start ?? start, start) }
            if let end { range.end = min(range.end ?? end, end) }
        }
        return range
    }

    /// The local wall-clock range the predicate's local date conditions allow, in µs since
    /// 1970 (`nil` bounds open): what statistics on each sample's local time clip their
    /// intervals to.
    var localDateRange: (start: Int64?, end: Int64?) {
        var range: (start: Int64?, end: Int64?) = (nil, nil)
        for case .localDates(let start, let end, _) in conditions {
            if let start { range.start = max(range.start ?? start, start) }
            if let end { range.end = min(range.end ?? end, end) }
        }
        return range
    }

    /// Whether the predicate is ``all``.
    var isAll: Bool { conditions.isEmpty }

    /// Throws ``HealthLogError/Code/badUsage`` for a date range whose start is after its end.
    func validate() throws {
        for condition in conditions {
            switch condition {
            case .any(let predicates): try predicates.forEach { try $0.validate() }
            case .not(let predicate): try predicate.validate()
            default: break
            }
        }
        for case .dates(let start?, let end?, _) in conditions where start > end {
            throw HealthLogError(.badUsage, "the date range's start is after its end")
        }
        for case .localDates(let start?, let end?, _) in conditions where start > end {
            throw HealthLogError(.badUsage, "the date range's start is after its end")
        }
    }

    /// Whether a group whose samples span `[minStart, maxEnd]` can hold a match.
    func mayMatch(minStart: Int64, maxEnd: Int64) -> Bool {
        conditions.allSatisfy { $0.mayMatch(minStart: minStart, maxEnd: maxEnd) }
    }

    /// Whether `subject` matches; a deleted object whose match depends on fields it does
    /// not carry does.
    func matches(_ subject: StoredLineView) -> Bool {
        evaluate(subject) ?? true
    }

    /// Whether `subject` matches, `nil` when that depends on fields it does not carry.
    func evaluate(_ subject: StoredLineView) -> Bool? {
        var result: Bool? = true
        for condition in conditions {
            switch condition.evaluate(subject) {
            case .some(false): return false
            case .none: result = nil
            case .some(true): break
            }
        }
        return result
    }
}
