import HealthLog

/// `healthlog aggregate`: per-interval statistics of one type's live samples.
enum AggregateCommand {
    static let spec = CommandSpec(
        name: "aggregate",
        abstract: "Per-interval statistics of one type's live samples (a statistics collection query).",
        usage: "--type <type> --interval hour|day|week|month [--stat <list>] [--utc-offset <offset> | --time-zone <name> | --local] [predicate options] [--format csv|ndjson]",
        options: [
            .init(name: "--type", value: "type", help: "The type, in full or short (HeartRate)."),
            .init(name: "--interval", value: "interval", help: "hour, day, week (Monday to Monday) or month."),
            .init(name: "--stat", value: "list", help: "Comma-separated figures, in the order wanted: count, sum, avg, min, max, duration (seconds the samples span). Default: count,sum,avg,min,max."),
        ] + ClockOptions.options + PredicateOptions.options + [
            .init(name: "--format", value: "format", help: "csv (the default: a header row, then one row per interval and unit) or ndjson."),
        ],
        discussion: "A sample counts in the interval that holds its start. Values are in the samples' own unit, with no conversion: a type recorded in two units gets a row per unit. Deleted samples do not count.")

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> Int32 {
        try arguments.expectNoPositionals()
        let interval = try TypeOptions.interval(arguments)
        let stats = try (arguments.value("--stat") ?? "count,sum,avg,min,max").split(separator: ",", omittingEmptySubsequences: false).map { name in
            guard let figure = StatisticsFigure(rawValue: String(name)) else {
                throw HealthLogError(.badUsage, "--stat '\(name)' is not one of \(StatisticsFigure.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return figure
        }
        let format = arguments.value("--format") ?? "csv"
        guard format == "csv" || format == "ndjson" else { throw HealthLogError(.badUsage, "--format must be csv or ndjson, not '\(format)'") }
        let clock = try ClockOptions.timeZone(arguments)
        let predicate = try PredicateOptions.predicate(arguments)
        let store = try context.store()
        let type = try TypeOptions.single(arguments, store)
        let options = stats.reduce(into: StatisticsOptions()) { $0.formUnion($1.option) }
        let rows = try store.statistics(StatisticsQuery(type: type, predicate: predicate, interval: interval, options: options, timeZone: clock))
        let terminal = context.terminal
        if format == "csv" {
            terminal.print(([interval.rawValue, "unit"] + stats.map(\.rawValue)).joined(separator: ","))
            for row in rows {
                terminal.print(([row.label, EventCSV.cell(row.unit)] + stats.map { $0.value(of: row).map(JSONText.number) ?? "" }).joined(separator: ","))
            }
        } else {
            for row in rows {
                var line = #"{"interval":"\#(interval.rawValue)","label":"\#(row.label)","start":"\#(row.start)","end":"\#(row.end)","unit":\#(JSONText.string(row.unit))"#
                for stat in stats { line += #","\#(stat.rawValue)":\#(stat.value(of: row).map(JSONText.number) ?? "null")"# }
                terminal.print(line + "}")
            }
        }
        terminal.flush()
        return ExitCode.success
    }
}
