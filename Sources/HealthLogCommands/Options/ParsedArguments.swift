import HealthLog

/// A command's arguments split against its declared `Options`, read back typed through
/// the declarations themselves: `try arguments.limit` is the value of `Options.limit`, so
/// an option the command does not declare does not compile. Unknown options, missing
/// values, a single-valued option given twice and positional arguments to a command that
/// declares none are usage errors when parsing; a value is parsed when it is read.
///
/// `Options` is an ``OptionGroup`` wherever arguments are split, but the type does not
/// require it: the runtime then makes its metadata (for a nested group's arguments) without
/// looking the conformance up, a search of every conformance in the executable.
@dynamicMemberLookup
struct ParsedArguments<Options> {
    let options: Options
    private let given: GivenArguments

    /// Splits `arguments` against the declarations of `options` (`declarations` when read
    /// already).
    init(_ arguments: [String], options: Options, declarations: [Declaration]? = nil) throws where Options: OptionGroup {
        let declarations = declarations ?? options.declarations
        let given = try GivenArguments(arguments, declarations: declarations)
        if !declarations.contains(where: { $0.kind == .positional }), let first = given.positionals.first {
            throw HealthLogError(.badUsage, "unexpected argument '\(first)'")
        }
        self.init(options: options, given: given)
    }

    private init(options: Options, given: GivenArguments) {
        self.options = options
        self.given = given
    }

    /// Whether the flag was given.
    @inline(__always)
    subscript(dynamicMember path: KeyPath<Options, Flag>) -> Bool {
        given.hasFlag(options[keyPath: path].declaration.name)
    }

    /// Whether the flag, when the group declares it, was given.
    @inline(__always)
    subscript(dynamicMember path: KeyPath<Options, Flag?>) -> Bool {
        options[keyPath: path].map { given.hasFlag($0.declaration.name) } ?? false
    }

    /// The option's value, `nil` when not given.
    @inline(__always)
    subscript<Value>(dynamicMember path: KeyPath<Options, Option<Value>>) -> Value? {
        get throws { try text(path).map(options[keyPath: path].parse) }
    }

    /// The option's value; bad usage when not given.
    @inline(__always)
    subscript<Value>(dynamicMember path: KeyPath<Options, RequiredOption<Value>>) -> Value {
        get throws {
            let required = options[keyPath: path]
            guard let text = given.last(required.declaration.name) else { throw HealthLogError(.badUsage, required.missing) }
            return try required.option.parse(text)
        }
    }

    /// The values of every time the option was given, in order.
    @inline(__always)
    subscript<Value>(dynamicMember path: KeyPath<Options, Repeated<Value>>) -> [Value] {
        get throws {
            let repeated = options[keyPath: path]
            return try given.all(repeated.declaration.name).map(repeated.parse)
        }
    }

    /// The value of the positional arguments.
    @inline(__always)
    subscript<Value>(dynamicMember path: KeyPath<Options, Positional<Value>>) -> Value {
        get throws { try options[keyPath: path].parse(given.positionals) }
    }

    /// A nested group's arguments.
    @inline(__always)
    subscript<Group: OptionGroup>(dynamicMember path: KeyPath<Options, Group>) -> ParsedArguments<Group> {
        ParsedArguments<Group>(options: options[keyPath: path], given: given)
    }

    /// Whether the option was given, without parsing its value.
    @inline(__always)
    func isGiven<Value>(_ path: KeyPath<Options, Option<Value>>) -> Bool {
        text(path) != nil
    }

    /// The text given for the option, as typed (for messages that quote it).
    @inline(__always)
    func text<Value>(_ path: KeyPath<Options, Option<Value>>) -> String? {
        given.last(options[keyPath: path].declaration.name)
    }
}

/// The command line split into option values and flags (by their declarations' names)
/// and positional arguments. A command line holds a few of each, so they are kept in
/// arrays in the order given and searched (a dictionary's first use of its type costs a
/// process more than every search).
private struct GivenArguments {
    /// One option's value, as given.
    private struct Value {
        let name: String
        let text: String
    }

    private var values: [Value] = []
    private var flags: [String] = []
    private(set) var positionals: [String] = []

    init(_ arguments: [String], declarations: [Declaration]) throws {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            var argument = arguments[index]
            index += 1
            if !onlyPositionals, argument.count == 2, argument.hasPrefix("-"), argument != "--",
                let option = declarations.first(where: { $0.short == argument }) {
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
            guard let option = declarations.first(where: { $0.name == name && $0.kind != .positional }) else {
                throw HealthLogError(.badUsage, "unknown option '\(name)'")
            }
            if option.kind == .flag {
                guard inline == nil else { throw HealthLogError(.badUsage, "option '\(name)' takes no value") }
                if !hasFlag(name) { flags.append(name) }
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
            if !option.repeatable, last(name) != nil { throw HealthLogError(.badUsage, "option '\(name)' is given twice") }
            values.append(Value(name: name, text: value))
        }
    }

    /// Whether the flag `name` was given.
    func hasFlag(_ name: String) -> Bool {
        flags.contains(name)
    }

    /// The text of the last time the option `name` was given.
    func last(_ name: String) -> String? {
        values.last { $0.name == name }?.text
    }

    /// The texts of every time the option `name` was given, in order.
    func all(_ name: String) -> [String] {
        values.compactMap { $0.name == name ? $0.text : nil }
    }
}
