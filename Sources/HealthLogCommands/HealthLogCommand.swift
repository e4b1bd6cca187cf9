package import HealthLog

/// The `healthlog` tool: global options, command dispatch, error reporting and exit codes.
/// The shipping executable and the test-only fault tool both call ``main(_:faults:importWorker:)``.
package enum HealthLogCommand {
    /// Every command, in the order `--help` lists them.
    static var commands: [(spec: CommandSpec, run: (ParsedArguments, Context) throws -> Int32)] {
        [
        (AppendCommand.spec, AppendCommand.run),
        (AddCommand.spec, AddCommand.run),
        (DeleteCommand.spec, DeleteCommand.run),
        (ReplayCommand.spec, ReplayCommand.run),
        (ExportCommand.spec, ExportCommand.run),
        (AggregateCommand.spec, AggregateCommand.run),
        (PlotCommand.spec, PlotCommand.run),
        (BackupCommand.spec, BackupCommand.run),
        (RestoreCommand.spec, RestoreCommand.run),
        (RecoverCommand.spec, RecoverCommand.run),
        (AnchorCommand.spec, AnchorCommand.run),
        (LogCommand.spec, LogCommand.run),
        (StatsCommand.spec, StatsCommand.run),
        (VerifyCommand.spec, VerifyCommand.run),
        (ReindexCommand.spec, ReindexCommand.run),
        (CompactCommand.spec, CompactCommand.run),
        (ImportCommand.spec, ImportCommand.run),
        ]
    }

    /// The top-level help.
    static var help: String {
        var text = CommandSpec.wrap(
            "OVERVIEW: An append-only, LZ4-compressed event log of health samples with HealthKit-style anchored queries.",
            width: 80)
        text += "\n\nUSAGE: healthlog [--store <dir>] <command> [<options>]\n\nOPTIONS:\n"
        text += CommandSpec.row("--store <dir>", "The store directory (default: $HEALTHLOG_STORE, else ./healthlog.store).")
        text += CommandSpec.row("-h, --help", "Show help information.")
        text += CommandSpec.row("--version", "Show the tool's version and the store format versions it writes.")
        text += "\nCOMMANDS:\n"
        for command in commands { text += CommandSpec.row(command.spec.name, command.spec.abstract) }
        text += "\n  See 'healthlog help <command>' for detailed help.\n\nENVIRONMENT:\n"
        text += CommandSpec.row("HEALTHLOG_STORE", "The store directory when --store is not given.")
        text += CommandSpec.row("HEALTHLOG_LOCK_TIMEOUT", "Seconds a writer waits for another writer's lock (default 10).")
        text += CommandSpec.row("HEALTHLOG_SEGMENT_BYTES", "Segment size limit in bytes (default 64 MiB).")
        text += CommandSpec.row("HEALTHLOG_BATCH_BYTES", "NDJSON bytes per batch (default 1 MiB).")
        text += "\nEXIT CODES:\n"
        text += CommandSpec.row("0", "Success.")
        text += CommandSpec.row("1", "Store or I/O failure (damage, permissions, disk full, lock timeout, no store).")
        text += CommandSpec.row("2", "Bad usage or bad input; nothing was written.")
        text += CommandSpec.row("3", "Anchor refused: malformed, from another store, or past the head.")
        return text
    }

    /// Runs the tool with `arguments` (without the program name); returns the exit code.
    /// A command that opens the store calls `faults` for the faults to inject: none in the
    /// shipping tool; the fault tool's closure parses `HEALTHLOG_TEST_FAULT` and throws
    /// ``HealthLogError/Code/badUsage`` when it is malformed. `import` runs the executable
    /// `importWorker` found beside this one (the fault tool names the worker's test twin).
    package static func main(
        _ arguments: [String], faults: @escaping () throws -> FaultPlan = { FaultPlan() }, importWorker: String = "healthlog-import"
    ) -> Int32 {
        let terminal = Terminal()
        var rest: [String] = []
        var storePath = Context.environment("HEALTHLOG_STORE") ?? "./healthlog.store"
        var index = 0
        var sawSeparator = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if sawSeparator {
                rest.append(argument)
            } else if argument == "--" {
                sawSeparator = true
                rest.append(argument)
            } else if argument == "--store" {
                guard index < arguments.count else { return usageError("option '--store' needs a value", terminal, nil) }
                storePath = arguments[index]
                index += 1
            } else if argument.hasPrefix("--store=") {
                storePath = String(argument.dropFirst(8))
            } else {
                rest.append(argument)
            }
        }
        if rest.first == "--version" {
            terminal.print(ToolVersion.line)
            terminal.flush()
            return ExitCode.success
        }
        guard let name = rest.first, name != "--help", name != "-h", name != "help" else {
            if rest.count > 1, let command = commands.first(where: { $0.spec.name == rest[1] }) {
                terminal.print(command.spec.help.dropLast().description)
            } else {
                terminal.print(String(help.dropLast()))
            }
            terminal.flush()
            return ExitCode.success
        }
        guard let command = commands.first(where: { $0.spec.name == name }) else {
            return usageError(name.hasPrefix("-") ? "unknown option '\(name)'" : "unknown command '\(name)'", terminal, nil)
        }
        let commandArguments = Array(rest.dropFirst())
        if commandArguments.contains(where: { $0 == "--help" || $0 == "-h" }) {
            terminal.print(String(command.spec.help.dropLast()))
            terminal.flush()
            return ExitCode.success
        }
        let context = Context(storePath: storePath, terminal: terminal, faults: faults, importWorker: importWorker)
        do {
            let parsed = try ParsedArguments(commandArguments, spec: command.spec)
            let status = try command.run(parsed, context)
            terminal.flush()
            return status
        } catch let error as HealthLogError {
            terminal.flush()
            if error.code == .badUsage { return usageError(error.message, terminal, command.spec) }
            terminal.failure(error.message)
            return ExitCode.of(error)
        } catch {
            terminal.flush()
            terminal.failure("\(error)")
            return ExitCode.storeFailure
        }
    }

    /// Prints a usage error the way every command does, and returns exit code 2.
    static func usageError(_ message: String, _ terminal: Terminal, _ spec: CommandSpec?) -> Int32 {
        terminal.failure(message)
        if let spec {
            terminal.error("Usage: healthlog [--store <dir>] \(spec.name)\(spec.usage.isEmpty ? "" : " " + spec.usage)")
            terminal.error("See 'healthlog \(spec.name) --help'.")
        } else {
            terminal.error("Usage: healthlog [--store <dir>] <command> [<options>]")
            terminal.error("See 'healthlog --help'.")
        }
        return ExitCode.badInput
    }
}
