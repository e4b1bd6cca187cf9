import HealthLog

/// A command's arguments after parsing against its ``CommandSpec``: option values by
/// name, flags, and positional arguments. Unknown options and missing values are usage
/// errors.
struct ParsedArguments {
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    /// Parses `arguments` for `spec`.
    init(_ arguments: [String], spec: CommandSpec) throws {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            var argument = arguments[index]
            index += 1
            if !onlyPositionals, argument.count == 2, argument.hasPrefix("-"), argument != "--",
                let option = spec.options.first(where: { $0.short == argument }) {
                argument = option.name
            }
            if onlyPositionals || !argument.hasPrefix("--") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inline: String?
            if let eq = argument.firstIndex(of: "=") {
                name = String(argument[..<eq])
                inline = String(argument[argument.index(after: eq)...])
            }
            guard let option = spec.options.first(where: { $0.name == name }) else {
                throw HealthLogError(.badUsage, "unknown option '\(name)'")
            }
            if option.value == nil {
                guard inline == nil else { throw HealthLogError(.badUsage, "option '\(name)' takes no value") }
                flags.insert(name)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else {
                guard index < arguments.count else { throw HealthLogError(.badUsage, "option '\(name)' needs a value") }
                value = arguments[index]
                index += 1
            }
            if !option.repeatable, values[name] != nil { throw HealthLogError(.badUsage, "option '\(name)' is given twice") }
            values[name, default: []].append(value)
        }
    }

    /// Throws bad usage when positional arguments were given to a command that takes none.
    func expectNoPositionals() throws {
        if let first = positionals.first { throw HealthLogError(.badUsage, "unexpected argument '\(first)'") }
    }

    /// The value of a single-valued option.
    func value(_ name: String) -> String? { values[name]?.last }

    /// All values of a repeatable option.
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// Whether a flag was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }
}
