/// An option with one value, `--limit <n>`, given at most once; read back as the `Value`
/// its parser makes of the text, or `nil` when it is not given. The parser runs when the
/// command reads the option, so a command checks its options in the order it reads them.
struct Option<Value>: Declared {
    let declaration: Declaration
    /// Makes the value of the text given; throws bad usage naming the option.
    let parse: @Sendable (String) throws -> Value

    /// `name <value>`, parsed by `parse`; `synopsis` replaces `name <value>` on the usage line.
    init(
        _ name: String, _ value: String, short: String? = nil, help: String, synopsis: String? = nil, inUsage: Declaration.InUsage = .optional,
        completion: Completion = .none, parse: @escaping @Sendable (String) throws -> Value
    ) {
        declaration = Declaration(
            name: name, short: short, kind: .option(value: value), help: help, inUsage: inUsage, synopsis: synopsis, completion: completion)
        self.parse = parse
    }
}

extension Option where Value == String {
    /// `name <value>`, read back as the text given.
    init(_ name: String, _ value: String, help: String, synopsis: String? = nil, inUsage: Declaration.InUsage = .optional, completion: Completion = .none) {
        self.init(name, value, help: help, synopsis: synopsis, inUsage: inUsage, completion: completion, parse: { $0 })
    }
}
