import HealthLog

/// `healthlog delete UUID…`: delete live samples, all-or-nothing.
enum DeleteCommand: Command {
    static let configuration = CommandConfiguration(
        name: "delete", abstract: "Delete live samples by UUID, all-or-nothing.",
        discussion: "Prints the new anchor on stdout. A UUID that is not live, or no UUID at all, writes nothing and exits 2.")

    struct Options: OptionGroup {
        let noSync = Flag("--no-sync", help: "Do not wait for fdatasync before reporting success.")
        let uuids = Positional("<uuid>", help: "The UUIDs of live samples.", repeatable: true, completion: .none) { texts in
            guard !texts.isEmpty else { throw HealthLogError(.badUsage, "an empty delete list: give at least one UUID") }
            return try texts.enumerated().map { k, text in
                guard let uuid = SampleUUID(text) else { throw HealthLogError(.badUsage, "argument \(k + 1): '\(text)' is not a UUID") }
                return uuid
            }
        }

        var members: [any OptionMember] { [noSync, uuids] }
    }

    static func run(_ arguments: ParsedArguments<Options>, _ context: Context) throws -> Int32 {
        let uuids = try arguments.uuids
        AppendCommand.report(try context.store(sync: !arguments.noSync, origin: AppendOrigin(command: "delete")).append(deleting: uuids), context)
        return ExitCode.success
    }
}
