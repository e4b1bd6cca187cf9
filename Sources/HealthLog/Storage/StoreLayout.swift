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
        // Digits written into bytes, not numbers rendered and padded as strings: a store's
        // opening names every segment and index, and the strings cost about 70,000
        // instructions of each command's start.
        guard generation < 10_000 else { return Self.digits(baseSeq, count: 20) + "." + String(generation) + ".log.lz4" }
        return Self.digits(baseSeq, count: 20) + "." + Self.digits(UInt64(generation), count: 4) + ".log.lz4"
    }

    init(baseSeq: UInt64, generation: UInt32) {
        self.baseSeq = baseSeq
        self.generation = generation
    }

    /// Parses a file name; `nil` for anything else (temporary files, strays).
    init?(fileName: String) {
        // Read as bytes, not split into substrings: see ``fileName``.
        let bytes = Array(fileName.utf8)
        guard bytes.count == 33, bytes[20] == 0x2E, bytes[25...].elementsEqual(".log.lz4".utf8),
            let seq = Self.number(bytes[0..<20]), let gen = Self.number(bytes[21..<25])
        else { return nil }
        baseSeq = seq
        generation = UInt32(gen)
    }

    /// `value` in `count` decimal digits, zero-padded (it has at most that many).
    private static func digits(_ value: UInt64, count: Int) -> String {
        String(unsafeUninitializedCapacity: count) { buffer in
            var rest = value
            for k in stride(from: count - 1, through: 0, by: -1) {
                buffer[k] = 0x30 + UInt8(rest % 10)
                rest /= 10
            }
            return count
        }
    }

    /// The number the decimal digits `bytes` spell; `nil` when one is not a digit or it
    /// passes `UInt64.max`.
    private static func number(_ bytes: ArraySlice<UInt8>) -> UInt64? {
        var value: UInt64 = 0
        for byte in bytes {
            guard (0x30...0x39).contains(byte) else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt64(byte - 0x30))
            guard !overflow, !carry else { return nil }
            value = sum
        }
        return value
    }
}
