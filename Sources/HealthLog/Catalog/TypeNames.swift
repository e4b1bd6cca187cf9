/// Resolves the type names people type (`HeartRate`, `stepcount`, `SleepAnalysis`,
/// `Workout`) to HealthKit's full identifiers, when the name is unambiguous.
package enum TypeNames {
    /// Returns the full identifier for `name`: a known identifier spelled in full or short,
    /// in any case; else an identifier with a HealthKit prefix as given (types newer than
    /// healthlog), unless it is a near miss of a known one; else the one type present in
    /// the store (`present`, asked only then) whose full or short name it spells.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` for a name that matches nothing (with
    ///   "did you mean …" when it is close to a known type), several types, or a near miss.
    package static func resolve(_ name: String, present: () throws -> Set<String>) throws -> String {
        let known = HealthKitTypes.matching(name)
        if known.count == 1 { return known[0] }
        if known.count > 1 { throw HealthLogError(.badUsage, "type '\(name)' is ambiguous: \(known.joined(separator: ", "))") }
        let types = try present()
        if types.contains(name) { return name }
        let stored = types.filter { $0.lowercased() == name.lowercased() || shortForm($0).lowercased() == name.lowercased() }.sorted()
        if stored.count == 1 { return stored[0] }
        if stored.count > 1 { throw HealthLogError(.badUsage, "type '\(name)' is ambiguous: \(stored.joined(separator: ", "))") }
        if let near = HealthKitTypes.nearMiss(of: name) {
            throw HealthLogError(.badUsage, "unknown type '\(name)': did you mean \(shortForm(near)) (\(near))?")
        }
        if SampleKind(typeIdentifier: name) != nil { return name }
        throw HealthLogError(
            .badUsage,
            "unknown type '\(name)': not a HealthKit type healthlog knows by a short name; give a known short name (HeartRate, StepCount, SleepAnalysis, …) or, for a type newer than healthlog, its full identifier (HKQuantityTypeIdentifier…, HKCategoryTypeIdentifier…)")
    }

    /// The short form of a full identifier (`HKQuantityTypeIdentifierHeartRate` → `HeartRate`,
    /// `HKWorkoutTypeIdentifier` → `Workout`).
    package static func shortForm(_ identifier: String) -> String {
        for entry in SampleKind.prefixes where identifier.hasPrefix(entry.prefix) {
            if entry.exact { return String(entry.prefix.dropFirst(2).dropLast("TypeIdentifier".count)) }
            return String(identifier.dropFirst(entry.prefix.count))
        }
        return identifier
    }
}
