import HealthLog

/// `healthlog reindex`: rebuild every index from the segments.
enum ReindexCommand: Command {
    static let configuration = CommandConfiguration(
        name: "reindex", abstract: "Rebuild the indexes from the segments.",
        discussion: "Removes and rebuilds each segment's sidecar index, the UUID index and the sync-identifier table, holding the writer lock. Indexes are derived data: healthlog also detects and rebuilds damaged or stale ones by itself. Progress goes to stderr when it is a terminal.")

    static func run(_ arguments: ParsedArguments<NoOptions>, _ context: Context) throws -> Int32 {
        let progress = ProgressLine("reindex", context.terminal)
        let report = try context.store().reindex(progress: progress.update)
        progress.finish()
        if let torn = report.recoveredTail { context.terminal.note("cut a \(torn.summary)") }
        context.terminal.print("reindexed \(String(counting: report.events, "event")): \(String(counting: report.segmentIndexes, "segment index")), \(String(counting: report.uuids, "UUID"))")
        return ExitCode.success
    }
}
