/// What a derived file about the events `1...covered` was derived from: the store's identity
/// and a check of the batch that ends at `covered` (the CRC-32C of its store tag, first and
/// last sequence numbers and append time, four u64s; 0 for an empty log): the fields that
/// identify a batch and that `compact` keeps when it rewrites one. A file copied from
/// another store, left from a log that a restore cut and wrote on, or from a stale build
/// names another binding than the log a reader holds, so it is rebuilt rather than trusted.
struct LogBinding: Equatable {
    /// The store's identity (the `meta` id).
    var storeID: StoreID
    /// The check of the batch ending at the covered sequence number.
    var check: UInt32

    /// The bytes it takes in a file: the identity, then the check.
    static let length = 20

    /// A binding to no log (no store has the identity of zeros): what a file encoded before
    /// its log's binding is known holds until it is rewritten with that binding.
    static let unbound = LogBinding(storeID: StoreID(bytes: [UInt8](repeating: 0, count: 16)), check: 0)

    /// The binding of a log of store `storeID` whose batch at the covered sequence number
    /// has `lastBatch` as its header (`nil`: the log is empty).
    init(storeID: StoreID, lastBatch: BatchHeader?) {
        self.storeID = storeID
        check = lastBatch.map { header in
            var fields = ByteWriter()
            fields.append(header.storeTag)
            fields.append(header.firstSeq)
            fields.append(header.lastSeq)
            fields.append(header.appendedMillis)
            return fields.bytes.withUnsafeBytes { CRC32C.checksum($0) }
        } ?? 0
    }

    /// The binding as stored.
    init(storeID: StoreID, check: UInt32) {
        self.storeID = storeID
        self.check = check
    }

    /// Reads a binding at `offset` of `bytes`; `nil` when they are too short.
    init?(_ bytes: [UInt8], at offset: Int) {
        guard offset + Self.length <= bytes.count else { return nil }
        storeID = StoreID(bytes: Array(bytes[offset..<offset + 16]))
        check = ByteReaderValue.u32(bytes, offset + 16)
    }

    /// Appends the binding's bytes.
    func write(to writer: inout ByteWriter) {
        writer.append(bytes: storeID.bytes)
        writer.append(check)
    }
}

extension LogSnapshot {
    /// The binding of this log at `seq`: `nil` when no committed batch ends exactly there
    /// (a file claiming to cover `seq` then covers no prefix of this log).
    func binding(at seq: UInt64) -> LogBinding? {
        guard seq > 0 else { return LogBinding(storeID: meta.storeID, lastBatch: nil) }
        guard let batch = try? batch(containing: seq), batch.header.lastSeq == seq else { return nil }
        return LogBinding(storeID: meta.storeID, lastBatch: batch.header)
    }
}
