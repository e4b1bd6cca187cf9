#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading only the end of a sealed segment's batch table, for a query whose anchor lies
/// near that segment's end (the 90% query reads one batch of a 360-batch table).
extension SegmentIndex {
    /// Walks the sidecar of `name`, handing `visit` each entry whose batch's `lastSeq` is
    /// above `seq` (its offset in the segment and its header payload, valid during the call)
    /// until `visit` returns `false` or the entries end. Returns whether what was walked is
    /// sound: `false` when the sidecar is missing or does not agree with `summary` (the header
    /// the reader took the segment on), and then what `visit` saw must be thrown away and the
    /// caller loads the whole table the usual way and reports what is wrong.
    ///
    /// The file is mapped rather than read, and the entries before are walked by their fixed
    /// fields only: each must start where the one before ends, carry `storeTag`, and start
    /// at a sequence number `continues` accepts after the one before; the walk must end
    /// exactly at the body's end, at `summary`'s covered length, batch count and last
    /// sequence number, and the last payload must be the one `summary` names. The body's
    /// checksum is not computed (that would read every byte); the entries visited are
    /// decoded by the caller with their own payload checksums checked.
    ///
    /// A walk `visit` stops skips the entries after: those it saw stand on the chain of
    /// offsets and sequence numbers from the first entry and on their own payload checksums,
    /// whatever the rest holds, and a query from an early anchor then reads only the start
    /// of a large table. Only a walk to the end checks the end against `summary`, and hands
    /// `copy` the header and the bytes after the last entry, when an index of sealed batches
    /// has any (its sealed copy of their tables, ``OpenedTableCopy``; not checked here: it
    /// opens or it does not), with a function that lets go of the mapping's pages before a
    /// byte of those.
    static func walk(
        _ layout: StoreLayout, _ name: SegmentName, after seq: UInt64, matching summary: Summary, storeTag: UInt64,
        continues: (_ first: UInt64, _ expected: UInt64) -> Bool, visit: (_ offset: Int, _ payload: UnsafeRawBufferPointer) -> Bool,
        copy: ((_ header: UnsafeRawBufferPointer, _ unit: UnsafeRawBufferPointer, _ release: (Int) -> Void) -> Void)? = nil
    ) -> Bool {
        guard let fd = try? FileDescriptor.open(path(layout, name), flags: O_RDONLY) else { return false }
        defer { fd.close() }
        guard let file = MappedFile(fd), file.count >= headerLength else { return false }
        return file.withBytes(0..<file.count) { bytes -> Bool in
            guard let header = decodeHeader(Array(bytes[0..<headerLength]), name: name, fileLength: bytes.count), header.summary == summary
            else { return false }
            var at = headerLength
            var offset = SegmentLayout.prologueLength
            var expected = summary.firstSeq
            var last: UnsafeRawBufferPointer?
            var released = 0
            for _ in 0..<summary.batchCount {
                guard at + 12 <= bytes.count else { return false }
                let entryOffset = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
                let length = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self)))
                at += 12
                guard entryOffset == UInt64(offset), length <= FormatConstants.maxBatchHeaderLength, at + length <= bytes.count else { return false }
                let payload = UnsafeRawBufferPointer(rebasing: bytes[at..<at + length])
                guard let fields = BatchHeader.FixedFields(payload), fields.storeTag == storeTag, continues(fields.firstSeq, expected),
                    fields.lastSeq >= fields.firstSeq
                else { return false }
                if fields.lastSeq > seq, !visit(offset, payload) { return true }
                offset += 8 + length + fields.framesLength
                expected = fields.lastSeq + 1
                last = payload
                at += length
                // A table of large headers (a compacted segment's dropped lists) is passed
                // through, not kept resident: its pages go every 8 MiB.
                if at - released >= 8 << 20 {
                    file.release(below: at)
                    released = at
                }
            }
            guard (at == bytes.count || last.map(mayHoldCopy(after:)) == true) && offset == summary.coveredLength && expected - 1 == summary.lastSeq
                && last.map({ lastBatchCheck($0) == summary.lastPayloadCRC }) == true
            else { return false }
            if at < bytes.count {
                let copyStart = at
                copy?(UnsafeRawBufferPointer(rebasing: bytes[0..<headerLength]), UnsafeRawBufferPointer(rebasing: bytes[at...])) { file.release(below: copyStart + $0) }
            }
            return true
        }
    }
}
