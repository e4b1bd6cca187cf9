import HealthLog

/// The predicate options that `replay` shares with the commands that select samples:
/// what they are, and the ``QueryPredicate`` they build.
enum PredicateOptions {
    /// The options, for a command's spec.
    static let options: [CommandSpec.Option] = [
        .init(name: "--start", value: "date", help: "Only samples in the range that starts here (an ISO 8601 instant, or a date meaning its midnight UTC); by default a sample matches when it overlaps [start, end)."),
        .init(name: "--end", value: "date", help: "Only samples in the range that ends here (exclusive)."),
        .init(name: "--strict-start", help: "The sample's start must lie in [start, end)."),
        .init(name: "--strict-end", help: "The sample's end must lie in [start, end)."),
        .init(name: "--source", value: "name", help: "Only samples from this source.", repeatable: true),
        .init(name: "--device", value: "name", help: "Only samples from this device.", repeatable: true),
        .init(name: "--uuid", value: "uuid", help: "Only the sample with this UUID.", repeatable: true),
        .init(name: "--metadata", value: "key[=value]", help: "Only samples whose metadata has this key (with this value, compared as text). All given must hold.", repeatable: true),
        .init(name: "--where", value: "expr", help: "Only quantity samples whose value satisfies 'value OP NUMBER [UNIT]', OP one of < <= > >= == !=: in UNIT (converted; samples in units that do not convert do not match), else in the sample's own unit. All given must hold.", repeatable: true),
        .init(name: "--category", value: "value", help: "Only category samples with this value: an integer, or a constant's name in full or after the type's prefix (AsleepCore), in any case; every spelling of a value matches the others.", repeatable: true),
    ]

    /// The predicate the options given in `arguments` build (``QueryPredicate/all`` when
    /// none); bad usage names the bad token.
    static func predicate(_ arguments: ParsedArguments) throws -> QueryPredicate {
        var parts: [QueryPredicate] = []
        let start = try arguments.value("--start").map { try date($0, "--start") }
        let end = try arguments.value("--end").map { try date($0, "--end") }
        if let start, let end, start > end {
            throw HealthLogError(.badUsage, "--start \(arguments.value("--start")!) is after --end \(arguments.value("--end")!)")
        }
        let strictStart = arguments.has("--strict-start")
        let strictEnd = arguments.has("--strict-end")
        if start != nil || end != nil || strictStart || strictEnd {
            var options: DateOptions = []
            if strictStart { options.insert(.strictStartDate) }
            if strictEnd { options.insert(.strictEndDate) }
            parts.append(.samples(withStart: start, end: end, options: options))
        }
        let sources = arguments.all("--source")
        if !sources.isEmpty { parts.append(.sources(Set(sources))) }
        let devices = arguments.all("--device")
        if !devices.isEmpty { parts.append(.devices(Set(devices))) }
        let uuids = try arguments.all("--uuid").map { text in
            guard let uuid = SampleUUID(text) else { throw HealthLogError(.badUsage, "--uuid '\(text)' is not a UUID") }
            return uuid
        }
        if !uuids.isEmpty { parts.append(.uuids(Set(uuids))) }
        for entry in arguments.all("--metadata") {
            if let eq = entry.firstIndex(of: "=") {
                let key = String(entry[..<eq])
                guard !key.isEmpty else { throw HealthLogError(.badUsage, "--metadata '\(entry)' has no key before '='") }
                parts.append(.metadata(key: key, equals: String(entry[entry.index(after: eq)...])))
            } else {
                guard !entry.isEmpty else { throw HealthLogError(.badUsage, "--metadata needs a key") }
                parts.append(.metadata(key: entry))
            }
        }
        for expression in arguments.all("--where") { parts.append(try WhereExpression.parse(expression)) }
        let categories = arguments.all("--category")
        if !categories.isEmpty { parts.append(.categoryValues(categories.map(CategoryValue.init(text:)))) }
        return .and(parts)
    }

    private static func date(_ text: String, _ option: String) throws -> Timestamp {
        guard let date = Timestamp(commandLine: text) else {
            throw HealthLogError(.badUsage, "\(option) '\(text)' is not a date: use an ISO 8601 instant (2024-03-01T08:00:00Z) or a date (2024-03-01)")
        }
        return date
    }
}
