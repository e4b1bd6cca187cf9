import HealthLog

/// The options that say whose clock intervals follow (`aggregate`, `plot`): `--utc-offset`,
/// `--time-zone` or `--local`, at most one of them; UTC when none is given (each sample's
/// own local time for `workouts` and `sleep`). `restore` takes the first two for the
/// midnight of a bare `--to` date.
struct ClockOptions: OptionGroup {
    let utcOffset: Option<Int>
    let timeZone: Option<TimeZoneRules>
    /// `--local`; `nil` where the command does not take it.
    let local: Flag?

    /// As `aggregate` and `plot` take them.
    init() {
        self.init(
            utcOffsetHelp: "Intervals follow one fixed offset, +HH:MM or -HH:MM (default: UTC).",
            timeZoneHelp:
                "Intervals follow the local calendar of an IANA time zone (Europe/Berlin), daylight saving included: a day is 23 or 25 hours across a change.",
            local: Flag(
                "--local", help: "Each sample counts in its own local day: the zone its HKTimeZone metadata names, else the offset its start was recorded with."))
    }

    /// As `workouts` and `sleep` take them: each sample's own local time unless told
    /// otherwise; `what` names what follows the clock (`Times`, `Nights and times`).
    static func personal(_ what: String) -> ClockOptions {
        ClockOptions(
            utcOffsetHelp: "\(what) follow one fixed offset, +HH:MM or -HH:MM, instead of each sample's own local time.",
            timeZoneHelp:
                "\(what) follow the local calendar of an IANA time zone (Europe/Berlin), daylight saving included, instead of each sample's own local time.",
            local: Flag(
                "--local",
                help: "Each sample's own local time (the default): the zone its HKTimeZone metadata names, else the offset its start was recorded with."))
    }

    /// As `restore` takes them: the clock of a bare `--to` date, without `--local`, left off
    /// the usage line.
    static let restore = ClockOptions(
        utcOffsetHelp: "A bare --to date is midnight at this offset, +HH:MM or -HH:MM (default: UTC).",
        timeZoneHelp: "A bare --to date is midnight in this IANA time zone (Europe/Berlin).", local: nil)

    private init(utcOffsetHelp: String, timeZoneHelp: String, local: Flag?) {
        utcOffset = Option("--utc-offset", "offset", help: utcOffsetHelp, parse: UTCOffset.parse)
        timeZone = Option("--time-zone", "name", help: timeZoneHelp, parse: TimeZoneRules.init(named:))
        self.local = local
    }

    var members: [any OptionMember] { [utcOffset, timeZone] + (local.map { [$0] } ?? []) }

    /// `[--utc-offset <offset> | --time-zone <name> | --local]`, or nothing for `restore`'s.
    var usage: GroupUsage { local == nil ? .hidden : .oneOf }

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

extension ParsedArguments<ClockOptions> {
    /// The clock the options name; `fallback` (UTC unless given) when none is given.
    func timeZone(default fallback: StatisticsTimeZone = .fixed(offsetMinutes: 0)) throws -> StatisticsTimeZone {
        let given = [
            isGiven(\.utcOffset) ? options.utcOffset.declaration.name : nil, isGiven(\.timeZone) ? options.timeZone.declaration.name : nil,
            self.local ? options.local?.declaration.name : nil,
        ].compactMap { $0 }
        guard given.count <= 1 else { throw HealthLogError(.badUsage, "\(given.joined(separator: " and ")) exclude each other: give one") }
        if let minutes = try self.utcOffset { return .fixed(offsetMinutes: minutes) }
        if let rules = try self.timeZone { return .named(rules) }
        return self.local ? .recorded : fallback
    }
}
