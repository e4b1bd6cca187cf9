import HealthLog

/// `healthlog compact`: drop deleted history up to a horizon.
enum CompactCommand: Command {
    static let configuration = CommandConfiguration(
        name: "compact", abstract: "Drop samples deleted before a horizon, with their deletes; older anchors below it expire. Or rewrite an encrypted store under its newest key.",
        discussion: "Rewrites only the segments holding such events, as new files beside the old ones, and commits them with one atomic rename under the writer lock: a crash at any instant leaves the old log or the new one, and readers running meanwhile see one or the other. Afterwards an anchor issued before the compaction that points below the horizon is refused with exit 3 and the advice to resync from 0; anchors issued after it stay valid. Sequence numbers and compacted UUIDs are never reused. Prints what was dropped and the bytes reclaimed on stderr; progress goes to stderr when it is a terminal.")

    struct Options: OptionGroup {
        let horizon = Option(
            "--horizon", "date|anchor",
            help:
                "Drop deletes appended before this date (an ISO 8601 instant, or YYYY-MM-DD for its midnight UTC), or at or before this anchor (a token, or a sequence number), with the samples they deleted."
        ) { text in
            if let date = Timestamp(commandLine: text) { return CompactionHorizon.date(date) }
            return .anchor(try DateHint.anchorOrDate(text, "--horizon") { try QueryAnchor(token: text) })
        }
        let rekey = Flag(
            "--rekey",
            help:
                "Encrypted store: also rewrite every segment sealed under a key epoch older than the current one ('healthlog key rotate' starts a new one), then rebuild the indexes, so no file needs the older keys.")

        var members: [any OptionMember] { [horizon, rekey] }
    }

    static func run(_ arguments: ParsedArguments<Options>, _ context: Context) throws -> Int32 {
        let horizon = try arguments.horizon
        let rekey = arguments.rekey
        guard horizon != nil || rekey else { throw HealthLogError(.badUsage, "compact needs --horizon DATE, --horizon ANCHOR or --rekey") }
        let progress = ProgressLine("compact", context.terminal)
        let store = try context.store()
        let report = rekey
            ? try store.rekey(horizon: horizon, progress: progress.update) : try store.compact(horizon: horizon!, progress: progress.update)
        progress.finish()
        if let torn = report.recoveredTail { context.terminal.note("cut a \(torn.summary)") }
        defer { if rekey { epochNote(report, context) } }
        if report.generation == 0 {
            context.terminal.summary(
                rekey
                    ? "nothing to rewrite: every segment is sealed under the current key epoch" + (horizon == nil ? "" : " and no delete at or before sequence \(report.horizonSeq) is left")
                    : "nothing to compact: no delete at or before sequence \(report.horizonSeq) is left")
            return ExitCode.success
        }
        if rekey, report.eventsDropped == 0 {
            if report.generation > 0 {
                context.terminal.summary("rewrote \(report.segmentsRewritten) of \(String(counting: report.segments, "segment")) under the current key epoch; rebuilt the indexes")
            }
            return ExitCode.success
        }
        context.terminal.summary(
            "compacted up to sequence \(report.horizonSeq): dropped \(String(counting: report.deletesDropped, "delete")) and their samples (\(String(counting: report.eventsDropped, "event"))), rewrote \(report.segmentsRewritten) of \(String(counting: report.segments, "segment")); \(report.bytesBefore) → \(report.bytesAfter) bytes, \(sizeChange(report))")
        if report.filesWaitingForReaders > 0 {
            context.terminal.note("\(String(counting: report.filesWaitingForReaders, "superseded segment")) stay until no reader has them open; the next writer removes them")
        }
        return ExitCode.success
    }

    /// The bytes `report`'s compaction reclaimed, or, when the lists of dropped events (24
    /// bytes each in their batch's header, so their UUIDs stay refused) outweigh the
    /// compressed events they replace, what the log grew by and why.
    private static func sizeChange(_ report: CompactReport) -> String {
        guard report.bytesReclaimed < 0 else { return "reclaimed \(String(counting: report.bytesReclaimed, "byte"))" }
        return "grew by \(String(counting: -report.bytesReclaimed, "byte")): each dropped event stays listed in its batch header (24 bytes), so its UUID stays refused"
    }

    /// The note of a rekey on the key epochs it removed from the slots, or why it kept them.
    private static func epochNote(_ report: CompactReport, _ context: Context) {
        if !report.epochsDropped.isEmpty {
            context.terminal.note("removed key epoch\(report.epochsDropped.count == 1 ? "" : "s") \(report.epochsDropped.map(String.init).joined(separator: ", ")) from every key slot")
        } else if report.filesWaitingForReaders > 0 {
            context.terminal.note("the older key epochs stay in the key slots until no reader holds the superseded segments; run 'healthlog compact --rekey' again then")
        }
    }
}
