import HealthLog

/// `healthlog replay`: the anchored query.
enum ReplayCommand {
    static let spec = CommandSpec(
        name: "replay",
        abstract: "Replay the samples and deleted objects after an anchor (an anchored query).",
        usage: "[--from <anchor>] [--type <type> ...] [--limit <n>] [--raw] [--anchor-file <file>]",
        options: [
            .init(name: "--from", value: "anchor", help: "Replay after this anchor: a token printed by healthlog, 0 (the beginning, the default) or a sequence number."),
            .init(name: "--type", value: "type", help: "Only this type, in full (HKQuantityTypeIdentifierHeartRate) or short (HeartRate).", repeatable: true),
            .init(name: "--limit", value: "n", help: "At most n samples plus deleted objects (0: no limit)."),
            .init(name: "--raw", help: "Every event as recorded, instead of HealthKit's view (where a sample deleted later comes back only as its deleted object)."),
            .init(name: "--anchor-file", value: "file", help: "Read the anchor from this file when --from is absent and the file exists; write the new anchor to it atomically once the output is flushed."),
        ],
        discussion: "Events go to stdout as NDJSON with their seq, in sequence order; then 'next-anchor: TOKEN' goes to stderr. An anchor that is malformed, from another store or past the head exits 3.")

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> Int32 {
        try arguments.expectNoPositionals()
        var request = ReplayRequest(raw: arguments.has("--raw"))
        if let text = arguments.value("--limit") {
            guard let limit = Int(text), limit >= 0 else { throw HealthLogError(.badUsage, "--limit must be a whole number, 0 or more, not '\(text)'") }
            request.limit = limit
        }
        let anchorFile = arguments.value("--anchor-file")
        if let from = arguments.value("--from") {
            request.anchor = try QueryAnchor(token: from)
        } else if let anchorFile, let saved = try AnchorFile.read(anchorFile) {
            request.anchor = saved
        }
        let store = try context.store()
        let names = arguments.all("--type")
        if !names.isEmpty {
            request.types = Set(try names.map { try TypeNames.resolve($0, present: store.typesPresent) })
        }
        let terminal = context.terminal
        let outcome = try store.replay(request) { line in terminal.write(line) }
        if let anchorFile {
            terminal.flushDurably()
            try AnchorFile.write(outcome.newAnchor, to: anchorFile)
        } else {
            terminal.flush()
        }
        terminal.error("next-anchor: \(outcome.newAnchor.token)")
        return ExitCode.success
    }
}
