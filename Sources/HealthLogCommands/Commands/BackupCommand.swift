import HealthLog

/// `healthlog backup`: a consistent, incremental, verified copy of the store.
enum BackupCommand: Command {
    static let configuration = CommandConfiguration(
        name: "backup", abstract: "Copy the store into a directory, consistently, incrementally and verified.",
        discussion: "Runs while writers keep writing: the copy holds every append committed when it began. Files already in the backup are kept when byte-identical to the store's and replaced otherwise, the segment holding the last committed batch is copied up to it (a torn tail is never copied), and the copy (itself a store: --store DEST reads it) is verified before the command succeeds. Last, a manifest naming every file with its size and SHA-256, the store, its timeline and head (itself checksummed) is written, which 'healthlog restore' checks. Files are 0600, directories 0700. Prints the backup's head anchor on stdout; progress goes to stderr when it is a terminal.")

    struct Options: OptionGroup {
        let follow = Flag(
            "--follow",
            help: "Keep the backup current: back up again each time an append lands (woken as replay --follow is), printing 'healthlog: backed up to seq N' on stderr after each round, until SIGINT or SIGTERM; then finish the round, print the backup's head anchor and exit 0."
        )
        let destination = Positional(
            "<dest>", help: "The backup directory, outside the store: new, empty, or an earlier backup of this store.",
            exactlyOne: "backup takes one destination directory")

        var members: [any OptionMember] { [follow, destination] }
    }

    static func run(_ arguments: ParsedArguments<Options>, _ context: Context) throws -> Int32 {
        let destination = try arguments.destination
        let store = try context.store()
        if arguments.follow { return try follow(store, into: destination, context) }
        let progress = ProgressLine("backup", context.terminal, unit: "segments")
        let report = try store.backup(to: destination, progress: progress.update)
        progress.finish()
        context.terminal.print(report.headAnchor.token)
        context.terminal.flush()
        context.terminal.summary("backed up \(String(counting: report.headSeq, "event")): \(String(counting: report.filesWritten, "file")) written (\(String(counting: report.bytesWritten, "byte"))), \(report.filesKept) unchanged, \(report.filesRemoved) removed; verified")
        return ExitCode.success
    }

    /// `backup --follow`: a round now and after each append, each a whole one-off backup,
    /// until SIGINT or SIGTERM.
    private static func follow(_ store: HealthStore, into destination: String, _ context: Context) throws -> Int32 {
        let stop = try SignalStop.install()
        let last = try store.backup(to: destination, until: stop) { report in
            context.terminal.summary("backed up to seq \(report.headSeq)")
        }
        context.terminal.print(last.headAnchor.token)
        context.terminal.flush()
        return ExitCode.success
    }
}
