import HealthLog

/// `healthlog report`: a person's record as one self-contained HTML page.
enum ReportCommand: Command {
    static let configuration = CommandConfiguration(
        name: "report",
        abstract: "Write a person's record as one self-contained HTML page, to read offline or print for a doctor.",
        discussion:
            "The page holds the record at a glance (span, sources and devices, every type with its count and dates), then activity (steps, active energy against the activity rings' goals, exercise minutes), heart (resting heart rate, daily range, heart rate variability), sleep (per night, by stage), body, vitals and workouts (a table with each route drawn as a small track, and monthly totals): each section only where the store has its data. Every figure is that of 'healthlog aggregate' for the same type, range and clock, sources merged as there; a chart shows days, or weeks or months for a long span (its title says which). The file holds everything it shows (inline style and charts, no script, nothing fetched), mode 0600, replaced atomically.")

    struct Options: OptionGroup {
        let output = RequiredOption(
            "--output", "file", short: "-o", help: "The HTML file to write (its name must end in .html or .htm).", synopsis: "-o <file.html>",
            missing: "-o FILE is required", completion: .file
        ) { output in
            let lower = output.lowercased()
            guard (lower.hasSuffix(".html") && output.count > 5) || (lower.hasSuffix(".htm") && output.count > 4) else {
                throw HealthLogError(.badUsage, "-o must name an .html file (report writes HTML only), not '\(output)'")
            }
            return output
        }
        let start = Option(
            "--start", "date",
            help: "Only samples from here on (an ISO 8601 instant, or a date meaning its midnight on the report's clock); a sample counts when it overlaps [start, end).")
        let end = Option("--end", "date", help: "Only samples before here (exclusive).")
        let clock = ClockOptions.personal("Intervals, nights and times")

        var members: [any OptionMember] { [output, start, end, clock] }
    }

    static func run(_ arguments: ParsedArguments<Options>, _ context: Context) throws -> Int32 {
        let output = try arguments.output
        let clock = try arguments.clock.timeZone(default: .recorded)
        func date(_ text: String?, _ option: String) throws -> Timestamp? {
            guard let text else { return nil }
            guard let date = ClockDate.parse(text, on: clock) else {
                throw HealthLogError(.badUsage, DateHint.message(text, option))
            }
            return date
        }
        let start = try date(try arguments.start, "--start")
        let end = try date(try arguments.end, "--end")
        if let start, let end, start >= end {
            throw HealthLogError(.badUsage, "--start \(try arguments.start ?? "") is not before --end \(try arguments.end ?? "")")
        }
        try PathKind.expectFile(output, "-o")
        let store = try context.store()
        let report = HealthReport(store: store, start: start, end: end, startText: try arguments.start, endText: try arguments.end, clock: clock)
        guard let page = try report.page() else {
            throw HealthLogError(.badInput, "nothing to report: no live samples\(start != nil || end != nil ? " in the range" : ""); no file written")
        }
        try page.write(to: output)
        context.terminal.summary("report: \(String(counting: page.sections.count, "section")) written to \(output)")
        return ExitCode.success
    }
}
