import HealthLog

/// `healthlog add`: build one sample from options and save it.
enum AddCommand: Command {
    static let configuration = CommandConfiguration(
        name: "add",
        abstract: "Append one sample.",
        discussion: "A quantity takes --value and --unit, a category --value, a workout --activity (and --duration). Types, units and category values are checked against HealthKit's: a near miss of a known type is refused with 'did you mean', a type healthlog does not know but with a HealthKit prefix is accepted with a note. Numbers are stored in their shortest form (72.50 as 72.5). Prints the sample's UUID, then the new anchor, on stdout.")

    struct Options: OptionGroup {
        let type = RequiredOption("--type", "type", help: "The sample type, in full or short (HeartRate, SleepAnalysis, Workout), in any case.", missing: "--type is required")
        let value = Option(
            "--value", "value",
            help: "A number (not negative for a cumulative type); for a category type, an integer or the constant's name, in full or short (AsleepCore).")
        let unit = Option("--unit", "unit", help: "The unit of a quantity, a HealthKit unit of the type's dimension (count/min, kg, lb, mg/dL, …).")
        let activity = Option("--activity", "name", help: "A workout's activity type (HKWorkoutActivityTypeRunning).")
        let duration = Option("--duration", "seconds", help: "A workout's duration in seconds.")
        let start = Option("--start", "date", help: "ISO 8601 instant or YYYY-MM-DD (default: now).") { try AddCommand.date($0, "--start") }
        let end = Option("--end", "date", help: "ISO 8601 instant or YYYY-MM-DD (default: the start).") { try AddCommand.date($0, "--end") }
        let source = Option("--source", "name", help: "The source (app or device) name.")
        let device = Option("--device", "name", help: "The device description.")
        let uuid = Option("--uuid", "uuid", help: "The sample's UUID (default: a random one).", parse: SampleUUID.uuidOption)
        let metadata = Repeated(
            "--metadata", "key=value", help: "A metadata entry; the value is a number or boolean when it reads as one, else a string."
        ) { entry in
            guard let eq = entry.firstIndex(of: "="), eq != entry.startIndex else {
                throw HealthLogError(.badUsage, "--metadata takes KEY=VALUE, not '\(entry)'")
            }
            return (key: String(entry[..<eq]), value: MetadataValue(commandLine: String(entry[entry.index(after: eq)...])))
        }
        let noSync = Flag("--no-sync", help: "Do not wait for fdatasync before reporting success.")

        var members: [any OptionMember] { [type, value, unit, activity, duration, start, end, source, device, uuid, metadata, noSync] }
    }

    static func run(_ arguments: ParsedArguments<Options>, _ context: Context) throws -> Int32 {
        let typeName = try arguments.type
        let store = try context.store(sync: !arguments.noSync, origin: AppendOrigin(command: "add"))
        let identifier = try TypeNames.resolve(typeName, present: { store.exists ? try store.typesPresent() : [] })
        guard let type = SampleType(identifier) else { throw HealthLogError(.badUsage, "--type '\(typeName)' is not a type identifier") }
        let fields = try fields(arguments)
        let added = AddedSample(
            value: try arguments.value, unit: try arguments.unit, activity: try arguments.activity, duration: try arguments.duration, fields: fields)
        let summary = try store.append([try added.sample(of: type)])
        if let uuid = summary.lastAdded { context.terminal.print(uuid.description) }
        AppendCommand.report(summary, context)
        return ExitCode.success
    }

    /// The UUID, dates, source, device and metadata the options give.
    private static func fields(_ arguments: ParsedArguments<Options>) throws -> SampleFields {
        var metadata: [String: MetadataValue] = [:]
        for entry in try arguments.metadata { metadata[entry.key] = entry.value }
        return SampleFields(
            uuid: try arguments.uuid ?? SampleUUID.random(), start: try arguments.start ?? Timestamp.now(), end: try arguments.end,
            source: try arguments.source, device: try arguments.device, metadata: metadata)
    }

    private static func date(_ text: String, _ option: String) throws -> Timestamp {
        guard let date = Timestamp(commandLine: text) else {
            throw HealthLogError(.badUsage, DateHint.message(text, option))
        }
        return date
    }
}
