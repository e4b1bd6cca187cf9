import HealthLog

/// `healthlog export`: the live samples as they stand now.
enum ExportCommand {
    static let spec = CommandSpec(
        name: "export",
        abstract: "Write the live samples as they stand now (a snapshot, not a log).",
        usage: "[--type <type> ...] [predicate options] [--format ndjson|csv]",
        options: [
            .init(name: "--type", value: "type", help: "Only this type, in full or short (HeartRate).", repeatable: true)
        ] + PredicateOptions.options + [LineOutput.option],
        discussion: "Every sample still live, in the order it was added, with its seq; deleted samples and delete events are left out. NDJSON output is valid append input (a copy of the live data without its history); CSV has a header row, for DuckDB, pandas or a spreadsheet.")

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> Int32 {
        try arguments.expectNoPositionals()
        var request = ReplayRequest(predicate: try PredicateOptions.predicate(arguments))
        let store = try context.store()
        request.types = try TypeOptions.identifiers(arguments, store)
        let terminal = context.terminal
        let write = try LineOutput.writer(arguments.value("--format"), terminal)
        _ = try store.export(request, deliver: write)
        terminal.flush()
        return ExitCode.success
    }
}
