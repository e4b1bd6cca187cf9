import HealthLog

/// `healthlog unlock`: keep an encrypted store's keys in the kernel keyring for a while.
enum UnlockCommand: Command {
    static let configuration = CommandConfiguration(
        name: "unlock", abstract: "Keep an encrypted store's keys in the kernel keyring for a while.",
        discussion: "Opens the store with its secret once, then keeps its unwrapped data keys in the user's kernel keyring (Linux keyutils), which drops them when the time is up: until then, this user's commands on the store ask for no secret and pay no key derivation. 'healthlog lock' drops them at once; 'key rotate' updates them. Where no kernel keyring is available (a container that forbids it, or another system) it says so and exits 1.")

    /// How long `unlock` keeps the keys without --for.
    static let defaultSeconds: UInt32 = 15 * 60
    /// The longest --for.
    static let maximumSeconds: UInt32 = 7 * 24 * 3600

    struct Options: OptionGroup {
        let duration = Option(
            "--for", "duration", help: "How long to keep the keys: a number with s, m, h or d (30m, 8h; default 15m, at most 7d)."
        ) { text in
            guard let unit = text.last, let value = UInt32(text.dropLast()), value > 0,
                let scale = ["s": UInt32(1), "m": 60, "h": 3600, "d": 86400][String(unit)],
                value <= UnlockCommand.maximumSeconds / scale
            else {
                throw HealthLogError(.badUsage, "--for takes a duration such as 30m, 8h or 2d (at most 7d), not '\(text)'")
            }
            return value * scale
        }

        var members: [any OptionMember] { [duration] }
    }

    static func run(_ arguments: ParsedArguments<Options>, _ context: Context) throws -> Int32 {
        let seconds = try arguments.duration ?? defaultSeconds
        try context.store().unlock(seconds: seconds)
        context.terminal.summary("unlocked \(context.storePath) for \(describe(seconds)); 'healthlog lock' locks it again")
        return ExitCode.success
    }

    /// `seconds` as "15 minutes", "8 hours".
    static func describe(_ seconds: UInt32) -> String {
        if seconds % 86400 == 0 { return String(counting: Int(seconds / 86400), "day") }
        if seconds % 3600 == 0 { return String(counting: Int(seconds / 3600), "hour") }
        if seconds % 60 == 0 { return String(counting: Int(seconds / 60), "minute") }
        return String(counting: Int(seconds), "second")
    }
}
