#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checking a sidecar without holding it: `verify` compares a compacted segment's index,
/// whose headers (their lists of dropped events) can run to tens of megabytes, with the log.
extension SegmentIndex {
    /// Checks the sidecar of `name` as ``read(_:_:)`` does (its header, its body's
    /// CRC-32C, the shape of its entries, and the summary its header keeps against them)
    /// in one pass over a mapping of it, handing `visit` each entry on the way (its offset
    /// in the segment and its header payload, valid during the call) and letting the pages
    /// go every MiB, so a large index adds a bounded amount to resident memory. A sound
    /// index with bytes after its entries (an encrypted segment's sealed copy of the
    /// tables) hands them to `copy` as ``walk(_:_:after:matching:storeTag:continues:visit:copy:)``
    /// does. Returns `nil` when the file is missing or cannot be mapped, else whether it is
    /// sound; what `visit` saw of an unsound file is to be thrown away.
    static func check(
        _ layout: StoreLayout, _ name: SegmentName, visit: (_ offset: Int, _ payload: UnsafeRawBufferPointer) -> Void,
        copy: ((_ header: UnsafeRawBufferPointer, _ unit: UnsafeRawBufferPointer, _ release: (Int) -> Void) -> Void)? = nil
    ) -> Bool? {
        guard let fd = try? FileDescriptor.open(path(layout, name), flags: O_RDONLY) else { return nil }
        defer { fd.close() }
        guard let file = MappedFile(fd) else { return (try? fd.size()).map { _ in false } }
        guard file.count >= headerLength else { return false }
        return file.withBytes(0..<file.count) { bytes -> Bool in
            guard let header = decodeHeader(Array(bytes[0..<headerLength]), name: name, fileLength: bytes.count) else { return false }
            var at = headerLength
            var crc: UInt32 = 0
            var summed = headerLength
            var first: UnsafeRawBufferPointer?
            var last: (offset: Int, payload: UnsafeRawBufferPointer)?
            for _ in 0..<header.summary.batchCount {
                guard let entry = entry(in: bytes, at: at) else { return false }
                let payload = UnsafeRawBufferPointer(rebasing: bytes[entry.payload])
                if first == nil { first = payload }
                last = (entry.offset, payload)
                visit(entry.offset, payload)
                at = entry.payload.upperBound
                if at - summed >= 1 << 20 {
                    crc = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[summed..<at]), seed: crc)
                    summed = at
                    file.release(below: at)
                }
            }
            // The rest (an encrypted segment's sealed copy of the tables, as large as the
            // entries) is summed a MiB at a time too, its pages let go behind.
            while summed < bytes.count {
                let end = min(bytes.count, summed + (1 << 20))
                crc = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[summed..<end]), seed: crc)
                summed = end
                file.release(below: summed)
            }
            guard crc == header.bodyCRC, at == bytes.count || last.map({ mayHoldCopy(after: $0.payload) }) == true else { return false }
            // As `read` does, only the first and the last entry's fixed fields are decoded
            // (for the summary); the pages of the first may have been let go, and are read back.
            guard let first, let last else { return summary(count: 0, first: nil, last: nil) == header.summary }
            guard let head = BatchHeader.FixedFields(first), let tail = BatchHeader.FixedFields(last.payload),
                summary(count: header.summary.batchCount, first: head, last: (last.offset, last.payload, tail)) == header.summary
            else { return false }
            if at < bytes.count {
                let copyStart = at
                // Its pages were let go once already, after summing: read again, they go again.
                var released = copyStart
                copy?(UnsafeRawBufferPointer(rebasing: bytes[0..<headerLength]), UnsafeRawBufferPointer(rebasing: bytes[at...])) { read in
                    file.release(released..<copyStart + read)
                    released = copyStart + read
                }
            }
            return true
        }
    }
}
