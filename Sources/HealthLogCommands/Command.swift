/// A `healthlog` command: its name and the prose of its help, the options it declares
/// (once, as the typed stored properties of `Options`) and what it does with them.
protocol Command {
    associatedtype Options: OptionGroup
    static var configuration: CommandConfiguration { get }
    /// Runs the command; returns the exit code.
    static func run(_ arguments: ParsedArguments<Options>, _ context: Context) throws -> Int32
}

/// The prose of a command's help: name, one-line abstract, and the paragraph after the options.
struct CommandConfiguration: Sendable {
    let name: String
    let abstract: String
    var discussion: String? = nil
}

extension Command {
    /// The command as the dispatcher, help and the reference see it.
    /// The options' declarations are read once; the usage line only when shown.
    static var spec: CommandSpec {
        let options = Options()
        assert(Self.listsEveryMember(options), "the options of `\(configuration.name)`: a stored property is missing from `members`")
        let declarations = options.declarations
        return CommandSpec(configuration: configuration, declarations: declarations, usage: { options.usageFragments.joined(separator: " ") }) {
            arguments, context in try run(ParsedArguments(arguments, options: options, declarations: declarations), context)
        }
    }

    /// Whether `group` (and each group nested in it) lists every stored property in its
    /// members, in order; checked by debug builds, which every test runs, so an option
    /// declared but not listed fails the first test that builds its command.
    private static func listsEveryMember(_ group: any OptionGroup) -> Bool {
        // An optional property the command leaves out (`nil`) is not listed.
        let stored = Mirror(reflecting: group).children.compactMap { child -> Any? in
            let value = Mirror(reflecting: child.value)
            return value.displayStyle == .optional ? value.children.first?.value : child.value
        }
        guard stored.count == group.members.count else { return false }
        return zip(stored, group.members).allSatisfy { value, member in
            guard ObjectIdentifier(type(of: value)) == ObjectIdentifier(type(of: member)) else { return false }
            return (member as? any OptionGroup).map(listsEveryMember) ?? true
        }
    }
}
