import HealthLog

/// `healthlog add`: append one sample built from options.
enum AddCommand {
    static let spec = CommandSpec(
        name: "add",
        abstract: "Append one sample.",
        usage: "--type <type> --value <value> [--unit <unit>] [--start <date>] [--end <date>] [--source <name>] [--device <name>] [--uuid <uuid>] [--metadata <key=value> ...] [--no-sync]",
        options: [
            .init(name: "--type", value: "type", help: "The sample type, in full or short (HeartRate)."),
            .init(name: "--value", value: "value", help: "A number; for a category type, an integer or the constant's name."),
            .init(name: "--unit", value: "unit", help: "The unit of a quantity (count/min, kg, mg/dL, …)."),
            .init(name: "--start", value: "date", help: "ISO 8601 instant or YYYY-MM-DD (default: now)."),
            .init(name: "--end", value: "date", help: "ISO 8601 instant or YYYY-MM-DD (default: the start)."),
            .init(name: "--source", value: "name", help: "The source (app or device) name."),
            .init(name: "--device", value: "name", help: "The device description."),
            .init(name: "--uuid", value: "uuid", help: "The sample's UUID (default: a random one)."),
            .init(name: "--metadata", value: "key=value", help: "A metadata entry; the value is a number or boolean when it reads as one, else a string.", repeatable: true),
            .init(name: "--no-sync", help: "Do not wait for fdatasync before reporting success."),
        ],
        discussion: "Prints the sample's UUID, then the new anchor, on stdout.")

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> Int32 {
        try arguments.expectNoPositionals()
        guard let typeName = arguments.value("--type") else { throw HealthLogError(.badUsage, "--type is required") }
        let store = try context.store(sync: !arguments.has("--no-sync"))
        let type = try TypeNames.resolve(typeName, present: { store.exists ? try store.typesPresent() : [] })
        var fields = ["\"type\":\(JSONText.string(type))"]
        if let uuid = arguments.value("--uuid") { fields.append("\"uuid\":\(JSONText.string(uuid))") }
        let start = try date(arguments.value("--start"), "--start") ?? Timestamp.now()
        fields.append("\"start\":\"\(start)\"")
        if let end = try date(arguments.value("--end"), "--end") { fields.append("\"end\":\"\(end)\"") }
        if let value = arguments.value("--value") { fields.append("\"value\":\(JSONText.scalar(value))") }
        for name in ["unit", "source", "device"] {
            if let text = arguments.value("--" + name) { fields.append("\"\(name)\":\(JSONText.string(text))") }
        }
        let entries = try arguments.all("--metadata").map { entry -> String in
            guard let eq = entry.firstIndex(of: "="), eq != entry.startIndex else {
                throw HealthLogError(.badUsage, "--metadata takes KEY=VALUE, not '\(entry)'")
            }
            return "\(JSONText.string(String(entry[..<eq]))):\(JSONText.scalar(String(entry[entry.index(after: eq)...])))"
        }
        if !entries.isEmpty { fields.append("\"metadata\":{\(entries.joined(separator: ","))}") }
        let line = "{" + fields.joined(separator: ",") + "}\n"
        let summary: AppendSummary
        do {
            summary = try store.append(ndjson: Array(line.utf8))
        } catch let error as HealthLogError where error.code == .badInput {
            throw HealthLogError(.badUsage, error.message.replacingLinePrefix(with: nil))
        }
        if let uuid = summary.lastAdded { context.terminal.print(uuid.description) }
        AppendCommand.report(summary, context)
        return ExitCode.success
    }

    private static func date(_ text: String?, _ option: String) throws -> Timestamp? {
        guard let text else { return nil }
        guard let date = Timestamp(commandLine: text) else {
            throw HealthLogError(.badUsage, "\(option) '\(text)' is not an ISO 8601 instant or a YYYY-MM-DD date")
        }
        return date
    }
}
