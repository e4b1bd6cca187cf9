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
        var exerciseGoals: [String: Double] = [:]
        for summary in summaries {
            let day = HealthReport.day(summary.fields.start)
            let metadata = summary.fields.metadata
            if case .number(let goal)? = metadata["activeEnergyBurnedGoal"], goal > 0 {
                var kcal = goal
                if case .string(let unit)? = metadata["activeEnergyBurnedUnit"], unit != "kcal", let from = try? HealthUnit(unit), let to = try? HealthUnit("kcal") {
                    kcal = (try? from.convert(goal, to: to)) ?? goal
                }
                moveGoals[day] = kcal
            }
            if case .number(let goal)? = metadata["appleExerciseTimeGoal"], goal > 0 { exerciseGoals[day] = goal }
        }
        guard !moveGoals.isEmpty || !exerciseGoals.isEmpty else { return "" }
        let energy = try daily("ActiveEnergyBurned", unit: "kcal")
        let exercise = try daily("AppleExerciseTime", unit: "min")
        var months: [String: Month] = [:]
        for (day, goal) in moveGoals {
            let burned = energy[day] ?? 0
            months[String(day.prefix(7)), default: Month()].days += 1
            months[String(day.prefix(7))]!.goal += goal
            months[String(day.prefix(7))]!.energy += burned
            if burned >= goal { months[String(day.prefix(7))]!.moveMet += 1 }
        }
        for (day, goal) in exerciseGoals where !exercise.isEmpty {
            months[String(day.prefix(7)), default: Month()].exerciseDays += 1
            if (exercise[day] ?? 0) >= goal { months[String(day.prefix(7))]!.exerciseMet += 1 }
        }
        let rows = months.sorted { $0.key < $1.key }.map { key, m in
            [
                key, String(m.days), String(m.moveMet), m.days > 0 ? HealthReport.fixed(m.energy / Double(m.days), 0) : "",
                m.days > 0 ? HealthReport.fixed(m.goal / Double(m.days), 0) : "", m.exerciseDays > 0 ? "\(m.exerciseMet) of \(m.exerciseDays)" : "",
            ]
        }
        var out = "<h3>Activity rings: goals met, by month</h3>\n"
        out += "<p class=\"note\">A day meets its move goal when its active energy (the daily sum charted above, sources merged) reaches the goal of that day's activity summary; likewise exercise minutes.</p>\n"
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
