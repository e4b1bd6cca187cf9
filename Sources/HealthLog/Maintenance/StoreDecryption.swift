#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Rewrites an encrypted store in the clear (`restore --decrypt`, on the copy built beside
/// the target before it is verified): every batch opened and written plain, each segment
/// keeping its name (base sequence number and generation) and its segment header, so the
/// store's identity, every sequence number and every anchor stay valid. Then the
/// checkpoint names the head's new offset, the compactions record keeps its generations
/// without the checkpoint moves (which named old offsets), `meta` says plaintext, the key
/// slots are removed, and so are the segment indexes, which the verify pass that follows
/// writes again. Each segment is written to a temporary name, fsynced and renamed over
/// the sealed one; the caller fsyncs the directories.
struct StoreDecryption {
    /// The copy, with the keys that open it.
    let layout: StoreLayout
    /// The test faults (the segment writes go through them).
    let faults: FaultCounter

    /// Rewrites the store; a plaintext one is left as it is.
    func run() throws {
        let snapshot = try LogSnapshot(layout, usingIndexes: false)
        guard snapshot.cipher != nil else { return }
        let opener = SegmentRewriter(layout: layout, snapshot: snapshot, generation: 0, faults: faults)
        var buffer: [UInt8] = []
        var lines = BatchLines()
        var head: (name: SegmentName, end: Int)?
        for (index, file) in snapshot.segments.enumerated() {
            let path = layout.segment(baseSeq: file.name.baseSeq, generation: file.name.generation)
            let temporary = path + DurableFile.temporarySuffix
            unlink(temporary)
            let fd = try FileDescriptor.open(temporary, flags: O_WRONLY | O_CREAT | O_EXCL)
            defer { fd.close() }
            try fd.setMode(0o600)
            var offset = 0
            let prologue = try file.read(at: 0, count: SegmentLayout.prologueLength)
            try faults.write(prologue, to: fd, at: offset)
            offset += prologue.count
            for batch in try snapshot.batches(inSegment: index) {
                let (header, frames) = try opener.plain(batch, dropping: [:], buffer: &buffer, lines: &lines)
                let bytes = header.encoded() + frames.joined()
                try faults.write(bytes, to: fd, at: offset)
                offset += bytes.count
            }
            try faults.syncData(fd)
            _ = try retryingOnInterrupt("cannot rename", path: temporary) { rename(temporary, path) }
            unlink(SegmentIndex.path(layout, file.name))
            if snapshot.appendPoint?.segment == index { head = (file.name, offset) }
        }
        if let head, snapshot.headSeq > 0 {
            try Checkpoint(seq: snapshot.headSeq, segmentBase: head.name.baseSeq, endOffset: UInt64(head.end)).write(layout, sync: true)
        }
        let compactions = snapshot.compactions
        if compactions.carried != compactions { try compactions.carried.write(layout) }
        try DurableFile.replace(layout.meta, with: Array(StoreMeta.new(snapshot.meta.storeID, encrypted: false).text.utf8), syncDirectory: false)
        for name in try DirectoryListing.names(in: layout.keySlots) { unlink(layout.keySlots + "/" + name) }
        rmdir(layout.keySlots)
    }
}
