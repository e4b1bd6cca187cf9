/// The values one of HealthKit's category types takes: its constants' common prefix
/// (`HKCategoryValueSleepAnalysis`) and each constant's name after it with its integer. The
/// first name listed for an integer is the one stored (`AsleepUnspecified` rather than the
/// deprecated `Asleep`).
struct CategoryValueSet: Sendable {
    /// The constants' common prefix.
    let prefix: String
    /// The names after the prefix, with their integers.
    let values: [(name: String, value: Int)]

    /// The full constant name stored for `value`, or `nil` when the type has no such value.
    func name(of value: Int) -> String? {
        values.first { $0.value == value }.map { prefix + $0.name }
    }

    /// The integer of `text`: a full constant name or the part after the prefix, in any
    /// case; `nil` when it names none of the type's values.
    func value(named text: String) -> Int? {
        let lower = text.lowercased()
        let fullPrefix = prefix.lowercased()
        let short = lower.hasPrefix(fullPrefix) ? String(lower.dropFirst(fullPrefix.count)) : lower
        return values.first { $0.name.lowercased() == short }?.value
    }

    /// The values, for a message: `InBed (0), AsleepUnspecified (1), …`.
    var listing: String {
        values.map { "\($0.name) (\($0.value))" }.joined(separator: ", ")
    }
}
