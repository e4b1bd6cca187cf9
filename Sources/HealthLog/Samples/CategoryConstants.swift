/// The integer values of the category constants Apple's exports write by name, so a
/// predicate for `--category 1` matches `HKCategoryValueSleepAnalysisAsleepUnspecified`.
/// Names healthlog does not know match only themselves. The table is
/// ``CategoryValues``'s, which also knows each type's values.
package enum CategoryConstants {
    /// The integer value of the constant `name`, or `nil` when healthlog does not know it.
    package static func value(of name: String) -> Int? { CategoryValues.constants[name] }
}
