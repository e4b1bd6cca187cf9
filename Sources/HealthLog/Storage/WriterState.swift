/// The writer's view of every sample in the store: UUIDs ever used, which are live, what a
/// delete must copy, and the live sample of each sync identifier.
///
/// Built from the committed log the first time an append needs it (an add with a given
/// UUID, a delete, a sync identifier); an append of fresh samples into an empty store never
/// reads the log. Samples added by the append in progress are recorded as they come, so
/// later lines of the same input can delete them.
struct WriterState {
    /// Interned type identifiers and source and device tokens.
    var names = Interner()
    /// Every sample by UUID (index into ``stubs``).
    private(set) var index = UUIDIndex()
    /// The samples, in the order recorded.
    private(set) var stubs: [SampleStub] = []
    /// Sync data of samples that have it.
    private(set) var syncByUUID: [SampleUUID: SyncStub] = [:]
    /// The live sample of each sync identifier (keyed by its JSON token).
    private(set) var liveBySyncID: [[UInt8]: SampleUUID] = [:]
    /// Whether the committed log has been read in.
    private(set) var isLoaded = false

    /// The stub of `uuid`, if the UUID was ever used.
    func stub(_ uuid: SampleUUID) -> SampleStub? {
        index[uuid].map { stubs[$0] }
    }

    /// Records an added sample.
    mutating func recordAdd(_ uuid: SampleUUID, _ stub: SampleStub, sync: SyncStub?) {
        index.set(uuid, stubs.count)
        stubs.append(stub)
        if let sync {
            syncByUUID[uuid] = sync
            liveBySyncID[sync.identifier] = uuid
        }
    }

    /// Records that `uuid` was deleted.
    mutating func recordDelete(_ uuid: SampleUUID) {
        guard let at = index[uuid] else { return }
        stubs[at].isLive = false
        if let sync = syncByUUID[uuid], liveBySyncID[sync.identifier] == uuid {
            liveBySyncID[sync.identifier] = nil
        }
    }

    /// Reads every committed event of `snapshot` into the state (once).
    mutating func load(from snapshot: LogSnapshot?) throws {
        guard !isLoaded else { return }
        isLoaded = true
        guard let snapshot else { return }
        var reader = BatchLines()
        for batch in snapshot.batches {
            try reader.load(snapshot, batch, groups: Array(batch.header.groups.indices))
            let location = snapshot.segments[batch.segment].location(batch.offset)
            try reader.withBytes { raw in
                for line in reader.lines {
                    try apply(UnsafeRawBufferPointer(rebasing: raw[line.start..<line.end - 1]), seq: line.seq, storedAt: location)
                }
            }
        }
    }

    /// Applies one stored line (without its newline).
    private mutating func apply(_ raw: UnsafeRawBufferPointer, seq: UInt64, storedAt location: String) throws {
        let event: ParsedEvent
        do {
            event = try EventLineParser.parse(raw)
        } catch let error as FieldError {
            throw HealthLogError(.corrupt, "\(location): stored event \(seq) is invalid: \(error.field.map { "field '\($0)': " } ?? "")\(error.reason)")
        }
        guard let uuid = event.uuid else {
            throw HealthLogError(.corrupt, "\(location): stored event \(seq) has no uuid")
        }
        if event.isDelete {
            recordDelete(uuid)
        } else {
            recordAdd(uuid, stubFor(event, seq: seq, line: raw), sync: syncFor(event, line: raw))
        }
    }

    /// The stub of an add event.
    mutating func stubFor(_ event: ParsedEvent, seq: UInt64, line: UnsafeRawBufferPointer) -> SampleStub {
        func intern(_ range: Range<Int>?) -> UInt32 {
            guard let range else { return 0 }
            return names.id(of: UnsafeRawBufferPointer(rebasing: line[range]))
        }
        let start = event.start ?? Timestamp(microseconds: 0)
        return SampleStub(
            seq: seq, type: intern(event.type), source: intern(event.source), device: intern(event.device),
            start: start, end: event.end ?? start, isLive: true)
    }

    /// The sync stub of an event that carries a sync identifier.
    func syncFor(_ event: ParsedEvent, line: UnsafeRawBufferPointer) -> SyncStub? {
        guard let id = event.syncIdentifier, let token = event.syncVersionToken, let version = event.syncVersion else { return nil }
        return SyncStub(identifier: Array(line[id]), versionToken: Array(line[token]), version: version)
    }
}
