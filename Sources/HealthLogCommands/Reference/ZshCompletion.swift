/// The zsh completion function, `_healthlog`: `_arguments` specs made from each command's
/// declarations.
enum ZshCompletion {
    static func script(_ commands: [CommandSpec]) -> String {
        let help = "'(- *)'{-h,--help}'[\(quote(describe(ToolHelp.help.help)))]'"
        var text = """
            #compdef healthlog
            # zsh completion for healthlog. Generated from the command declarations by
            # `tools/docs --reference`: do not edit. Install it as _healthlog in a directory of $fpath.

            _healthlog() {
                local curcontext=$curcontext state line
                _arguments -C \\
                    '--store[\(quote(describe(ToolHelp.store.help)))]:dir:_files -/' \\
                    '(--key-file)--passphrase-file[\(quote(describe(ToolHelp.passphraseFile.help)))]:file:_files' \\
                    '(--passphrase-file)--key-file[\(quote(describe(ToolHelp.keyFile.help)))]:file:_files' \\
                    \(help) \\
                    '(- *)--version[\(quote(describe(ToolHelp.version.help)))]' \\
                    '1:command:_healthlog_commands' \\
                    '*:: :->arguments' && return
                case $words[1] in
                    help) _healthlog_commands ;;

            """
        for command in commands {
            let specs = command.options.map(spec) + [help] + command.arguments.map(argument)
            text += "        \(command.name))\n            _arguments \\\n"
            text += specs.map { "                " + $0 }.joined(separator: " \\\n") + " ;;\n"
        }
        text += """
                esac
            }

            _healthlog_commands() {
                local -a commands=(

            """
        for command in commands { text += "        '\(command.name):\(quote(Reference.summary(command.abstract)))'\n" }
        text += """
                )
                _describe -t commands 'healthlog command' commands
            }

            _healthlog "$@"

            """
        return text
    }

    /// The `_arguments` spec of an option.
    private static func spec(_ option: Declaration) -> String {
        let explanation = "[\(quote(describe(option.helpText)))]"
        let value = option.value.map { ":\($0):\(action(option.completion))" } ?? ""
        if let short = option.short {
            return "'(\(short) \(option.name))'{\(short),\(option.name)}'\(explanation)\(value)'"
        }
        return "'\(option.repeatable ? "*" : "")\(option.name)\(explanation)\(value)'"
    }

    /// The `_arguments` spec of a positional argument.
    private static func argument(_ argument: Declaration) -> String {
        let name = String(argument.name.dropFirst().dropLast())
        let prefix = argument.repeatable ? "*:" : argument.inUsage == .required ? ":" : "::"
        return "'\(prefix)\(name):\(action(argument.completion))'"
    }

    /// The `_arguments` action that offers a completion.
    private static func action(_ completion: Completion) -> String {
        switch completion {
        case .none: " "
        case .file: "_files"
        case .directory: "_files -/"
        case .choices(let words): "(\(words.joined(separator: " ")))"
        }
    }

    /// A description: the first sentence, with `\`, `[` and `]` escaped for `_arguments`.
    private static func describe(_ help: String) -> String {
        var out = ""
        for character in Reference.summary(help) {
            if "\\[]".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// Text for inside a single-quoted word.
    private static func quote(_ text: String) -> String {
        text.replacing("'", with: "'\\''")
    }
}
