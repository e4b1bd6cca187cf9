/// The record of what made an append and when it committed, kept in the header of the
/// batch that ends it (batch header version 3; see the Format article, "The batch header").
struct BatchOrigin: Equatable, Sendable {
    /// When the append committed: its last batch was encoded, then written and synced.
    var committedMillis: Int64
    /// What made it.
    var origin: AppendOrigin

    private static let commandKey: UInt8 = 1
    private static let fileKey: UInt8 = 2
    private static let exportDateKey: UInt8 = 3

    /// Appends the record (its bytes: `Format.md`, "The batch header").
    func encode(into writer: inout ByteWriter) {
        var body = ByteWriter()
        body.append(committedMillis)
        for (key, text) in [(Self.commandKey, origin.command), (Self.fileKey, origin.file), (Self.exportDateKey, origin.exportDate)] {
            guard let text else { continue }
            let bytes = Array(text.utf8)
            body.append(key)
            body.append(UInt16(bytes.count))
            body.append(bytes: bytes)
        }
        writer.append(UInt16(body.bytes.count))
        writer.append(bytes: body.bytes)
    }

    /// Reads a record ``encode(into:)`` wrote; fields of unknown keys are skipped, so a
    /// later build may add some.
    static func decode(_ reader: inout ByteReader) throws -> BatchOrigin {
        let length = Int(try reader.read(UInt16.self))
        var body = ByteReader(Array(try reader.read(count: length)))
        let committed = try body.read(Int64.self)
        var fields: [UInt8: String] = [:]
        while body.remaining > 0 {
            let key = try body.read(UInt8.self)
            let count = Int(try body.read(UInt16.self))
            let text = String(decoding: try body.read(count: count), as: UTF8.self)
            fields[key] = text
        }
        guard let command = fields[commandKey] else { throw FormatViolation("batch header's append origin names no command") }
        return BatchOrigin(committedMillis: committed, origin: AppendOrigin(command: command, file: fields[fileKey], exportDate: fields[exportDateKey]))
    }
}
