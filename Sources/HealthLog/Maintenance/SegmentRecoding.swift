#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes every segment of a store again in place, batch by batch, for `restore --encrypt`
/// and `--decrypt` (``StoreEncryption``, ``StoreDecryption``): each segment keeps its name
/// and its prologue, each batch is opened to its plaintext header and LZ4 frames and handed
/// to `encode` with the segment and the offset it goes to; the file is written under a
/// temporary name, fsynced and renamed over the old one, and its index removed. Then the
/// checkpoint names the head's new offset and the compactions record keeps its generations
/// without the checkpoint moves (which named old offsets). The caller fsyncs the directories.
struct SegmentRecoding {
    /// The store, with the keys that open it when it is encrypted.
    let layout: StoreLayout
    /// The test faults (the segment writes go through them).
    let faults: FaultCounter

    /// Rewrites `snapshot`'s segments, each batch as `encode` gives it.
    func run(_ snapshot: LogSnapshot, encode: (_ header: BatchHeader, _ plain: [UInt8], _ segment: SegmentName, _ offset: Int) -> [UInt8]) throws {
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
                let (header, frames) = try opener.plain(batch, dropping: DroppedEvents(), buffer: &buffer, lines: &lines)
                let bytes = encode(header, SegmentRewriter.batchBytes(header, frames), file.name, offset)
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
    }
}
