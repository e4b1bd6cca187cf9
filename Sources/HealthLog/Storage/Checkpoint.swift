#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `checkpoint` file: where the last acknowledged append ends.
///
/// It is a hint that bounds work, never a source of truth: a reader fully verifies (every
/// frame checksum) only the last append, and only when that append ends past the
/// checkpoint. A missing, damaged or stale checkpoint just means more verification.
///
/// Layout (little-endian): `HLCP`, u16 version, u16 0, u64 seq, u64 segment base seq,
/// u64 end offset in that segment, u32 CRC-32C of the preceding bytes.
struct Checkpoint: Equatable, Sendable {
    /// The last acknowledged sequence number.
    var seq: UInt64
    /// The segment where that append ends.
    var segmentBase: UInt64
    /// The byte offset just past that append's last batch.
    var endOffset: UInt64

    /// The file's bytes.
    func encoded() -> [UInt8] {
        var w = ByteWriter()
        w.append(bytes: FormatConstants.checkpointTag)
        w.append(FormatConstants.version)
        w.append(UInt16(0))
        w.append(seq)
        w.append(segmentBase)
        w.append(endOffset)
        w.appendChecksum()
        return w.bytes
    }

    /// Reads the checkpoint of `layout`; `nil` when missing or unreadable.
    static func read(_ layout: StoreLayout) -> Checkpoint? {
        guard let fd = try? FileDescriptor.open(layout.checkpoint, flags: O_RDONLY) else { return nil }
        defer { fd.close() }
        guard let bytes = try? fd.read(at: 0, count: 64), bytes.count == 36,
            CRC32C.checksum(bytes[0..<32]) == ByteReaderValue.u32(bytes, 32),
            Array(bytes[0..<4]) == FormatConstants.checkpointTag
        else { return nil }
        var r = ByteReader(bytes, at: 8)
        guard let seq = try? r.read(UInt64.self), let base = try? r.read(UInt64.self), let end = try? r.read(UInt64.self) else {
            return nil
        }
        return Checkpoint(seq: seq, segmentBase: base, endOffset: end)
    }

    /// Writes the checkpoint (atomically; not fsynced, since it is only a hint).
    func write(_ layout: StoreLayout) throws {
        try DurableFile.replace(layout.checkpoint, with: encoded(), sync: false)
    }
}
