import HealthLog

/// The command line of `healthlog-mirror`, parsed.
struct MirrorOptions {
    /// The help text, in the shape of `healthlog`'s.
    static let help = """
        OVERVIEW: Keep a SQLite mirror of a healthlog store in sync by anchors.

        Each batch of changes (samples added, samples deleted) is applied to the mirror
        together with its anchor in one transaction, so the mirror never records an anchor
        past data it lacks. A run that was interrupted, even by a crash, is resumed by
        running it again.

        USAGE: \(usage)

        OPTIONS:
          --db <file>       The SQLite database to keep in sync; created with mode 0600
                            if absent.
          --store <dir>     The store directory (default: $HEALTHLOG_STORE, else
                            ./healthlog.store).
          --type <type>     Only this type, in full (HKQuantityTypeIdentifierHeartRate)
                            or short (HeartRate). Repeatable. A mirror keeps the types it
                            was created with.
          --batch <n>       Samples plus deletes per transaction while catching up
                            (default 1000).
          --follow          After catching up, mirror each change as it is appended,
                            until SIGINT or SIGTERM; then finish the transaction in hand
                            and exit 0.
          -h, --help        Show help information.

        EXIT CODES: 0 success; 1 store, database or I/O failure; 2 bad usage; 3 the
        mirror's anchor refused by the store (a mirror of another store).

        """
    /// The usage line.
    static let usage = "healthlog-mirror --db <file> [--store <dir>] [--type <type> ...] [--batch <n>] [--follow]"

    /// The SQLite file.
    var database = ""
    /// The store directory.
    var store: String
    /// The type names given, as typed.
    var types: [String] = []
    /// The page size for catching up.
    var batchSize = 1000
    /// Whether to keep following after catching up.
    var follows = false
    /// Whether help was asked for.
    var wantsHelp = false

    /// Parses `arguments` (without the program name); `environment` supplies the default
    /// store.
    ///
    /// - Throws: `HealthLogError` with code `badUsage` naming the bad argument.
    init(_ arguments: [String], environment: [String: String]) throws {
        store = environment["HEALTHLOG_STORE"] ?? "healthlog.store"
        var rest = arguments[...]
        var given: Set<String> = []
        while let argument = rest.popFirst() {
            var name = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            func value() throws -> String {
                if let inline { return inline }
                guard let next = rest.popFirst() else { throw HealthLogError(.badUsage, "option '\(name)' needs a value") }
                return next
            }
            if name != "--type", !given.insert(name).inserted {
                throw HealthLogError(.badUsage, "option '\(name)' is given twice")
            }
            switch name {
            case "-h", "--help": wantsHelp = true
            case "--db": database = try value()
            case "--store": store = try value()
            case "--type": types.append(try value())
            case "--follow" where inline == nil: follows = true
            case "--batch":
                let text = try value()
                guard let number = Int(text), (1...1_000_000).contains(number) else {
                    throw HealthLogError(.badUsage, "--batch takes a number from 1 to 1000000, not '\(text)'")
                }
                batchSize = number
            case "--follow": throw HealthLogError(.badUsage, "option '--follow' takes no value")
            default:
                throw HealthLogError(.badUsage, name.hasPrefix("-") ? "unknown option '\(name)'" : "unexpected argument '\(name)'")
            }
        }
        if !wantsHelp, database.isEmpty { throw HealthLogError(.badUsage, "missing --db <file>: the SQLite database to keep in sync") }
    }
}
