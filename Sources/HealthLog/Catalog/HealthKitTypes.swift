/// The table of HealthKit's type identifiers healthlog knows: quantity types (with their
/// aggregation style and unit, ``QuantityTypeInfo``), category types (with their values),
/// correlations, characteristics, workouts and their routes, activity summaries, clinical
/// records, vision prescriptions and the `HKDataType…` identifiers Apple's exports carry
/// (electrocardiograms, audiograms). Identifiers with HealthKit's prefixes that are not
/// in it are still accepted (new iOS versions add types); the table decides what is
/// checked, the short names people type, and the "did you mean" of a typo.
package enum HealthKitTypes {
    /// Every known full identifier.
    package static let known: Set<String> = Set(
        QuantityTypeInfo.names.map { "HKQuantityTypeIdentifier" + $0 } + CategoryTypeTable.sets.keys.map { "HKCategoryTypeIdentifier" + $0 }
            + ["BloodPressure", "Food"].map { "HKCorrelationTypeIdentifier" + $0 }
            + ["DateOfBirth", "BiologicalSex", "BloodType", "FitzpatrickSkinType", "WheelchairUse", "ActivityMoveMode", "CardioFitnessMedicationsUse"]
            .map { "HKCharacteristicTypeIdentifier" + $0 }
            + [
                "HKWorkoutTypeIdentifier", "HKWorkoutRouteTypeIdentifier", "HKActivitySummaryTypeIdentifier", "HKDataTypeSleepDurationGoal",
                "HKDataTypeIdentifierHeartbeatSeries", "HKDataTypeIdentifierElectrocardiogram", "HKDataTypeIdentifierAudiogram",
                "HKVisionPrescriptionTypeIdentifier",
            ]
            + [
                "AllergyRecord", "ClinicalNoteRecord", "ConditionRecord", "CoverageRecord", "ImmunizationRecord", "LabResultRecord", "MedicationRecord",
                "ProcedureRecord", "VitalSignRecord",
            ].map { "HKClinicalTypeIdentifier" + $0 })

    /// ``known``, sorted (so the nearest of equally near identifiers is always the same).
    private static let sortedKnown = known.sorted()

    /// Known full identifiers by their lower-cased full and short forms (`heartrate`,
    /// `hkquantitytypeidentifierheartrate`); a short form two kinds share lists both.
    private static let byLowercased: [String: [String]] = {
        var table: [String: [String]] = [:]
        for identifier in known.sorted() {
            table[identifier.lowercased(), default: []].append(identifier)
            let short = TypeNames.shortForm(identifier).lowercased()
            if short != identifier.lowercased() { table[short, default: []].append(identifier) }
        }
        return table
    }()

    /// Whether `name` is the full identifier of a quantity type healthlog knows, spelled
    /// exactly: the common `--type`, answered from the quantity table's names without
    /// building ``known`` (whose category tables cost a query more than its lookup).
    private static func isKnownQuantity(_ name: String) -> Bool {
        let prefix = "HKQuantityTypeIdentifier"
        guard name.hasPrefix(prefix) else { return false }
        let short = String(name.dropFirst(prefix.count))
        return QuantityTypeTable.entries.contains { $0.1.contains { $0.0 == short } }
    }

    /// Whether `identifier` is a full identifier healthlog knows, spelled exactly.
    package static func isKnown(_ identifier: String) -> Bool { known.contains(identifier) }

    /// The known identifiers `name` spells, full or short, in any case (`stepcount`,
    /// `HeartRate`, `hkquantitytypeidentifierheartrate`); empty when none, several when a
    /// short name is ambiguous.
    package static func matching(_ name: String) -> [String] {
        if isKnownQuantity(name) { return [name] }
        // A quantity type's short name as written (`HeartRate`) names that type alone
        // (TypeMatchingTests checks every one against the table), so it needs no table.
        let quantity = "HKQuantityTypeIdentifier" + name
        if !name.isEmpty, isKnownQuantity(quantity) { return [quantity] }
        if known.contains(name) { return [name] }
        return byLowercased[name.lowercased()] ?? []
    }

    /// The known identifier `name` (full or short) is a near miss of: within two edits,
    /// ignoring case, and not itself a spelling of a known identifier. `nil` when none.
    package static func nearMiss(of name: String) -> String? {
        guard matching(name).isEmpty else { return nil }
        let lower = name.lowercased()
        let isFull = SampleKind(typeIdentifier: name) != nil
        var best: (distance: Int, identifier: String)?
        for identifier in sortedKnown {
            let candidate = isFull ? identifier.lowercased() : TypeNames.shortForm(identifier).lowercased()
            let distance = EditDistance.between(lower, candidate, limit: 2)
            if distance <= 2, distance < (best?.distance ?? 3) { best = (distance, identifier) }
        }
        return best?.identifier
    }

    /// The values of a known category type, by its full identifier.
    static func categoryValues(of identifier: String) -> CategoryValueSet? {
        guard identifier.hasPrefix("HKCategoryTypeIdentifier") else { return nil }
        return CategoryTypeTable.sets[String(identifier.dropFirst("HKCategoryTypeIdentifier".count))]
    }
}
