import HealthLog

/// How `replay` and `export` write stored lines: as they are (NDJSON events), or as rows of
/// ``EventTable``'s columns in CSV (after a header row) or NDJSON.
enum LineOutput: String, CaseIterable {
    case ndjson, csv
    case ndjsonRows = "ndjson-rows"

    /// The `--format` option, in any case.
    static let option = Option(
        "--format", "format",
        help:
            "ndjson (the default: the stored lines, valid append input), csv (a header row, then one row per event in typed columns: UTC start and end with their offsets, a numeric value, category values in a column of their own) or ndjson-rows (the CSV's columns as one JSON object per line).",
        synopsis: "--format ndjson|csv|ndjson-rows", completion: .choices(allCases.map(\.rawValue))
    ) { text in
        guard let format = LineOutput(rawValue: text.lowercased()) else {
            throw HealthLogError(.badUsage, "--format must be ndjson, csv or ndjson-rows, not '\(text)'")
        }
        return format
    }

    /// What writes each delivered line in this format; CSV starts with its header row.
    func writer(_ terminal: Terminal) -> (UnsafeRawBufferPointer) throws -> Void {
        switch self {
        case .ndjson:
            return { line in terminal.write(line) }
        case .csv:
            terminal.print(String(EventCSV.header.dropLast()))
            return { line in
                guard let cells = try EventTable.rowCells(line) else { return }
                terminal.print(String(EventTable.csvRow(cells).dropLast()))
            }
        case .ndjsonRows:
            return { line in
                guard let cells = try EventTable.rowCells(line) else { return }
                terminal.print(String(EventTable.jsonRow(cells, names: EventTable.columns).dropLast()))
            }
        }
    }
}
