/// The man page, `healthlog.1`, in roff: the same declarations as `--help`, one section per
/// command.
enum ManPage {
    static func text(_ commands: [CommandSpec]) -> String {
        var text = """
            .\\" Generated from the command declarations by `tools/docs --reference`: do not edit.
            .TH HEALTHLOG 1 "" "healthlog" "User Commands"
            .nh
            .SH NAME
            healthlog \\- \(escape(lowercasedFirst(ToolHelp.overview.dropLast())))
            .SH SYNOPSIS
            .B healthlog
            [\\fB\\-\\-store\\fR \\fIdir\\fR] \\fIcommand\\fR [\\fIoptions\\fR]
            .SH DESCRIPTION
            \(escape(ToolHelp.overview))
            Every command has \\fB\\-\\-help\\fR; \\fBhealthlog help\\fR \\fIcommand\\fR prints the same page.
            .SH OPTIONS

            """
        for row in ToolHelp.options { text += entry(row.left, row.help) }
        text += ".SH COMMANDS\n"
        for command in commands { text += section(command) }
        text += ".SH ENVIRONMENT\n"
        for row in ToolHelp.environment { text += entry(row.left, row.help) }
        text += ".SH \"EXIT STATUS\"\n"
        for row in ToolHelp.exitCodes { text += entry(row.left, row.help) }
        return text
    }

    /// One command: its usage, abstract, arguments, options and discussion.
    private static func section(_ command: CommandSpec) -> String {
        var text = ".SS \(command.name)\n\\fB\(escape(command.usageLine))\\fR\n.PP\n\(escape(command.abstract))\n"
        for argument in command.arguments { text += entry(argument.name, argument.helpText) }
        for option in command.options { text += entry(option.helpLeft, option.helpText) }
        if let discussion = command.configuration.discussion { text += ".PP\n\(escape(discussion))\n" }
        return text
    }

    /// A tagged paragraph: the spelling in bold, its meaning indented below.
    private static func entry(_ left: String, _ help: String) -> String {
        ".TP\n\\fB\(escape(left))\\fR\n\(escape(help))\n"
    }

    /// Text safe on a roff line of its own: backslashes and hyphens escaped, characters
    /// beyond ASCII named (`\[u2026]`), a leading `.` or `'` kept from reading as a request.
    static func escape<S: StringProtocol>(_ text: S) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case _ where !scalar.isASCII: out += "\\[u" + hex(scalar.value) + "]"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out.hasPrefix(".") || out.hasPrefix("'") ? "\\&" + out : out
    }

    /// `value` in at least four upper-case hex digits.
    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func lowercasedFirst<S: StringProtocol>(_ text: S) -> String {
        text.prefix(1).lowercased() + text.dropFirst()
    }
}
