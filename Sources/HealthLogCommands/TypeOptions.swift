import HealthLog

/// `--type` as the query commands take it: full identifiers or short names that one
/// HealthKit prefix or a type in the store makes unambiguous; and the `--interval` of the
/// statistics commands.
enum TypeOptions {
    /// `--type` of `aggregate` and `plot`, which take exactly one.
    static func single(help: String) -> RequiredOption<String> {
        RequiredOption("--type", "type", help: help, missing: "--type is required")
    }

    /// The full identifiers of every `--type` given; empty (all types) when none is.
    static func identifiers(_ names: [String], _ store: HealthStore) throws -> Set<String> {
        Set(try names.map { try TypeNames.resolve($0, present: store.typesPresent) })
    }

    /// The type `name` names.
    static func single(_ name: String, _ store: HealthStore) throws -> SampleType {
        guard let type = SampleType(try TypeNames.resolve(name, present: store.typesPresent)) else {
            throw HealthLogError(.badUsage, "--type '\(name)' is not a type")
        }
        return type
    }

    /// The `--interval` of `aggregate` and `plot`: `hour|day|week|month` on the usage line.
    static func interval(help: String, inUsage: Declaration.InUsage) -> Option<StatisticsInterval> {
        Option(
            "--interval", "interval", help: help, synopsis: "--interval hour|day|week|month", inUsage: inUsage,
            completion: .choices(StatisticsInterval.allCases.map(\.rawValue)), parse: parseInterval)
    }

    /// The `--interval` of `aggregate`, which requires it.
    static func requiredInterval(help: String) -> RequiredOption<StatisticsInterval> {
        RequiredOption(
            "--interval", "interval", help: help, synopsis: "--interval hour|day|week|month", missing: "--interval is required",
            completion: .choices(StatisticsInterval.allCases.map(\.rawValue)), parse: parseInterval)
    }

    private static func parseInterval(_ name: String) throws -> StatisticsInterval {
        guard let interval = StatisticsInterval(rawValue: name.lowercased()) else {
            throw HealthLogError(.badUsage, "--interval must be hour, day, week or month, not '\(name)'")
        }
        return interval
    }
}
