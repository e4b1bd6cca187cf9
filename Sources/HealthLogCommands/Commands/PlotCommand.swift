import HealthLog

/// `healthlog plot`: a chart of per-interval statistics, as an SVG file.
enum PlotCommand {
    static let spec = CommandSpec(
        name: "plot",
        abstract: "Draw per-interval statistics of one type as an SVG chart.",
        usage: "--type <type> -o <file.svg> [--interval hour|day|week|month] [--stat <figure>] [--utc-offset <offset>] [predicate options]",
        options: [
            .init(name: "--type", value: "type", help: "The type, in full or short (HeartRate)."),
            .init(name: "--output", value: "file", help: "The SVG file to write (mode 0600, replaced atomically).", short: "-o"),
            .init(name: "--interval", value: "interval", help: "hour, day (the default), week or month."),
            .init(name: "--stat", value: "figure", help: "The figure drawn: count, sum, avg (with the min-max range shaded), min, max or duration (hours). Default: sum for cumulative quantity types, avg for discrete ones, count for others."),
            .init(name: "--utc-offset", value: "offset", help: "Whose clock the intervals follow, as +HH:MM or -HH:MM (default: UTC)."),
        ] + PredicateOptions.options,
        discussion: "The chart is a standalone SVG file that any browser shows. Intervals and figures are those of 'healthlog aggregate'; when a type was recorded in several units, the most common one is drawn.")

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> Int32 {
        try arguments.expectNoPositionals()
        guard let output = arguments.value("--output") else { throw HealthLogError(.badUsage, "-o FILE is required") }
        let interval = try TypeOptions.interval(arguments, default: .day)
        let offset = try arguments.value("--utc-offset").map(UTCOffset.parse) ?? 0
        let predicate = try PredicateOptions.predicate(arguments)
        let store = try context.store()
        let type = try TypeOptions.single(arguments, store)
        let figureName = arguments.value("--stat")?.lowercased() ?? StatisticsFigure.defaultFigure(for: type).rawValue
        guard let figure = StatisticsFigure(rawValue: figureName) else {
            throw HealthLogError(.badUsage, "--stat must be one of \(StatisticsFigure.allCases.map(\.rawValue).joined(separator: ", ")), not '\(figureName)'")
        }
        let rows = try store.statistics(StatisticsQuery(type: type, predicate: predicate, interval: interval, options: figure.option.union(figure == .avg ? [.minimum, .maximum] : []), offsetMinutes: offset))
        let units = Dictionary(rows.map { ($0.unit, $0.count) }, uniquingKeysWith: +)
        let unit = units.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
        let chart = StatisticsChart(rows: rows.filter { $0.unit == unit }, figure: figure, title: type.identifier)
        try chart.write(to: output)
        context.terminal.summary("plot: \(String(counting: chart.rows.count, interval.rawValue)) of \(type.identifier) written to \(output)")
        return ExitCode.success
    }
}
