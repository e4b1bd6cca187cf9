#if !canImport(Darwin)
internal import HealthLog

/// Options of a date predicate, as HealthKit's `HKQueryOptions`.
public struct HKQueryOptions: OptionSet, Sendable {
    /// The bits.
    public let rawValue: UInt
    /// Options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The sample's start must be in the range.
    public static let strictStartDate = HKQueryOptions(rawValue: 1 << 0)
    /// The sample's end must be in the range.
    public static let strictEndDate = HKQueryOptions(rawValue: 1 << 1)
}

/// The key of a sort by start date.
public let HKSampleSortIdentifierStartDate = "startDate"
/// The key of a sort by end date.
public let HKSampleSortIdentifierEndDate = "endDate"

extension NSSortDescriptor {
    /// A sort by `key`, as on Apple platforms: `HKSampleSortIdentifierStartDate` and
    /// `HKSampleSortIdentifierEndDate` sort samples by their dates (Foundation on Linux has
    /// no key-value coding; any other key makes the query fail with `errorInvalidArgument`).
    public convenience init(key: String?, ascending: Bool) {
        switch key {
        case HKSampleSortIdentifierStartDate: self.init(keyPath: \HKSample.startDate, ascending: ascending)
        case HKSampleSortIdentifierEndDate: self.init(keyPath: \HKSample.endDate, ascending: ascending)
        default: self.init(keyPath: \HKSample.description, ascending: ascending)
        }
    }
}

/// A predicate `HKQuery.predicateFor…` returns: the store's predicate inside an
/// `NSPredicate`, so `NSCompoundPredicate` combines it. A predicate healthlog cannot
/// evaluate holds the reason, which the query's handler gets as `errorInvalidArgument`.
final class StorePredicate: NSPredicate {
    /// The store's predicate, or why there is none.
    let translated: Result<QueryPredicate, HKError>

    init(_ predicate: QueryPredicate) {
        translated = .success(predicate)
        super.init(value: true)
    }

    init(unsupported reason: String) {
        translated = .failure(HKError(.errorInvalidArgument, reason))
        super.init(value: true)
    }

    required init?(coder: NSCoder) { nil }

    override var predicateFormat: String { String(describing: translated) }
}

/// `NSPredicate`s as the store's predicates.
enum PredicateTranslation {
    /// `predicate` as a store predicate: one `HKQuery.predicateFor…` made, or an
    /// `NSCompoundPredicate` of such (AND, OR, NOT); `nil` matches everything.
    ///
    /// - Throws: ``HKError/Code/errorInvalidArgument`` for any other predicate (a format
    ///   string, a block), naming it.
    static func translate(_ predicate: NSPredicate?) throws -> QueryPredicate {
        guard let predicate else { return .all }
        if let store = predicate as? StorePredicate { return try store.translated.get() }
        if let compound = predicate as? NSCompoundPredicate {
            let parts = try compound.subpredicates.map(translate)
            switch compound.compoundPredicateType {
            case .and: return .and(parts)
            case .or: return .or(parts)
            case .not:
                guard parts.count == 1 else { throw HKError(.errorInvalidArgument, "a NOT predicate takes one predicate, not \(parts.count)") }
                return .not(parts[0])
            @unknown default: break
            }
        }
        throw HKError(
            .errorInvalidArgument,
            "healthlog evaluates the predicates HKQuery.predicateFor… returns and NSCompoundPredicates of them, not '\(predicate)'")
    }
}

/// The predicates, as HealthKit's `HKQuery.predicateFor…`.
extension HKQuery {
    /// Samples in `[startDate, endDate)`: overlapping it, or with `.strictStartDate` /
    /// `.strictEndDate` starting / ending in it; a `nil` bound is open.
    public class func predicateForSamples(withStart startDate: Date?, end endDate: Date?, options: HKQueryOptions = []) -> NSPredicate {
        var dateOptions: DateOptions = []
        if options.contains(.strictStartDate) { dateOptions.insert(.strictStartDate) }
        if options.contains(.strictEndDate) { dateOptions.insert(.strictEndDate) }
        return StorePredicate(.samples(withStart: startDate?.timestamp, end: endDate?.timestamp, options: dateOptions))
    }

    /// The object with `uuid`.
    public class func predicateForObject(with uuid: UUID) -> NSPredicate {
        predicateForObjects(with: [uuid])
    }

    /// The objects with any of `uuids`.
    public class func predicateForObjects(with uuids: Set<UUID>) -> NSPredicate {
        StorePredicate(.uuids(Set(uuids.map(SampleUUID.init))))
    }

