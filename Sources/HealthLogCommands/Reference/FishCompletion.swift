/// The fish completion script: `complete` lines made from each command's declarations.
enum FishCompletion {
    static func script(_ commands: [CommandSpec]) -> String {
        var text = """
            # fish completion for healthlog. Generated from the command declarations by
            # `tools/docs --reference`: do not edit. Install it as ~/.config/fish/completions/healthlog.fish.

            # The command word, if one is given yet (the value of --store, --passphrase-file or
            # --key-file is not one).
            function __healthlog_command
                set -l words (commandline -opc)
                set -e words[1]
                while set -q words[1]
                    switch $words[1]
                        case --store --passphrase-file --key-file
                            set -e words[1]
                        case '-*'
                        case '*'
                            echo $words[1]
                            return 0
                    end
                    set -e words[1]
                end
                return 1
            end

            # Whether the command word is $argv[1].
            function __healthlog_using
                set -l command (__healthlog_command)
                and test "$command" = $argv[1]
            end

            complete -c healthlog -f
            complete -c healthlog -n 'not __healthlog_command' -l store -x -a '(__fish_complete_directories)' -d \(quote(Reference.summary(ToolHelp.store.help)))
            complete -c healthlog -n 'not __healthlog_command' -l passphrase-file -r -F -d \(quote(Reference.summary(ToolHelp.passphraseFile.help)))
            complete -c healthlog -n 'not __healthlog_command' -l key-file -r -F -d \(quote(Reference.summary(ToolHelp.keyFile.help)))
            complete -c healthlog -n 'not __healthlog_command' -l version -d \(quote(Reference.summary(ToolHelp.version.help)))
            complete -c healthlog -s h -l help -d \(quote(Reference.summary(ToolHelp.help.help)))
            complete -c healthlog -n 'not __healthlog_command' -a help -d 'Show a command\\'s help'

            """
        let names = commands.map(\.name).joined(separator: " ")
        for command in commands {
            text += "complete -c healthlog -n 'not __healthlog_command' -a \(command.name) -d \(quote(Reference.summary(command.abstract)))\n"
        }
        text += "complete -c healthlog -n '__healthlog_using help' -a '\(names)'\n"
        for command in commands {
            let condition = "-n '__healthlog_using \(command.name)'"
            for option in command.options {
                var line = "complete -c healthlog \(condition) -l \(option.name.dropFirst(2))"
                if let short = option.short { line += " -s \(short.dropFirst())" }
                if option.kind != .flag { line += " " + value(option.completion) }
                text += line + " -d \(quote(Reference.summary(option.helpText)))\n"
            }
            if let argument = command.arguments.first, argument.completion != .none {
                text += "complete -c healthlog \(condition) \(value(argument.completion).replacing("-r -F", with: "-F"))\n"
            }
        }
        return text
    }

    /// The `complete` switches for a value.
    private static func value(_ completion: Completion) -> String {
        switch completion {
        case .none: "-x"
        case .file: "-r -F"
        case .directory: "-x -a '(__fish_complete_directories)'"
        case .choices(let words): "-x -a '\(words.joined(separator: " "))'"
        }
    }

    /// A single-quoted fish word.
    private static func quote(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
