package import HealthLog

/// The `healthlog` tool: global options, command dispatch, error reporting and exit codes.
/// The shipping executable and the test-only fault tool both call ``main(_:faults:importWorker:)``.
package enum HealthLogCommand {
    /// Every command, in the order `--help` lists them.
    static var commandTypes: [any Command.Type] {
        [
            InitCommand.self, AppendCommand.self, AddCommand.self, DeleteCommand.self, ReplayCommand.self, ExportCommand.self, AggregateCommand.self, PlotCommand.self, WorkoutsCommand.self, SleepCommand.self, RouteCommand.self, ReportCommand.self,
            BackupCommand.self, RestoreCommand.self, RecoverCommand.self, AnchorCommand.self, LogCommand.self, StatsCommand.self, VerifyCommand.self,
            ReindexCommand.self, CompactCommand.self, ImportCommand.self, KeyCommand.self, UnlockCommand.self, LockCommand.self,
        ]
    }

    /// Every command's spec, for help and the generated reference.
    static var commands: [CommandSpec] { commandTypes.map { $0.spec } }

    /// The spec of the command called `name`; only its own options are read.
    static func command(named name: String) -> CommandSpec? {
        commandTypes.first { $0.configuration.name == name }?.spec
    }

    /// The top-level help.
    static var help: String {
        var text = CommandSpec.wrap("OVERVIEW: " + ToolHelp.overview, width: 80)
        text += "\n\nUSAGE: \(ToolHelp.usage)\n\nOPTIONS:\n"
        for row in ToolHelp.options { text += CommandSpec.row(row.left, row.help) }
        text += "\nCOMMANDS:\n"
        for command in commandTypes { text += CommandSpec.row(command.configuration.name, command.configuration.abstract) }
        text += "\n  See 'healthlog help <command>' for detailed help.\n\nENVIRONMENT:\n"
        for row in ToolHelp.environment { text += CommandSpec.row(row.left, row.help) }
        text += "\nEXIT CODES:\n"
        for row in ToolHelp.exitCodes { text += CommandSpec.row(row.left, row.help) }
        return text
    }

    /// Runs the tool with `arguments` (without the program name); returns the exit code.
    /// A command that opens the store calls `faults` for the faults to inject: none in the
    /// shipping tool; the fault tool's closure parses `HEALTHLOG_TEST_FAULT` and throws
    /// ``HealthLogError/Code/badUsage`` when it is malformed. `import` runs the executable
    /// `importWorker` found beside this one (the fault tool names the worker's test twin).
    /// `willRun` is called with the command's name just before it runs.
    package static func main(
        _ arguments: [String], faults: @escaping () throws -> FaultPlan = { FaultPlan() }, importWorker: String = "healthlog-import",
        willRun: (String) -> Void = { _ in }
    ) -> Int32 {
        let terminal = Terminal()
        var rest: [String] = []
        var storePath = Context.environment("HEALTHLOG_STORE") ?? "./healthlog.store"
        var storeOrigin = Context.environment("HEALTHLOG_STORE") == nil ? "the default store" : "HEALTHLOG_STORE"
        var secretFiles: [String: String] = [:]
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
                storeOrigin = "--store"
                index += 1
            } else if argument.hasPrefix("--store=") {
                storePath = String(argument.dropFirst(8))
                storeOrigin = "--store"
            } else if let name = ToolHelp.secretOptions.first(where: { argument == $0 || argument.hasPrefix($0 + "=") }) {
                guard secretFiles[name] == nil else { return usageError("option '\(name)' is given twice: give it once", terminal, nil) }
                if argument.count > name.count {
                    secretFiles[name] = String(argument.dropFirst(name.count + 1))
                } else {
                    guard index < arguments.count else { return usageError("option '\(name)' needs a value", terminal, nil) }
                    secretFiles[name] = arguments[index]
                    index += 1
                }
            } else {
                rest.append(argument)
            }
        }
        if rest.first == "--generate-completion-script" { return generateCompletionScript(rest.dropFirst(), terminal) }
        if rest.first == "generate-docs" { return generateDocs(rest.dropFirst(), terminal) }
        if rest.first == "--version" {
            terminal.print(ToolVersion.line)
            terminal.flush()
            return ExitCode.success
        }
        guard let name = rest.first, name != "--help", name != "-h", name != "help" else {
            if rest.count > 1, let command = command(named: rest[1]) {
                terminal.print(command.help.dropLast().description)
            } else {
                terminal.print(String(help.dropLast()))
            }
            terminal.flush()
            return ExitCode.success
        }
        guard let command = command(named: name) else {
            return usageError(name.hasPrefix("-") ? "unknown option '\(name)'" : "unknown command '\(name)'", terminal, nil)
        }
        let commandArguments = Array(rest.dropFirst())
        if commandArguments.contains(where: { $0 == "--help" || $0 == "-h" }) {
            terminal.print(String(command.help.dropLast()))
            terminal.flush()
            return ExitCode.success
        }
        guard secretFiles.count < 2 else { return usageError("give --passphrase-file or --key-file, not both", terminal, nil) }
        if secretFiles.isEmpty, SecretSources.bothFilesInEnvironment {
            return usageError("HEALTHLOG_PASSPHRASE_FILE and HEALTHLOG_KEY_FILE are both set: set one, not both", terminal, nil)
        }
        let secret = SecretSources.given(passphraseFile: secretFiles["--passphrase-file"], keyFile: secretFiles["--key-file"])
        let context = Context(storePath: storePath, secret: secret, terminal: terminal, faults: faults, importWorker: importWorker)
        do {
            try PathKind.expectDirectory(storePath, storeOrigin, hint: "a store is a directory ('healthlog --store DIR init' makes one; an export goes in with 'healthlog import FILE')")
            willRun(name)
            let status = try command.run(commandArguments, context)
            terminal.flush()
            return status
        } catch let error as HealthLogError {
            terminal.flush()
            if error.code == .badUsage { return usageError(error.message, terminal, command) }
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
            terminal.error("Usage: \(spec.usageLine)")
            terminal.error("See 'healthlog \(spec.name) --help'.")
        } else {
            terminal.error("Usage: \(ToolHelp.usage)")
            terminal.error("See 'healthlog --help'.")
        }
        return ExitCode.badInput
    }
}
