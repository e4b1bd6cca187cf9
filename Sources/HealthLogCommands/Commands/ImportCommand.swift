import HealthLog

/// `healthlog import FILE [--mirror]`: import an Apple Health export.
enum ImportCommand {
    static let spec = CommandSpec(
        name: "import",
        abstract: "Import an Apple Health export (export.zip or export.xml), idempotently.",
        usage: "[--mirror] [--no-sync] <file>",
        arguments: [("<file>", "The export: the zip the Health app writes, or the XML document inside it.")],
        options: [
            .init(name: "--mirror", help: "Delete (with delete events) the samples earlier imports brought in that this export no longer holds; samples that did not come from an import are never touched."),
            .init(name: "--no-sync", help: "Do not wait for fdatasync before reporting success."),
        ],
        discussion: "Each record gets a UUID derived from its content, so importing the same export again, or a later export that holds an earlier one, adds only what is new. The whole document is checked before anything is written: malformed XML exits 2 with its line and column and writes nothing. Prints the new anchor on stdout; counts per element and per type, what could not be mapped, and a summary on stderr. Progress goes to stderr when it is a terminal.")

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> Int32 {
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            throw HealthLogError(.badUsage, arguments.positionals.isEmpty ? "missing the export file" : "expected one export file")
        }
        var options = ImportOptions()
        options.mirror = arguments.has("--mirror")
        let progress = ProgressLine("import", context.terminal, unit: "MB")
        let report = try context.store(sync: !arguments.has("--no-sync")).importExport(at: path, options: options) { step in
            progress.update(stage: step.phase.rawValue, step.bytesDone >> 20, max(1, step.bytesTotal >> 20))
        }
        progress.finish()
        print(report, context)
        return ExitCode.success
    }

    /// Prints the report on stderr and the anchor on stdout.
    private static func print(_ report: ImportReport, _ context: Context) {
        let terminal = context.terminal
        if let torn = report.summary.recoveredTail { terminal.note("cut a \(torn.summary)") }
        var head = "read \(report.document)"
        if let locale = report.locale { head += ", locale \(locale)" }
        if let date = report.exportDate { head += ", exported \(date)" }
        terminal.summary(head)
        terminal.error("elements:")
        for (name, count) in report.elementCounts.sorted(by: { $0.key < $1.key }) {
            let note = name == "Record" && report.correlationMembers > 0 ? " (\(report.correlationMembers) in correlations)" : ""
            terminal.error("  \(name) \(count)\(note)")
        }
        terminal.error("samples by type:")
        for (type, count) in report.typeCounts.sorted(by: { $0.key < $1.key }) { terminal.error("  \(type) \(count)") }
        if report.correlationMembersAlsoTopLevel > 0 {
            terminal.error("  (\(report.correlationMembersAlsoTopLevel) correlation members also at top level, counted once)")
        }
        if report.unmappedCount > 0 {
            let byElement = report.unmappedByElement.sorted(by: { $0.key < $1.key }).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            terminal.error("not mapped: \(report.unmappedCount) (\(byElement))")
            for item in report.unmapped { terminal.error("  \(item)") }
            if report.unmappedCount > report.unmapped.count { terminal.error("  … and \(report.unmappedCount - report.unmapped.count) more") }
        }
        let s = report.summary
        terminal.print(s.anchor.token)
        terminal.flush()
        terminal.summary("added \(s.added), already present \(s.alreadyPresent), deleted \(s.deleted), replaced \(s.replaced), skipped \(s.skipped)")
    }
}
