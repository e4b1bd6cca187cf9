/// How a quantity type's samples combine (HealthKit's `HKQuantityAggregationStyle`), which
/// decides the statistics a query may ask of it.
public enum AggregationStyle: String, Sendable, Hashable, CaseIterable {
    /// Values add up over time (steps, distance, energy): `sum`.
    case cumulative
    /// Values are independent readings, averaged arithmetically (body mass, blood glucose).
    case discreteArithmetic
    /// Readings that HealthKit averages weighted by time (heart rate); healthlog averages
    /// them arithmetically.
    case discreteTemporallyWeighted
    /// Sound levels, averaged as an equivalent continuous level in HealthKit; healthlog
    /// averages them arithmetically.
    case discreteEquivalentContinuousLevel

    /// Whether the style is ``cumulative``.
    public var isCumulative: Bool { self == .cumulative }
}
