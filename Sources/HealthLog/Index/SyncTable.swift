/// The live samples that carry a sync identifier (HealthKit's `HKMetadataKeySyncIdentifier`),
/// by identifier, kept in the sidecar `uuids/sync` for sequence numbers `1...coveredSeq`.
///
/// Derived data: a missing or damaged file, one covering more than the log, or one bound to
/// another log (``LogBinding``: another store's, or a log that no longer ends a batch at
/// its covered number the way it did) is rebuilt from the log, and a file that covers less
/// than the log is brought up to date by reading only the events after it.
///
/// Its bytes: a ``SmallFile`` tagged `HLSY`; `Format.md`, "Sync table" (index version
/// ``FormatConstants/syncTableVersion``; a file of any other is ignored, see
/// ``IndexVersion``; bound to the log by a ``LogBinding``). In an encrypted store the body
/// is one sealed unit (``StoreCipher/Purpose/derivedFile``) whose place is the header's
/// first ``placeLength`` bytes (tag, version, covered, count) and unit number 0.
struct SyncTable: Equatable {
    /// One live sample's sync data.
    struct Entry: Equatable {
        var uuid: SampleUUID
        var sync: SyncStub
    }

    /// Live samples by sync identifier token.
    var entries: [[UInt8]: Entry] = [:]
    /// The last sequence number reflected.
    var coveredSeq: UInt64 = 0
    /// The log the file read was derived from (``unbound`` for a table not read from a file).
    var binding = LogBinding.unbound

    /// The header's length in bytes.
    static let headerLength = 48
    /// The file's kind: the body runs to the end of the file, so its checksum and its
    /// entries, decoded to the last byte, check its length.
    static let file = SmallFile(tag: "HLSY", version: FormatConstants.syncTableVersion, headerLength: headerLength, length: nil)
    /// Where the ``LogBinding`` lies in the header.
    static let bindingOffset = 24
    /// The header bytes a sealed body's place names.
    static let placeLength = 20

    /// The sidecar's path.
    static func path(_ layout: StoreLayout) -> String { layout.directory + "/uuids/sync" }

    /// The table of `snapshot`: the sidecar (sealed with `cipher`, the store's) when sound
    /// and bound to that log, caught up with the log after it; else rebuilt from the log.
    static func load(_ layout: StoreLayout, snapshot: LogSnapshot?, cipher: StoreCipher?) throws -> SyncTable {
        var table = read(layout, cipher: cipher).flatMap { $0.isBound(to: snapshot) ? $0 : nil } ?? SyncTable()
        let head = snapshot?.headSeq ?? 0
        if let snapshot, table.coveredSeq < head { try table.catchUp(snapshot, through: head) }
        return table
    }

    /// Whether the table, read from its file, covers no more than `snapshot`'s log and was
    /// derived from it: the same store, and the batch ending at its covered number the one
    /// it was derived from.
    func isBound(to snapshot: LogSnapshot?) -> Bool {
        guard let snapshot, coveredSeq <= snapshot.headSeq else { return false }
        return binding == snapshot.binding(at: coveredSeq)
    }

    /// Applies the events after ``coveredSeq`` up to `last` that mention a sync identifier.
    mutating func catchUp(_ snapshot: LogSnapshot, through last: UInt64) throws {
        var lines = BatchLines()
        for batch in try snapshot.batches(after: coveredSeq) where batch.header.firstSeq <= last {
            try lines.load(snapshot, batch, groups: Array(batch.header.groups.indices))
            try lines.withBytes { raw in
                for line in lines.lines where line.seq > coveredSeq && line.seq <= last {
                    let bytes = UnsafeRawBufferPointer(rebasing: raw[line.start..<line.end - 1])
                    if !apply(bytes) {
                        throw snapshot.unreadableEvent(line.seq, in: batch)
                    }
                }
            }
        }
        coveredSeq = last
    }

