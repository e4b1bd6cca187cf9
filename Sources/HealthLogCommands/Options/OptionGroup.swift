/// A set of options declared together as the stored properties of a type: a command's
/// `Options`, or a group several commands share (``ClockOptions``, ``PredicateOptions``).
/// Help, usage, parsing, completions and the reference all read the declarations from
/// the properties, in the order they are written.
protocol OptionGroup: Sendable {
    init()
    /// How the usage line shows the group (default: each declaration in turn).
    var usage: GroupUsage { get }
}

/// A declared option or argument: anything that carries a ``Declaration``.
protocol Declared: Sendable {
    var declaration: Declaration { get }
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
    var declarations: [Declaration] {
        members.flatMap { member -> [Declaration] in
            switch member {
            case .declared(let declaration): [declaration]
            case .group(let group): group.declarations
            }
        }
    }

    /// The group's part of the usage line.
    var usageFragments: [String] {
        switch usage {
        case .hidden: []
        case .text(let text): [text]
        case .oneOf: ["[" + declarations.map(\.spelling).joined(separator: " | ") + "]"]
        case .members:
            members.flatMap { member -> [String] in
                switch member {
                case .declared(let declaration): declaration.usageFragment.map { [$0] } ?? []
                case .group(let group): group.usageFragments
                }
            }
        }
    }

    /// The stored properties that are declarations or groups (an absent optional one is skipped).
    private var members: [GroupMember] {
        Mirror(reflecting: self).children.compactMap { child in
            if let declared = child.value as? any Declared { return .declared(declared.declaration) }
            if let group = child.value as? any OptionGroup { return .group(group) }
            return nil
        }
    }
}

/// One stored property of an ``OptionGroup``.
private enum GroupMember {
    case declared(Declaration)
    case group(any OptionGroup)
}

/// The options of a command that takes none.
struct NoOptions: OptionGroup {}
