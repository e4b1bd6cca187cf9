#if !canImport(Darwin)
/// How a predicate compares a value: the cases of Foundation's
/// `NSComparisonPredicate.Operator`, with its raw values. Foundation on Linux deprecates
/// `NSComparisonPredicate`, so the `HKQuery.predicateFor…` functions that compare take
/// this type; a call written as on Apple platforms (`with: .greaterThan`) compiles
/// unchanged, and one passing an `NSComparisonPredicate.Operator` value still does.
public enum HKComparisonOperator: UInt, Sendable {
    /// `<`
    case lessThan = 0
    /// `<=`
    case lessThanOrEqualTo = 1
    /// `>`
    case greaterThan = 2
    /// `>=`
    case greaterThanOrEqualTo = 3
    /// `==`
    case equalTo = 4
    /// `!=`
    case notEqualTo = 5
    /// A regular expression match (no predicate evaluates it).
    case matches = 6
    /// A wildcard match (no predicate evaluates it).
    case like = 7
    /// A prefix (no predicate evaluates it).
    case beginsWith = 8
    /// A suffix (no predicate evaluates it).
    case endsWith = 9
    /// Membership (no predicate evaluates it).
    case `in` = 10
    /// A custom selector (no predicate evaluates it).
    case customSelector = 11
    /// Containment (no predicate evaluates it).
    case contains = 99
    /// A range (no predicate evaluates it).
    case between = 100
}

/// The comparing predicates for an `NSComparisonPredicate.Operator` value, which Foundation
/// on Linux deprecates (as a call naming it already warns).
extension HKQuery {
    /// Objects whose metadata value for `key` compares to `value` by `operatorType`.
    @_disfavoredOverload
    @available(*, deprecated, message: "NSComparisonPredicate is deprecated in Foundation on Linux; pass the operator as a literal such as .equalTo")
    public class func predicateForObjects(
        withMetadataKey key: String, operatorType: NSComparisonPredicate.Operator, value: Any
    ) -> NSPredicate {
        predicateForObjects(withMetadataKey: key, operatorType: HKComparisonOperator(operatorType), value: value)
    }

    /// Quantity samples whose quantity compares to `quantity` by `operatorType`.
    @_disfavoredOverload
    @available(*, deprecated, message: "NSComparisonPredicate is deprecated in Foundation on Linux; pass the operator as a literal such as .greaterThan")
    public class func predicateForQuantitySamples(with operatorType: NSComparisonPredicate.Operator, quantity: HKQuantity) -> NSPredicate {
        predicateForQuantitySamples(with: HKComparisonOperator(operatorType), quantity: quantity)
    }

    /// Category samples whose value compares to `value` by `operatorType`.
    @_disfavoredOverload
    @available(*, deprecated, message: "NSComparisonPredicate is deprecated in Foundation on Linux; pass the operator as a literal such as .equalTo")
    public class func predicateForCategorySamples(with operatorType: NSComparisonPredicate.Operator, value: Int) -> NSPredicate {
        predicateForCategorySamples(with: HKComparisonOperator(operatorType), value: value)
    }
}

extension HKComparisonOperator {
    /// The case of `operator` (an unknown raw value reads as `customSelector`, which no
    /// predicate evaluates).
    @available(*, deprecated, message: "NSComparisonPredicate is deprecated in Foundation on Linux")
    init(_ operator: NSComparisonPredicate.Operator) {
        self = HKComparisonOperator(rawValue: `operator`.rawValue) ?? .customSelector
    }
}
#endif
