import HealthLog

/// `healthlog export`: the live samples as they stand now.
enum ExportCommand {
    static let spec = CommandSpec(
        name: "export",
        abstract: "Write the live samples as they stand now (a snapshot, not a log).",
        usage: "[--type <type> ...] [predicate options] [--unit <unit>] [--format ndjson|csv]",
        options: [
            .init(name: "--type", value: "type", help: "Only this type, in full or short (HeartRate).", repeatable: true)
        ] + PredicateOptions.options + [
            .init(name: "--unit", value: "unit", help: "Write every quantity sample in this unit (lb, kcal, …), converted; a sample whose unit does not convert is an error (exit 2)."),
            LineOutput.option,
        ],
        discussion: "Every sample still live, in the order it was added, with its seq; deleted samples and delete events are left out. NDJSON output is valid append input (a copy of the live data without its history); CSV has a header row, for DuckDB, pandas or a spreadsheet.")

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> Int32 {
        try arguments.expectNoPositionals()
        var request = ReplayRequest(predicate: try PredicateOptions.predicate(arguments))
        let store = try context.store()
        request.types = try TypeOptions.identifiers(arguments, store)
        let terminal = context.terminal
        let output = try LineOutput.writer(arguments.value("--format"), terminal)
        var converter = try arguments.value("--unit").map { QuantityLineConverter(unit: try HealthUnit($0)) }
        _ = try store.export(request) { line in
            guard let rewritten = try converter?.convert(line) else { return try output(line) }
            try rewritten.withUnsafeBytes { try output($0) }
        }
        terminal.flush()
        return ExitCode.success
    }
}
