import HealthLog

/// The report's sleep section: the nights by stage as `plot --type SleepAnalysis` draws
/// them (the last ``chartedNights`` of a long record), and each month's mean night.
struct ReportSleep {
    /// The report.
    let report: HealthReport
    /// The most nights the chart draws, the latest ones.
    static let chartedNights = 120

    /// The section, or `nil` when the range holds no night.
    func section() throws -> ReportPage.Section? {
        let nights = try report.store.sleepNights(predicate: report.predicate, timeZone: report.clock)
        guard !nights.isEmpty else { return nil }
        let charted = Array(nights.suffix(Self.chartedNights))
        var body = ""
        if charted.count < nights.count {
            body += "<p class=\"note\">The chart shows the last \(charted.count) of \(nights.count) nights; the table below covers them all.</p>\n"
        }
        body += ReportPage.figure(SleepChart(nights: charted, clock: ClockOptions.name(report.clock)).svg)
        let stages: [SleepNight.Stage] = [.deep, .core, .rem, .asleep, .awake, .inBed]
        let asleep: [SleepNight.Stage] = [.deep, .core, .rem, .asleep]
        var months: [String: (nights: Int, seconds: [SleepNight.Stage: Double])] = [:]
        for night in nights {
            let key = String(night.label.prefix(7))
            months[key, default: (0, [:])].nights += 1
            for (stage, seconds) in night.seconds { months[key]!.seconds[stage, default: 0] += seconds }
        }
        let present = stages.filter { stage in nights.contains { ($0.seconds[stage] ?? 0) > 0 } }
        let rows = months.sorted { $0.key < $1.key }.map { key, month in
            let hours = { (seconds: Double) in HealthReport.fixed(seconds / 3600 / Double(month.nights), 1) }
            return [key, String(month.nights), hours(asleep.reduce(0) { $0 + (month.seconds[$1] ?? 0) })] + present.map { hours(month.seconds[$0] ?? 0) }
        }
        body += "<h3>Mean night by month (hours)</h3>\n"
        body += ReportPage.table(["Month", "Nights", "Asleep"] + present.map(\.rawValue), rows, numeric: Set(1..<(3 + present.count)))
        return ReportPage.Section(id: "sleep", title: "Sleep", body: body)
    }
}
