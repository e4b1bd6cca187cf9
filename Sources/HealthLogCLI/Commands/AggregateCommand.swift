import HealthLog

/// `healthlog aggregate`: per-interval statistics of one type's live samples.
enum AggregateCommand {
    static let spec = CommandSpec(
        name: "aggregate",
        abstract: "Per-interval statistics of one type's live samples (a statistics collection query).",
        usage: "--type <type> --interval hour|day|week|month [--stat <list>] [--utc-offset <offset>] [predicate options] [--format csv|ndjson]",
        options: [
            .init(name: "--type", value: "type", help: "The type, in full or short (HeartRate)."),
            .init(name: "--interval", value: "interval", help: "hour, day, week (Monday to Monday) or month."),
            .init(name: "--stat", value: "list", help: "Comma-separated figures, in the order wanted: count, sum, avg, min, max, duration (seconds the samples span). Default: count,sum,avg,min,max."),
            .init(name: "--utc-offset", value: "offset", help: "Whose clock the intervals follow, as +HH:MM or -HH:MM (default: UTC)."),
        ] + PredicateOptions.options + [
            .init(name: "--format", value: "format", help: "csv (the default: a header row, then one row per interval and unit) or ndjson."),
        ],
        discussion: "A sample counts in the interval that holds its start. Values are in the samples' own unit, with no conversion: a type recorded in two units gets a row per unit. Deleted samples do not count.")

    private static let statNames = ["count", "sum", "avg", "min", "max", "duration"]

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> Int32 {
        try arguments.expectNoPositionals()
        let interval = try TypeOptions.interval(arguments)
        let stats = (arguments.value("--stat") ?? "count,sum,avg,min,max").split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        for stat in stats where !statNames.contains(stat) {
            throw HealthLogError(.badUsage, "--stat '\(stat)' is not one of \(statNames.joined(separator: ", "))")
        }
        let format = arguments.value("--format") ?? "csv"
        guard format == "csv" || format == "ndjson" else { throw HealthLogError(.badUsage, "--format must be csv or ndjson, not '\(format)'") }
        let offset = try arguments.value("--utc-offset").map(UTCOffset.parse) ?? 0
        let predicate = try PredicateOptions.predicate(arguments)
        let store = try context.store()
        let type = try TypeOptions.single(arguments, store)
        var options: StatisticsOptions = []
        if stats.contains("sum") { options.insert(.sum) }
        if stats.contains("avg") { options.insert(.average) }
        if stats.contains("min") { options.insert(.minimum) }
        if stats.contains("max") { options.insert(.maximum) }
        if stats.contains("duration") { options.insert(.duration) }
        let rows = try store.statistics(StatisticsQuery(type: type, predicate: predicate, interval: interval, options: options, offsetMinutes: offset))
        let terminal = context.terminal
        if format == "csv" {
            terminal.print(([interval.rawValue, "unit"] + stats).joined(separator: ","))
            for row in rows {
                terminal.print(([row.label, EventCSV.cell(row.unit)] + stats.map { figure(row, $0).map(JSONText.number) ?? "" }).joined(separator: ","))
            }
        } else {
            for row in rows {
                var line = #"{"interval":"\#(interval.rawValue)","label":"\#(row.label)","start":"\#(row.start)","end":"\#(row.end)","unit":\#(JSONText.string(row.unit))"#
                for stat in stats { line += #","\#(stat)":\#(figure(row, stat).map(JSONText.number) ?? "null")"# }
                terminal.print(line + "}")
            }
        }
        terminal.flush()
        return ExitCode.success
    }

    private static func figure(_ row: Statistics, _ stat: String) -> Double? {
        switch stat {
        case "count": Double(row.count)
        case "sum": row.sum
        case "avg": row.average
        case "min": row.minimum
        case "max": row.maximum
        default: row.duration
        }
    }
}
