import HealthLog

/// How `replay` and `export` write stored lines: as they are (NDJSON), or as CSV rows
/// after a header row.
enum LineOutput {
    /// The `--format` option.
    static let option = CommandSpec.Option(
        name: "--format", value: "format",
        help: "ndjson (the default: the stored lines, valid append input) or csv (a header row, then one row per event; metadata and totals as JSON text).")

    /// What writes each delivered line in `format`; CSV starts with its header row.
    static func writer(_ format: String?, _ terminal: Terminal) throws -> (UnsafeRawBufferPointer) throws -> Void {
        switch (format ?? "ndjson").lowercased() {
        case "ndjson":
            return { line in terminal.write(line) }
        case "csv":
            terminal.print(String(EventCSV.header.dropLast()))
            return { line in terminal.print(String(try EventCSV.row(line).dropLast())) }
        default:
            throw HealthLogError(.badUsage, "--format must be ndjson or csv, not '\(format!)'")
        }
    }
}
