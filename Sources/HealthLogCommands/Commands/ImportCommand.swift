import HealthLog

/// `healthlog import FILE [--mirror]`: import an Apple Health export.
enum ImportCommand: Command {
    static let configuration = CommandConfiguration(
        name: "import",
        abstract: "Import an Apple Health export (export.zip or export.xml), idempotently.",
        discussion: "Each record gets a UUID derived from its content, so importing the same export again, or a later export that holds an earlier one, adds only what is new. Besides the records, workouts and correlations of export.xml, the zip's workout routes (GPX), electrocardiograms (CSV) and clinical records (FHIR) are imported as samples; a route or clinical file the XML names but the zip lacks or cannot parse is listed and the rest imports. The whole document is checked before anything is written: malformed XML, an empty, truncated or non-export file exits 2 with what is wrong (and where) and writes nothing. Prints the new anchor on stdout; counts per element and per type, what could not be mapped, and a summary on stderr. Progress goes to stderr when it is a terminal.")

    struct Options: OptionGroup {
        let mirror = Flag(
            "--mirror",
            help: "Delete (with delete events) the samples earlier imports brought in that this export no longer holds; samples that did not come from an import are never touched."
        )
        let noSync = Flag("--no-sync", help: "Do not wait for fdatasync before reporting success.")
        let file = Positional("<file>", help: "The export: the zip the Health app writes, or the XML document inside it.") { paths in
            guard paths.count == 1, let path = paths.first else {
                throw HealthLogError(.badUsage, paths.isEmpty ? "missing the export file" : "expected one export file")
            }
            try PathKind.expectFile(path, "import", hint: "give the export's zip, or the export.xml inside its folder")
            return path
        }

        var members: [any OptionMember] { [mirror, noSync, file] }
    }

    static func run(_ arguments: ParsedArguments<Options>, _ context: Context) throws -> Int32 {
        let path = try arguments.file
        let store = try context.store(sync: !arguments.noSync)
        let progress = ProgressLine("import", context.terminal, unit: "MB")
        try ImportWorker(store: store, mirror: arguments.mirror, path: path, executable: context.importWorker).run(context.terminal, progress)
        return ExitCode.success
    }
}
