import HealthLog

/// `healthlog anchor`: the current head anchor.
enum AnchorCommand: Command {
    static let configuration = CommandConfiguration(
        name: "anchor", abstract: "Print the anchor of the last committed event.",
        discussion: "A replay from this anchor returns only what is appended later.")

    static func run(_ arguments: ParsedArguments<NoOptions>, _ context: Context) throws -> Int32 {
        context.terminal.print(try context.store().headAnchor().token)
        return ExitCode.success
    }
}
