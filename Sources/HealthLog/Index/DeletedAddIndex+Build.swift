/// Building ``DeletedAddIndex`` from the log, and keeping it up to date after an append.
extension DeletedAddIndex {
    /// The sequence numbers of the adds that events `1...last` of `snapshot` delete, in
    /// order, read from the log: first its delete groups (the UUIDs deleted), then the add
    /// groups of the types deleted, up to the last delete. Memory holds the deleted UUIDs
    /// and one batch, not the log.
    static func entries(from snapshot: LogSnapshot, through last: UInt64) throws -> [UInt64] {
        let batches = try snapshot.allBatches().filter { $0.header.firstSeq <= last }
        var deleted = UUIDIndex(capacity: 1024)
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
                    deleted.set(uuid, 0)
                    lastDelete = max(lastDelete, line.seq)
                }
            }
            for g in groups { types.insert(batch.header.groups[g].type) }
        }
        guard deleted.count > 0 else { return [] }
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
                    if deleted[uuid] != nil { out.append(line.seq) }
                }
            }
        }
        return out
    }

    /// After an append committed events `from...to`, whose deletes deleted the adds
    /// `adds`: rewrites the sidecar to cover `to`, bound to `binding` (the log after the
    /// append), sealed with `cipher` (the store's; `nil` for a plaintext store). It takes the
    /// sidecar's entries when it covers exactly the log before the append and is bound to it,
    /// else (missing, damaged, behind, ahead or bound to another log) rebuilds them from
    /// `snapshot`, the log as of before the append.
    static func extend(
        _ layout: StoreLayout, snapshot: LogSnapshot?, from: UInt64, to: UInt64, adding adds: [UInt64], binding: LogBinding, cipher: StoreCipher?
    ) throws {
        guard to >= from else { return }
        let before = from - 1
        var entries: [UInt64]
        if let snapshot, let index = open(for: snapshot), index.coveredSeq == before, let all = try? index.allEntries() {
            entries = all
        } else if before == 0 {
            entries = []
        } else if let snapshot, snapshot.headSeq == before {
            entries = try Self.entries(from: snapshot, through: before)
        } else {
            return
        }
        if !adds.isEmpty {
            let sorted = adds.sorted()
            if let last = entries.last, let first = sorted.first, last < first {
                entries += sorted
            } else {
                entries = merged(entries, sorted)
            }
        }
        try write(layout, entries, coveredSeq: to, binding: binding, cipher: cipher)
    }

    /// The union of two ascending lists, ascending, without repeats.
    private static func merged(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var out: [UInt64] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            let next: UInt64
            if j == b.count || (i < a.count && a[i] < b[j]) {
                next = a[i]
                i += 1
            } else {
                next = b[j]
                j += 1
            }
            if out.last != next { out.append(next) }
        }
        return out
    }
}
