#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the store `recover` builds: `meta` with the damaged store's identity, the plan's
/// batches byte for byte in new segments (a new segment at a batch once the current one
/// holds `segmentBytes`, named for that batch's first number),
/// the checkpoint at the last batch, the timelines, every file fsynced (0600, directories
/// 0700) and the directories after.
struct RecoverWriter {
    /// The new store.
    let layout: StoreLayout
    /// Its identity.
    let storeID: StoreID
    /// The size at which a segment is closed and the next one started.
    let segmentBytes: Int

    /// Writes everything `plan` holds.
    func write(_ plan: RecoverPlan) throws {
        try OwnedDirectory.prepare(layout.segments)
        try DurableFile.replace(layout.meta, with: Array(StoreMeta(storeID: storeID, version: FormatConstants.version).text.utf8))
        var current: (base: UInt64, fd: FileDescriptor, offset: Int)?
        defer { current?.fd.close() }
        for batch in plan.batches {
            if current == nil || (current!.offset + batch.bytes.count > segmentBytes && current!.offset > SegmentLayout.prologueLength) {
                if let open = current {
                    try open.fd.sync()
                    open.fd.close()
                    current = nil
                }
                current = try start(baseSeq: batch.header.firstSeq)
            }
            try current!.fd.write(batch.bytes, at: current!.offset)
            current!.offset += batch.bytes.count
        }
        if let open = current {
            try open.fd.sync()
            if let last = plan.batches.last {
                try Checkpoint(seq: last.header.lastSeq, segmentBase: open.base, endOffset: UInt64(open.offset)).write(layout, sync: true)
            }
        }
        if !plan.timelines.starts.isEmpty { try plan.timelines.write(layout) }
        try DurableFile.syncDirectory(layout.segments)
        try DurableFile.syncDirectory(layout.directory)
    }

    /// Creates the segment that starts at `baseSeq` and writes its prologue.
    private func start(baseSeq: UInt64) throws -> (base: UInt64, fd: FileDescriptor, offset: Int) {
        let fd = try FileDescriptor.createExclusive(layout.segment(baseSeq: baseSeq))
        let prologue = LZ4Frame.emptyFrame + SegmentHeader(storeID: storeID, baseSeq: baseSeq, generation: 0, createdMillis: Clock.nowMillis()).encoded()
        do {
            try fd.write(prologue, at: 0)
        } catch {
            fd.close()
            throw error
        }
        return (baseSeq, fd, prologue.count)
    }
}
