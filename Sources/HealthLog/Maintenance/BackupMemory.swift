#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one round of a continuous backup left in the destination, kept in memory for the
/// next round (``Backup/run(remembering:)``), so that round reads, compares, digests and
/// verifies only what changed since.
///
/// Why a remembered file may be trusted without reading it again: its manifest entry was
/// digested from the bytes the round compared or copied and then verified; the store's
/// file is the same inode (a sealed segment and the committed prefix of the growing one
/// never change in place, see ``SegmentFile``); and the destination file's ``FileStamp``
/// (inode, size, modification and change times) is the one the round left, so nothing has
/// written to it since. Anything that does not match is handled as a one-off backup
/// handles it. The memory of a round that failed is dropped.
struct BackupMemory {
    /// A file of the destination as the round left it.
    struct File {
        /// Its manifest entry.
        var entry: BackupManifest.Entry
        /// The store's file it copies.
        var source: FileStatus
        /// The destination file.
        var stamp: FileStamp
    }

    /// The store backed up.
    var storeID: StoreID
    /// The store's timelines at the round.
    var timelines: Timelines
    /// The round's head.
    var headSeq: UInt64
    /// The segments and indexes, by path relative to the destination.
    var files: [String: File] = [:]
    /// The growing segment's path and the running SHA-256 of its bytes so far, so the next
    /// round digests only what it appends.
    var growing: (path: String, digest: SHA256Digest)?
    /// The destination's `meta` and `timelines` as the round left them (`nil`: absent).
    var smallFiles: [String: FileStamp?] = [:]
}

