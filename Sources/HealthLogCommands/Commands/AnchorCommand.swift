import HealthLog

/// `healthlog anchor`: the current head anchor.
enum AnchorCommand {
    static let spec = CommandSpec(
        name: "anchor", abstract: "Print the anchor of the last committed event.", usage: "", options: [],
        discussion: "A replay from this anchor returns only what is appended later.")

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> Int32 {
        try arguments.expectNoPositionals()
        context.terminal.print(try context.store().headAnchor().token)
        return ExitCode.success
    }
}
