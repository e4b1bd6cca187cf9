import HealthLog

/// `healthlog log`: the store's appends, newest first, each with the anchor that
/// `restore --to` cuts at.
enum LogCommand {
    static let spec = CommandSpec(
        name: "log", abstract: "List the store's appends, newest first: what made each, when, and the anchor to restore to.", usage: "[--limit <n>] [--format <format>]",
        options: [
            .init(name: "--limit", value: "n", help: "Only the newest n appends (0: all, the default)."),
            .init(name: "--format", value: "format", help: "table (the default) or ndjson: one object per append."),
        ],
        discussion: "Each row is one append: its sequence numbers, when it committed (UTC; for appends made before commit times were recorded, when it began, marked with ~), the adds and deletes it holds, what made it (the command, the input file, an export's date), and the anchor just past it. To undo an append, restore a backup to the anchor of the row below it: 'healthlog restore --force --to ANCHOR BACKUP'.")

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> Int32 {
        try arguments.expectNoPositionals()
        var limit = 0
        if let text = arguments.value("--limit") {
            guard let n = Int(text), n >= 0 else { throw HealthLogError(.badUsage, "--limit needs a whole number, not '\(text)'") }
            limit = n
        }
        let format = arguments.value("--format") ?? "table"
        guard format == "table" || format == "ndjson" else { throw HealthLogError(.badUsage, "unknown --format '\(format)': use table or ndjson") }
        let store = try context.store()
        guard store.exists else { throw HealthLogError(.noStore, "no store at \(store.directory)") }
        var records = try store.appendHistory()
        if limit > 0 { records = Array(records.prefix(limit)) }
        if format == "ndjson" {
            for record in records { context.terminal.print(ndjson(record)) }
        } else {
            table(records, context.terminal)
        }
        return ExitCode.success
    }

    private static func table(_ records: [AppendRecord], _ terminal: Terminal) {
        let rows = records.map { record in
            [
                record.firstSeq == record.lastSeq ? "\(record.firstSeq)" : "\(record.firstSeq)…\(record.lastSeq)",
                when(record), String(record.added), String(record.deleted), origin(record), record.anchor.token,
            ]
        }
        let header = ["seq", "committed", "added", "deleted", "origin", "anchor"]
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        let rightAligned: Set<Int> = [2, 3]
        for row in [header] + rows {
            let cells = row.indices.map { column in
                let fill = String(repeating: " ", count: widths[column] - row[column].count)
                return rightAligned.contains(column) ? fill + row[column] : row[column] + fill
            }
            terminal.print(String(cells.joined(separator: "  ").reversed().drop { $0 == " " }.reversed()))
        }
    }

    /// `2026-12-04 10:12:33`, from the commit time, else `~` and the time the append began.
    static func when(_ record: AppendRecord) -> String {
        guard let committed = record.committedAt else { return "~" + clock(record.appendedAt) }
        return clock(committed)
    }

    private static func clock(_ instant: Timestamp) -> String {
        let text = Timestamp(microseconds: instant.microseconds, fractionDigits: 0).description
        return String(text.map { $0 == "T" ? " " : $0 }.dropLast())
    }

    /// `import export.zip (exported 2026-12-03T09:00:00Z)`, or `-` when nothing was recorded.
    static func origin(_ record: AppendRecord) -> String {
        guard let origin = record.origin else { return "-" }
        var text = origin.command
        if let file = origin.file { text += " " + file }
        if let date = origin.exportDate { text += " (exported \(date))" }
        return text
    }

    private static func ndjson(_ record: AppendRecord) -> String {
        var fields = [
            "\"firstSeq\":\(record.firstSeq)", "\"lastSeq\":\(record.lastSeq)", "\"appendedAt\":\(JSONText.string(record.appendedAt.description))",
        ]
        if let committed = record.committedAt { fields.append("\"committedAt\":\(JSONText.string(committed.description))") }
        fields += ["\"added\":\(record.added)", "\"deleted\":\(record.deleted)"]
        if let origin = record.origin {
            fields.append("\"command\":\(JSONText.string(origin.command))")
            if let file = origin.file { fields.append("\"file\":\(JSONText.string(file))") }
            if let date = origin.exportDate { fields.append("\"exportDate\":\(JSONText.string(date))") }
        }
        fields.append("\"anchor\":\(JSONText.string(record.anchor.token))")
        return "{" + fields.joined(separator: ",") + "}"
    }
}
