import HealthLog

/// The report's sleep section: the nights by stage as `plot --type SleepAnalysis` draws
/// them (the last ``chartedNights`` of a long record), and each month's mean night with its
/// sources merged (``SleepSummary``).
struct ReportSleep {
    /// The report.
    let report: HealthReport
    /// The most nights the chart draws, the latest ones.
    static let chartedNights = 120

    /// The section, or `nil` when the range holds no night.
    func section() throws -> ReportPage.Section? {
        let nights = try report.store.sleepNights(predicate: report.nightPredicate, timeZone: report.clock).filter { report.nights.contains($0.label) }
        guard !nights.isEmpty else { return nil }
        let charted = Array(nights.suffix(Self.chartedNights))
        var body = ""
        if charted.count < nights.count {
            body += "<p class=\"note\">The chart shows the last \(charted.count) of \(nights.count) nights; the table below covers them all.</p>\n"
        }
        body += ReportPage.figure(SleepChart(nights: charted, clock: ClockOptions.name(report.clock)).svg)
        let summaries = try report.store.sleepSummaries(predicate: report.nightPredicate, timeZone: report.clock).filter { report.nights.contains($0.label) }
        let columns: [(String, KeyPath<SleepSummary, Double>)] = [
            ("In bed", \.inBed), ("Asleep", \.asleep), ("Deep", \.deep), ("Core", \.core), ("REM", \.rem), ("Unspecified", \.unspecified), ("Awake", \.awake),
        ]
        let present = columns.filter { column in summaries.contains { $0[keyPath: column.1] > 0 } }
        var months: [String: [SleepSummary]] = [:]
        for night in summaries { months[String(night.label.prefix(7)), default: []].append(night) }
        let rows = months.sorted { $0.key < $1.key }.map { key, nights in
            let mean = { (path: KeyPath<SleepSummary, Double>) in HealthReport.fixed(nights.reduce(0) { $0 + $1[keyPath: path] } / 3600 / Double(nights.count), 1) }
            let efficiencies = nights.compactMap(\.efficiency)
            let efficiency = efficiencies.isEmpty ? "" : HealthReport.fixed(100 * efficiencies.reduce(0, +) / Double(efficiencies.count), 0) + "%"
            return [key, String(nights.count)] + present.map { mean($0.1) } + [efficiency]
        }
        body += "<h3>Mean night by month (hours)</h3>\n"
        body += "<p class=\"note\">Sources merged: where a watch and a phone both recorded a stretch, it counts once, in the watch's stage. Efficiency is asleep over in bed.</p>\n"
        body += ReportPage.table(["Month", "Nights"] + present.map(\.0) + ["Efficiency"], rows, numeric: Set(1..<(3 + present.count)))
        return ReportPage.Section(id: "sleep", title: "Sleep", body: body)
    }
}
