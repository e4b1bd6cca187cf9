#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `checkpoint` file: where the last durably acknowledged append ends.
///
/// A synced append writes it (temporary file, fsync, rename, directory fsync) after the
/// append's data is on stable storage and before reporting success, so it never names
/// more than the segments durably hold. That makes it the store's proof of what was
/// acknowledged: bytes past it belong to an append that never returned (a torn tail),
/// anything missing or wrong before it is damage. `--no-sync` appends leave it alone,
/// since their data may still be lost to a power cut. It also bounds work: a reader
/// verifies every frame checksum of the last append only when that append ends past it.
///
/// Its bytes: a ``SmallFile`` tagged `HLCP`; `Format.md`, "The `checkpoint` file (36 bytes)".
struct Checkpoint: Equatable, Sendable {
    /// The file's kind.
    static let file = SmallFile(tag: "HLCP", version: FormatConstants.checkpointVersion, headerLength: 36, length: nil)

    /// The last acknowledged sequence number.
    var seq: UInt64
    /// The segment where that append ends.
    var segmentBase: UInt64
    /// The byte offset just past that append's last batch.
    var endOffset: UInt64

    /// The file's bytes.
    func encoded() -> [UInt8] {
        Self.file.encode { w in
            w.append(seq)
            w.append(segmentBase)
            w.append(endOffset)
        }
    }

    /// Reads the checkpoint of `layout`; `nil` when there is none (a new store, or one
    /// written only with `--no-sync`). One that exists but does not decode is damage: the
    /// store can no longer tell a torn tail from lost acknowledged data.
    static func read(_ layout: StoreLayout) throws -> Checkpoint? {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(layout.checkpoint, flags: O_RDONLY)
        } catch let error as HealthLogError where error.errno == ENOENT {
            return nil
        }
        defer { fd.close() }
        let bytes = try fd.read(at: 0, count: 64)
        guard bytes.count == 36, var r = Self.file.open(bytes) else {
            throw HealthLogError(.corrupt, "checkpoint at byte 0: not a valid checkpoint (\(bytes.count) bytes, bad tag, version or checksum); it records which appends were acknowledged, so a torn tail cannot be told from lost data. If 'healthlog verify' finds nothing else wrong once it is moved away, the log is whole")
        }
        let seq = try r.read(UInt64.self), base = try r.read(UInt64.self), end = try r.read(UInt64.self)
        return Checkpoint(seq: seq, segmentBase: base, endOffset: end)
    }

    /// Replaces the checkpoint atomically. With `sync`, the new file is fsynced before the
    /// rename; the rename itself is made durable by the caller (see
    /// ``LogWriter/commit()``), which must know whether a failure came before it.
    func write(_ layout: StoreLayout, sync: Bool) throws {
        try SmallFile.write(layout.checkpoint, encoded(), sync: sync, syncDirectory: false)
    }
}
