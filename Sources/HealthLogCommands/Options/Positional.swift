import HealthLog

/// The positional arguments of a command, `<dest>` or `<file> ...`; read back as the
/// `Value` its parser makes of all of them (it also checks how many there are). A command
/// that declares none refuses any.
struct Positional<Value>: Declared {
    let declaration: Declaration
    /// Makes the value of the arguments given; throws bad usage.
    let parse: @Sendable ([String]) throws -> Value

    /// `<name>`, shown `<name> ...` when `repeatable`, in brackets unless `required`.
    init(
        _ name: String, help: String, repeatable: Bool = false, required: Bool = true, completion: Completion = .file,
        parse: @escaping @Sendable ([String]) throws -> Value
    ) {
        declaration = Declaration(
            name: name, kind: .positional, help: help, repeatable: repeatable, inUsage: required ? .required : .optional, completion: completion)
        self.parse = parse
    }
}

extension Positional where Value == String {
    /// Exactly one argument, else bad usage with `message`.
    init(_ name: String, help: String, completion: Completion = .directory, exactlyOne message: String) {
        self.init(name, help: help, completion: completion) { arguments in
            guard arguments.count == 1 else { throw HealthLogError(.badUsage, message) }
            return arguments[0]
        }
    }
}
