import HealthLog

/// `healthlog replay`: the anchored query, once or following the log.
enum ReplayCommand: Command {
    static let configuration = CommandConfiguration(
        name: "replay",
        abstract: "Replay the samples and deleted objects after an anchor (an anchored query).",
        discussion: "Events go to stdout as NDJSON with their seq, in sequence order; then 'next-anchor: TOKEN' goes to stderr. Predicate options combine with AND; a repeated --type, --source, --device, --uuid or --category means any of them. Predicates apply to deleted objects through the fields they carry (type, dates, source, device, UUID, sync metadata). An anchor that is malformed, from another store or past the head exits 3.")

    struct Options: OptionGroup {
        let from = Option(
            "--from", "anchor", help: "Replay after this anchor: a token printed by healthlog, 0 (the beginning, the default) or a sequence number.",
            parse: QueryAnchor.init(token:))
        let type = Repeated("--type", "type", help: "Only this type, in full (HKQuantityTypeIdentifierHeartRate) or short (HeartRate).")
        let predicate = PredicateOptions()
        let limit = Option("--limit", "n", help: "At most n samples plus deleted objects (0: no limit).") { text in
            guard let limit = Int(text), limit >= 0 else { throw HealthLogError(.badUsage, "--limit must be a whole number, 0 or more, not '\(text)'") }
            return limit
        }
        let raw = Flag(
            "--raw", help: "Every event as recorded, instead of HealthKit's view (where a sample deleted later comes back only as its deleted object).")
        let follow = Flag(
            "--follow",
            help:
                "After the events so far, keep delivering each new matching event as any process appends it, until SIGINT or SIGTERM; then print next-anchor and exit 0. Takes no --limit."
        )
        let anchorFile = Option(
            "--anchor-file", "file",
            help:
                "Read the anchor from this file when --from is absent and the file exists; write the new anchor to it atomically once the output is flushed (with --follow, after each batch). It records what was written to stdout, not what a reader at the other end of a pipe has consumed.",
            completion: .file)
        let format = LineOutput.option

        var members: [any OptionMember] { [from, type, predicate, limit, raw, follow, anchorFile, format] }
    }

    static func run(_ arguments: ParsedArguments<Options>, _ context: Context) throws -> Int32 {
        var request = ReplayRequest(predicate: try arguments.predicate.predicate(), raw: arguments.raw)
        if let limit = try arguments.limit { request.limit = limit }
        let follows = arguments.follow
        if follows, request.limit > 0 { throw HealthLogError(.badUsage, "--follow takes no --limit (as HealthKit's update handler)") }
        let anchorFile = try arguments.anchorFile
        if let anchorFile { try PathKind.expectFile(anchorFile, "--anchor-file") }
        if let from = try arguments.from {
            request.anchor = from
        } else if let anchorFile, let saved = try AnchorFile.read(anchorFile) {
            request.anchor = saved
        }
        let store = try context.store()
        request.types = try TypeOptions.identifiers(try arguments.type, store)
        let terminal = context.terminal
        let format = try arguments.format ?? .ndjson
        let deliver = format.writer(terminal)
        let newAnchor: QueryAnchor
        if !follows, format == .ndjson {
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
