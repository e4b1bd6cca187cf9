import HealthLog

/// The report's workouts section: the latest ``listed`` workouts in a table, each with its
/// route drawn as a small track, and every workout's monthly totals. Workouts and routes
/// are read a page at a time, so a long record is never held whole.
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
    func section() throws -> ReportPage.Section? {
        var latest: [WorkoutSample] = []
        var months: [String: Month] = [:]
        var total = 0
        try pages(SampleType.workout.identifier) { sample in
            guard let workout = sample as? WorkoutSample else { return }
            total += 1
            let month = String(Self.local(workout.fields.start).prefix(7))
            months[month, default: Month()].workouts += 1
            months[month]!.seconds += seconds(workout)
            months[month]!.kilometres += Self.total(workout, "distance", "km") ?? 0
            months[month]!.kilocalories += Self.total(workout, "energy", "kcal") ?? 0
            latest.append(workout)
            if latest.count > 2 * Self.listed {
                latest.sort { $0.fields.start > $1.fields.start }
                latest.removeLast(latest.count - Self.listed)
            }
        }
        guard total > 0 else { return nil }
        latest.sort { $0.fields.start > $1.fields.start }
        latest = Array(latest.prefix(Self.listed))
        let tracks = try routes(for: Set(latest.map(\.fields.uuid)))
        var body = ""
        if total > latest.count { body += "<p class=\"note\">The table lists the latest \(latest.count) of \(total) workouts; the monthly totals cover them all.</p>\n" }
        let rows = latest.map { w in
            [
                Self.local(w.fields.start), Self.activityName(w.activity), HealthReport.fixed(seconds(w) / 60, 0),
                Self.total(w, "distance", "km").map { HealthReport.fixed($0, 2) } ?? "", Self.total(w, "energy", "kcal").map { HealthReport.fixed($0, 0) } ?? "",
                w.fields.source ?? "", tracks[w.fields.uuid] ?? "",
            ]
        }
        body += ReportPage.table(["Start (local)", "Activity", "Minutes", "km", "kcal", "Source", "Route"], rows, numeric: [2, 3, 4], html: [6])
        body += "<h3>Monthly totals</h3>\n"
        let monthRows = months.sorted { $0.key < $1.key }.map { key, m in
            [key, String(m.workouts), HealthReport.fixed(m.seconds / 3600, 1), HealthReport.fixed(m.kilometres, 1), HealthReport.fixed(m.kilocalories, 0)]
        }
        body += ReportPage.table(["Month", "Workouts", "Hours", "km", "kcal"], monthRows, numeric: [1, 2, 3, 4])
        return ReportPage.Section(id: "workouts", title: "Workouts", body: body)
    }

    /// The small tracks of the routes of `workouts`, by workout.
    private func routes(for workouts: Set<SampleUUID>) throws -> [SampleUUID: String] {
        guard !workouts.isEmpty else { return [:] }
        var tracks: [SampleUUID: String] = [:]
        try pages(WorkoutRouteSample.type.identifier) { sample in
            guard let route = sample as? WorkoutRouteSample, let workout = route.workout, workouts.contains(workout), tracks[workout] == nil else { return }
            let track = RouteTrack(points: route.locations.map { ($0.latitude, $0.longitude) })
            if track.points.count > 1 { tracks[workout] = track.svg }
        }
        return tracks
    }

    /// Hands each live sample of `type` in the range to `body`, a page at a time.
    private func pages(_ type: String, _ body: (any Sample) throws -> Void) throws {
        var anchor = QueryAnchor.beginning
        while true {
            let result = try report.store.result(ReplayRequest(anchor: anchor, types: [type], predicate: report.predicate, limit: Self.page))
            for sample in result.addedSamples { try body(sample) }
            guard result.addedSamples.count + result.deletedObjects.count >= Self.page, result.newAnchor != anchor else { return }
            anchor = result.newAnchor
        }
    }

    /// The workout's duration, else the time from its start to its end, in seconds.
    private func seconds(_ workout: WorkoutSample) -> Double {
        workout.duration ?? Double(workout.fields.end.microseconds - workout.fields.start.microseconds) / 1_000_000
    }

    /// The workout's total `name` in `unit`, when it has one in a unit that converts.
    private static func total(_ workout: WorkoutSample, _ name: String, _ unit: String) -> Double? {
        guard let quantity = workout.totals[name], let from = try? HealthUnit(quantity.unit), let to = try? HealthUnit(unit) else { return nil }
        return try? from.convert(quantity.value, to: to)
    }

    /// `YYYY-MM-DD HH:MM` of an instant at the offset it was recorded with.
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
