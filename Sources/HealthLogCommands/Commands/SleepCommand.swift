import HealthLog

/// `healthlog sleep`: one row per night, sources merged.
enum SleepCommand: Command {
    static let configuration = CommandConfiguration(
        name: "sleep",
        abstract: "One row per night: time in bed, asleep, each sleep stage, awake, efficiency, and the first and last time.",
        discussion: "A night runs from noon to noon, in each sample's own local time unless a clock option says otherwise, and is named by the morning it ends; a sample counts in the night holding its start. Sources are merged so that no time counts twice: in bed is the time any sample covers (in bed, asleep or awake); each stretch of the night counts in the stage of the highest-priority source with a stage or awake sample there (--source-priority as in aggregate: by default Apple Watch, then iPhone and iPad, then other sources), so when a watch and a phone both record a night the watch's stages count and the phone fills only what the watch left out. Where one source's samples overlap, awake wins, then deep, REM, core, and asleep with no stage. Efficiency is asleep (core, deep, REM and unspecified) over in bed. The table shows durations as hours and minutes and efficiency as a percentage; csv and ndjson give minutes to 1 decimal in columns ending in _min, and efficiency as a fraction to 3 decimals.")

    struct Options: OptionGroup {
        let sourcePriority = SourcePriorityOption.option
        let clock = ClockOptions.personal("Nights and times")
        let predicate = PredicateOptions()
        let format = SummaryOutput.format("night")

        var members: [any OptionMember] { [sourcePriority, clock, predicate, format] }
    }

    /// The columns of csv and ndjson whose values are minutes, with the figure each holds.
    private static let minutes: [(String, @Sendable (SleepSummary) -> Double)] = [
        ("in_bed_min", \.inBed), ("asleep_min", \.asleep), ("core_min", \.core), ("deep_min", \.deep), ("rem_min", \.rem),
        ("unspecified_min", \.unspecified), ("awake_min", \.awake),
    ]

    static func run(_ arguments: ParsedArguments<Options>, _ context: Context) throws -> Int32 {
        let priority = try arguments.sourcePriority ?? []
        let clock = try arguments.clock.timeZone(default: .recorded)
        let (predicate, range) = try arguments.predicate.nights(on: clock)
        let format = try arguments.format ?? .table
        let nights = try context.store().sleepSummaries(predicate: predicate, timeZone: clock, sourcePriority: priority).filter { range.contains($0.label) }
        let terminal = context.terminal
        switch format {
        case .table:
            guard !nights.isEmpty else {
                terminal.note("no sleep samples match")
                return ExitCode.success
            }
            let header = ["night", "first", "last", "in bed", "asleep", "core", "deep", "REM", "unspecified", "awake", "efficiency"]
            let rows = nights.map { n in
                [n.label, SummaryOutput.minute(n.first), SummaryOutput.minute(n.last)] + minutes.map { SummaryOutput.hoursMinutes($0.1(n)) }
                    + [n.efficiency.map { SummaryOutput.fixed($0 * 100, 1) + "%" } ?? "-"]
            }
            SummaryOutput.table(header, rows, rightAligned: Set(3...10), to: terminal)
        case .csv:
            terminal.print(SummaryOutput.csv(["night", "first", "last"] + minutes.map(\.0) + ["efficiency", "sources", "samples"]))
            for n in nights {
                terminal.print(
                    SummaryOutput.csv(
                        [n.label, n.first.description, n.last.description] + minutes.map { SummaryOutput.number($0.1(n) / 60, 1) }
                            + [SummaryOutput.number(n.efficiency, 3), n.sources.joined(separator: "; "), String(n.count)]))
            }
        case .ndjson:
            for n in nights {
                let sources = "[" + n.sources.map(JSONText.string).joined(separator: ",") + "]"
                terminal.print(
                    SummaryOutput.ndjson(
                        [("night", JSONText.string(n.label)), ("first", JSONText.string(n.first.description)), ("last", JSONText.string(n.last.description))]
                            + minutes.map { ($0.0, SummaryOutput.number($0.1(n) / 60, 1)) }
                            + [("efficiency", SummaryOutput.number(n.efficiency, 3)), ("sources", sources), ("samples", String(n.count))]))
            }
        }
        terminal.flush()
        return ExitCode.success
    }
}
