import HealthLog

/// `healthlog replay`: the anchored query, once or following the log.
enum ReplayCommand {
    static let spec = CommandSpec(
        name: "replay",
        abstract: "Replay the samples and deleted objects after an anchor (an anchored query).",
        usage: "[--from <anchor>] [--type <type> ...] [predicate options] [--limit <n>] [--raw] [--follow] [--anchor-file <file>] [--format ndjson|csv|ndjson-rows]",
        options: [
            .init(name: "--from", value: "anchor", help: "Replay after this anchor: a token printed by healthlog, 0 (the beginning, the default) or a sequence number."),
            .init(name: "--type", value: "type", help: "Only this type, in full (HKQuantityTypeIdentifierHeartRate) or short (HeartRate).", repeatable: true),
        ] + PredicateOptions.options + [
            .init(name: "--limit", value: "n", help: "At most n samples plus deleted objects (0: no limit)."),
            .init(name: "--raw", help: "Every event as recorded, instead of HealthKit's view (where a sample deleted later comes back only as its deleted object)."),
            .init(name: "--follow", help: "After the events so far, keep delivering each new matching event as any process appends it, until SIGINT or SIGTERM; then print next-anchor and exit 0. Takes no --limit."),
            .init(name: "--anchor-file", value: "file", help: "Read the anchor from this file when --from is absent and the file exists; write the new anchor to it atomically once the output is flushed (with --follow, after each batch). It records what was written to stdout, not what a reader at the other end of a pipe has consumed."),
            LineOutput.option,
        ],
        discussion: "Events go to stdout as NDJSON with their seq, in sequence order; then 'next-anchor: TOKEN' goes to stderr. Predicate options combine with AND; a repeated --type, --source, --device, --uuid or --category means any of them. Predicates apply to deleted objects through the fields they carry (type, dates, source, device, UUID, sync metadata). An anchor that is malformed, from another store or past the head exits 3.")

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> Int32 {
        try arguments.expectNoPositionals()
        var request = ReplayRequest(predicate: try PredicateOptions.predicate(arguments), raw: arguments.has("--raw"))
        if let text = arguments.value("--limit") {
            guard let limit = Int(text), limit >= 0 else { throw HealthLogError(.badUsage, "--limit must be a whole number, 0 or more, not '\(text)'") }
            request.limit = limit
        }
        let follows = arguments.has("--follow")
        if follows, request.limit > 0 { throw HealthLogError(.badUsage, "--follow takes no --limit (as HealthKit's update handler)") }
        let anchorFile = arguments.value("--anchor-file")
        if let from = arguments.value("--from") {
            request.anchor = try QueryAnchor(token: from)
        } else if let anchorFile, let saved = try AnchorFile.read(anchorFile) {
            request.anchor = saved
        }
        let store = try context.store()
        request.types = try TypeOptions.identifiers(arguments, store)
        let terminal = context.terminal
        let deliver = try LineOutput.writer(arguments.value("--format"), terminal)
        let newAnchor: QueryAnchor
        if !follows, LineOutput.writesStoredLines(arguments.value("--format")) {
            // The stored lines themselves: written out per batch from where they were decoded.
            newAnchor = try store.replay(request, deliver: { terminal.writeReferenced($0) }, endOfBatch: { terminal.flushReferenced() }).newAnchor
            try finishBatch(newAnchor, terminal, anchorFile)
        } else if follows {
            let stop = try SignalStop.install()
            newAnchor = try store.follow(request, until: stop, deliver: deliver) { outcome in
                try finishBatch(outcome.newAnchor, terminal, anchorFile)
            }
        } else {
            newAnchor = try store.replay(request, deliver: deliver).newAnchor
            try finishBatch(newAnchor, terminal, anchorFile)
        }
        terminal.error("next-anchor: \(newAnchor.token)")
        return ExitCode.success
    }

    /// Flushes what was delivered, then (only then) records the anchor in the anchor file.
    private static func finishBatch(_ anchor: QueryAnchor, _ terminal: Terminal, _ anchorFile: String?) throws {
        guard let anchorFile else {
            terminal.flush()
            return
        }
        terminal.flushDurably()
        try AnchorFile.write(anchor, to: anchorFile)
    }
}
