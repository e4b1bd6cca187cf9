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
/// the reader opens, so a lookup is in memory, without a `pread(2)` per UUID (an import
/// looks up every record of the export). While checking, the reader keeps every
/// ``sampleEntries``th UUID (16 bytes per 64 entries: 2.5 MB at 10M UUIDs), so a lookup
/// binary-searches those (mostly in the CPU's caches), then searches one 2 KB stretch of
/// the mapped entries from where the UUID should fall
/// (``search(_:in:count:firstHigh:nextHigh:)``): one or two cache misses per run instead of
/// the dozen of a binary search over a 64 KB block. A run that fails its check gives no
/// reader. One thread at a time.
final class UUIDRunReader {
    /// Every how many entries of a run the reader keeps the UUID.
    static let sampleEntries = 64

    /// The chain, oldest first, each run with its mapped file and the UUID of every
    /// ``sampleEntries``th entry.
    private let runs: [(run: UUIDRun, bytes: MappedFile, samples: [SampleUUID])]

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
        var mapped: [(run: UUIDRun, bytes: MappedFile, samples: [SampleUUID])] = []
        for run in chain where run.count > 0 {
            guard let (bytes, samples) = Self.map(run) else { return nil }
            mapped.append((run, bytes, samples))
        }
        runs = mapped
    }

    /// The file of `run` mapped, every block's checksum checked, and the UUID of every
    /// ``sampleEntries``th entry; `nil` when it cannot be mapped or a block fails.
    private static func map(_ run: UUIDRun) -> (MappedFile, [SampleUUID])? {
        guard let fd = try? FileDescriptor.open(run.path, flags: O_RDONLY) else { return nil }
        defer { fd.close() }
        guard let bytes = MappedFile(fd), bytes.count == run.entryOffset(run.count) else { return nil }
        for block in run.blockCRCs.indices {
            let start = block * UUIDRun.blockEntries
            let end = min(run.count, start + UUIDRun.blockEntries)
            let crc = bytes.withBytes(run.entryOffset(start)..<run.entryOffset(end)) { CRC32C.checksum($0) }
            guard crc == run.blockCRCs[block] else { return nil }
        }
        var samples: [SampleUUID] = []
        samples.reserveCapacity((run.count + sampleEntries - 1) / sampleEntries)
        bytes.withBytes(run.entryOffset(0)..<run.entryOffset(run.count)) { entries in
            for k in stride(from: 0, to: run.count, by: sampleEntries) { samples.append(UUIDRun.entry(entries, k).uuid) }
        }
        return (bytes, samples)
    }

    /// The entry of `uuid` in `run` (whose kept UUIDs are `samples`), or `nil`.
    private static func lookup(_ uuid: SampleUUID, in run: UUIDRun, _ bytes: MappedFile, samples: [SampleUUID]) -> UUIDRun.Entry? {
        var low = 0
        var high = samples.count
        while low < high {
            let mid = (low + high) / 2
            if samples[mid] <= uuid { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        let start = (low - 1) * sampleEntries
        let end = min(run.count, start + sampleEntries)
        let (first, next) = (samples[low - 1].high, low < samples.count ? samples[low].high : nil)
        return bytes.withBytes(run.entryOffset(start)..<run.entryOffset(end)) { search(uuid, in: $0, count: end - start, firstHigh: first, nextHigh: next) }
    }

    /// The entry of `uuid` among the `count` sorted entries of `entries`, or `nil`;
    /// `firstHigh` is the high half of the first entry's UUID (the kept samples hold it, so
    /// the search need not load it), `nextHigh` that of the first UUID after them, when
    /// there is one.
    ///
    /// The UUIDs are content hashes or random, so spread evenly: the search starts where
    /// `uuid` falls between the first UUID and the one after them (interpolation),
    /// gallops from there until it brackets `uuid`, then halves the bracket. That touches
    /// a cache line or two; keys spread any other way only cost more probes, never a wrong
    /// answer.
    static func search(_ uuid: SampleUUID, in entries: UnsafeRawBufferPointer, count: Int, firstHigh: UInt64, nextHigh: UInt64?) -> UUIDRun.Entry? {
        func key(_ k: Int) -> SampleUUID {
            let at = k * UUIDRun.entryLength
            return SampleUUID(
                high: UInt64(littleEndian: entries.loadUnaligned(fromByteOffset: at, as: UInt64.self)),
                low: UInt64(littleEndian: entries.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self)))
        }
        guard count > 0 else { return nil }
        let span = (nextHigh ?? key(count - 1).high) &- firstHigh
        var guess = 0
        if uuid.high > firstHigh, span > 0 {
            let fraction = Double(uuid.high - firstHigh) / Double(span)
            guess = Int(min(Double(count - 1), fraction * Double(nextHigh == nil ? count - 1 : count)))
        }
        var low = 0
        var high = count
        let probe = key(guess)
        if probe == uuid { return UUIDRun.entry(entries, guess) }
        var step = 8
        if probe < uuid {
            low = guess + 1
            while guess + step < count {
                let at = guess + step
                let found = key(at)
                if found == uuid { return UUIDRun.entry(entries, at) }
                if found > uuid {
                    high = at
                    break
                }
                low = at + 1
                step *= 2
            }
        } else {
            high = guess
            while guess - step >= 0 {
                let at = guess - step
                let found = key(at)
                if found == uuid { return UUIDRun.entry(entries, at) }
                if found < uuid {
                    low = at + 1
                    break
                }
                high = at
                step *= 2
            }
        }
        while low < high {
            let mid = (low + high) / 2
            let found = key(mid)
            if found == uuid { return UUIDRun.entry(entries, mid) }
            if found < uuid { low = mid + 1 } else { high = mid }
        }
        return nil
    }

    /// Whether the sample `uuid` is deleted, `false` when it is live, `nil` when the UUID
    /// was never used: what the writer's lookup (``WriterState/isDeleted(_:)``) answers from
    /// the same runs.
    ///
    func isDeleted(_ uuid: SampleUUID) -> Bool? {
        var addSeq: UInt64 = 0
        var deleteSeq: UInt64 = 0
        for (run, bytes, samples) in runs.reversed() {
            guard let entry = Self.lookup(uuid, in: run, bytes, samples: samples) else { continue }
            if entry.addSeq != 0 { addSeq = entry.addSeq }
            if entry.deleteSeq != 0 { deleteSeq = entry.deleteSeq }
            if addSeq != 0 { break }
        }
        if addSeq == 0, deleteSeq == 0 { return nil }
        return deleteSeq != 0
    }
}
