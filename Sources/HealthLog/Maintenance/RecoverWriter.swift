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
        var input: (path: String, fd: FileDescriptor)?
        defer {
            current?.fd.close()
            input?.fd.close()
        }
        for batch in plan.batches {
            if input?.path != batch.path {
                input?.fd.close()
                input = nil
                input = (batch.path, try FileDescriptor.open(batch.path, flags: O_RDONLY))
            }
            let bytes = try Self.bytes(of: batch, from: input!.fd)
            if current == nil || (current!.offset + bytes.count > segmentBytes && current!.offset > SegmentLayout.prologueLength) {
                if let open = current {
                    try open.fd.sync()
                    open.fd.close()
                    current = nil
                }
                current = try start(baseSeq: batch.header.firstSeq)
            }
            try current!.fd.write(bytes, at: current!.offset)
            current!.offset += bytes.count
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

    /// The bytes of `batch`, read again from the damaged store's file (verbatim, or with
    /// its header frame encoded anew when the plan changed the header). What is read is
    /// checked again when the new store is verified.
    private static func bytes(of batch: RecoverScan.SoundBatch, from fd: FileDescriptor) throws -> [UInt8] {
        let stored = try fd.read(at: batch.offset, count: batch.length)
        guard stored.count == batch.length else {
            throw HealthLogError(.io, "\(fd.path): ended inside the batch at byte \(batch.offset) while recovering it")
        }
        guard batch.isHeaderRewritten else { return stored }
        return batch.header.encoded() + stored[(stored.count - batch.header.framesLength)...]
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
