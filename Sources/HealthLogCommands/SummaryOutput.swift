import HealthLog

/// The output of the everyday summary commands (`workouts`, `sleep`): `--format
/// table|csv|ndjson`, numbers rounded to a stated number of decimals, durations in words
/// for people, and a table aligned in columns.
enum SummaryOutput {
    /// One of the three output formats.
    enum Format: String, CaseIterable {
        /// Aligned columns for reading (the default).
        case table
        /// A header row, then one row per item.
        case csv
        /// One JSON object per line.
        case ndjson
    }

    /// `--format`, for rows of `what` (`workout`, `night`).
    static func format(_ what: String) -> Option<Format> {
        Option(
            "--format", "format", help: "table (the default: aligned columns), csv (a header row, then one row per \(what)) or ndjson (one object per \(what)).",
            synopsis: "--format table|csv|ndjson", completion: .choices(Format.allCases.map(\.rawValue))
        ) { text in
            guard let format = Format(rawValue: text.lowercased()) else { throw HealthLogError(.badUsage, "--format must be table, csv or ndjson, not '\(text)'") }
            return format
        }
    }

    /// `value` rounded to `decimals` fraction digits, printed without binary noise (`0.8`, not
    /// `0.80000000000000004`) and without trailing zeros; a value too large to scale is
    /// printed as it is; `nil`, infinity and NaN are `nil`.
    static func number(_ value: Double?, _ decimals: Int) -> String? {
        guard let value, value.isFinite else { return nil }
        let scale = (0..<decimals).reduce(1.0) { p, _ in p * 10 }
        guard (value * scale).isFinite else { return JSONText.number(value) }
        let rounded = (value * scale).rounded() / scale
        return JSONText.number(rounded == 0 ? 0 : rounded)
    }

    /// `value` rounded to `decimals` with exactly that many fraction digits (`0.80`), for
    /// columns of a table; `-` when `nil`.
    static func fixed(_ value: Double?, _ decimals: Int) -> String {
        guard let text = number(value, decimals) else { return "-" }
        guard decimals > 0, !text.contains("e") else { return text }
        let parts = text.split(separator: ".", maxSplits: 1)
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        return String(parts[0]) + "." + fraction + String(repeating: "0", count: decimals - fraction.count)
    }

    /// Seconds as hours and minutes, rounded to the minute: `7h 12m`, `0h 45m`.
    static func hoursMinutes(_ seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        return "\(minutes / 60)h " + (minutes % 60 < 10 ? "0" : "") + "\(minutes % 60)m"
    }

    /// Seconds as `H:MM:SS`, rounded to the second; `-` for a duration that is negative, not
    /// finite or beyond a million years.
    static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0, seconds < 3.2e13 else { return "-" }
        let total = Int(seconds.rounded())
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(total / 3600):" + two(total / 60 % 60) + ":" + two(total % 60)
    }

    /// The local wall-clock time of `time` without seconds: `2024-03-01 07:25`.
    static func minute(_ time: Timestamp) -> String {
        let text = time.description
        return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(5))
    }

    /// One CSV row of `cells` (`nil` an empty cell).
    static func csv(_ cells: [String?]) -> String {
        cells.map { EventCSV.cell($0 ?? "") }.joined(separator: ",")
    }

    /// One NDJSON object of `members`, each value already JSON text (`nil` is `null`).
    static func ndjson(_ members: [(String, String?)]) -> String {
        "{" + members.map { JSONText.string($0.0) + ":" + ($0.1 ?? "null") }.joined(separator: ",") + "}"
    }

    /// `text` with control characters other than tab (C0, DEL and C1, which a terminal may
    /// act on) written as visible `\u{1B}`-style text.
    static func visible(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Prints `rows` under `header` in columns two spaces apart, the columns in
    /// `rightAligned` (numbers) aligned right; control characters in cells are made visible.
    static func table(_ header: [String], _ rows: [[String]], rightAligned: Set<Int>, to terminal: Terminal) {
        let rows = rows.map { $0.map(visible) }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            let cells = row.indices.map { column in
                let fill = String(repeating: " ", count: widths[column] - row[column].count)
                return rightAligned.contains(column) ? fill + row[column] : row[column] + fill
            }
            terminal.print(String(cells.joined(separator: "  ").reversed().drop { $0 == " " }.reversed()))
        }
    }
}
