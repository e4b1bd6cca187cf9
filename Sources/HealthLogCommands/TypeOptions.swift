import HealthLog

/// The `--type` option as the query commands take it: full identifiers or short names
/// that one HealthKit prefix or a type in the store makes unambiguous.
enum TypeOptions {
    /// The full identifiers of every `--type` given; empty (all types) when none is.
    static func identifiers(_ arguments: ParsedArguments, _ store: HealthStore) throws -> Set<String> {
        Set(try arguments.all("--type").map { try TypeNames.resolve($0, present: store.typesPresent) })
    }

    /// The one `--type` a command requires.
    static func single(_ arguments: ParsedArguments, _ store: HealthStore) throws -> SampleType {
        guard let name = arguments.value("--type") else { throw HealthLogError(.badUsage, "--type is required") }
        guard let type = SampleType(try TypeNames.resolve(name, present: store.typesPresent)) else {
            throw HealthLogError(.badUsage, "--type '\(name)' is not a type")
        }
        return type
    }

    /// The `--interval` of `aggregate` and `plot`, or `fallback` when absent.
    static func interval(_ arguments: ParsedArguments, default fallback: StatisticsInterval? = nil) throws -> StatisticsInterval {
        guard let name = arguments.value("--interval") else {
            guard let fallback else { throw HealthLogError(.badUsage, "--interval is required") }
            return fallback
        }
        guard let interval = StatisticsInterval(rawValue: name.lowercased()) else {
            throw HealthLogError(.badUsage, "--interval must be hour, day, week or month, not '\(name)'")
        }
        return interval
    }
}
