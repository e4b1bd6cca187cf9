import HealthLog

/// The activity rings' goals (`HKActivitySummaryTypeIdentifier` records) against each day's
/// active energy and exercise minutes, as `aggregate --interval day` sums them: a table
/// by month.
struct ReportGoals {
    /// The charts, whose statistics the table uses.
    let charts: ReportCharts

    /// One month's figures.
    private struct Month {
        var days = 0
        var measured = 0
        var moveMet = 0
        var energy = 0.0
        var goal = 0.0
        var exerciseDays = 0
        var exerciseMet = 0
    }

    /// The table, or an empty text when the range holds no activity summary with a goal.
    func table() throws -> String {
        let report = charts.report
        guard charts.types["HKActivitySummaryTypeIdentifier"] != nil, let type = SampleType("HKActivitySummaryTypeIdentifier") else { return "" }
        let summaries = try report.store.result(ReplayRequest(types: [type.identifier], predicate: report.predicate)).addedSamples.compactMap { $0 as? OtherSample }
        var moveGoals: [String: Double] = [:]
        var summaryEnergy: [String: Double] = [:]
        var exerciseGoals: [String: Double] = [:]
        var summaryExercise: [String: Double] = [:]
        for summary in summaries {
            let day = HealthReport.day(summary.fields.start)
            let metadata = summary.fields.metadata
            let kcal = { (value: Double) -> Double in
                guard case .string(let unit)? = metadata["activeEnergyBurnedUnit"], unit != "kcal", let from = try? HealthUnit(unit), let to = try? HealthUnit("kcal") else { return value }
                return (try? from.convert(value, to: to)) ?? value
            }
            if case .number(let goal)? = metadata["activeEnergyBurnedGoal"], goal > 0 { moveGoals[day] = kcal(goal) }
            if case .number(let burned)? = metadata["activeEnergyBurned"] { summaryEnergy[day] = kcal(burned) }
            if case .number(let goal)? = metadata["appleExerciseTimeGoal"], goal > 0 { exerciseGoals[day] = goal }
            if case .number(let minutes)? = metadata["appleExerciseTime"] { summaryExercise[day] = minutes }
        }
        guard !moveGoals.isEmpty || !exerciseGoals.isEmpty else { return "" }
        let energy = try daily("ActiveEnergyBurned", unit: "kcal")
        let exercise = try daily("AppleExerciseTime", unit: "min")
        var months: [String: Month] = [:]
        for (day, goal) in moveGoals {
            let month = String(day.prefix(7))
            months[month, default: Month()].days += 1
            months[month]!.goal += goal
            guard let burned = energy[day] ?? summaryEnergy[day] else { continue }
            months[month]!.measured += 1
            months[month]!.energy += burned
            if burned >= goal { months[month]!.moveMet += 1 }
        }
        for (day, goal) in exerciseGoals {
            guard let minutes = exercise[day] ?? summaryExercise[day] else { continue }
            months[String(day.prefix(7)), default: Month()].exerciseDays += 1
            if minutes >= goal { months[String(day.prefix(7))]!.exerciseMet += 1 }
        }
        let rows = months.sorted { $0.key < $1.key }.map { key, m in
            [
                key, String(m.days), m.measured > 0 ? String(m.moveMet) : "-", m.measured > 0 ? HealthReport.fixed(m.energy / Double(m.measured), 0) : "-",
                m.days > 0 ? HealthReport.fixed(m.goal / Double(m.days), 0) : "", m.exerciseDays > 0 ? "\(m.exerciseMet) of \(m.exerciseDays)" : "",
            ]
        }
        var out = "<h3>Activity rings: goals met, by month</h3>\n"
        out += "<p class=\"note\">A day meets its move goal when its active energy (the daily sum charted above, sources merged) reaches the goal of that day's activity summary (on a day without active energy samples, the summary's own figure; a dash where neither is recorded); likewise exercise minutes.</p>\n"
        out += ReportPage.table(["Month", "Days with a move goal", "Move goal met", "Active energy, kcal/day", "Move goal, kcal/day", "Exercise goal met"], rows, numeric: [1, 2, 3, 4, 5])
        return out
    }

    /// The daily sums of the quantity type `name` in `unit`, by day label.
    private func daily(_ name: String, unit: String) throws -> [String: Double] {
        let id = "HKQuantityTypeIdentifier" + name
        guard charts.types[id] != nil, let type = SampleType(id) else { return [:] }
        let report = charts.report
        let rows = try report.store.statistics(
            StatisticsQuery(type: type, predicate: report.predicate, interval: .day, options: .sum, timeZone: report.clock, unit: try HealthUnit(unit)))
        return Dictionary(rows.map { ($0.label, $0.sum ?? 0) }, uniquingKeysWith: +)
    }
}
