import HealthLog

/// `healthlog aggregate`: per-interval statistics of one type's live samples.
enum AggregateCommand: Command {
    static let configuration = CommandConfiguration(
        name: "aggregate",
        abstract: "Per-interval statistics of one type's live samples (a statistics collection query).",
        discussion: "As in HealthKit, sources are merged: a cumulative type's sum counts each stretch of time once, from the highest-priority source that covers it, prorating samples by time, also across intervals; a discrete type's figures take every source's samples. A sample counts (count, avg, min, max, most-recent) in the interval that holds its start. Deleted samples do not count.")

    struct Options: OptionGroup {
        let type = TypeOptions.single(help: "The type, in full or short (HeartRate), in any case.")
        let interval = TypeOptions.requiredInterval(help: "hour, day, week (Monday to Monday) or month.")
        let stat = Option(
            "--stat", "list",
            help:
                "Comma-separated figures, in the order wanted: count, sum (cumulative types), avg, min, max, most-recent (discrete types), duration (seconds covered). Default: count,sum for cumulative types, count,avg,min,max for discrete ones, count,duration for other kinds.",
            parse: AggregateCommand.figures)
        let unit = UnitOption.option
        let sourcePriority = SourcePriorityOption.option
        let separateBySource = Flag("--separate-by-source", help: "One row per interval and source, the sources not merged (a source column is added).")
        let clock = ClockOptions()
        let predicate = PredicateOptions()
        let format = Option(
            "--format", "format", help: "csv (the default: a header row, then one row per interval) or ndjson.", synopsis: "--format csv|ndjson",
            completion: .choices(["csv", "ndjson"])
        ) { text in
            let format = text.lowercased()
            guard format == "csv" || format == "ndjson" else { throw HealthLogError(.badUsage, "--format must be csv or ndjson, not '\(format)'") }
            return format
        }

        var members: [any OptionMember] { [type, interval, stat, unit, sourcePriority, separateBySource, clock, predicate, format] }
    }

    static func run(_ arguments: ParsedArguments<Options>, _ context: Context) throws -> Int32 {
        let interval = try arguments.interval
        let format = try arguments.format ?? "csv"
        let clock = try arguments.clock.timeZone()
        let unit = try arguments.unit
        let priority = try arguments.sourcePriority ?? []
        let predicate = try arguments.predicate.predicate(on: clock)
        let store = try context.store()
        let type = try TypeOptions.single(try arguments.type, store)
        let stats = try arguments.stat ?? StatisticsFigure.defaultFigures(for: type)
        let separate = arguments.separateBySource
        var options = stats.reduce(into: StatisticsOptions()) { $0.formUnion($1.option) }
        if separate { options.insert(.separateBySource) }
        let rows = try store.statistics(
            StatisticsQuery(type: type, predicate: predicate, interval: interval, options: options, timeZone: clock, unit: unit, sourcePriority: priority))
        let terminal = context.terminal
        if format == "csv" {
            terminal.print(([interval.rawValue] + (separate ? ["source"] : []) + ["unit"] + stats.map(\.rawValue)).joined(separator: ","))
            for row in rows {
                let source = separate ? [EventCSV.cell(row.source ?? "")] : []
                terminal.print(([row.label] + source + [EventCSV.cell(StatisticsFigure.unit(of: row, printing: stats))] + stats.map { stat in stat.value(of: row).map(stat.text) ?? "" }).joined(separator: ","))
            }
        } else {
            for row in rows {
                var line = #"{"interval":"\#(interval.rawValue)","label":"\#(row.label)","start":"\#(row.start)","end":"\#(row.end)""#
                if separate { line += #","source":\#(JSONText.string(row.source ?? ""))"# }
                line += #","unit":\#(JSONText.string(StatisticsFigure.unit(of: row, printing: stats)))"#
                for stat in stats { line += #","\#(stat.rawValue)":\#(stat.value(of: row).map(stat.text) ?? "null")"# }
                terminal.print(line + "}")
            }
        }
        terminal.flush()
        return ExitCode.success
    }

    /// The figures `--stat` names, in any case.
    private static func figures(_ list: String) throws -> [StatisticsFigure] {
        try list.split(separator: ",", omittingEmptySubsequences: false).map { name in
            guard let figure = StatisticsFigure(rawValue: name.lowercased()) else {
                throw HealthLogError(.badUsage, "--stat '\(name)' is not one of \(StatisticsFigure.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return figure
        }
    }
}
