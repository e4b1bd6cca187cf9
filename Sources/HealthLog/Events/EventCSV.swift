/// Renders stored event lines as CSV (RFC 4180, with a header row) for `export` and
/// `replay --format csv`, in ``EventTable``'s columns: a shape DuckDB, pandas and
/// spreadsheets read directly.
package enum EventCSV {
    /// The header row, newline included.
    package static let header = EventTable.columns.joined(separator: ",") + "\n"

    /// The row for a stored line (with or without its newline), newline included; empty for
    /// a series part after its head (``EventTable/rowCells(_:)``).
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` when the stored line does not parse.
    package static func row(_ line: UnsafeRawBufferPointer) throws -> String {
        try EventTable.rowCells(line).map(EventTable.csvRow) ?? ""
    }

    /// A CSV cell: `text` itself, or quoted when it holds a comma, quote or line break.
    package static func cell(_ cell: String) -> String {
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingAll("\"", with: "\"\"") + "\""
    }
}

extension String {
    /// The string with every `target` character replaced by `replacement`.
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
