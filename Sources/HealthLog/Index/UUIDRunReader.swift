#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Read-only lookups in the store's UUID index, for a reader that runs beside the writer
/// (an import checking which records a store already holds before it appends): the chain
/// of runs from sequence number 1, chosen as ``UUIDRunSet`` chooses it, but nothing
/// removed, rebuilt or written. Only a chain that covers the whole log as of the snapshot
/// is used; one that does not (the writer has not caught it up yet) gives no reader, so a
/// caller never takes a UUID for unused because the index lags behind the log.
///
/// Each run is mapped into memory (``MappedFile``) and every block's CRC-32C checked when
/// the reader opens, so a lookup is two binary searches in memory, without a `pread(2)`
/// per UUID (an import looks up every record of the export). A run that fails its check
/// gives no reader. One thread at a time.
final class UUIDRunReader {
    /// The chain, oldest first, each run with its mapped file.
    private let runs: [(run: UUIDRun, bytes: MappedFile)]

    /// The chain in `layout`'s `uuids/` covering `1...snapshot.headSeq`, or `nil` when the
    /// runs there do not cover exactly that (an empty log has an empty chain).
    init?(_ layout: StoreLayout, snapshot: LogSnapshot) {
        let head = snapshot.headSeq
        let directory = layout.directory + "/uuids"
        var candidates = ((try? DirectoryListing.names(in: directory)) ?? []).compactMap { name in
            UUIDRun.range(ofFileName: name).map { (range: $0, name: name) }
        }
        candidates.sort { ($0.range.lowerBound, $1.range.upperBound) < ($1.range.lowerBound, $0.range.upperBound) }
        var next: UInt64 = 1
        var chain: [UUIDRun] = []
        for candidate in candidates where candidate.range.lowerBound == next && candidate.range.upperBound <= head {
            guard let run = UUIDRun(path: directory + "/" + candidate.name), run.fromSeq == candidate.range.lowerBound,
                run.toSeq == candidate.range.upperBound
            else { continue }
            chain.append(run)
            next = run.toSeq + 1
        }
        guard next == head + 1 else { return nil }
        var mapped: [(run: UUIDRun, bytes: MappedFile)] = []
        for run in chain where run.count > 0 {
            guard let bytes = Self.map(run) else { return nil }
            mapped.append((run, bytes))
        }
        runs = mapped
    }

    /// The file of `run` mapped, every block's checksum checked; `nil` when it cannot be
    /// mapped or a block fails.
    private static func map(_ run: UUIDRun) -> MappedFile? {
        guard let fd = try? FileDescriptor.open(run.path, flags: O_RDONLY) else { return nil }
        defer { fd.close() }
        guard let bytes = MappedFile(fd), bytes.count == run.entryOffset(run.count) else { return nil }
        for block in run.blockCRCs.indices {
            let start = block * UUIDRun.blockEntries
            let end = min(run.count, start + UUIDRun.blockEntries)
            let crc = bytes.withBytes(run.entryOffset(start)..<run.entryOffset(end)) { CRC32C.checksum($0) }
            guard crc == run.blockCRCs[block] else { return nil }
        }
        return bytes
    }

    /// The entry of `uuid` in `run`, or `nil`.
    private static func lookup(_ uuid: SampleUUID, in run: UUIDRun, _ bytes: MappedFile) -> UUIDRun.Entry? {
        var low = 0
        var high = run.firstUUIDs.count
        while low < high {
            let mid = (low + high) / 2
            if run.firstUUIDs[mid] <= uuid { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        let start = (low - 1) * UUIDRun.blockEntries
        let end = min(run.count, start + UUIDRun.blockEntries)
        return bytes.withBytes(run.entryOffset(start)..<run.entryOffset(end)) { entries in
            var low = 0
            var high = end - start
            while low < high {
                let mid = (low + high) / 2
                let entry = UUIDRun.entry(entries, mid)
                if entry.uuid == uuid { return entry }
                if entry.uuid < uuid { low = mid + 1 } else { high = mid }
            }
            return nil
        }
    }

    /// Whether the sample `uuid` is deleted, `false` when it is live, `nil` when the UUID
    /// was never used: what the writer's lookup (``WriterState/isDeleted(_:)``) answers from
    /// the same runs.
    ///
    func isDeleted(_ uuid: SampleUUID) -> Bool? {
        var addSeq: UInt64 = 0
        var deleteSeq: UInt64 = 0
        for (run, bytes) in runs.reversed() {
            guard let entry = Self.lookup(uuid, in: run, bytes) else { continue }
            if entry.addSeq != 0 { addSeq = entry.addSeq }
            if entry.deleteSeq != 0 { deleteSeq = entry.deleteSeq }
            if addSeq != 0 { break }
        }
        if addSeq == 0, deleteSeq == 0 { return nil }
        return deleteSeq != 0
    }
}
