/// Finds what `import --mirror` deletes: the live samples an import brought in (their
/// metadata holds the ``SampleDraft/markerKey`` marker) whose UUIDs the new export no
/// longer derives. Reads the whole log once, in sequence order; memory grows with the
/// samples found, not with the log.
struct MirrorScan {
    let layout: StoreLayout

    init(_ layout: StoreLayout) {
        self.layout = layout
    }

    /// The live imported samples whose UUIDs are not in `exported` (sorted), in UUID order.
    func importedSamples(notIn exported: [SampleUUID]) throws -> [SampleUUID] {
        guard layout.exists else { return [] }
        let snapshot = try LogSnapshot(layout)
        let marker = Array("\"\(SampleDraft.markerKey)\":".utf8)
        var found: Set<SampleUUID> = []
        var lines = BatchLines()
        for batch in try snapshot.allBatches() {
            try lines.load(snapshot, batch, groups: Array(batch.header.groups.indices))
            lines.withBytes { raw in
                for line in lines.lines {
                    guard let uuid = BatchLines.uuid(of: line, in: raw) else { continue }
                    if line.isDelete {
                        found.remove(uuid)
                    } else if Self.contains(marker, in: UnsafeRawBufferPointer(rebasing: raw[line.start..<line.end])), !Self.contains(uuid, sorted: exported) {
                        found.insert(uuid)
                    }
                }
            }
        }
        return found.sorted()
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
