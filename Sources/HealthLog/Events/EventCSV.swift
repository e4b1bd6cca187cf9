/// Renders stored event lines as CSV (RFC 4180, with a header row) for `replay --format csv`,
/// a shape DuckDB, pandas and spreadsheets read directly. `metadata` and `totals` are JSON
/// text in one cell; `objects` lists member UUIDs separated by spaces.
public enum EventCSV {
    /// The header row, newline included.
    public static let header = "seq,op,uuid,type,start,end,value,unit,source,sourceVersion,device,metadata,activity,duration,totals,objects\n"

    /// The row for a stored line (newline included, as replay delivers it), newline included.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` when the stored line does not parse.
    public static func row(_ line: UnsafeRawBufferPointer) throws -> String {
        let body = UnsafeRawBufferPointer(rebasing: line[0..<(line.last == 10 ? line.count - 1 : line.count)])
        let seq = StoredLinePrefix.sequenceNumber(body)?.seq ?? 0
        let r = try EventRecord(line: body, seq: seq, location: "event \(seq)")
        var cells: [String] = [
            String(seq), r.isDelete ? "delete" : "add", r.uuid.description, r.type.identifier, r.start.description, r.end.description,
            r.text ?? r.numberText ?? "", r.unit ?? "", r.source ?? "", r.sourceVersion ?? "", r.device ?? "",
        ]
        let metadata = r.metadata.map { "\(JSONText.string($0.key)):\($0.value.json)" }
        cells.append(metadata.isEmpty ? "" : "{" + metadata.joined(separator: ",") + "}")
        cells.append(r.activity ?? "")
        cells.append(r.duration.map(JSONText.number) ?? "")
        let totals = r.totals.sorted { $0.key < $1.key }.map { name, q in
            "\(JSONText.string(name)):{\"value\":\(JSONText.number(q.value)),\"unit\":\(JSONText.string(q.unit))}"
        }
        cells.append(totals.isEmpty ? "" : "{" + totals.joined(separator: ",") + "}")
        cells.append(r.objects.map(\.description).joined(separator: " "))
        return cells.map(cell).joined(separator: ",") + "\n"
    }

    /// A CSV cell: `text` itself, or quoted when it holds a comma, quote or line break.
    public static func cell(_ cell: String) -> String {
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
