import HealthLog

/// `healthlog delete UUID…`: delete live samples, all-or-nothing.
enum DeleteCommand {
    static let spec = CommandSpec(
        name: "delete", abstract: "Delete live samples by UUID, all-or-nothing.", usage: "[--no-sync] <uuid> ...",
        arguments: [("<uuid>", "The UUIDs of live samples.")],
        options: [.init(name: "--no-sync", help: "Do not wait for fdatasync before reporting success.")],
        discussion: "Prints the new anchor on stdout. A UUID that is not live, or no UUID at all, writes nothing and exits 2.")

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> Int32 {
        guard !arguments.positionals.isEmpty else { throw HealthLogError(.badUsage, "an empty delete list: give at least one UUID") }
        var lines = ""
        for (k, text) in arguments.positionals.enumerated() {
            guard let uuid = SampleUUID(text) else { throw HealthLogError(.badUsage, "argument \(k + 1): '\(text)' is not a UUID") }
            lines += "{\"op\":\"delete\",\"uuid\":\"\(uuid)\"}\n"
        }
        let summary: AppendSummary
        do {
            summary = try context.store(sync: !arguments.has("--no-sync")).append(ndjson: Array(lines.utf8))
        } catch let error as HealthLogError where error.code == .badInput {
            throw HealthLogError(.badInput, error.message.replacingLinePrefix(with: "argument"))
        }
        AppendCommand.report(summary, context)
        return ExitCode.success
    }
}

extension String {
    /// An append's error message for input the command built itself: `line N: …` becomes
    /// `WORD N: …`, or loses the prefix when `word` is `nil`.
    func replacingLinePrefix(with word: String?) -> String {
        guard hasPrefix("line "), let colon = firstIndex(of: ":") else { return self }
        let number = self[index(startIndex, offsetBy: 5)..<colon]
        guard !number.isEmpty, number.allSatisfy(\.isNumber) else { return self }
        let rest = self[index(after: colon)...].drop(while: { $0 == " " })
        return word.map { "\($0) \(number): \(rest)" } ?? String(rest)
    }
}
