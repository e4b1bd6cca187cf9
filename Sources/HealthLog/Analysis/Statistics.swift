/// The figures of one interval and one unit: HealthKit's `HKStatistics`. Values are in the
/// samples' own unit (healthlog converts no units), so a type recorded in two units gets
/// one row per unit.
public struct Statistics: Sendable, Hashable {
    /// The interval's start.
    public var start: Timestamp
    /// The next interval's start.
    public var end: Timestamp
    /// The interval's label, e.g. `2024-03-01` (see ``StatisticsInterval``).
    public var label: String
    /// The samples' unit (empty for samples without one).
    public var unit: String
    /// How many samples fall in the interval.
    public var count: Int
    /// The sum of the values, when asked for and there are values.
    public var sum: Double?
    /// The mean of the values.
    public var average: Double?
    /// The smallest value.
    public var minimum: Double?
    /// The largest value.
    public var maximum: Double?
    /// The time the samples span, in seconds.
    public var duration: Double?
}
