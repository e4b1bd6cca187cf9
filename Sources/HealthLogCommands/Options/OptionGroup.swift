/// A set of options declared together as the stored properties of a type: a command's
/// `Options`, or a group several commands share (``ClockOptions``, ``PredicateOptions``).
/// ``members`` lists those properties in the order they are written; help, usage,
/// parsing, completions and the reference all read the declarations through it.
protocol OptionGroup: OptionMember {
    init()
    /// The declared options and nested groups, in the order help lists them.
    var members: [any OptionMember] { get }
    /// How the usage line shows the group (default: each declaration in turn).
    var usage: GroupUsage { get }
}

/// What an ``OptionGroup`` lists: a declared option or argument, or a nested group.
protocol OptionMember: Sendable {
    /// Its declarations, nested groups' included, in the order written.
    var declarations: [Declaration] { get }
    /// Its part of the usage line.
    var usageFragments: [String] { get }
}

/// A declared option or argument: anything that carries a ``Declaration``.
protocol Declared: OptionMember {
    var declaration: Declaration { get }
}

extension Declared {
    var declarations: [Declaration] { [declaration] }

    var usageFragments: [String] { declaration.usageFragment.map { [$0] } ?? [] }
}

/// How the usage line shows an option group.
enum GroupUsage: Sendable {
    /// Each declaration in turn.
    case members
    /// One bracket of the declarations as alternatives: `[--a <x> | --b]`.
    case oneOf
    /// This text in place of the declarations: `[predicate options]`.
    case text(String)
    /// Not at all.
    case hidden
}

extension OptionGroup {
    var usage: GroupUsage { .members }

    /// Every declaration, nested groups' included, in the order written.
    var declarations: [Declaration] { members.flatMap { $0.declarations } }

    /// The group's part of the usage line.
    var usageFragments: [String] {
        switch usage {
        case .hidden: []
        case .text(let text): [text]
        case .oneOf: ["[" + declarations.map(\.spelling).joined(separator: " | ") + "]"]
        case .members: members.flatMap { $0.usageFragments }
        }
    }
}

/// The options of a command that takes none.
struct NoOptions: OptionGroup {
    var members: [any OptionMember] { [] }
}
