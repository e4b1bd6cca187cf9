import HealthLog

/// `--unit` of the statistics commands (`aggregate`, `plot`): the unit the figures are in.
enum UnitOption {
    /// The option; bad usage for text that is not a HealthKit unit.
    static let option = Option(
        "--unit", "unit", help: "The unit of the figures (lb, kcal, mmol<180.15588000005408>/L, …); default: the type's. Samples in other units are converted."
    ) { text in
        do {
            return try HealthUnit(text)
        } catch let error as HealthLogError {
            throw HealthLogError(.badUsage, "--unit: \(error.message)")
        }
    }
}