    /// Objects recorded by `source`.
    public class func predicateForObjects(from source: HKSource) -> NSPredicate {
        predicateForObjects(from: [source])
    }

    /// Objects recorded by any of `sources`.
    public class func predicateForObjects(from sources: Set<HKSource>) -> NSPredicate {
        StorePredicate(.sources(Set(sources.map(\.name))))
    }

    /// Objects recorded by any of `sourceRevisions`' sources (versions are not compared).
    public class func predicateForObjects(from sourceRevisions: Set<HKSourceRevision>) -> NSPredicate {
        StorePredicate(.sources(Set(sourceRevisions.map(\.source.name))))
    }

    /// Objects recorded on `device`.
    public class func predicateForObjects(from device: HKDevice) -> NSPredicate {
        predicateForObjects(from: [device])
    }

    /// Objects recorded on any of `devices`.
    public class func predicateForObjects(from devices: Set<HKDevice>) -> NSPredicate {
        StorePredicate(.devices(Set(devices.map(\.text))))
    }

    /// Objects whose metadata has `key`.
    public class func predicateForObjects(withMetadataKey key: String) -> NSPredicate {
        StorePredicate(.metadata(key: key))
    }

    /// Objects whose metadata value for `key` is any of `allowedValues`.
    public class func predicateForObjects(withMetadataKey key: String, allowedValues: [Any]) -> NSPredicate {
        StorePredicate(.or(allowedValues.map { .metadata(key: key, equals: metadataText($0)) }))
    }

    /// Objects whose metadata value for `key` compares to `value` by `operatorType`:
    /// healthlog evaluates equal and not equal.
    public class func predicateForObjects(
        withMetadataKey key: String, operatorType: HKComparisonOperator, value: Any
    ) -> NSPredicate {
        let equal = QueryPredicate.metadata(key: key, equals: metadataText(value))
        switch operatorType {
        case .equalTo: return StorePredicate(equal)
        case .notEqualTo: return StorePredicate(.not(equal))
        default: return StorePredicate(unsupported: "healthlog compares metadata values for equality only, not by \(operatorType)")
        }
    }

    /// Quantity samples whose quantity compares to `quantity` by `operatorType` (in
    /// `quantity`'s unit).
    public class func predicateForQuantitySamples(with operatorType: HKComparisonOperator, quantity: HKQuantity) -> NSPredicate {
        let op: ComparisonOperator
        switch operatorType {
        case .lessThan: op = .lessThan
        case .lessThanOrEqualTo: op = .lessThanOrEqual
        case .greaterThan: op = .greaterThan
        case .greaterThanOrEqualTo: op = .greaterThanOrEqual
        case .equalTo: op = .equal
        case .notEqualTo: op = .notEqual
        default: return StorePredicate(unsupported: "healthlog compares quantities with <, <=, >, >=, == and !=, not \(operatorType)")
        }
        return StorePredicate(.quantity(op, quantity.value, unit: quantity.unit.healthUnit))
    }

    /// Category samples whose value compares to `value` by `operatorType`: healthlog
    /// evaluates equal and not equal.
    public class func predicateForCategorySamples(with operatorType: HKComparisonOperator, value: Int) -> NSPredicate {
        let equal = QueryPredicate.categoryValues([.integer(value)])
        switch operatorType {
        case .equalTo: return StorePredicate(equal)
        case .notEqualTo: return StorePredicate(.not(equal))
        default: return StorePredicate(unsupported: "healthlog compares category values for equality only, not by \(operatorType)")
        }
    }

    /// Category samples with any of `values`.
    public class func predicateForCategorySamples(equalTo values: Set<Int>) -> NSPredicate {
        StorePredicate(.categoryValues(values.sorted().map { .integer($0) }))
    }

    /// Workouts of `workoutActivityType`.
    public class func predicateForWorkouts(with workoutActivityType: HKWorkoutActivityType) -> NSPredicate {
        StorePredicate(.workoutActivities([workoutActivityType.storedName]))
    }

    /// Samples in no correlation: healthlog's predicates do not read correlations, so a
    /// query with this predicate fails with `errorInvalidArgument`.
    public class func predicateForObjectsWithNoCorrelation() -> NSPredicate {
        StorePredicate(unsupported: "healthlog's predicates do not read correlation membership")
    }

    /// Metadata values compare as their text, as the store keeps them.
    private static func metadataText(_ value: Any) -> String {
        switch value {
        case let text as String: text
        case let number as NSNumber: number.stringValue
        default: String(describing: value)
        }
    }
}
#endif
