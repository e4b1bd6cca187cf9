/// The bash completion script: command names, each command's options, and the values an
/// option or argument takes (a file, a directory, or one of a few words).
enum BashCompletion {
    static func script(_ commands: [CommandSpec]) -> String {
        var text = """
            # bash completion for healthlog. Generated from the command declarations by
            # `tools/docs --reference`: do not edit. Load it with `source healthlog.bash`, or install
            # it as /usr/share/bash-completion/completions/healthlog.

            _healthlog() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
                local i=1 command=""
                while [[ $i -lt $COMP_CWORD ]]; do
                    case ${COMP_WORDS[i]} in
                        --store|--passphrase-file|--key-file) ((i++)) ;;
                        -*) ;;
                        *) command=${COMP_WORDS[i]}; break ;;
                    esac
                    ((i++))
                done
                case $prev in
                    --store) _healthlog_values directory; return ;;
                    --passphrase-file|--key-file) _healthlog_values file; return ;;
                esac
                case $command in
                    "")
                        COMPREPLY=($(compgen -W "--store --passphrase-file --key-file --help -h --version help \(commands.map(\.name).joined(separator: " "))" -- "$cur")) ;;
                    help)
                        COMPREPLY=($(compgen -W "\(commands.map(\.name).joined(separator: " "))" -- "$cur")) ;;

            """
        for command in commands { text += caseArm(command) }
        text += """
                esac
            }

            # Completes a value: `file`, `directory`, `none`, or the words given.
            _healthlog_values() {
                case $1 in
                    file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
                    directory) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
                    none) COMPREPLY=() ;;
                    *) COMPREPLY=($(compgen -W "$*" -- "$cur")) ;;
                esac
            }

            complete -F _healthlog healthlog

            """
        return text
    }

    /// The completions of one command: an option's value after it, else its options after
    /// `-`, else its positional argument.
    private static func caseArm(_ command: CommandSpec) -> String {
        let spellings = command.options.flatMap { [$0.short, $0.name].compactMap { $0 } } + ["--help", "-h"]
        var text = "        \(command.name))\n            case $prev in\n"
        for option in command.options where option.kind != .flag {
            let names = ([option.short].compactMap { $0 } + [option.name]).joined(separator: "|")
            text += "                \(names)) _healthlog_values \(words(option.completion)); return ;;\n"
        }
        text += "            esac\n"
        let options = "COMPREPLY=($(compgen -W \"\(spellings.joined(separator: " "))\" -- \"$cur\"))"
        guard let positional = command.arguments.first else { return text + "            \(options) ;;\n" }
        text += "            if [[ $cur == -* ]]; then\n                \(options)\n"
        text += "            else\n                _healthlog_values \(words(positional.completion))\n            fi ;;\n"
        return text
    }

    /// The arguments of `_healthlog_values` for a completion.
    private static func words(_ completion: Completion) -> String {
        switch completion {
        case .none: "none"
        case .file: "file"
        case .directory: "directory"
        case .choices(let words): words.joined(separator: " ")
        }
    }
}
