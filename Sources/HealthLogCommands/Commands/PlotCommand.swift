import HealthLog

/// `healthlog plot`: a chart of per-interval statistics, as an SVG file.
enum PlotCommand: Command {
    static let configuration = CommandConfiguration(
        name: "plot",
        abstract: "Draw per-interval statistics of one type as an SVG chart.",
        discussion: "The chart is a standalone SVG file that any browser shows. Intervals and figures are those of 'healthlog aggregate', sources merged as there (--source-priority as there); the value axis is in --unit when given, else in the type's unit, samples in other units converted to it. The time axis is broken around a long stretch without data, so one far-off record does not squash the rest. A selection with nothing to draw writes nothing and exits 2.")

    struct Options: OptionGroup {
        let type = TypeOptions.single(help: "The type, in full or short (HeartRate).")
        let output = RequiredOption(
            "--output", "file", short: "-o", help: "The SVG file to write (its name must end in .svg; mode 0600, replaced atomically).", synopsis: "-o <file.svg>",
            missing: "-o FILE is required", completion: .file
        ) { output in
            guard output.lowercased().hasSuffix(".svg"), output.count > 4 else {
                throw HealthLogError(.badUsage, "-o must name an .svg file (plot writes SVG only), not '\(output)'")
            }
            return output
        }
        let interval = TypeOptions.interval(help: "hour, day (the default), week or month.", inUsage: .optional)
        let stat = Option(
            "--stat", "figure",
            help:
                "The figure drawn: count, sum or duration as bars; avg (with the min-max range shaded), min, max or most-recent as lines. Default: sum for cumulative quantity types, avg for discrete ones, hours per night by stage for SleepAnalysis, count for others. duration is drawn in hours, minutes or seconds, whichever fits (aggregate prints seconds).",
            completion: .choices(StatisticsFigure.allCases.map(\.rawValue))
        ) { text in
            guard let figure = StatisticsFigure(rawValue: text.lowercased()) else {
                throw HealthLogError(.badUsage, "--stat must be one of \(StatisticsFigure.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text.lowercased())'")
            }
            return figure
        }
        let unit = UnitOption.option
        let sourcePriority = SourcePriorityOption.option
        let clock = ClockOptions()
        let predicate = PredicateOptions()

        var members: [any OptionMember] { [type, output, interval, stat, unit, sourcePriority, clock, predicate] }
    }

    static func run(_ arguments: ParsedArguments<Options>, _ context: Context) throws -> Int32 {
        let output = try arguments.output
        try PathKind.expectFile(output, "-o")
        let interval = try arguments.interval ?? .day
        let clock = try arguments.clock.timeZone()
        let unit = try arguments.unit
        let predicate = try arguments.predicate.predicate(on: clock)
        let store = try context.store()
        let type = try TypeOptions.single(try arguments.type, store)
        let stat = try arguments.stat
        if type.identifier == "HKCategoryTypeIdentifierSleepAnalysis", stat == nil {
            let nights = try store.sleepNights(predicate: predicate, timeZone: clock)
            guard !nights.isEmpty else { throw nothing(type, "no sleep-stage samples match") }
            try SleepChart(nights: nights, clock: ClockOptions.name(clock)).write(to: output)
            context.terminal.summary("plot: \(String(counting: nights.count, "night")) of \(type.identifier) written to \(output)")
            return ExitCode.success
        }
        let figure = stat ?? StatisticsFigure.defaultFigure(for: type)
        let options = figure.option.union(figure == .avg ? [.minimum, .maximum] : [])
        let rows = try store.statistics(StatisticsQuery(type: type, predicate: predicate, interval: interval, options: options, timeZone: clock, unit: unit, sourcePriority: try arguments.sourcePriority ?? []))
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
