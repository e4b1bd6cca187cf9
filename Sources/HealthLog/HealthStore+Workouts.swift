/// Workouts, one summary each.
extension HealthStore {
    /// The workouts matching `predicate`, by start, each with its distance and energy in
    /// `distanceUnit` (default `km`) and `energyUnit` (default `kcal`), the heart rate
    /// recorded during it, its elevation gain and route points (see ``WorkoutSummary``); its
    /// start and end are written at their local offset on the clock of `timeZone` (with
    /// ``StatisticsTimeZone/recorded``, the workout's `HKTimeZone` or recorded offset).
    /// `predicate` selects the workouts; their heart rates and routes are found by time and
    /// by the route's workout, whatever their source.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` when `distanceUnit` is not a length or
    ///   `energyUnit` not an energy; ``HealthLogError/Code/noStore`` when there is no store;
    ///   ``HealthLogError/Code/corrupt`` for damage.
    public func workoutSummaries(
        predicate: QueryPredicate = .all, timeZone: StatisticsTimeZone = .recorded, distanceUnit: HealthUnit? = nil, energyUnit: HealthUnit? = nil
    ) throws -> [WorkoutSummary] {
        try workoutSummaries(predicate: predicate, timeZone: timeZone, distanceUnit: distanceUnit, energyUnit: energyUnit) { _, _ in }
    }

    /// ``workoutSummaries(predicate:timeZone:distanceUnit:energyUnit:)``, handing each route
    /// line it reads to `eachRoute` (its workout and points, in log order) as it goes, so a
    /// caller that draws the routes reads them once.
    package func workoutSummaries(
        predicate: QueryPredicate = .all, timeZone: StatisticsTimeZone = .recorded, distanceUnit: HealthUnit? = nil, energyUnit: HealthUnit? = nil,
        eachRoute: (SampleUUID, [RouteLocation]) throws -> Void
    ) throws -> [WorkoutSummary] {
        let metres = try HealthUnit("m")
        let distanceUnit = try distanceUnit ?? HealthUnit("km")
        let energyUnit = try energyUnit ?? HealthUnit("kcal")
        guard distanceUnit.isCompatible(with: metres) else { throw HealthLogError(.badUsage, "distance unit '\(distanceUnit)' is not a length") }
        guard energyUnit.isCompatible(with: try HealthUnit("kcal")) else { throw HealthLogError(.badUsage, "energy unit '\(energyUnit)' is not an energy") }
        let snapshot = try LogSnapshot(layout)
        let clock = SampleClock(timeZone)
        var workouts: [(summary: WorkoutSummary, start: Int64, end: Int64)] = []
        _ = try Replayer(snapshot: snapshot, request: ReplayRequest(types: [SampleType.workout.identifier], predicate: predicate)).run { line in
            guard !line.isDelete else { return }
            let r = try EventRecord(line: line.body, seq: line.seq, location: "\(directory): event \(line.seq)")
            let zone = r.metadata.first { $0.key == StatisticsTimeZone.metadataKey }?.text
            let elevation = r.metadata.first { $0.key == "HKElevationAscended" }.flatMap { Self.metres($0.value, metres) }
            let summary = WorkoutSummary(
                uuid: r.uuid, activity: r.activity ?? "", start: clock.timestamp(r.start.microseconds, offsetMinutes: r.start.offsetMinutes, zone: zone),
                end: clock.timestamp(r.end.microseconds, offsetMinutes: r.end.offsetMinutes, zone: zone), source: r.source,
                duration: r.duration ?? Double(r.end.microseconds - r.start.microseconds) / 1_000_000,
                distance: r.totals["distance"].flatMap { Self.convert($0, to: distanceUnit) }, energy: r.totals["energy"].flatMap { Self.convert($0, to: energyUnit) },
                heartRateCount: 0, elevationGain: elevation, elevationSource: elevation == nil ? nil : .metadata, routePoints: 0)
            workouts.append((summary, r.start.microseconds, r.end.microseconds))
        }
        guard !workouts.isEmpty else { return [] }
        workouts.sort { $0.start < $1.start }
        var figures = WorkoutFigures(uuids: workouts.map(\.summary.uuid), spans: workouts.map { ($0.start, $0.end) }, beatsPerMinute: try HealthUnit("count/min"))
        let span = QueryPredicate.samples(
            withStart: Timestamp(microseconds: workouts[0].start), end: Timestamp(microseconds: (workouts.map(\.end).max() ?? 0) + 1))
        var reader = StoredLineView.SummaryReader()
        _ = try Replayer(snapshot: snapshot, request: ReplayRequest(types: ["HKQuantityTypeIdentifierHeartRate"], predicate: span)).run { line in
            guard !line.isDelete else { return }
            guard let fields = reader.fields(line.bytes) else {
                throw HealthLogError(.corrupt, "\(directory): event \(line.seq) is not shaped as a stored line")
            }
            guard let value = fields.value, fields.unit != 0 else { return }
            figures.addHeartRate(at: fields.start, value: value, unit: reader.unitText)
        }
        _ = try Replayer(snapshot: snapshot, request: ReplayRequest(types: [WorkoutRouteSample.type.identifier], predicate: span)).run { line in
            guard !line.isDelete else { return }
            let r = try EventRecord(line: line.body, seq: line.seq, location: "\(directory): event \(line.seq)")
            guard let workout = r.workout else { return }
            let place = SeriesParts.place(in: r.metadataDictionary)
            figures.addRoute(workout: workout, series: place?.series ?? r.uuid, index: place?.index ?? 0, points: r.locations)
            try eachRoute(workout, r.locations)
        }
        return workouts.enumerated().map { place, workout in
            var summary = workout.summary
            let found = figures.figures(at: place)
            summary.heartRateAverage = found.average
            summary.heartRateMaximum = found.maximum
            summary.heartRateCount = found.count
            summary.routePoints = found.points
            if summary.elevationGain == nil, let gain = found.gain {
                summary.elevationGain = gain
                summary.elevationSource = .route
            }
            return summary
        }
    }

    /// `total` in `unit`; `nil` when its unit is not one or does not convert.
    private static func convert(_ total: Quantity, to unit: HealthUnit) -> Double? {
        guard let own = try? HealthUnit(total.unit), own.isCompatible(with: unit) else { return nil }
        return try? own.convert(total.value, to: unit)
    }

    /// A length metadata value in metres: a number (metres) or `number unit` text.
    private static func metres(_ value: MetadataValue, _ metres: HealthUnit) -> Double? {
        switch value {
        case .number(let number): return number
        case .bool: return nil
        case .string(let text):
            let parts = text.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count == 1 { return Double(parts[0]) }
            guard parts.count == 2, let number = Double(parts[0]) else { return nil }
            return convert(Quantity(number, String(parts[1])), to: metres)
        }
    }
}
