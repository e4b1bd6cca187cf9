/// One condition of a ``QueryPredicate``, and how it applies to samples and deleted objects.
enum PredicateCondition: Hashable, Sendable {
    /// Dates in microseconds; `nil` bounds are open.
    case dates(start: Int64?, end: Int64?, options: DateOptions)
    /// Local wall-clock dates in microseconds since 1970, read on each sample's own
    /// ``LocalClock``; `nil` bounds are open.
    case localDates(start: Int64?, end: Int64?, options: DateOptions)
    case sources(Set<String>)
    case devices(Set<String>)
    case uuids(Set<SampleUUID>)
    case metadataKey(String)
    case metadataEquals(String, String)
    /// A comparison with a number in a unit; `nil`: in the sample's own unit.
    case quantity(ComparisonOperator, Double, HealthUnit?)
    case categories([CategoryValue])
    /// Workout activity names, in ``PredicateCondition/activityKey(_:)``'s form.
    case workoutActivities(Set<String>)
    /// Any of the predicates.
    case any([QueryPredicate])
    /// Not the predicate.
    case not(QueryPredicate)

    /// The metadata keys a deleted object carries.
    private static let deletedObjectKeys: Set<String> = ["HKMetadataKeySyncIdentifier", "HKMetadataKeySyncVersion"]

    /// Whether a group whose samples span `[minStart, maxEnd]` can hold a match: every
    /// date option needs a sample starting before the range's end and ending at or after
    /// its start.
    func mayMatch(minStart: Int64, maxEnd: Int64) -> Bool {
        switch self {
        case .dates(let start, let end, _):
            return (end.map { minStart < $0 } ?? true) && (start.map { maxEnd >= $0 } ?? true)
        case .localDates(let start, let end, let options):
            return Self.dates(start: start.map { $0 - Self.day }, end: end.map { $0 + Self.day }, options: options).mayMatch(minStart: minStart, maxEnd: maxEnd)
        case .any(let predicates):
            return predicates.contains { $0.mayMatch(minStart: minStart, maxEnd: maxEnd) }
        default:
            // Other fields say nothing of time, and a negation can match whatever its
            // operand leaves out, wherever it lies.
            return true
        }
    }

    /// A day in µs: more than any UTC offset, so a local time's instant lies within a day of it.
    private static let day: Int64 = 86_400_000_000

    /// Whether `r` matches: `nil` when that depends on a field `r` does not carry (a
    /// deleted object's value, category value or other metadata), which a deleted object
    /// of the right kind lets through.
    func evaluate(_ r: StoredLineView) -> Bool? {
        switch self {
        case .dates(let start, let end, let options):
            let s = r.start
            let e = r.end
            func within(_ t: Int64) -> Bool { (start.map { t >= $0 } ?? true) && (end.map { t < $0 } ?? true) }
            var ok = true
            if options.contains(.strictStartDate) { ok = ok && within(s) }
            if options.contains(.strictEndDate) { ok = ok && within(e) }
            if options.isEmpty { ok = (end.map { s < $0 } ?? true) && (start.map { e >= $0 } ?? true) }
            return ok
        case .localDates(let start, let end, let options):
            guard let recorded = r.event.start else { return false }
            let clock = LocalClock(start: recorded, zone: r.metadataText(LocalClock.metadataKey))
            return Self.dates(start: start.map(clock.firstInstant(atLocal:)), end: end.map(clock.firstInstant(atLocal:)), options: options).evaluate(r)
        case .sources(let names):
            return r.string(r.event.source).map(names.contains) ?? false
        case .devices(let names):
            return r.string(r.event.device).map(names.contains) ?? false
        case .uuids(let uuids):
            return uuids.contains(r.uuid)
        case .metadataKey(let key):
            if r.isDelete, !Self.deletedObjectKeys.contains(key) { return nil }
            return r.metadataText(key) != nil
        case .metadataEquals(let key, let value):
            if r.isDelete, !Self.deletedObjectKeys.contains(key) { return nil }
            return r.metadataText(key) == value
        case .quantity(let op, let number, let unit):
            guard r.kind == .quantity else { return false }
            if r.isDelete { return nil }
            guard let value = r.number else { return false }
            guard let unit else { return op.holds(value, number) }
            guard let text = r.string(r.event.unit), let own = try? HealthUnit(text), own.isCompatible(with: unit) else { return false }
            return op.holds(own.converter(to: unit)(value), number)
        case .categories(let values):
            guard r.kind == .category else { return false }
            if r.isDelete { return nil }
            guard let value = r.categoryValue else { return false }
            let type = r.typeIdentifier
            let stored = CategoryValues.integer(value.description, type: type)
            return values.contains { $0 == value || (stored != nil && CategoryValues.integer($0.description, type: type) == stored) }
        case .workoutActivities(let keys):
            guard r.kind == .workout else { return false }
            if r.isDelete { return nil }
            return r.string(r.event.activity).map { keys.contains(Self.activityKey($0)) } ?? false
        case .any(let predicates):
            var result: Bool? = false
            for predicate in predicates {
                switch predicate.evaluate(r) {
                case .some(true): return true
                case .none: result = nil
                case .some(false): break
                }
            }
            return result
        case .not(let predicate):
            return predicate.evaluate(r).map(!)
        }
    }

    /// A workout activity name as compared: without the `HKWorkoutActivityType` prefix, in
    /// lower case, so `HKWorkoutActivityTypeRunning` and `running` are one activity.
    static func activityKey(_ name: String) -> String {
        let prefix = "HKWorkoutActivityType"
        return (name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : name).lowercased()
    }
}
