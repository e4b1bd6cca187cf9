import HealthLog

/// `healthlog plot`: a chart of per-interval statistics, as an SVG file.
enum PlotCommand {
    static let spec = CommandSpec(
        name: "plot",
        abstract: "Draw per-interval statistics of one type as an SVG chart.",
        usage: "--type <type> -o <file.svg> [--interval hour|day|week|month] [--stat <figure>] [--unit <unit>] [--source-priority <list>] [--utc-offset <offset> | --time-zone <name> | --local] [predicate options]",
        options: [
            .init(name: "--type", value: "type", help: "The type, in full or short (HeartRate)."),
            .init(name: "--output", value: "file", help: "The SVG file to write (its name must end in .svg; mode 0600, replaced atomically).", short: "-o"),
            .init(name: "--interval", value: "interval", help: "hour, day (the default), week or month."),
            .init(
                name: "--stat", value: "figure",
                help: "The figure drawn: count, sum or duration as bars; avg (with the min-max range shaded), min, max or most-recent as lines. Default: sum for cumulative quantity types, avg for discrete ones, hours per night by stage for SleepAnalysis, count for others. duration is drawn in hours, minutes or seconds, whichever fits (aggregate prints seconds)."),
            UnitOption.option,
            SourcePriorityOption.option,
        ] + ClockOptions.options + PredicateOptions.options,
        discussion: "The chart is a standalone SVG file that any browser shows. Intervals and figures are those of 'healthlog aggregate', sources merged as there (--source-priority as there); the value axis is in --unit when given, else in the type's unit, samples in other units converted to it. The time axis is broken around a long stretch without data, so one far-off record does not squash the rest. A selection with nothing to draw writes nothing and exits 2.")

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> Int32 {
        try arguments.expectNoPositionals()
        guard let output = arguments.value("--output") else { throw HealthLogError(.badUsage, "-o FILE is required") }
        guard output.lowercased().hasSuffix(".svg"), output.count > 4 else {
            throw HealthLogError(.badUsage, "-o must name an .svg file (plot writes SVG only), not '\(output)'")
        }
        let interval = try TypeOptions.interval(arguments, default: .day)
        let clock = try ClockOptions.timeZone(arguments)
        let unit = try UnitOption.unit(arguments)
        let predicate = try PredicateOptions.predicate(arguments)
        let store = try context.store()
        let type = try TypeOptions.single(arguments, store)
        if type.identifier == "HKCategoryTypeIdentifierSleepAnalysis", arguments.value("--stat") == nil {
            let nights = try store.sleepNights(predicate: predicate, timeZone: clock)
            guard !nights.isEmpty else { throw nothing(type, "no sleep-stage samples match") }
            try SleepChart(nights: nights, clock: ClockOptions.name(clock)).write(to: output)
            context.terminal.summary("plot: \(String(counting: nights.count, "night")) of \(type.identifier) written to \(output)")
            return ExitCode.success
        }
        let figureName = arguments.value("--stat")?.lowercased() ?? StatisticsFigure.defaultFigure(for: type).rawValue
        guard let figure = StatisticsFigure(rawValue: figureName) else {
            throw HealthLogError(.badUsage, "--stat must be one of \(StatisticsFigure.allCases.map(\.rawValue).joined(separator: ", ")), not '\(figureName)'")
        }
        let options = figure.option.union(figure == .avg ? [.minimum, .maximum] : [])
        let rows = try store.statistics(StatisticsQuery(type: type, predicate: predicate, interval: interval, options: options, timeZone: clock, unit: unit, sourcePriority: SourcePriorityOption.sources(arguments)))
        guard !rows.isEmpty else { throw nothing(type, "no live samples match") }
        let drawn = rows.filter { figure.value(of: $0) != nil }
        guard !drawn.isEmpty else { throw nothing(type, "its samples have no \(figure.rawValue) (no numeric values); try --stat count or duration") }
        let chart = StatisticsChart(rows: drawn, figure: figure, type: type, interval: interval, clock: ClockOptions.name(clock))
        try chart.write(to: output)
        context.terminal.summary("plot: \(String(counting: chart.rows.count, interval.rawValue)) of \(type.identifier) written to \(output)")
        return ExitCode.success
    }

    /// The error for a selection with nothing to draw: nothing is written.
    private static func nothing(_ type: SampleType, _ why: String) -> HealthLogError {
        HealthLogError(.badInput, "nothing to plot for \(type.identifier): \(why); no file written")
    }
}
