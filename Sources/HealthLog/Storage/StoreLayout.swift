#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where each file of a store lives. A store is one directory (mode 0700):
///
/// ```
/// meta                      store identity and format version (text)
/// lock                      the writers' advisory lock
/// checkpoint                the last acknowledged append (a hint that bounds recovery work)
/// timelines                 where restores cut the log (only in a store that was restored)
/// compactions               what compact dropped, and its commit point (only in a compacted store)
/// segments/<baseSeq:020>.<generation:0000>.log.lz4
/// ```
struct StoreLayout: Sendable {
    /// The store directory.
    let directory: String
    /// The secret and keys of an encrypted store; `nil` when none was given.
    var keys: StoreKeys? = nil

    /// The `meta` file.
    var meta: String { directory + "/meta" }
    /// The lock file.
    var lock: String { directory + "/lock" }
    /// The checkpoint file.
    var checkpoint: String { directory + "/checkpoint" }
    /// The timelines file (``Timelines``).
    var timelines: String { directory + "/timelines" }
    /// The compactions file (``Compactions``).
    var compactions: String { directory + "/compactions" }
    /// The segments directory.
    var segments: String { directory + "/segments" }
    /// The key slots of an encrypted store (``KeySlots``).
    var keySlots: String { directory + "/keys" }

    /// The path of the segment that starts at `baseSeq`.
    func segment(baseSeq: UInt64, generation: UInt32 = 0) -> String {
        segments + "/" + SegmentName(baseSeq: baseSeq, generation: generation).fileName
    }

    /// Whether a store exists here (its `meta` file does).
    var exists: Bool { access(meta, F_OK) == 0 }

    /// The segment files present, sorted by base sequence number.
    func listSegments() throws -> [SegmentName] {
        let names = try DirectoryListing.names(in: segments).compactMap(SegmentName.init(fileName:))
        return names.sorted { ($0.baseSeq, $0.generation) < ($1.baseSeq, $1.generation) }
    }
}

/// A segment file's name: `<baseSeq, 20 digits>.<generation, 4 digits>.log.lz4`.
struct SegmentName: Hashable, Sendable {
    /// The first sequence number the segment holds.
    var baseSeq: UInt64
    /// The compaction generation.
    var generation: UInt32

    /// The file name.
    var fileName: String {
        let seq = String(baseSeq)
        let gen = String(generation)
        return String(repeating: "0", count: max(0, 20 - seq.count)) + seq + "."
            + String(repeating: "0", count: max(0, 4 - gen.count)) + gen + ".log.lz4"
    }

    init(baseSeq: UInt64, generation: UInt32) {
        self.baseSeq = baseSeq
        self.generation = generation
    }

    /// Parses a file name; `nil` for anything else (temporary files, strays).
    init?(fileName: String) {
        let parts = fileName.split(separator: ".")
        guard parts.count == 4, parts[2] == "log", parts[3] == "lz4", parts[0].count == 20, parts[1].count == 4,
            let seq = UInt64(parts[0]), let gen = UInt32(parts[1])
        else { return nil }
        baseSeq = seq
        generation = gen
    }
}
