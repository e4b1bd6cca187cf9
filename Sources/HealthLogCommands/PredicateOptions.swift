import HealthLog

/// The predicate options that `replay` shares with the commands that select samples:
/// what they are, and the ``QueryPredicate`` they build.
struct PredicateOptions: OptionGroup {
    let start = Option(
        "--start", "date",
        help:
            "Only samples in the range that starts here (an ISO 8601 instant, or a date meaning its midnight UTC, or on the clock --utc-offset, --time-zone or --local names where a command takes them); by default a sample matches when it overlaps [start, end).",
        parse: { try PredicateOptions.date($0, "--start") })
    let end = Option("--end", "date", help: "Only samples in the range that ends here (exclusive).", parse: { try PredicateOptions.date($0, "--end") })
    let strictStart = Flag("--strict-start", help: "The sample's start must lie in [start, end).")
    let strictEnd = Flag("--strict-end", help: "The sample's end must lie in [start, end).")
    let source = Repeated("--source", "name", help: "Only samples from this source.")
    let device = Repeated("--device", "name", help: "Only samples from this device.")
    let uuid = Repeated("--uuid", "uuid", help: "Only the sample with this UUID.", parse: SampleUUID.uuidOption)
    let metadata = Repeated(
        "--metadata", "key[=value]", help: "Only samples whose metadata has this key (with this value, compared as text). All given must hold.",
        parse: metadataPredicate)
    let `where` = Repeated(
        "--where", "expr",
        help:
            "Only quantity samples whose value satisfies 'value OP NUMBER [UNIT]', OP one of < <= > >= == !=: in UNIT (converted; samples in units that do not convert do not match), else in the sample's own unit. All given must hold.",
        parse: WhereExpression.parse)
    let category = Repeated(
        "--category", "value",
        help:
            "Only category samples with this value: an integer, or a constant's name in full or after the type's prefix (AsleepCore), in any case; every spelling of a value matches the others.",
        parse: CategoryValue.init(text:))

    var members: [any OptionMember] { [start, end, strictStart, strictEnd, source, device, uuid, metadata, self.where, category] }

    /// `[predicate options]` on the usage line.
    var usage: GroupUsage { .text("[predicate options]") }

    /// The date `text` of `option`; bad usage saying what is wrong with it.
    static func date(_ text: String, _ option: String) throws -> Timestamp {
        guard let date = Timestamp(commandLine: text) else {
            throw HealthLogError(.badUsage, DateHint.message(text, option))
        }
        return date
    }

    /// `KEY` or `KEY=VALUE` of `--metadata`.
    private static func metadataPredicate(_ entry: String) throws -> QueryPredicate {
        if let eq = entry.firstIndex(of: "=") {
            let key = String(entry[..<eq])
            guard !key.isEmpty else { throw HealthLogError(.badUsage, "--metadata '\(entry)' has no key before '='") }
            return .metadata(key: key, equals: String(entry[entry.index(after: eq)...]))
        }
        guard !entry.isEmpty else { throw HealthLogError(.badUsage, "--metadata needs a key") }
        return .metadata(key: entry)
    }
}

extension ParsedArguments<PredicateOptions> {
    /// The predicate the options given build (``QueryPredicate/all`` when none), a bare
    /// `--start` or `--end` date meaning its midnight on `clock` (``ClockDate``); with
    /// ``StatisticsTimeZone/recorded``, on each sample's own local clock. Bad usage names the
    /// bad token.
    func predicate(on clock: StatisticsTimeZone = .fixed(offsetMinutes: 0)) throws -> QueryPredicate {
        try predicate(on: clock, widenedBy: 0)
    }

    /// The predicate of `sleep` and the nights it keeps: the range widened by a day on each
    /// side, as a night may start the day before its label and end after a range's end.
    func nights(on clock: StatisticsTimeZone) throws -> (predicate: QueryPredicate, nights: NightRange) {
        (try predicate(on: clock, widenedBy: NightRange.margin), NightRange(start: text(\.start), end: text(\.end)))
    }

    /// ``predicate(on:)`` with the range widened by `margin` µs on each side.
    private func predicate(on clock: StatisticsTimeZone, widenedBy margin: Int64) throws -> QueryPredicate {
        var parts: [QueryPredicate] = []
        let start = try self.start
        let end = try self.end
        if let start, let end, start > end {
            throw HealthLogError(.badUsage, "--start \(text(\.start)!) is after --end \(text(\.end)!)")
        }
        var options: DateOptions = []
        if self.strictStart { options.insert(.strictStartDate) }
        if self.strictEnd { options.insert(.strictEndDate) }
        let range = ClockDate.range(start: text(\.start), end: text(\.end), on: clock, options: options, widenedBy: margin)
        parts += range
        if range.isEmpty && (self.strictStart || self.strictEnd) {
            parts.append(.samples(withStart: nil, end: nil, options: options))
        }
        let sources = try self.source
        if !sources.isEmpty { parts.append(.sources(Set(sources))) }
        let devices = try self.device
        if !devices.isEmpty { parts.append(.devices(Set(devices))) }
        let uuids = try self.uuid
        if !uuids.isEmpty { parts.append(.uuids(Set(uuids))) }
        parts += try self.metadata
        parts += try self.where
        let categories = try self.category
        if !categories.isEmpty { parts.append(.categoryValues(categories)) }
        return .and(parts)
    }
}
