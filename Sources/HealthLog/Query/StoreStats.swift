#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `stats` reports, answered from the batch headers (the segments' sidecar indexes)
/// without reading any event.
public struct StoreStats: Sendable, Equatable {
    /// One type's figures.
    public struct TypeStats: Sendable, Equatable {
        /// The full type identifier.
        public var type: String
        /// Samples of the type that are live now (added minus deleted).
        public var live: Int
        /// Deleted objects of the type (delete events).
        public var deleted: Int
        /// The earliest start of any sample of the type ever added.
        public var first: Timestamp
        /// The latest end of any sample of the type ever added.
        public var last: Timestamp
    }

    /// Per type, sorted by identifier.
    public var types: [TypeStats] = []
    /// Committed events: the head sequence number, less the numbers restores discarded and
    /// the events compaction dropped.
    public var events: UInt64 = 0
    /// Segment files.
    public var segments = 0
    /// Batches.
    public var batches = 0
    /// Bytes of every file in the store directory.
    public var bytesOnDisk = 0
    /// Bytes of the segment files.
    public var segmentBytes = 0
    /// Bytes of NDJSON the segments decompress to.
    public var rawBytes = 0

    /// NDJSON bytes per stored segment byte.
    public var compressionRatio: Double { segmentBytes > 0 ? Double(rawBytes) / Double(segmentBytes) : 0 }

    /// Computes the figures of `snapshot`.
    init(_ snapshot: LogSnapshot) throws {
        var byType: [String: TypeStats] = [:]
        let all = try snapshot.allBatches()
        var dropped: UInt64 = 0
        for batch in all {
            dropped += UInt64(batch.header.dropped.count)
            for group in batch.header.groups {
                var stats = byType[group.type] ?? TypeStats(
                    type: group.type, live: 0, deleted: 0, first: Timestamp(microseconds: .max), last: Timestamp(microseconds: .min))
                if group.isDelete {
                    stats.deleted += Int(group.count)
                    stats.live -= Int(group.count)
                } else {
                    stats.live += Int(group.count)
                    if group.minStart < stats.first.microseconds { stats.first = Timestamp(microseconds: group.minStart, fractionDigits: 3) }
                    if group.maxEnd > stats.last.microseconds { stats.last = Timestamp(microseconds: group.maxEnd, fractionDigits: 3) }
                }
                rawBytes += Int(group.rawLength)
                byType[group.type] = stats
            }
        }
        types = byType.values.sorted { $0.type < $1.type }
        events = snapshot.headSeq - snapshot.timelines.discardedCount(through: snapshot.headSeq) - dropped
        segments = snapshot.segments.count
        batches = all.count
        segmentBytes = snapshot.segments.reduce(0) { $0 + $1.size }
        bytesOnDisk = StoreStats.bytes(under: snapshot.layout.directory)
    }

    /// The total size of the regular files under `directory` and its subdirectories.
    static func bytes(under directory: String) -> Int {
        var total = 0
        for name in (try? DirectoryListing.names(in: directory)) ?? [] {
            var info = stat()
            guard lstat(directory + "/" + name, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                total += bytes(under: directory + "/" + name)
            } else if (info.st_mode & S_IFMT) == S_IFREG {
                total += Int(info.st_size)
            }
        }
        return total
    }
}
