import HealthLog

/// The options that say whose clock intervals follow (`aggregate`, `plot`): `--utc-offset`,
/// `--time-zone` or `--local`, at most one of them; UTC when none is given.
enum ClockOptions {
    /// The options, for a command's spec.
    static let options: [CommandSpec.Option] = [
        .init(name: "--utc-offset", value: "offset", help: "Intervals follow one fixed offset, +HH:MM or -HH:MM (default: UTC)."),
        .init(
            name: "--time-zone", value: "name",
            help: "Intervals follow the local calendar of an IANA time zone (Europe/Berlin), daylight saving included: a day is 23 or 25 hours across a change."),
        .init(
            name: "--local", help: "Each sample counts in its own local day: the zone its HKTimeZone metadata names, else the offset its start was recorded with."),
    ]

    /// The clock the arguments name.
    static func timeZone(_ arguments: ParsedArguments) throws -> StatisticsTimeZone {
        let given = ["--utc-offset", "--time-zone"].filter { arguments.value($0) != nil } + (arguments.has("--local") ? ["--local"] : [])
        guard given.count <= 1 else { throw HealthLogError(.badUsage, "\(given.joined(separator: " and ")) exclude each other: give one") }
        if let text = arguments.value("--utc-offset") { return .fixed(offsetMinutes: try UTCOffset.parse(text)) }
        if let name = arguments.value("--time-zone") { return .named(try TimeZoneRules(named: name)) }
        return arguments.has("--local") ? .recorded : .fixed(offsetMinutes: 0)
    }

    /// How a chart names the clock: `UTC`, `UTC+01:00`, `Europe/Berlin`, `each sample's local time`.
    static func name(_ clock: StatisticsTimeZone) -> String {
        switch clock {
        case .fixed(let minutes):
            guard minutes != 0 else { return "UTC" }
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            return "UTC" + (minutes < 0 ? "-" : "+") + two(abs(minutes) / 60) + ":" + two(abs(minutes) % 60)
        case .named(let rules): return rules.name
        case .recorded: return "each sample's local time"
        }
    }
}
