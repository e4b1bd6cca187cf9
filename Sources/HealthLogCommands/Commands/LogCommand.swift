import HealthLog

/// `healthlog log`: the store's appends, newest first, each with the anchor that
/// `restore --to` cuts at.
enum LogCommand: Command {
    static let configuration = CommandConfiguration(
        name: "log", abstract: "List the store's appends and restores, newest first: what made each, when, and the anchor to restore to.",
        discussion: "Each row is one append or restore, newest first. An append shows its sequence numbers, when it committed (UTC; for appends made before commit times were recorded, when it began, marked with ~), the adds and deletes it holds, what made it (the command, the input file, an export's date), and the anchor just past it; a restore, what it kept and the timeline it started. To undo an append, restore a backup to the anchor of the row below it: 'healthlog restore --force --to ANCHOR BACKUP'.")

    struct Options: OptionGroup {
        let limit = Option("--limit", "n", help: "Only the newest n appends, with the restores among them (0: all, the default).") { text in
            guard let n = Int(text), n >= 0 else { throw HealthLogError(.badUsage, "--limit needs a whole number, not '\(text)'") }
            return n
        }
        let format = Option("--format", "format", help: "table (the default) or ndjson: one object per append.", completion: .choices(["table", "ndjson"])) {
            text in
            let format = text.lowercased()
            guard format == "table" || format == "ndjson" else { throw HealthLogError(.badUsage, "unknown --format '\(text)': use table or ndjson") }
            return format
        }

        var members: [any OptionMember] { [limit, format] }
    }

    static func run(_ arguments: ParsedArguments<Options>, _ context: Context) throws -> Int32 {
        let limit = try arguments.limit ?? 0
        let format = try arguments.format ?? "table"
        let store = try context.store()
        guard store.exists else { throw HealthLogError(.noStore, "no store at \(store.directory)") }
        var entries = Self.entries(try store.appendHistory(), try store.restoreHistory())
        if limit > 0 { entries = Self.newest(entries, appends: limit) }
        if format == "ndjson" {
            for entry in entries { context.terminal.print(ndjson(entry)) }
        } else {
            table(entries, context.terminal)
        }
        return ExitCode.success
    }

    /// One row of the log: an append, or a restore between the appends it kept and those
    /// of the timeline it started.
    enum Entry {
        case append(AppendRecord)
        case restore(RestoreRecord)
    }

    /// Appends and restores, newest first: a restore sits below the appends of its
    /// timeline and above the ones it kept.
    static func entries(_ appends: [AppendRecord], _ restores: [RestoreRecord]) -> [Entry] {
        var out: [Entry] = []
        var pending = restores[...]
        for record in appends {
            while let restore = pending.first, restore.firstSeq > record.lastSeq {
                out.append(.restore(restore))
                pending = pending.dropFirst()
            }
            out.append(.append(record))
        }
        return out + pending.map(Entry.restore)
    }

    /// The rows down to the `count`th append, the restores between them included.
    static func newest(_ entries: [Entry], appends count: Int) -> [Entry] {
        var appends = 0
        let end = entries.firstIndex { entry in
            guard case .append = entry else { return false }
            appends += 1
            return appends == count
        }
        return end.map { Array(entries[...$0]) } ?? entries
    }

    private static func table(_ entries: [Entry], _ terminal: Terminal) {
        let rows = entries.map { entry in
            switch entry {
            case .append(let record):
                [
                    record.firstSeq == record.lastSeq ? "\(record.firstSeq)" : "\(record.firstSeq)…\(record.lastSeq)",
                    when(record), String(record.added), String(record.deleted), origin(record), record.anchor.token,
                ]
            case .restore(let restore):
                ["-", clock(restore.restoredAt), "", "", describe(restore), ""]
            }
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

    /// `restore: kept 1…20, new timeline from 31 (21…30 discarded)`.
    private static func describe(_ restore: RestoreRecord) -> String {
        let kept = restore.keptSeq == 0 ? "kept nothing" : "kept 1…\(restore.keptSeq)"
        let discarded = restore.discarded.map { " (\($0.lowerBound)…\($0.upperBound) discarded)" } ?? ""
        return "restore: \(kept), new timeline from \(restore.firstSeq)\(discarded)"
    }

    private static func ndjson(_ entry: Entry) -> String {
        switch entry {
        case .append(let record): ndjson(record)
        case .restore(let restore):
            "{\"restoredAt\":\(JSONText.string(restore.restoredAt.description)),\"keptSeq\":\(restore.keptSeq),\"firstSeq\":\(restore.firstSeq)}"
        }
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
