/// The analysis shape of an event (what `export` and `replay --format csv` write): one row
/// of typed columns that DuckDB, pandas and Spark read without options.
///
/// - `start`, `end`: UTC instants in one fixed RFC 3339 form,
///   `YYYY-MM-DDTHH:MM:SS.ffffffZ`, with the offset they were recorded with beside them in
///   `startOffset` and `endOffset` (`+01:00`, `-05:30`, `+00:00`), and `localStart`, the
///   start's wall-clock time on the sample's ``LocalClock`` (its `HKTimeZone`, else its
///   recorded offset; `2024-03-01 08:00:00.000000`, no offset), whose date is the day the
///   person lived it.
/// - `value`: a number or nothing, never text: the quantity (and a numeric
///   characteristic); a category value goes to `category` (its constant's name, or the
///   integer it was recorded as), with the text of other string values.
/// - `sourceVersion`: text; in CSV written after a `v` (`v2.2`, `v13.4.1`), since a CSV
///   cell cannot say it is text and readers would type versions like `2.2` or `118` as
///   numbers (`10.2` and `10.20` as one); NDJSON rows hold it exactly as recorded.
/// - `metadata`, `totals`: JSON text in CSV, JSON objects in NDJSON rows; `objects` lists
///   member UUIDs separated by spaces.
package enum EventTable {
    /// The columns, in order.
    package static let columns = [
        "seq", "op", "uuid", "type", "start", "startOffset", "localStart", "end", "endOffset", "value", "unit", "category", "source", "sourceVersion", "device",
        "metadata", "activity", "duration", "totals", "objects",
    ]

    /// One cell of a row.
    package enum Cell: Sendable, Equatable {
        /// No value (an empty CSV cell, JSON `null`).
        case null
        /// A number, as JSON text.
        case number(String)
        /// Text.
        case text(String)
        /// A version string: text that often reads as a number, so CSV writes it after a `v`.
        case version(String)
        /// A JSON object, as JSON text (a CSV cell of that text, or the object itself in NDJSON).
        case object(String)
    }

    /// The cells of a stored line (with or without its newline), in ``columns`` order.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` when the stored line does not parse.
    package static func cells(_ line: UnsafeRawBufferPointer) throws -> [Cell] {
        cells(try record(line))
    }

    /// The row's cells of a stored line, or `nil` for an add of a series part after its
    /// head (``SeriesParts``): the analysis exports give a series stored in parts one row,
    /// its head's, whose metadata leaves out the part key.
    package static func rowCells(_ line: UnsafeRawBufferPointer) throws -> [Cell]? {
        var r = try record(line)
        if !r.isDelete, SeriesParts.isSeries(r.type), r.metadata.contains(where: { $0.key == SeriesParts.partKey }) {
            guard let place = SeriesParts.place(in: r.metadataDictionary), place.series == nil else { return nil }
            r.metadata.removeAll { $0.key == SeriesParts.partKey }
        }
        return cells(r)
    }

    /// The decoded stored line (with or without its newline).
    private static func record(_ line: UnsafeRawBufferPointer) throws -> EventRecord {
        let body = UnsafeRawBufferPointer(rebasing: line[0..<(line.last == 10 ? line.count - 1 : line.count)])
        let seq = StoredLinePrefix.sequenceNumber(body)?.seq ?? 0
        return try EventRecord(line: body, seq: seq, location: "event \(seq)")
    }

    /// The cells of a decoded stored line.
    private static func cells(_ r: EventRecord) -> [Cell] {
        let seq = r.seq
        func text(_ s: String?) -> Cell { s.map(Cell.text) ?? .null }
        let isCategory = r.type.kind == .category
        let value: Cell = isCategory ? .null : r.numberText.map(Cell.number) ?? .null
        let category: Cell = isCategory ? text(r.text ?? r.numberText) : text(r.text)
        let metadata = r.metadata.map { "\(JSONText.string($0.key)):\($0.value.json)" }
        let totals = r.totals.sorted { $0.key < $1.key }.map { name, q in
            "\(JSONText.string(name)):{\"value\":\(JSONText.number(q.value)),\"unit\":\(JSONText.string(q.unit))}"
        }
        return [
            .number(String(seq)), .text(r.isDelete ? "delete" : "add"), .text(r.uuid.description), .text(r.type.identifier),
            .text(r.start.utcInstant), .text(r.start.offsetText), .text(LocalClock(start: r.start, zone: r.metadata.first { $0.key == LocalClock.metadataKey }?.text).local(r.start).localWallClock), .text(r.end.utcInstant), .text(r.end.offsetText),
            value, text(r.unit), category, text(r.source), r.sourceVersion.map(Cell.version) ?? .null, text(r.device),
            metadata.isEmpty ? .null : .object("{" + metadata.joined(separator: ",") + "}"), text(r.activity),
            r.duration.map { .number(JSONText.number($0)) } ?? .null,
            totals.isEmpty ? .null : .object("{" + totals.joined(separator: ",") + "}"),
            r.objects.isEmpty ? .null : .text(r.objects.map(\.description).joined(separator: " ")),
        ]
    }

    /// `cells` as a CSV row, newline included.
    package static func csvRow(_ cells: [Cell]) -> String {
        cells.map { cell in
            switch cell {
            case .null: ""
            case .number(let n): n
            case .text(let t), .object(let t): EventCSV.cell(t)
            case .version(let v): EventCSV.cell("v" + v)
            }
        }.joined(separator: ",") + "\n"
    }

    /// `cells` as one JSON object named by `names` (a line of NDJSON rows), newline included;
    /// empty cells are written as `null`, so every row has every column.
    package static func jsonRow(_ cells: [Cell], names: [String]) -> String {
        var out = "{"
        for (k, cell) in cells.enumerated() {
            if k > 0 { out += "," }
            out += JSONText.string(names[k]) + ":"
            switch cell {
            case .null: out += "null"
            case .number(let n), .object(let n): out += n
            case .text(let t), .version(let t): out += JSONText.string(t)
            }
        }
        return out + "}\n"
    }
}
