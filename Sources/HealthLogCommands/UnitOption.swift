import HealthLog

/// `--unit` of the statistics commands (`aggregate`, `plot`): the unit the figures are in.
enum UnitOption {
    /// The option, for a command's spec.
    static let option = CommandSpec.Option(
        name: "--unit", value: "unit", help: "The unit of the figures (lb, kcal, mmol<180.15588000005408>/L, …); default: the type's. Samples in other units are converted.")

    /// The unit `--unit` names, or `nil` when it is not given.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` for text that is not a HealthKit unit.
    static func unit(_ arguments: ParsedArguments) throws -> HealthUnit? {
        try arguments.value("--unit").map { text in
            do {
                return try HealthUnit(text)
            } catch let error as HealthLogError {
                throw HealthLogError(.badUsage, "--unit: \(error.message)")
            }
        }
    }
}
