import HealthLog

/// Gathers what `healthlog report` shows from a store: each figure through the library's
/// statistics (``StatisticsQuery``, ``HealthStore/sleepNights(predicate:timeZone:)``) and
/// drawn by its charts, each type read by a query of its own, only the types the store has.
struct HealthReport {
    /// The store read.
    let store: HealthStore
    /// The range's start, if any.
    let start: Timestamp?
    /// The range's end (exclusive), if any.
    let end: Timestamp?
    /// Whose clock intervals follow.
    let clock: StatisticsTimeZone
    /// The samples in the range.
    let predicate: QueryPredicate
    /// The samples the range's nights may hold: the range widened by a day on each side.
    let nightPredicate: QueryPredicate
    /// The nights in the range, by the morning they end.
    let nights: NightRange

    /// The report of `store` from `--start startText` to `--end endText` (dates already
    /// read as `start` and `end`) on `clock`: a bare date is its midnight on `clock`, with
    /// ``StatisticsTimeZone/recorded`` on each sample's own clock, as for `aggregate`.
    init(store: HealthStore, start: Timestamp?, end: Timestamp?, startText: String?, endText: String?, clock: StatisticsTimeZone) {
        self.store = store
        self.clock = clock
        self.start = start
        self.end = end
        predicate = .and(ClockDate.range(start: startText, end: endText, on: clock))
        nightPredicate = .and(ClockDate.range(start: startText, end: endText, on: clock, widenedBy: NightRange.margin))
        nights = NightRange(start: startText, end: endText)
    }

    /// Fourteen hours in µs: the farthest a local midnight lies from UTC's, by which a
    /// range on each sample's own clock is widened to choose the types to show.
    private static let widestOffset: Int64 = 50_400_000_000

    /// The page, or `nil` when the range holds no live sample.
    func page() throws -> ReportPage? {
        let stats = try store.stats()
        let margin = clock == .recorded ? Self.widestOffset : 0
        let live = stats.types.filter { type in
            type.live > 0 && (start.map { type.last.microseconds >= $0.microseconds - margin } ?? true)
                && (end.map { type.first.microseconds < $0.microseconds + margin } ?? true)
        }
        guard !live.isEmpty else { return nil }
        // The sources and devices read every sample in the range, alongside the sections,
        // which read their types.
        var tallies: Result<[SourceTally], any Error> = .success([])
        var sections: Result<[ReportPage.Section], any Error> = .success([])
        OSThread.run({ tallies = Result { try store.sourceTallies(predicate: predicate) } }, alongside: { sections = Result { try self.sections(live) } })
        let counted = try tallies.get()
        guard !counted.isEmpty else { return nil }
        return ReportPage(title: "Health record", subtitle: subtitle(live), sections: [glance(live, counted)] + (try sections.get()))
    }

    /// The sections after the glance, each only where the range has data.
    private func sections(_ live: [StoreStats.TypeStats]) throws -> [ReportPage.Section] {
        let byType = Dictionary(uniqueKeysWithValues: live.map { ($0.type, $0) })
        let charts = ReportCharts(report: self, types: byType)
        var sections = try [charts.activity(), charts.heart(), ReportSleep(report: self).section(), charts.body(), charts.vitals()].compactMap { $0 }
        if byType[SampleType.workout.identifier] != nil, let workouts = try ReportWorkouts(report: self).section() { sections.append(workouts) }
        return sections
    }

    /// The line under the title: the span and the clock.
    /// Characteristics (dated by the export that carried them) are left out of the span.
    private func subtitle(_ live: [StoreStats.TypeStats]) -> String {
        let samples = live.filter { SampleKind(typeIdentifier: $0.type) != .characteristic }
        let dated = samples.isEmpty ? live : samples
        let first = start ?? dated.map(\.first).min()!
        let last = end ?? dated.map(\.last).max()!
        return "\(Self.day(first)) to \(Self.day(last)); intervals and nights on the clock of \(ClockOptions.name(clock))"
    }

    /// The record at a glance: span, sources and devices, types.
    private func glance(_ live: [StoreStats.TypeStats], _ tallies: [SourceTally]) -> ReportPage.Section {
        var body = ""
        let total = tallies.reduce(0) { $0 + $1.samples }
        body += "<p>\(total) live samples of \(live.count) types\(start != nil || end != nil ? " in the range" : ""), from \(tallies.count == 1 ? "one source and device" : "\(tallies.count) sources and devices").</p>\n"
        body += "<h3>Sources and devices</h3>\n"
        body += ReportPage.table(["Source", "Device", "Samples"], tallies.map { [$0.source.isEmpty ? "(none)" : $0.source, Self.deviceName($0.device), String($0.samples)] }, numeric: [2])
        body += "<h3>Types</h3>\n"
        if start != nil || end != nil {
            body += "<p class=\"note\">Counts and dates are those of the whole store, for the types with samples in the range.</p>\n"
        }
        let rows = live.sorted { TypeNames.shortForm($0.type) < TypeNames.shortForm($1.type) }.map {
            [TypeNames.shortForm($0.type), String($0.live), Self.day($0.first), Self.day($0.last)]
        }
        body += ReportPage.table(["Type", "Samples", "First (UTC)", "Last (UTC)"], rows, numeric: [1])
        return ReportPage.Section(id: "glance", title: "The record at a glance", body: body)
    }

    /// `YYYY-MM-DD` of an instant, in UTC.
    static func day(_ t: Timestamp) -> String {
        String(Timestamp(microseconds: t.microseconds, fractionDigits: 0).description.prefix(10))
    }

    /// A device's name and hardware from its stored text (`<<HKDevice>, name:Apple Watch,
    /// …, hardware:Watch5,4, …>` → `Apple Watch (Watch5,4)`); other text as it is.
    static func deviceName(_ text: String) -> String {
        guard text.hasPrefix("<<HKDevice") else { return text.isEmpty ? "(none)" : text }
        var parts: [String: String] = [:]
        for part in text.dropFirst().dropLast().split(separator: ", ") {
            guard let colon = part.firstIndex(of: ":") else { continue }
            parts[String(part[..<colon])] = String(part[part.index(after: colon)...])
        }
        let name = parts["name"] ?? parts["model"] ?? "device"
        guard let hardware = parts["hardware"] ?? parts["model"], hardware != name else { return name }
        return "\(name) (\(hardware))"
    }

    /// The interval a chart of a type spanning `from` to `to` (clipped to the range) uses:
    /// days up to 400 days, weeks up to seven years, months beyond, so no chart draws more
    /// than about 400 marks.
    func interval(from: Timestamp, to: Timestamp) -> StatisticsInterval {
        let first = Swift.max(from.microseconds, start?.microseconds ?? .min)
        let last = Swift.min(to.microseconds, end?.microseconds ?? .max)
        let days = (last - first) / 86_400_000_000
        return days <= 400 ? .day : days <= 7 * 366 ? .week : .month
    }

    /// A number with at most `places` decimals; one too large to round is written as it is,
    /// infinity and NaN as `-`.
    static func fixed(_ value: Double, _ places: Int) -> String {
        guard value.isFinite else { return "-" }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        guard (value * scale).isFinite else { return JSONText.number(value) }
        let rounded = (value * scale).rounded() / scale
        let text = JSONText.number(rounded)
        return text == "-0" ? "0" : text
    }
}
