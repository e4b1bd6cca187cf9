import HealthLog

/// The report's sections of per-interval charts: activity, heart, body and vitals.
struct ReportCharts {
    /// The report.
    let report: HealthReport
    /// The store's live types, by identifier.
    let types: [String: StoreStats.TypeStats]

    /// A chart's figures: the rows drawn and their interval.
    struct Drawn {
        var rows: [Statistics]
        var interval: StatisticsInterval
        var html: String
    }

    /// The chart of `figure` of the quantity type `name`, or `nil` when the range holds
    /// no sample of it.
    func chart(_ name: String, _ figure: StatisticsFigure) throws -> Drawn? {
        let id = "HKQuantityTypeIdentifier" + name
        guard let stats = types[id], let type = SampleType(id) else { return nil }
        let interval = report.interval(from: stats.first, to: stats.last)
        let rows = try statistics(type, figure, interval)
        let drawn = rows.filter { figure.value(of: $0) != nil }
        guard !drawn.isEmpty else { return nil }
        let chart = StatisticsChart(rows: drawn, figure: figure, type: type, interval: interval, clock: ClockOptions.name(report.clock))
        return Drawn(rows: drawn, interval: interval, html: ReportPage.figure(chart.svg))
    }

    /// The statistics `aggregate` gives for `type` at `interval`: `figure` (with the
    /// minimum and maximum for an average).
    func statistics(_ type: SampleType, _ figure: StatisticsFigure, _ interval: StatisticsInterval) throws -> [Statistics] {
        let options = figure.option.union(figure == .avg ? [.minimum, .maximum] : [])
        return try report.store.statistics(StatisticsQuery(type: type, predicate: report.predicate, interval: interval, options: options, timeZone: report.clock))
    }

    /// A section of the charts that have data, or `nil` when none has.
    private func section(_ id: String, _ title: String, _ charts: [(String, StatisticsFigure)], after: String = "") throws -> ReportPage.Section? {
        let drawn = try charts.compactMap { try chart($0.0, $0.1) }
        guard !drawn.isEmpty || !after.isEmpty else { return nil }
        return ReportPage.Section(id: id, title: title, body: drawn.map(\.html).joined() + after)
    }

    /// Steps, active energy (with the activity rings' move goals), exercise minutes.
    func activity() throws -> ReportPage.Section? {
        let goals = try ReportGoals(charts: self).table()
        return try section("activity", "Activity", [("StepCount", .sum), ("ActiveEnergyBurned", .sum), ("AppleExerciseTime", .sum)], after: goals)
    }

    /// Resting heart rate, heart rate (the average with the day's range), heart rate variability.
    func heart() throws -> ReportPage.Section? {
        try section("heart", "Heart", [("RestingHeartRate", .avg), ("HeartRate", .avg), ("HeartRateVariabilitySDNN", .avg), ("WalkingHeartRateAverage", .avg)])
    }

    /// Weight and the like.
    func body() throws -> ReportPage.Section? {
        try section("body", "Body", [("BodyMass", .avg), ("BodyMassIndex", .avg), ("BodyFatPercentage", .avg), ("LeanBodyMass", .avg), ("WaistCircumference", .avg), ("Height", .avg)])
    }

    /// Blood pressure, oxygen saturation, respiratory rate, temperature, glucose.
    func vitals() throws -> ReportPage.Section? {
        try section(
            "vitals", "Vitals",
            [("BloodPressureSystolic", .avg), ("BloodPressureDiastolic", .avg), ("OxygenSaturation", .avg), ("RespiratoryRate", .avg), ("BodyTemperature", .avg), ("BloodGlucose", .avg)])
    }
}
