#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Verifies the bytes a continuous-backup round appended to the destination's growing
/// segment (``Backup/run(remembering:)``), read back from the destination: every batch
/// header there decodes with a sound CRC-32C and carries this store's tag, each starts
/// where the previous one ended (or where a timeline start says the log jumps), every
/// frame's stored bytes match their CRC-32C (an encrypted store's batch, read without the
/// key as a shell: all its stored frames against the CRC-32C its header keeps in clear), the batches fill the appended range exactly,
/// and the last one ends at the snapshot's head. The rest of the copy was verified by an
/// earlier round and is unchanged since (``BackupMemory``).
struct BackupTailCheck {
    /// The backup.
    let destination: StoreLayout
    /// The store's timelines, which say which sequence gaps are accepted.
    let timelines: Timelines
    /// The store's tag.
    let storeTag: UInt64
    /// Whether the store is encrypted: its batch headers are sealed, read as shells.
    let isEncrypted: Bool

    /// Checks each appended range in order; `after` is the previous round's head and
    /// `head` this round's.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` naming the file and byte offset of the
    ///   first thing wrong.
    func check(_ ranges: [(path: String, from: Int, to: Int)], after: UInt64, head: UInt64) throws {
        var last = after
        for range in ranges {
            let fd = try FileDescriptor.open(range.path, flags: O_RDONLY)
            defer { fd.close() }
            let bytes = try fd.read(at: range.from, count: range.to - range.from)
            var at = 0
            func refuse(_ why: String) -> HealthLogError {
                HealthLogError(.corrupt, "the backup in \(destination.directory) failed verification: \(range.path) at byte \(range.from + at): \(why)")
            }
            while at < bytes.count {
                guard at + 8 <= bytes.count, ByteReaderValue.u32(bytes, at) == FormatConstants.batchHeaderMagic else { throw refuse("not a batch header") }
                let length = Int(ByteReaderValue.u32(bytes, at + 4))
                guard length <= FormatConstants.maxBatchHeaderLength, at + 8 + length <= bytes.count else { throw refuse("batch header is incomplete") }
                let header: BatchHeader
                do {
                    header = try BatchHeader.decode(payload: Array(bytes[(at + 8)..<(at + 8 + length)]), shell: isEncrypted)
                } catch let violation as FormatViolation {
                    throw refuse(violation.reason)
                }
                guard header.storeTag == storeTag else { throw refuse("batch belongs to another store") }
                guard !isEncrypted || header.shell != nil else { throw refuse("batch header is not sealed in an encrypted store") }
                guard timelines.continues(header.firstSeq, after: last) else { throw refuse("batch starts at sequence \(header.firstSeq) after \(last)") }
                var frame = at + 8 + length
                guard frame + header.framesLength <= bytes.count else { throw refuse("batch frames end past the copied bytes") }
                if let shell = header.shell {
                    guard CRC32C.checksum(bytes[frame..<(frame + shell.framesLength)]) == shell.framesCRC else { throw refuse("frame checksum mismatch") }
                    frame += shell.framesLength
                }
                for group in header.groups {
                    guard CRC32C.checksum(bytes[frame..<(frame + Int(group.frameLength))]) == group.frameCRC else { throw refuse("frame checksum mismatch") }
                    frame += Int(group.frameLength)
                }
                last = header.lastSeq
                at = frame
            }
        }
        guard last == head else {
            throw HealthLogError(.corrupt, "the backup in \(destination.directory) failed verification: it ends at sequence \(last), the store at \(head)")
        }
    }
}
