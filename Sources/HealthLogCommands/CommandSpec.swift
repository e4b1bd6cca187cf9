/// A command as the dispatcher, help and the generated reference see it: its prose, its
/// declarations, the usage line made from them, and how to run it.
struct CommandSpec {
    let configuration: CommandConfiguration
    /// Every declared option and positional argument, in the order written.
    let declarations: [Declaration]
    /// Makes the usage after the command's name from the declarations.
    private let makeUsage: () -> String
    /// Parses the arguments after the command's name and runs the command.
    let run: ([String], Context) throws -> Int32

    /// A spec whose usage line `usage` makes when it is shown.
    init(configuration: CommandConfiguration, declarations: [Declaration], usage: @escaping () -> String, run: @escaping ([String], Context) throws -> Int32) {
        self.configuration = configuration
        self.declarations = declarations
        makeUsage = usage
        self.run = run
    }

    /// The usage after the command's name, made from the declarations.
    var usage: String { makeUsage() }

    var name: String { configuration.name }
    var abstract: String { configuration.abstract }

    /// The options, without the positional arguments.
    var options: [Declaration] { declarations.filter { $0.kind != .positional } }

    /// The positional arguments.
    var arguments: [Declaration] { declarations.filter { $0.kind == .positional } }

    /// `healthlog [--store <dir>] NAME USAGE`.
    var usageLine: String { "healthlog [--store <dir>] \(name)\(usage.isEmpty ? "" : " " + usage)" }

    /// The help text, in the shape OVERVIEW / USAGE / ARGUMENTS / OPTIONS.
    var help: String {
        var text = "OVERVIEW: \(abstract)\n\nUSAGE: \(usageLine)\n"
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in arguments { text += Self.row(argument.name, argument.help) }
        }
        text += "\nOPTIONS:\n"
        text += Self.row(ToolHelp.store.left, ToolHelp.store.help)
        for option in options { text += Self.row(option.helpLeft, option.helpText) }
        text += Self.row(ToolHelp.help.left, ToolHelp.help.help)
        if let discussion = configuration.discussion { text += "\n" + Self.wrap(discussion, width: 80) + "\n" }
        return text
    }

    /// `text` broken into lines of at most `width` columns at spaces.
    static func wrap(_ text: String, width: Int) -> String {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty, current.count + word.count + 1 > width {
                lines.append(current)
                current = ""
            }
            current += current.isEmpty ? String(word) : " " + word
        }
        if !current.isEmpty { lines.append(current) }
        return lines.joined(separator: "\n")
    }

    /// One aligned help row, wrapped at 80 columns.
    static func row(_ left: String, _ right: String) -> String {
        let width = 26
        let lines = wrap(right, width: 80 - width - 2).split(separator: "\n", omittingEmptySubsequences: false)
        let pad = String(repeating: " ", count: width + 2)
        var out = "  " + left
        if left.count + 2 >= width + 1 {
            out += "\n" + pad
        } else {
            out += String(repeating: " ", count: width - left.count)
        }
        out += lines.first ?? ""
        for line in lines.dropFirst() { out += "\n" + pad + line }
        return out + "\n"
    }
}

extension Declaration {
    /// The left column of the option's help row: `-o, --output <file>`.
    var helpLeft: String { short.map { "\($0), \(spelling)" } ?? spelling }

    /// The right column of the option's help row.
    var helpText: String { help + (repeatable && kind != .positional ? " Repeatable." : "") }
}
