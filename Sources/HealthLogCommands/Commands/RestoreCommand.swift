import HealthLog

/// `healthlog restore`: put a backup in place of the store, as a new timeline.
enum RestoreCommand {
    static let spec = CommandSpec(
        name: "restore", abstract: "Restore a backup into the store directory, verified and atomically, as a new timeline.", usage: "[--force] <src>",
        arguments: [("<src>", "A directory 'healthlog backup' wrote.")],
        options: [.init(name: "--force", help: "Replace the store at the store directory; without it the directory must be missing or empty.")],
        discussion: "Every file of the backup is checked against its manifest (size and SHA-256) and the copy verified before the store directory is touched: a damaged, incomplete or tampered backup is refused with exit 1 and the directory is left as it was. The new store is built beside the directory and swapped in with one rename, so a crash leaves the old store or the new one. The restore starts a new timeline: anchors up to the backup's head keep working, anchors into the history it discards are refused with exit 3, and new events get sequence numbers above every number issued before. Prints the restored store's head anchor on stdout.")

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> Int32 {
        guard arguments.positionals.count == 1 else { throw HealthLogError(.badUsage, "restore takes one backup directory") }
        let store = try context.store()
        let report = try store.restore(from: arguments.positionals[0], force: arguments.has("--force"))
        for leftover in report.leftoversRemoved { context.terminal.note("removed \(leftover), left by an interrupted restore") }
        context.terminal.print(try store.headAnchor().token)
        context.terminal.flush()
        let discarded = report.discarded.map { "; sequence \($0.lowerBound)…\($0.upperBound) discarded" } ?? ""
        context.terminal.summary(
            "restored \(String(counting: report.keptSeq, "event")) from \(String(counting: report.filesCopied, "file")) (\(String(counting: report.bytesCopied, "byte"))); new timeline from sequence \(report.firstSeq)\(discarded); verified")
        return ExitCode.success
    }
}
