/// Building ``DeletedAddIndex`` from the log, and keeping it up to date after an append.
extension DeletedAddIndex {
    /// The sequence numbers of the adds that events `1...last` of `snapshot` delete, in
    /// order, in one array: what ``ExpectedAdds`` reads.
    static func entries(from snapshot: LogSnapshot, through last: UInt64) throws -> [UInt64] {
        var adds = try ExpectedAdds(snapshot, through: last)
        if let live = adds.liveOnly { return live }
        var out: [UInt64] = []
        out.reserveCapacity(adds.bound)
        while let seq = try adds.next() { out.append(seq) }
        return out
    }

    /// The adds the delete lines of `batches` up to `last` delete, read from the log: first
    /// its delete groups, whose UUIDs are kept sorted (``SortedUUIDs``, 16 bytes a delete),
    /// then the add groups of the types deleted, up to the last delete, looked up in them.
    /// Memory holds the deleted UUIDs and one batch, not the log.
    static func liveEntries(_ snapshot: LogSnapshot, _ batches: [BatchRef], through last: UInt64) throws -> [UInt64] {
        var deletes: [SampleUUID] = []
        // Room for every delete line at once (an array that grows holds its old buffer beside
        // the new): the delete groups' counts, at most one a sequence number.
        let announced = batches.reduce(0) { sum, batch in
            batch.header.groups.reduce(sum) { $1.isDelete && $1.firstSeq <= last ? $0 &+ Int(clamping: $1.count) : $0 }
        }
        deletes.reserveCapacity(max(0, min(announced, Int(clamping: last))))
        var types: Set<String> = []
        var lastDelete: UInt64 = 0
        var lines = BatchLines()
        for batch in batches {
            let groups = batch.header.groups.indices.filter { batch.header.groups[$0].isDelete && batch.header.groups[$0].firstSeq <= last }
            if groups.isEmpty { continue }
            try lines.load(snapshot, batch, groups: groups)
            try lines.withBytes { raw in
                for line in lines.lines where line.seq <= last {
                    guard let uuid = BatchLines.uuid(of: line, in: raw) else { throw snapshot.unreadableEvent(line.seq, in: batch) }
                    deletes.append(uuid)
                    lastDelete = max(lastDelete, line.seq)
                }
            }
            for g in groups { types.insert(batch.header.groups[g].type) }
        }
        guard !deletes.isEmpty else { return [] }
        let deleted = SortedUUIDs(taking: &deletes)
        var out: [UInt64] = []
        for batch in batches where batch.header.firstSeq < lastDelete {
            let groups = batch.header.groups.indices.filter { g in
                let group = batch.header.groups[g]
                return !group.isDelete && group.firstSeq < lastDelete && types.contains(group.type)
            }
            if groups.isEmpty { continue }
            try lines.load(snapshot, batch, groups: groups)
            try lines.withBytes { raw in
                for line in lines.lines where line.seq < lastDelete {
                    guard let uuid = BatchLines.uuid(of: line, in: raw) else { throw snapshot.unreadableEvent(line.seq, in: batch) }
                    if deleted.contains(uuid) { out.append(line.seq) }
                }
            }
        }
        return out
    }

    /// The adds deleted in a log before an append, as ``before(_:)`` found them: the
    /// sidecar, checked and covering that log (read a block at a time when the append's
    /// own are merged in), or the numbers read from the log.
    enum Before {
        case index(DeletedAddIndex)
        case entries([UInt64])

        /// How many there are.
        var count: Int {
            switch self {
            case .index(let index): index.count
            case .entries(let entries): entries.count
            }
        }

        /// Reads them in order.
        struct Cursor {
            private var index: DeletedAddIndex.EntryCursor?
            private let entries: [UInt64]
            private var at = 0

            fileprivate init(_ before: Before) {
                switch before {
                case .index(let index):
                    self.index = index.entryCursor()
                    entries = []
                case .entries(let entries): self.entries = entries
                }
            }

            /// The next, or `nil` after the last.
            ///
            /// - Throws: as ``DeletedAddIndex/EntryCursor/next()``.
            mutating func next() throws -> UInt64? {
                if index != nil { return try index!.next() }
                guard at < entries.count else { return nil }
                at += 1
                return entries[at - 1]
            }
        }

        /// A cursor from the first.
        func cursor() -> Cursor { Cursor(self) }
    }

    /// The adds deleted in the log of `snapshot` (the writer's, before an append) with their
    /// witness, for the append to add its own to: the sidecar when it covers exactly that log
    /// and matches the witness its last append recorded, else read from the log (the witness
    /// then computed from them, so a log whose recorded witness no longer fits it, as after
    /// `recover` lost events, is witnessed anew). `adds` is `nil` when the log could not be
    /// read (the sidecar is then left for a later writer); `recorded` says whether the last
    /// append recorded a witness.
    static func before(_ snapshot: LogSnapshot?) -> (adds: Before?, witness: BatchOrigin.DeletedAddWitness?, recorded: Bool) {
        guard let snapshot, snapshot.headSeq > 0 else { return (.entries([]), BatchOrigin.DeletedAddWitness.empty, false) }
        let last = (try? snapshot.batch(containing: snapshot.headSeq)).flatMap { $0.header.lastSeq == snapshot.headSeq ? $0.header : nil }
        let recorded = last?.origin?.deletedAdds
        if let index = open(for: snapshot), index.coveredSeq == snapshot.headSeq, (try? index.checkEntries()) != nil {
            return (.index(index), recorded ?? BatchOrigin.DeletedAddWitness.empty, recorded != nil)
        }
        guard let all = try? entries(from: snapshot, through: snapshot.headSeq) else { return (nil, recorded, recorded != nil) }
        return (.entries(all), BatchOrigin.DeletedAddWitness(of: all), recorded != nil)
    }

    /// After an append committed events up to `to`, whose deletes deleted `count` adds,
    /// which `adds` calls its function with in ascending order (as the append's spill gives
    /// them): rewrites the sidecar to cover `to`, bound to `binding` (the log after the
    /// append), listing `before` (the log's deleted adds before the append, from
    /// ``before(_:)``) merged with them, sealed with `cipher` (the store's; `nil` for a
    /// plaintext store), a block at a time. An add listed twice (which the witness the
    /// append recorded would not count) leaves the old sidecar, for a later writer to rebuild.
    static func extend(
        _ layout: StoreLayout, before: Before, adding count: Int, _ adds: (_ body: (UInt64) throws -> Void) throws -> Void, to: UInt64,
        binding: LogBinding, cipher: StoreCipher?
    ) throws {
        try write(layout, count: before.count + count, coveredSeq: to, binding: binding, cipher: cipher) { add in
            var earlier = before.cursor()
            var pending = try earlier.next()
            // `adds` calls back synchronously and does not call `write`'s function itself.
            try withoutActuallyEscaping(add) { add in
                try adds { seq in
                    while let entry = pending, entry < seq {
                        try add(entry)
                        pending = try earlier.next()
                    }
                    try add(seq)
                }
            }
            while let entry = pending {
                try add(entry)
                pending = try earlier.next()
            }
        }
    }
}
