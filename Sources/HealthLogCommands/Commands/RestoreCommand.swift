import HealthLog

/// `healthlog restore`: put a backup in place of the store, as a new timeline, whole or
/// cut at a point in time (`--to`).
enum RestoreCommand {
    static let spec = CommandSpec(
        name: "restore", abstract: "Restore a backup into the store directory, verified and atomically, as a new timeline.", usage: "[--force] [--to <anchor|date>] <src>",
        arguments: [("<src>", "A directory 'healthlog backup' wrote.")],
        options: [
            .init(name: "--force", help: "Replace the store at the store directory; without it the directory must be missing or empty."),
            .init(
                name: "--to", value: "anchor|date",
                help: "Point-in-time recovery: bring back only the appends that ended at or before the anchor's position (a token, 0 or a sequence number), or were committed at or before the date (2026-11-30 or an ISO 8601 instant), never part of an append. What the backup holds after it is discarded history. An anchor of another store, past the backup's head or inside history the backup had discarded, and a date after the backup was taken, are refused with exit 3."),
        ],
        discussion: "Every file of the backup is checked against its manifest (size and SHA-256) and the copy verified before the store directory is touched: a damaged, incomplete or tampered backup is refused with exit 1 and the directory is left as it was. The new store is built beside the directory and swapped in with one rename, so a crash leaves the old store or the new one. The restore starts a new timeline: anchors up to the last event kept keep working, anchors into the history it discards are refused with exit 3, and new events get sequence numbers above every number issued before. Prints the restored store's head anchor on stdout; progress goes to stderr when it is a terminal.")

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> Int32 {
        guard arguments.positionals.count == 1 else { throw HealthLogError(.badUsage, "restore takes one backup directory") }
        let point = try arguments.value("--to").map(RestorePoint.init(parsing:))
        let store = try context.store()
        let copying = ProgressLine("restore (copy)", context.terminal, unit: "files")
        let verifying = ProgressLine("restore (verify)", context.terminal)
        let report = try store.restore(from: arguments.positionals[0], force: arguments.has("--force"), to: point) { step in
            switch step.stage {
            case .copying: copying.update(step.done, step.total)
            case .verifying:
                copying.finish()
                verifying.update(step.done, step.total)
            }
        }
        copying.finish()
        verifying.finish()
        for leftover in report.leftoversRemoved { context.terminal.note("removed \(leftover), left by an interrupted restore") }
        context.terminal.print(try store.headAnchor().token)
        context.terminal.flush()
        let discarded = report.discarded.map { "; sequence \($0.lowerBound)…\($0.upperBound) discarded" } ?? ""
        let cut = report.keptSeq < report.backupHeadSeq ? " (cut at sequence \(report.keptSeq) of the backup's \(report.backupHeadSeq))" : ""
        context.terminal.summary(
            "restored \(String(counting: report.keptSeq, "event"))\(cut) from \(String(counting: report.filesCopied, "file")) (\(String(counting: report.bytesCopied, "byte"))); new timeline from sequence \(report.firstSeq)\(discarded); verified")
        return ExitCode.success
    }
}
