/// An option a command cannot do without, `--horizon <date|anchor>`; read back as its
/// `Value`, or throws bad usage with `missing` when it is not given.
struct RequiredOption<Value>: Declared {
    let option: Option<Value>
    /// The usage error when the option is not given.
    let missing: String

    var declaration: Declaration { option.declaration }

    /// `name <value>`, parsed by `parse`; `synopsis` replaces `name <value>` on the usage line.
    init(
        _ name: String, _ value: String, short: String? = nil, help: String, synopsis: String? = nil, missing: String, completion: Completion = .none,
        parse: @escaping @Sendable (String) throws -> Value
    ) {
        option = Option(name, value, short: short, help: help, synopsis: synopsis, inUsage: .required, completion: completion, parse: parse)
        self.missing = missing
    }
}

extension RequiredOption where Value == String {
    /// `name <value>`, read back as the text given.
    init(_ name: String, _ value: String, help: String, missing: String) {
        self.init(name, value, help: help, missing: missing, parse: { $0 })
    }
}
