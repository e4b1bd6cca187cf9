import HealthLog

/// `healthlog export`: the live samples as they stand now.
enum ExportCommand: Command {
    static let configuration = CommandConfiguration(
        name: "export",
        abstract: "Write the live samples as they stand now (a snapshot, not a log).",
        discussion: "Every sample still live, in the order it was added, with its seq; deleted samples and delete events are left out. NDJSON output is valid append input (a copy of the live data without its history); CSV and ndjson-rows hold typed columns for DuckDB, pandas or a spreadsheet. Many people's --partition exports into one directory read as one table: a person's files are replaced whole, other people's are never touched.")

    struct Options: OptionGroup {
        let type = Repeated("--type", "type", help: "Only this type, in full or short (HeartRate).")
        let predicate = PredicateOptions()
        let unit = Option(
            "--unit", "unit",
            help: "Write every quantity sample in this unit (lb, kcal, …), converted; a sample whose unit does not convert is an error (exit 2). With --partition, for one --type (partitions are otherwise in each type's own unit).",
            parse: { try HealthUnit($0) })
        let format = LineOutput.option
        let partition = Option(
            "--partition", "dir",
            help:
                "Write Hive-style partitions instead of stdout: DIR/type=HeartRate/year=2024/PERSON.csv (or .ndjson with --format ndjson-rows), with a person column, values in one unit per type (the recorded value and unit in recordedValue and recordedUnit); prints the files written.",
            synopsis: "--partition <dir> [--person <id>]", completion: .directory)
        let person = Option(
            "--person", "id", help: "The person column and file name of --partition (default: the store's identity, a UUID).", inUsage: .hidden)

        var members: [any OptionMember] { [type, predicate, unit, format, partition, person] }
    }

    static func run(_ arguments: ParsedArguments<Options>, _ context: Context) throws -> Int32 {
        var request = ReplayRequest(predicate: try arguments.predicate.predicate())
        let terminal = context.terminal
        if let directory = try arguments.partition {
            try PathKind.expectDirectory(directory, "--partition", hint: "give a directory (it is made when missing)")
            let unit = try arguments.unit
            if unit != nil, (try arguments.type).count != 1 {
                throw HealthLogError(.badUsage, "--unit with --partition needs exactly one --type: each type is otherwise written in its own unit")
            }
            let name = arguments.text(\.format) ?? "csv"
            guard let format = PartitionedExport.Format(rawValue: name.lowercased()) else {
                throw HealthLogError(.badUsage, "--partition writes csv or ndjson-rows, not '\(name)'")
            }
            if let person = try arguments.person { _ = try PartitionedExport(directory: directory, person: person) }
            let store = try context.store()
            request.types = try TypeOptions.identifiers(try arguments.type, store)
            if let unit, let type = request.types.first {
                guard SampleType(type)?.kind == .quantity else { throw HealthLogError(.badUsage, "--unit needs a quantity type, not \(TypeNames.shortForm(type))") }
                if let own = QuantityTypeInfo.of(type)?.unit, !own.isCompatible(with: unit) {
                    throw HealthLogError(.badUsage, "--unit '\(unit)' does not convert to \(TypeNames.shortForm(type))'s unit '\(own)'")
                }
            }
            let person = try arguments.person ?? store.identityText()
            let report = try store.exportPartitioned(request, as: try PartitionedExport(directory: directory, person: person, format: format, unit: unit))
            for file in report.files { terminal.print(file) }
            terminal.flush()
            let removed = report.removed.isEmpty ? "" : ", removed \(String(counting: report.removed.count, "stale file"))"
            terminal.summary("export: \(String(counting: report.samples, "sample")) of \(person) in \(String(counting: report.files.count, "file")) under \(directory)\(removed)")
            return ExitCode.success
        }
        if arguments.isGiven(\.person) { throw HealthLogError(.badUsage, "--person goes with --partition") }
        let store = try context.store()
        request.types = try TypeOptions.identifiers(try arguments.type, store)
        let output = (try arguments.format ?? .ndjson).writer(terminal)
        var converter = try arguments.unit.map { QuantityLineConverter(unit: $0) }
        _ = try store.export(request) { line in
            guard let rewritten = try converter?.convert(line) else { return try output(line) }
            try rewritten.withUnsafeBytes { try output($0) }
        }
        terminal.flush()
        return ExitCode.success
    }
}
