/// What healthlog knows of one of HealthKit's quantity types: how its samples aggregate
/// and the unit its statistics use unless asked for another (the unit Apple's exports
/// write for it), whose dimension every sample's unit must have.
public struct QuantityTypeInfo: Sendable, Hashable {
    /// How the type's samples aggregate.
    public let style: AggregationStyle
    /// The unit statistics use by default.
    public let unit: HealthUnit

    /// The information for a full identifier, or `nil` for a type healthlog does not know.
    public static func of(_ identifier: String) -> QuantityTypeInfo? {
        guard identifier.hasPrefix(prefix) else { return nil }
        return table[String(identifier.dropFirst(prefix.count))]
    }

    private static let prefix = "HKQuantityTypeIdentifier"

    /// The short names healthlog knows, read from ``QuantityTypeTable`` without parsing
    /// the units (resolving a `--type` needs only the names).
    static var names: [String] { QuantityTypeTable.entries.flatMap { $0.1.map(\.0) } }

    private static let table: [String: QuantityTypeInfo] = {
        var table: [String: QuantityTypeInfo] = [:]
        for (style, entries) in QuantityTypeTable.entries {
            for (name, unit) in entries {
                guard let parsed = try? HealthUnit(unit) else { preconditionFailure("QuantityTypeTable: '\(unit)' does not parse") }
                table[name] = QuantityTypeInfo(style: style, unit: parsed)
            }
        }
        return table
    }()
}
