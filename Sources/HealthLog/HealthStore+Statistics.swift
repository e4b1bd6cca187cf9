/// Statistics over the live samples of a type.
extension HealthStore {
    /// The per-interval statistics of `query`: HealthKit's statistics collection query.
    /// Reads only the groups of the type (and, with a date range, of the times) asked for.
    ///
    /// ```swift
    /// let daily = try store.statistics(StatisticsQuery(type: .quantity("HeartRate"), interval: .day))
    /// ```
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` for options the type's aggregation style
    ///   does not take, a unit that does not fit it, or samples whose units do not convert
    ///   to the query's (never mixed); ``HealthLogError/Code/noStore`` when there is no
    ///   store; ``HealthLogError/Code/corrupt`` for damage.
    public func statistics(_ query: StatisticsQuery) throws -> [Statistics] {
        try query.validate()
        var accumulator = try StatisticsAccumulator(query)
        var scan = StoredLineView.SummaryReader()
        let request = ReplayRequest(types: [query.type.identifier], predicate: query.predicate)
        _ = try Replayer(snapshot: try LogSnapshot(layout), request: request).run { line in
            guard !line.isDelete else { return }
            guard let fields = scan.fields(line.bytes) else {
                throw HealthLogError(.corrupt, "\(directory): event \(line.seq) is not shaped as a stored line")
            }
            try accumulator.add(start: fields.start, end: fields.end, value: fields.value, unit: fields.unit, source: fields.source)
        }
        return accumulator.results()
    }
}
