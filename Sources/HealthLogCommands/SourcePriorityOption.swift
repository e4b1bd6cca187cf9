import HealthLog

/// `--source-priority` of the statistics commands (`aggregate`, `plot`): the sources that
/// win where sources overlap, highest first.
enum SourcePriorityOption {
    /// The option, for a command's spec.
    static let option = CommandSpec.Option(
        name: "--source-priority", value: "list",
        help: "Comma-separated sources that win when sources overlap, highest first; the rest follow Apple Watch, then iPhone and iPad, then other sources, by name.")

    /// The sources `--source-priority` names, in order; empty when it is not given.
    static func sources(_ arguments: ParsedArguments) -> [String] {
        arguments.value("--source-priority").map { $0.split(separator: ",").map(String.init) } ?? []
    }
}
