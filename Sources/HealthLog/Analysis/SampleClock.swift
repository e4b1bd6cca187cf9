/// Places samples on the clock of a ``StatisticsTimeZone``: the local day holding an
/// instant and the instant's local offset. With ``StatisticsTimeZone/recorded`` each sample
/// follows its own ``LocalClock``.
package struct SampleClock {
    /// Whose clock it is.
    let timeZone: StatisticsTimeZone

    /// The clock of `timeZone`.
    package init(_ timeZone: StatisticsTimeZone) {
        self.timeZone = timeZone
    }

    /// The day holding `instant` (µs) for a sample recorded at `offsetMinutes` in `zone`.
    func day(of instant: Int64, offsetMinutes: Int16, zone: String?) -> LocalInterval {
        switch rule(offsetMinutes: offsetMinutes, zone: zone) {
        case .named(let rules): StatisticsInterval.day.interval(of: instant, in: rules)
        case .fixed(let minutes): StatisticsInterval.day.interval(of: instant, offsetMinutes: minutes)
        case .recorded: StatisticsInterval.day.interval(of: instant, offsetMinutes: Int(offsetMinutes))
        }
    }

    /// `instant` (µs) written at its local offset, whole seconds, for a sample recorded at
    /// `offsetMinutes` in `zone`.
    package func timestamp(_ instant: Int64, offsetMinutes: Int16, zone: String?) -> Timestamp {
        let minutes: Int
        switch rule(offsetMinutes: offsetMinutes, zone: zone) {
        case .named(let rules): minutes = rules.offsetSeconds(at: Self.floorSeconds(instant)) / 60
        case .fixed(let fixed): minutes = fixed
        case .recorded: minutes = Int(offsetMinutes)
        }
        return Timestamp(microseconds: instant, offsetMinutes: Int16(minutes), isZulu: false, fractionDigits: 0)
    }

    /// The ``LocalClock`` a sample recorded at `offsetMinutes` in `zone` follows on this clock.
    func localClock(offsetMinutes: Int16, zone: String?) -> LocalClock {
        switch rule(offsetMinutes: offsetMinutes, zone: zone) {
        case .named(let rules): .zone(rules)
        case .fixed(let minutes): .fixed(offsetMinutes: minutes)
        case .recorded: .fixed(offsetMinutes: Int(offsetMinutes))
        }
    }

    /// The clock one sample follows: the query's, or under ``StatisticsTimeZone/recorded``
    /// the sample's ``LocalClock``.
    private func rule(offsetMinutes: Int16, zone: String?) -> StatisticsTimeZone {
        guard timeZone == .recorded else { return timeZone }
        switch LocalClock(recordedOffsetMinutes: Int(offsetMinutes), zone: zone) {
        case .zone(let rules): return .named(rules)
        case .fixed(let minutes): return .fixed(offsetMinutes: minutes)
        }
    }

    /// Whole seconds of `micros`, rounded toward negative infinity.
    private static func floorSeconds(_ micros: Int64) -> Int64 {
        micros >= 0 ? micros / 1_000_000 : -((-micros + 999_999) / 1_000_000)
    }
}
