import HealthLog

/// `healthlog export`: the live samples as they stand now.
enum ExportCommand {
    static let spec = CommandSpec(
        name: "export",
        abstract: "Write the live samples as they stand now (a snapshot, not a log).",
        usage: "[--type <type> ...] [predicate options] [--unit <unit>] [--format ndjson|csv|ndjson-rows] [--partition <dir> [--person <id>]]",
        options: [
            .init(name: "--type", value: "type", help: "Only this type, in full or short (HeartRate).", repeatable: true)
        ] + PredicateOptions.options + [
            .init(
                name: "--unit", value: "unit",
                help: "Write every quantity sample in this unit (lb, kcal, …), converted; a sample whose unit does not convert is an error (exit 2). Not with --partition."),
            LineOutput.option,
            .init(
                name: "--partition", value: "dir",
                help: "Write Hive-style partitions instead of stdout: DIR/type=HeartRate/year=2024/PERSON.csv (or .ndjson with --format ndjson-rows), with a person column; prints the files written."),
            .init(name: "--person", value: "id", help: "The person column and file name of --partition (default: the store's identity, a UUID)."),
        ],
        discussion: "Every sample still live, in the order it was added, with its seq; deleted samples and delete events are left out. NDJSON output is valid append input (a copy of the live data without its history); CSV and ndjson-rows hold typed columns for DuckDB, pandas or a spreadsheet. Many people's --partition exports into one directory read as one table: a person's files are replaced whole, other people's are never touched.")

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> Int32 {
        try arguments.expectNoPositionals()
        var request = ReplayRequest(predicate: try PredicateOptions.predicate(arguments))
        let terminal = context.terminal
        if let directory = arguments.value("--partition") {
            if arguments.value("--unit") != nil { throw HealthLogError(.badUsage, "--unit does not go with --partition: partitions keep each sample's own unit") }
            let name = arguments.value("--format") ?? "csv"
            guard let format = PartitionedExport.Format(rawValue: name) else {
                throw HealthLogError(.badUsage, "--partition writes csv or ndjson-rows, not '\(name)'")
            }
            if let person = arguments.value("--person") { _ = try PartitionedExport(directory: directory, person: person) }
            let store = try context.store()
            request.types = try TypeOptions.identifiers(arguments, store)
            let person = try arguments.value("--person") ?? store.identityText()
            let report = try store.exportPartitioned(request, as: try PartitionedExport(directory: directory, person: person, format: format))
            for file in report.files { terminal.print(file) }
            terminal.flush()
            let removed = report.removed.isEmpty ? "" : ", removed \(String(counting: report.removed.count, "stale file"))"
            terminal.summary("export: \(String(counting: report.samples, "sample")) of \(person) in \(String(counting: report.files.count, "file")) under \(directory)\(removed)")
            return ExitCode.success
        }
        if arguments.value("--person") != nil { throw HealthLogError(.badUsage, "--person goes with --partition") }
        let store = try context.store()
        request.types = try TypeOptions.identifiers(arguments, store)
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
