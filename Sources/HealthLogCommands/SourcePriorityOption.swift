import HealthLog

/// `--source-priority` of the statistics commands (`aggregate`, `plot`): the sources that
/// win where sources overlap, highest first.
enum SourcePriorityOption {
    /// The option: the sources it names, in order.
    static let option = Option(
        "--source-priority", "list",
        help: "Comma-separated sources that win when sources overlap, highest first; the rest follow Apple Watch, then iPhone and iPad, then other sources, by name."
    ) { text in text.split(separator: ",").map(String.init) }
}
