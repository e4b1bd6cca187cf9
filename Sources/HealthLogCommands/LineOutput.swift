import HealthLog

/// How `replay` and `export` write stored lines: as they are (NDJSON events), or as rows of
/// ``EventTable``'s columns in CSV (after a header row) or NDJSON.
enum LineOutput {
    /// The `--format` option.
    static let option = CommandSpec.Option(
        name: "--format", value: "format",
        help: "ndjson (the default: the stored lines, valid append input), csv (a header row, then one row per event in typed columns: UTC start and end with their offsets, a numeric value, category values in a column of their own) or ndjson-rows (the CSV's columns as one JSON object per line).")

    /// Whether `format` writes the stored lines as they are (NDJSON, the default).
    static func writesStoredLines(_ format: String?) -> Bool {
        (format ?? "ndjson").lowercased() == "ndjson"
    }

    /// What writes each delivered line in `format`; CSV starts with its header row.
    static func writer(_ format: String?, _ terminal: Terminal) throws -> (UnsafeRawBufferPointer) throws -> Void {
        switch (format ?? "ndjson").lowercased() {
        case "ndjson":
            return { line in terminal.write(line) }
        case "csv":
            terminal.print(String(EventCSV.header.dropLast()))
            return { line in
                guard let cells = try EventTable.rowCells(line) else { return }
                terminal.print(String(EventTable.csvRow(cells).dropLast()))
            }
        case "ndjson-rows":
            return { line in
                guard let cells = try EventTable.rowCells(line) else { return }
                terminal.print(String(EventTable.jsonRow(cells, names: EventTable.columns).dropLast()))
            }
        default:
            throw HealthLogError(.badUsage, "--format must be ndjson, csv or ndjson-rows, not '\(format!)'")
        }
    }
}
