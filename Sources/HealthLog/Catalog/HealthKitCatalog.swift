/// The catalog's tables as lists, for the sources generated from them (the `HealthKit`
/// module's identifiers, category values, metadata keys and workout activity types).
package enum HealthKitCatalog {
    /// The quantity types: short name, aggregation style and the unit exports write.
    package static var quantityTypes: [(name: String, style: AggregationStyle, unit: String)] {
        QuantityTypeTable.entries.flatMap { style, entries in entries.map { (name: $0.0, style: style, unit: $0.1) } }
    }

    /// The category types by short name, sorted, with the prefix of their values' constants.
    package static var categoryTypes: [(name: String, valuePrefix: String)] {
        CategoryTypeTable.sets.keys.sorted().map { (name: $0, valuePrefix: CategoryTypeTable.sets[$0]!.prefix) }
    }

    /// Each set of category values once, by the prefix of its constants, sorted: the
    /// names after the prefix with their integers, in the table's order.
    package static var categoryValueSets: [(prefix: String, values: [(name: String, value: Int)])] {
        var seen: [String: [(name: String, value: Int)]] = [:]
        for set in CategoryTypeTable.sets.values { seen[set.prefix] = set.values }
        return seen.keys.sorted().map { (prefix: $0, values: seen[$0]!) }
    }

    /// The short names of the known identifiers with `prefix` (`HKCorrelationTypeIdentifier`), sorted.
    package static func names(withPrefix prefix: String) -> [String] {
        HealthKitTypes.known.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }.sorted()
    }

    /// The metadata keys: name after `HKMetadataKey` and the key's string.
    package static var metadataKeys: [(name: String, key: String)] { MetadataKeyTable.entries.map { (name: $0.0, key: $0.1) } }

    /// The workout activity types: name after `HKWorkoutActivityType` and its integer.
    package static var workoutActivityTypes: [(name: String, value: Int)] { WorkoutActivityTable.entries.map { (name: $0.0, value: $0.1) } }
}
