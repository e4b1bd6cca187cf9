/// Finds what `import --mirror` deletes: the live samples an import brought in (their
/// metadata holds the ``SampleDraft/markerKey`` marker) whose UUIDs the new export no
/// longer derives.
///
/// Two reads of the log, as a HealthKit-view replay does: the delete groups first (the
/// UUIDs deleted so far), then the add groups. Memory grows with the deletes in the log
/// and the samples found, not with the log.
struct MirrorScan {
    let layout: StoreLayout

    init(_ layout: StoreLayout) {
        self.layout = layout
    }

    /// The live imported samples whose UUIDs are not in `exported` (sorted), in the order
    /// of their stored lines: deleting them in that order lets the writer read each group
    /// of the log once to copy what the deletes carry.
    func importedSamples(notIn exported: [SampleUUID]) throws -> [SampleUUID] {
        guard layout.exists else { return [] }
        let snapshot = try LogSnapshot(layout)
        let batches = try snapshot.allBatches()
        var lines = BatchLines()
        var deleted = UUIDIndex()
        for batch in batches {
            let groups = batch.header.groups.indices.filter { batch.header.groups[$0].isDelete }
            guard !groups.isEmpty else { continue }
            try lines.load(snapshot, batch, groups: groups)
            lines.withBytes { raw in
                for line in lines.lines {
                    if let uuid = BatchLines.uuid(of: line, in: raw) { deleted.set(uuid, 0) }
                }
            }
        }
        let marker = Array("\"\(SampleDraft.markerKey)\":".utf8)
        var found: [(place: UInt64, uuid: SampleUUID)] = []
        for (ordinal, batch) in batches.enumerated() {
            let groups = batch.header.groups.indices.filter { !batch.header.groups[$0].isDelete }
            guard !groups.isEmpty else { continue }
            try lines.load(snapshot, batch, groups: groups)
            lines.withBytes { raw in
                for line in lines.lines {
                    guard let uuid = BatchLines.uuid(of: line, in: raw), deleted[uuid] == nil, !Self.contains(uuid, sorted: exported),
                        Self.contains(marker, in: UnsafeRawBufferPointer(rebasing: raw[line.start..<line.end]))
                    else { continue }
                    found.append((UInt64(ordinal) << 32 | UInt64(line.start), uuid))
                }
            }
        }
        found.sort { $0.place < $1.place }
        return found.map(\.uuid)
    }

    /// Whether `pattern` occurs in `text`.
    static func contains(_ pattern: [UInt8], in text: UnsafeRawBufferPointer) -> Bool {
        guard let first = pattern.first, text.count >= pattern.count else { return false }
        var at = 0
        while at + pattern.count <= text.count {
            if text[at] == first, pattern.indices.allSatisfy({ text[at + $0] == pattern[$0] }) { return true }
            at += 1
        }
        return false
    }

    /// Binary search in a sorted array.
    static func contains(_ uuid: SampleUUID, sorted: [SampleUUID]) -> Bool {
        var lo = 0
        var hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < uuid { lo = mid + 1 } else { hi = mid }
        }
        return lo < sorted.count && sorted[lo] == uuid
    }
}
