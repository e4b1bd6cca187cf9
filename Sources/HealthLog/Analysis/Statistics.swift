/// The figures of one interval (and, with ``StatisticsOptions/separateBySource``, one
/// source): HealthKit's `HKStatistics`. Values are in one unit, the query's: samples
/// recorded in other units are converted.
public struct Statistics: Sendable, Hashable {
    /// The interval's start.
    public var start: Timestamp
    /// The next interval's start.
    public var end: Timestamp
    /// The interval's label, e.g. `2024-03-01` (see ``StatisticsInterval``).
    public var label: String
    /// The figures' unit (empty for types without one).
    public var unit: String
    /// How many samples start in the interval (from every source, also those whose time
    /// another source's samples cover).
    public var count: Int
    /// The sum of the values of a cumulative type with the sources merged (or of this row's
    /// source), samples prorated by time; 0 for an interval without
    /// any.
    public var sum: Double?
    /// The mean of the values.
    public var average: Double?
    /// The smallest value.
    public var minimum: Double?
    /// The largest value.
    public var maximum: Double?
    /// The seconds of the interval that samples cover, each second counted once however
    /// many samples cover it.
    public var duration: Double?
    /// The value of the interval's most recent sample (the latest end, then start).
    public var mostRecent: Double?
    /// When the interval's most recent sample starts (with ``mostRecent``).
    public var mostRecentStart: Timestamp?
    /// When the interval's most recent sample ends (with ``mostRecent``).
    public var mostRecentEnd: Timestamp?
    /// The source of the row, with ``StatisticsOptions/separateBySource``; else `nil`.
    public var source: String?

    /// A row of figures.
    public init(
        start: Timestamp, end: Timestamp, label: String, unit: String, count: Int, sum: Double? = nil, average: Double? = nil,
        minimum: Double? = nil, maximum: Double? = nil, duration: Double? = nil, mostRecent: Double? = nil, source: String? = nil,
        mostRecentStart: Timestamp? = nil, mostRecentEnd: Timestamp? = nil
    ) {
        self.start = start
        self.end = end
        self.label = label
        self.unit = unit
        self.count = count
        self.sum = sum
        self.average = average
        self.minimum = minimum
        self.maximum = maximum
        self.duration = duration
        self.mostRecent = mostRecent
        self.mostRecentStart = mostRecentStart
        self.mostRecentEnd = mostRecentEnd
        self.source = source
    }
}
