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
        let declarations = options.declarations
        return CommandSpec(configuration: configuration, declarations: declarations, usage: { options.usageFragments.joined(separator: " ") }) {
            arguments, context in try run(ParsedArguments(arguments, options: options, declarations: declarations), context)
        }
    }
}
