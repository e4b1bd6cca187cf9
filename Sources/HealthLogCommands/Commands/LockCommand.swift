import HealthLog

/// `healthlog lock`: drop the keys `unlock` left in the keyring.
enum LockCommand: Command {
    static let configuration = CommandConfiguration(
        name: "lock", abstract: "Drop the keys 'healthlog unlock' keeps for an encrypted store.",
        discussion: "After it, commands on the store need its passphrase or key file again. Needs no secret; a store that is not unlocked is no error.")

    static func run(_ arguments: ParsedArguments<NoOptions>, _ context: Context) throws -> Int32 {
        let dropped = try HealthStore(directory: context.storePath, options: try context.storeOptions()).lock()
        context.terminal.summary(dropped ? "locked \(context.storePath)" : "\(context.storePath) was not unlocked")
        return ExitCode.success
    }
}
