/// Sleep by night and stage.
extension HealthStore {
    /// The nights of `HKCategoryTypeIdentifierSleepAnalysis` samples matching `predicate`,
    /// by stage (see ``SleepNight``), on the clock of `timeZone` (with
    /// ``StatisticsTimeZone/recorded``, each sample's `HKTimeZone` or recorded offset). Values that name no
    /// sleep stage are left out.
    ///
    /// - Throws: ``HealthLogError/Code/noStore`` when there is no store; ``HealthLogError/Code/corrupt``
    ///   for damage.
    public func sleepNights(predicate: QueryPredicate = .all, timeZone: StatisticsTimeZone = .fixed(offsetMinutes: 0)) throws -> [SleepNight] {
        var nights = SleepNightAccumulator(timeZone: timeZone)
        let request = ReplayRequest(types: ["HKCategoryTypeIdentifierSleepAnalysis"], predicate: predicate)
        _ = try Replayer(snapshot: try LogSnapshot(layout), request: request).run { line in
            guard !line.isDelete else { return }
            let r = try EventRecord(line: line.bytes, seq: line.seq, location: "\(directory): event \(line.seq)")
            guard let value = r.categoryValue, let stage = SleepNight.Stage(value) else { return }
            nights.add(start: r.start.microseconds, end: r.end.microseconds, stage: stage, offsetMinutes: r.start.offsetMinutes,
                zone: r.metadata.first { $0.key == StatisticsTimeZone.metadataKey }?.text)
        }
        return nights.results()
    }
}

/// Sleep by night, sources merged.
extension HealthStore {
    /// The nights of `HKCategoryTypeIdentifierSleepAnalysis` samples matching `predicate`,
    /// each with its sources merged (see ``SleepSummary``), on the clock of `timeZone` (with
    /// ``StatisticsTimeZone/recorded``, each sample's `HKTimeZone` or recorded offset).
    /// `sourcePriority` names the sources that win where sources overlap, highest first; the
    /// rest follow Apple Watch, then iPhone and iPad, then other sources. Values that name no
    /// sleep stage are left out.
    ///
    /// - Throws: ``HealthLogError/Code/noStore`` when there is no store; ``HealthLogError/Code/corrupt``
    ///   for damage.
    public func sleepSummaries(predicate: QueryPredicate = .all, timeZone: StatisticsTimeZone = .recorded, sourcePriority: [String] = []) throws
        -> [SleepSummary]
    {
        var nights = SleepSummaryAccumulator(timeZone: timeZone, priority: SourcePriority(sourcePriority))
        let request = ReplayRequest(types: ["HKCategoryTypeIdentifierSleepAnalysis"], predicate: predicate)
        _ = try Replayer(snapshot: try LogSnapshot(layout), request: request).run { line in
            guard !line.isDelete else { return }
            let r = try EventRecord(line: line.bytes, seq: line.seq, location: "\(directory): event \(line.seq)")
            guard let value = r.categoryValue, let stage = SleepNight.Stage(value) else { return }
            nights.add(
                start: r.start, end: r.end, stage: stage, source: r.source ?? "", zone: r.metadata.first { $0.key == StatisticsTimeZone.metadataKey }?.text)
        }
        return nights.results()
    }
}
