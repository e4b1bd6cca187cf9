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
        let uuids = try arguments.positionals.enumerated().map { k, text in
            guard let uuid = SampleUUID(text) else { throw HealthLogError(.badUsage, "argument \(k + 1): '\(text)' is not a UUID") }
            return uuid
        }
        AppendCommand.report(try context.store(sync: !arguments.has("--no-sync"), origin: AppendOrigin(command: "delete")).append(deleting: uuids), context)
        return ExitCode.success
    }
}
