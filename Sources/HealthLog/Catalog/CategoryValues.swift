/// The values of HealthKit's category types, checked and stored in one form: the full
/// constant name Apple's exports write (`HKCategoryValueSleepAnalysisAsleepCore`), whether
/// given as that name, as the part after the type's prefix (`AsleepCore`), in any case, or
/// as its integer (`3`). So every spelling of a value matches every other.
package enum CategoryValues {
    /// The stored name of `text` for the category type `identifier`; `nil` when healthlog
    /// does not know the type (the value is then kept as given).
    ///
    /// - Throws: ``HealthLogError/Code/badInput`` when the type is known and `text` is none
    ///   of its values, listing them.
    package static func canonical(_ text: String, type identifier: String) throws -> String? {
        guard let set = HealthKitTypes.categoryValues(of: identifier) else { return nil }
        let value = Int(text) ?? set.value(named: text)
        guard let value, let name = set.name(of: value) else {
            throw HealthLogError(.badInput, "'\(text)' is not a value of \(identifier): \(set.listing)")
        }
        return name
    }

    /// The integer `text` (a name in any of the accepted spellings, or an integer) stands
    /// for in the category type `identifier`; for a type healthlog does not know, the
    /// integer itself or the number of a constant's full name. `nil` when it names nothing.
    package static func integer(_ text: String, type identifier: String) -> Int? {
        if let value = Int(text) { return value }
        if let set = HealthKitTypes.categoryValues(of: identifier) { return set.value(named: text) }
        return constants[text]
    }

    /// Every known constant's full name, with its integer.
    static let constants: [String: Int] = {
        var table: [String: Int] = [:]
        for set in CategoryTypeTable.sets.values {
            for entry in set.values { table[set.prefix + entry.name] = entry.value }
        }
        return table
    }()
}
