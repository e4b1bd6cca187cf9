import HealthLog

/// `healthlog add`: build one sample from options and save it.
enum AddCommand {
    static let spec = CommandSpec(
        name: "add",
        abstract: "Append one sample.",
        usage: "--type <type> [--value <value>] [--unit <unit>] [--activity <name>] [--duration <seconds>] [--start <date>] [--end <date>] [--source <name>] [--device <name>] [--uuid <uuid>] [--metadata <key=value> ...] [--no-sync]",
        options: [
            .init(name: "--type", value: "type", help: "The sample type, in full or short (HeartRate, SleepAnalysis, Workout), in any case."),
            .init(name: "--value", value: "value", help: "A number (not negative for a cumulative type); for a category type, an integer or the constant's name, in full or short (AsleepCore)."),
            .init(name: "--unit", value: "unit", help: "The unit of a quantity, a HealthKit unit of the type's dimension (count/min, kg, lb, mg/dL, …)."),
            .init(name: "--activity", value: "name", help: "A workout's activity type (HKWorkoutActivityTypeRunning)."),
            .init(name: "--duration", value: "seconds", help: "A workout's duration in seconds."),
            .init(name: "--start", value: "date", help: "ISO 8601 instant or YYYY-MM-DD (default: now)."),
            .init(name: "--end", value: "date", help: "ISO 8601 instant or YYYY-MM-DD (default: the start)."),
            .init(name: "--source", value: "name", help: "The source (app or device) name."),
            .init(name: "--device", value: "name", help: "The device description."),
            .init(name: "--uuid", value: "uuid", help: "The sample's UUID (default: a random one)."),
            .init(name: "--metadata", value: "key=value", help: "A metadata entry; the value is a number or boolean when it reads as one, else a string.", repeatable: true),
            .init(name: "--no-sync", help: "Do not wait for fdatasync before reporting success."),
        ],
        discussion: "A quantity takes --value and --unit, a category --value, a workout --activity (and --duration). Types, units and category values are checked against HealthKit's: a near miss of a known type is refused with 'did you mean', a type healthlog does not know but with a HealthKit prefix is accepted with a note. Numbers are stored in their shortest form (72.50 as 72.5). Prints the sample's UUID, then the new anchor, on stdout.")

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> Int32 {
        try arguments.expectNoPositionals()
        guard let typeName = arguments.value("--type") else { throw HealthLogError(.badUsage, "--type is required") }
        let store = try context.store(sync: !arguments.has("--no-sync"), origin: AppendOrigin(command: "add"))
        let identifier = try TypeNames.resolve(typeName, present: { store.exists ? try store.typesPresent() : [] })
        guard let type = SampleType(identifier) else { throw HealthLogError(.badUsage, "--type '\(typeName)' is not a type identifier") }
        let sample = try AddedSample(arguments, fields: try fields(arguments)).sample(of: type)
        let summary = try store.append([sample])
        if let uuid = summary.lastAdded { context.terminal.print(uuid.description) }
        AppendCommand.report(summary, context)
        return ExitCode.success
    }

    /// The UUID, dates, source, device and metadata the options give.
    private static func fields(_ arguments: ParsedArguments) throws -> SampleFields {
        var metadata: [String: MetadataValue] = [:]
        for entry in arguments.all("--metadata") {
            guard let eq = entry.firstIndex(of: "="), eq != entry.startIndex else {
                throw HealthLogError(.badUsage, "--metadata takes KEY=VALUE, not '\(entry)'")
            }
            metadata[String(entry[..<eq])] = MetadataValue(commandLine: String(entry[entry.index(after: eq)...]))
        }
        var uuid = SampleUUID.random()
        if let text = arguments.value("--uuid") {
            guard let given = SampleUUID(text) else { throw HealthLogError(.badUsage, "--uuid '\(text)' is not a UUID") }
            uuid = given
        }
        return SampleFields(
            uuid: uuid, start: try date(arguments.value("--start"), "--start") ?? Timestamp.now(),
            end: try date(arguments.value("--end"), "--end"), source: arguments.value("--source"),
            device: arguments.value("--device"), metadata: metadata)
    }

    private static func date(_ text: String?, _ option: String) throws -> Timestamp? {
        guard let text else { return nil }
        guard let date = Timestamp(commandLine: text) else {
            throw HealthLogError(.badUsage, "\(option) '\(text)' is not an ISO 8601 instant or a YYYY-MM-DD date")
        }
        return date
    }
}
