/// A comparison for ``QueryPredicate/quantity(_:_:unit:)``, spelled on the command line as
/// `<`, `<=`, `>`, `>=`, `==` or `!=`.
public enum ComparisonOperator: String, Hashable, Sendable, CaseIterable {
    /// `<`
    case lessThan = "<"
    /// `<=`
    case lessThanOrEqual = "<="
    /// `>`
    case greaterThan = ">"
    /// `>=`
    case greaterThanOrEqual = ">="
    /// `==`
    case equal = "=="
    /// `!=`
    case notEqual = "!="

    /// Whether `lhs OP rhs` holds.
    func holds(_ lhs: Double, _ rhs: Double) -> Bool {
        switch self {
        case .lessThan: lhs < rhs
        case .lessThanOrEqual: lhs <= rhs
        case .greaterThan: lhs > rhs
        case .greaterThanOrEqual: lhs >= rhs
        case .equal: lhs == rhs
        case .notEqual: lhs != rhs
        }
    }
}