    /// Applies one stored line (without newline) if it mentions a sync identifier; returns
    /// `false` when it does but cannot be parsed.
    mutating func apply(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard ByteSearch.contains(SyncTable.key, in: bytes) else { return true }
        guard let event = try? EventLineParser.parse(bytes), let uuid = event.uuid else { return false }
        guard let id = event.syncIdentifier, let token = event.syncVersionToken, let version = event.syncVersion else { return true }
        let identifier = Array(bytes[id])
        if event.isDelete {
            if entries[identifier]?.uuid == uuid { entries[identifier] = nil }
        } else {
            entries[identifier] = Entry(uuid: uuid, sync: SyncStub(identifier: identifier, versionToken: Array(bytes[token]), version: version))
        }
        return true
    }

    /// The metadata key every line that carries a sync identifier contains.
    static let key = Array(#""HKMetadataKeySyncIdentifier""#.utf8)

    /// The file's bytes, bound to `binding` (the log's at ``coveredSeq``), the body sealed
    /// with `cipher` (`nil`: a plaintext store's table).
    func encoded(binding: LogBinding, cipher: StoreCipher?) -> [UInt8] {
        var body = ByteWriter()
        for (identifier, entry) in entries.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            body.append(UInt16(identifier.count))
            body.append(bytes: identifier)
            body.append(entry.uuid.high)
            body.append(entry.uuid.low)
            body.append(entry.sync.version)
            body.append(UInt16(entry.sync.versionToken.count))
            body.append(bytes: entry.sync.versionToken)
        }
        let naming = { (w: inout ByteWriter) in
            w.append(coveredSeq)
            w.append(UInt32(entries.count))
        }
        let stored = cipher.map { $0.seal(body.bytes, .derivedFile, place: SmallFile.place(Self.file.prefix(naming), unit: 0)) } ?? body.bytes
        return Self.file.encode(body: stored) { w in
            naming(&w)
            w.append(stored.withUnsafeBytes { CRC32C.checksum($0) })
            binding.write(to: &w)
        }
    }

    /// Writes the sidecar, bound to `binding` (the log's at ``coveredSeq``) and sealed with
    /// `cipher` (temporary file and rename; not synced).
    func write(_ layout: StoreLayout, binding: LogBinding, cipher: StoreCipher?) throws {
        try OwnedDirectory.prepare(layout.directory + "/uuids")
        try SmallFile.write(Self.path(layout), encoded(binding: binding, cipher: cipher), sync: false)
    }

    /// The sidecar when present and sound (its body sealed with `cipher`, for an encrypted
    /// store), with the binding it names (whether that is the log's is for the caller to
    /// check, ``isBound(to:)``).
    static func read(_ layout: StoreLayout, cipher: StoreCipher?) -> SyncTable? {
        guard let bytes = (try? SmallFile.read(path(layout))) ?? nil, var r = file.open(bytes),
            CRC32C.checksum(bytes[headerLength...]) == ByteReaderValue.u32(bytes, 20), let binding = LogBinding(bytes, at: bindingOffset)
        else { return nil }
        guard let covered = try? r.read(UInt64.self), let count = try? r.read(UInt32.self) else { return nil }
        let plain: [UInt8]
        if let cipher {
            guard let opened = cipher.open(Array(bytes[headerLength...]), .derivedFile, place: SmallFile.place(bytes[0..<placeLength], unit: 0)) else { return nil }
            plain = opened
        } else {
            plain = bytes
        }
        var body = ByteReader(plain, at: cipher == nil ? headerLength : 0)
        var table = SyncTable(entries: [:], coveredSeq: covered, binding: binding)
        for _ in 0..<count {
            guard let idLength = try? body.read(UInt16.self), let id = try? body.read(count: Int(idLength)),
                let high = try? body.read(UInt64.self), let low = try? body.read(UInt64.self), let version = try? body.read(Int64.self),
                let tokenLength = try? body.read(UInt16.self), let token = try? body.read(count: Int(tokenLength))
            else { return nil }
            table.entries[Array(id)] = Entry(
                uuid: SampleUUID(high: high, low: low), sync: SyncStub(identifier: Array(id), versionToken: Array(token), version: version))
        }
        return body.remaining == 0 ? table : nil
    }
}
