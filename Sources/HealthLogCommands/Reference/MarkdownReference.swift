/// The Markdown command reference: an overview page and a page per command, made from
/// the same declarations as `--help`.
enum MarkdownReference {
    static let notice = "<!-- Generated from the command declarations by `tools/docs --reference`: do not edit. -->"

    /// `docs/reference/healthlog.md`: usage, global options, the commands, environment and exit codes.
    static func overview(_ commands: [CommandSpec]) -> String {
        var text = "\(notice)\n\n# healthlog\n\n\(escape(ToolHelp.overview))\n\n```\n\(ToolHelp.usage)\n```\n\n"
        text += "Every command has `--help`; `healthlog help <command>` prints the same page. What each command does and prints: "
        text += "[Commands](../commands.md).\n\n## Options\n\n"
        for row in ToolHelp.options { text += item(row.left, row.help) }
        text += "\n## Commands\n\n| command | what it does |\n|---|---|\n"
        for command in commands { text += "| [`\(command.name)`](\(command.name).md) | \(cell(command.abstract)) |\n" }
        text += "\n## Environment\n\n| variable | meaning |\n|---|---|\n"
        for row in ToolHelp.environment { text += "| `\(row.left)` | \(cell(row.help)) |\n" }
        text += "\n## Exit codes\n\n| code | meaning |\n|---:|---|\n"
        for row in ToolHelp.exitCodes { text += "| \(row.left) | \(cell(row.help)) |\n" }
        return text
    }

    /// `docs/reference/COMMAND.md`: the command's help as Markdown.
    static func page(_ command: CommandSpec) -> String {
        var text = "\(notice)\n\n# healthlog \(command.name)\n\n\(escape(command.abstract))\n\n```\n\(command.usageLine)\n```\n"
        if !command.arguments.isEmpty {
            text += "\n## Arguments\n\n"
            for argument in command.arguments { text += item(argument.name, argument.helpText) }
        }
        text += "\n## Options\n\n"
        for option in command.options { text += item(option.helpLeft, option.helpText) }
        text += item(ToolHelp.store.left, ToolHelp.store.help) + item(ToolHelp.help.left, ToolHelp.help.help)
        if let discussion = command.configuration.discussion { text += "\n" + escape(discussion) + "\n" }
        return text + "\nSee also: [all commands](healthlog.md).\n"
    }

    /// One list item: the spelling as code, then what it means.
    private static func item(_ left: String, _ help: String) -> String {
        "- `\(left)`: \(escape(help))\n"
    }

    /// A table cell: `|` escaped too.
    private static func cell(_ text: String) -> String {
        escape(text).replacing("|", with: "\\|")
    }

    /// Prose with the characters Markdown would read as markup escaped.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\<*`".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
