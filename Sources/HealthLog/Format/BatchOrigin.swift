/// The record of what made an append and when it committed, kept in the header of the
/// batch that ends it (batch header version 3; see the Format article, "The batch header"),
/// with the witness of the log's deleted adds as of that append.
struct BatchOrigin: Equatable, Sendable {
    /// The count and digest of every add that a delete up to the end of an append deleted
    /// (those `compact` dropped later included), so the deleted-add index is checked against
    /// the log rather than taken on its own word. The digest is the wrapping sum of a 64-bit
    /// hash of each sequence number (``DeletedAddIndex``), so it does not depend on order
    /// and an append adds its own deletes' adds to the one before it.
    struct DeletedAddWitness: Equatable, Sendable {
        /// How many adds were deleted.
        var count: UInt64
        /// The wrapping sum of their hashed sequence numbers.
        var digest: UInt64

        /// The witness of no deleted add.
        static let empty = DeletedAddWitness(count: 0, digest: 0)
    }

    /// When the append committed: its last batch was encoded, then written and synced.
    var committedMillis: Int64
    /// What made it (`nil`: the writer named no origin, and the record is there for the witness).
    var origin: AppendOrigin?
    /// The witness of the log's deleted adds as of this append (`nil`: not recorded).
    var deletedAdds: DeletedAddWitness? = nil

    private static let commandKey: UInt8 = 1
    private static let fileKey: UInt8 = 2
    private static let exportDateKey: UInt8 = 3
    private static let deletedAddsKey: UInt8 = 4
    /// The length of the witness field: the count and the digest, u64 each.
    private static let witnessLength = 16

    /// Appends the record (its bytes: `Format.md`, "The batch header").
    func encode(into writer: inout ByteWriter) {
        var body = ByteWriter()
        body.append(committedMillis)
        for (key, text) in [(Self.commandKey, origin?.command), (Self.fileKey, origin?.file), (Self.exportDateKey, origin?.exportDate)] {
            guard let text else { continue }
            let bytes = Array(text.utf8)
            body.append(key)
            body.append(UInt16(bytes.count))
            body.append(bytes: bytes)
        }
        if let deletedAdds {
            body.append(Self.deletedAddsKey)
            body.append(UInt16(Self.witnessLength))
            body.append(deletedAdds.count)
            body.append(deletedAdds.digest)
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
        // A few fields, searched (a dictionary's first use of its type costs a page more);
        // of a key given twice, the last counts.
        var fields: [(key: UInt8, bytes: ArraySlice<UInt8>)] = []
        while body.remaining > 0 {
            let key = try body.read(UInt8.self)
            let count = Int(try body.read(UInt16.self))
            fields.append((key, try body.read(count: count)))
        }
        func field(_ key: UInt8) -> ArraySlice<UInt8>? { fields.last { $0.key == key }?.bytes }
        var witness: DeletedAddWitness?
        if let bytes = field(deletedAddsKey) {
            guard bytes.count == witnessLength else { throw FormatViolation("batch header's deleted-add witness is \(bytes.count) bytes, not \(witnessLength)") }
            var field = ByteReader(Array(bytes))
            witness = DeletedAddWitness(count: try field.read(), digest: try field.read())
        }
        func text(_ key: UInt8) -> String? { field(key).map { String(decoding: $0, as: UTF8.self) } }
        guard let command = text(commandKey) else {
            guard witness != nil else { throw FormatViolation("batch header's append origin names no command") }
            return BatchOrigin(committedMillis: committed, origin: nil, deletedAdds: witness)
        }
        return BatchOrigin(committedMillis: committed, origin: AppendOrigin(command: command, file: text(fileKey), exportDate: text(exportDateKey)), deletedAdds: witness)
    }
}
