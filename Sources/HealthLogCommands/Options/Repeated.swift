/// An option that may be given any number of times, `--source <name>`; read back as the
/// values its parser makes of each text given, in order (empty when not given).
struct Repeated<Value>: Declared {
    let declaration: Declaration
    /// Makes the value of one text given; throws bad usage naming the option.
    let parse: @Sendable (String) throws -> Value

    init(_ name: String, _ value: String, help: String, completion: Completion = .none, parse: @escaping @Sendable (String) throws -> Value) {
        declaration = Declaration(name: name, kind: .option(value: value), help: help, repeatable: true, completion: completion)
        self.parse = parse
    }
}

extension Repeated where Value == String {
    /// `name <value>`, read back as the texts given.
    init(_ name: String, _ value: String, help: String, completion: Completion = .none) {
        self.init(name, value, help: help, completion: completion, parse: { $0 })
    }
}
