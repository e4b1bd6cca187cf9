import HealthLog

/// The report's workouts section: the latest ``listed`` workouts in a table (the library's
/// ``WorkoutSummary``: distance, energy, heart rate, climb), each with its route drawn as a
/// small track, and every workout's monthly totals. Workouts are read a page at a time;
/// routes once, as the summaries read them.
struct ReportWorkouts {
    /// The report.
    let report: HealthReport
    /// The most workouts the table lists, the latest ones.
    static let listed = 100
    /// Samples read per page.
    private static let page = 500

    /// One month's totals.
    private struct Month {
        var workouts = 0
        var seconds = 0.0
        var kilometres = 0.0
        var kilocalories = 0.0
    }

    /// The section, or `nil` when the range holds no workout.
    ///
    /// The monthly totals come from the workouts themselves; the table's rows from
    /// ``HealthStore/workoutSummaries(predicate:timeZone:distanceUnit:energyUnit:)`` over
    /// the span of the listed workouts only, whose heart rates and routes it then reads (the
    /// first route of each with more than one point drawn).
    func section() throws -> ReportPage.Section? {
        var months: [String: Month] = [:]
        var starts: [Int64] = []
        let clock = SampleClock(report.clock)
        try pages(SampleType.workout.identifier, report.predicate) { sample in
            guard let workout = sample as? WorkoutSample else { return }
            var zone: String?
            if case .string(let name)? = workout.fields.metadata[StatisticsTimeZone.metadataKey] { zone = name }
            let start = clock.timestamp(workout.fields.start.microseconds, offsetMinutes: workout.fields.start.offsetMinutes, zone: zone)
            let month = String(Self.local(start).prefix(7))
            months[month, default: Month()].workouts += 1
            months[month]!.seconds += workout.duration ?? Double(workout.fields.end.microseconds - workout.fields.start.microseconds) / 1_000_000
            months[month]!.kilometres += Self.total(workout, "distance", "km") ?? 0
            months[month]!.kilocalories += Self.total(workout, "energy", "kcal") ?? 0
            starts.append(workout.fields.start.microseconds)
        }
        guard !starts.isEmpty else { return nil }
        starts.sort()
        let from = Timestamp(microseconds: starts[Swift.max(starts.count - Self.listed, 0)])
        let listedSpan = QueryPredicate.and([report.predicate, .samples(withStart: from, end: nil)])
        var tracks: [SampleUUID: String] = [:]
        let summaries = try report.store.workoutSummaries(predicate: listedSpan, timeZone: report.clock) { workout, points in
            guard tracks[workout] == nil else { return }
            let track = RouteTrack(points: points.map { ($0.latitude, $0.longitude) })
            if track.points.count > 1 { tracks[workout] = track.svg }
        }
        let latest = Array(summaries.reversed().prefix(Self.listed))
        var body = ""
        if starts.count > latest.count { body += "<p class=\"note\">The table lists the latest \(latest.count) of \(starts.count) workouts; the monthly totals cover them all.</p>\n" }
        let rows = latest.map { w in
            [
                Self.local(w.start), Self.activityName(w.activity), HealthReport.fixed(w.duration / 60, 0), w.distance.map { HealthReport.fixed($0, 2) } ?? "",
                w.energy.map { HealthReport.fixed($0, 0) } ?? "", w.heartRateAverage.map { HealthReport.fixed($0, 0) } ?? "",
                w.heartRateMaximum.map { HealthReport.fixed($0, 0) } ?? "", w.elevationGain.map { HealthReport.fixed($0, 0) } ?? "", w.source ?? "", tracks[w.uuid] ?? "",
            ]
        }
        body += ReportPage.table(
            ["Start", "Activity", "Minutes", "km", "kcal", "Mean HR", "Max HR", "Climb, m", "Source", "Route"], rows, numeric: [2, 3, 4, 5, 6, 7], html: [9])
        body += "<h3>Monthly totals</h3>\n"
        let monthRows = months.sorted { $0.key < $1.key }.map { key, m in
            [key, String(m.workouts), HealthReport.fixed(m.seconds / 3600, 1), HealthReport.fixed(m.kilometres, 1), HealthReport.fixed(m.kilocalories, 0)]
        }
        body += ReportPage.table(["Month", "Workouts", "Hours", "km", "kcal"], monthRows, numeric: [1, 2, 3, 4])
        return ReportPage.Section(id: "workouts", title: "Workouts", body: body)
    }

    /// Hands each live sample of `type` matching `predicate` to `body`, a page at a time.
    private func pages(_ type: String, _ predicate: QueryPredicate, _ body: (any Sample) throws -> Void) throws {
        var anchor = QueryAnchor.beginning
        while true {
            let result = try report.store.result(ReplayRequest(anchor: anchor, types: [type], predicate: predicate, limit: Self.page))
            for sample in result.addedSamples { try body(sample) }
            guard result.addedSamples.count + result.deletedObjects.count >= Self.page, result.newAnchor != anchor else { return }
            anchor = result.newAnchor
        }
    }

    /// The workout's total `name` in `unit`, when it has one in a unit that converts.
    private static func total(_ workout: WorkoutSample, _ name: String, _ unit: String) -> Double? {
        guard let quantity = workout.totals[name], let from = try? HealthUnit(quantity.unit), let to = try? HealthUnit(unit) else { return nil }
        return try? from.convert(quantity.value, to: to)
    }

    /// `YYYY-MM-DD HH:MM` of an instant at the offset it is written with (the report's clock).
    static func local(_ t: Timestamp) -> String {
        let text = Timestamp(microseconds: t.microseconds, offsetMinutes: t.offsetMinutes, isZulu: false, fractionDigits: 0).description
        return text.prefix(10) + " " + text.dropFirst(11).prefix(5)
    }

    /// `HKWorkoutActivityTypeTraditionalStrengthTraining` → `Traditional strength training`.
    static func activityName(_ activity: String) -> String {
        let name = activity.hasPrefix("HKWorkoutActivityType") ? String(activity.dropFirst("HKWorkoutActivityType".count)) : activity
        var out = ""
        for character in name {
            if character.isUppercase, !out.isEmpty, !(out.last?.isUppercase ?? false) { out += " " + character.lowercased() } else { out.append(character) }
        }
        return out
    }
}
