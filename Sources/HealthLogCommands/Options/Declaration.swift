/// What help, usage, completions and the reference know of one declared option or
/// positional argument. Each typed value (``Flag``, ``Option``, ``RequiredOption``,
/// ``Repeated``, ``Positional``) carries one.
struct Declaration: Sendable {
    /// What the declaration stands for on the command line.
    enum Kind: Sendable, Equatable {
        /// `--name`, no value.
        case flag
        /// `--name <value>`.
        case option(value: String)
        /// A positional argument, `<name>`.
        case positional
    }

    /// How the usage line shows a declaration.
    enum InUsage: Sendable {
        case optional, required, hidden
    }

    /// `--limit`, or `<file>` for a positional argument.
    let name: String
    /// A one-letter spelling, e.g. `-o`.
    var short: String? = nil
    let kind: Kind
    let help: String
    var repeatable = false
    var inUsage = InUsage.optional
    /// The usage fragment, when it is not the name and its value.
    var synopsis: String? = nil
    /// What a shell offers for the value.
    var completion = Completion.none

    /// `--name <value>` (or the name alone), as help rows and `|` alternatives show it.
    var spelling: String {
        if case .option(let value) = kind { return "\(name) <\(value)>" }
        return name
    }

    /// The declaration's part of the usage line, `nil` when hidden from it.
    var usageFragment: String? {
        guard inUsage != .hidden else { return nil }
        let text = (synopsis ?? spelling) + (repeatable ? " ..." : "")
        return inUsage == .required ? text : "[\(text)]"
    }

    /// The value names for a reference or a man page: `<value>` for an option, nothing for a flag.
    var value: String? {
        if case .option(let value) = kind { return value }
        return nil
    }
}

/// What a shell offers to complete an option's value or a positional argument.
enum Completion: Sendable, Equatable {
    /// Free text: nothing to offer.
    case none
    /// A file name.
    case file
    /// A directory name.
    case directory
    /// One of these words.
    case choices([String])
}
