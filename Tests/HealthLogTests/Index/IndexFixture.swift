import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The store the index-recovery tests damage, and what a pristine copy of it answers.
///
/// Three appends over six small segments (batches of about 1,500 NDJSON bytes, segments of
/// about 8,000 bytes), with every kind of derived file in play:
///
/// - Append 1 adds samples 1…120 of three types; every tenth carries a sync identifier
///   (`sync-N`, version 1). Its UUID index is one run, `1-120`.
/// - Append 2 adds samples 121…200, deletes samples 3, 7 and 11 and replaces `sync-10` with
///   sample 1010 (version 2). Its run `121-205` is merged with the first into `1-205`.
/// - Append 3 adds samples 201…212, deletes sample 125 and replaces `sync-20` with sample
///   1020: a run `206-220` too small to merge, and a sync table that moved on.
///
/// The reference is built once, in memory (file images), and shared: each test restores it
/// into its own fresh directory (``Scene``), so a test pays only for its own damage.
struct IndexFixture: Sendable {
    /// Every file of the store after append 1, 2 and 3.
    let images: [[String: [UInt8]]]
    /// The same three appends made in another store (another identity, same file names).
    let foreign: [String: [UInt8]]
    /// What the pristine store answers.
    let answers: Answers
    /// The derived files a `reindex` of the pristine store writes.
    let reindexed: [String: [UInt8]]
    /// What the pristine store answers after ``laterWrite``, and that write's summary.
    let answersAfterWrite: Answers
    let laterWriteSummary: AppendSummary
    /// The checkpoint after ``laterWrite`` (it holds no clock reading, so it is exact).
    let checkpointAfterWrite: [UInt8]

    /// The fixture, built on first use.
    static let shared = Result { try IndexFixture() }

    private init() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: Self.options)
        var images: [[String: [UInt8]]] = []
        for lines in Self.appends {
            _ = try store.append(ndjson: Self.ndjson(lines))
            images.append(try ByteSurgery.image(of: store.directory))
        }
        self.images = images
        let other = HealthStore(directory: dir.file("other"), options: Self.options)
        for lines in Self.appends { _ = try other.append(ndjson: Self.ndjson(lines)) }
        foreign = try ByteSurgery.image(of: other.directory)
        answers = try Self.answers(store)
        let copy = try Self.restore(images[2], into: dir.file("copy"))
        _ = try copy.reindex()
        reindexed = Self.derived(try ByteSurgery.image(of: copy.directory))
        laterWriteSummary = try store.append(ndjson: Self.ndjson(Self.laterWrite))
        answersAfterWrite = try Self.answers(store)
        checkpointAfterWrite = try ByteSurgery.read(store.directory + "/checkpoint")
    }

    /// The store as the tests find it (after append 3).
    var pristine: [String: [UInt8]] { images[2] }

    /// Batches of about 1,500 NDJSON bytes in segments of about 8,000 bytes.
    static var options: StoreOptions {
        var options = StoreOptions()
        options.sync = true
        options.batchBytes = 1_500
        options.segmentBytes = 8_000
        return options
    }

    /// The three appends.
    static let appends: [[String]] = [
        (1...120).map(sample),
        (121...200).map(sample) + [delete(3), delete(7), delete(11), sample(1010, sync: (10, 2))],
        (201...212).map(sample) + [delete(125), sample(1020, sync: (20, 2))],
    ]

    /// The write after the damage: deletes of old live samples (one from each earlier
    /// append), a replacement of `sync-30` (added by append 1), a skipped equal version of
    /// `sync-40`, and fresh samples.
    static let laterWrite: [String] =
        [delete(5), delete(130), sample(1030, sync: (30, 2)), sample(1040, sync: (40, 1))] + (300...303).map(sample)

    /// Adds that must be refused, whatever state the indexes are in: a live sample of
    /// append 1, a deleted one, the replacement added by append 2, one of append 3.
    static let reusedUUIDs: [(n: Int, reason: String)] = [
        (5, "is already in the store"), (3, "belonged to a deleted sample"), (1010, "is already in the store"),
        (20, "belonged to a deleted sample"), (211, "is already in the store"),
    ]

    /// Creates the store directory `path` (mode 0700, as a store must be) holding `image`.
    static func restore(_ image: [String: [UInt8]], into path: String) throws -> HealthStore {
        try FileManager.default.createDirectory(atPath: path + "/segments", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: path + "/uuids", withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
        try ByteSurgery.restore(image, to: path)
        return HealthStore(directory: path, options: options)
    }

    // MARK: File classes

    /// The derived files of `image`: segment indexes, UUID runs and the sync table.
    static func derived(_ image: [String: [UInt8]]) -> [String: [UInt8]] {
        image.filter { isDerived($0.key) }
    }

    /// Whether a store-relative path names a derived file.
    static func isDerived(_ name: String) -> Bool {
        name.hasSuffix(".idx") || name.hasPrefix("uuids/")
    }

    /// The segment files, meta and checkpoint of `image`: what a failed write must leave alone.
    static func primary(_ image: [String: [UInt8]]) -> [String: [UInt8]] {
        image.filter { $0.key.hasSuffix(".log.lz4") || $0.key == "meta" || $0.key == "checkpoint" }
    }

    /// The names in `image` that end with `suffix`, in order.
    static func names(_ image: [String: [UInt8]], endingWith suffix: String) -> [String] {
        image.keys.filter { $0.hasSuffix(suffix) }.sorted()
    }

    // MARK: What a store answers

    /// Everything a reader can ask, as one comparable value: replays in both views from
    /// several anchors with several type filters, the head, and the index's statistics.
    struct Answers: Equatable, Sendable {
        var replays: [String: [String]]
        var head: UInt64
        var stats: [StoreStats.TypeStats]
        /// Events, segments, batches, NDJSON bytes, segment bytes.
        var counts: [Int]
    }

    static let typeFilters: [Set<String>] = [[], [heartRate], [sleep, steps]]

    /// The answers of `store`.
    static func answers(_ store: HealthStore) throws -> Answers {
        let head = try store.headAnchor().seq
        var replays: [String: [String]] = [:]
        for anchor in Set([0, 121, 205, head - 3]) {
            for types in typeFilters {
                for raw in [false, true] {
                    var lines: [String] = []
                    _ = try store.replay(ReplayRequest(anchor: QueryAnchor(fromValue: anchor), types: types, raw: raw)) {
                        lines.append(String(decoding: $0, as: UTF8.self))
                    }
                    replays["from \(anchor) types \(types.sorted()) \(raw ? "raw" : "view")"] = lines
                }
            }
        }
        let stats = try store.stats()
        return Answers(
            replays: replays, head: head, stats: stats.types,
            counts: [Int(stats.events), stats.segments, stats.batches, stats.rawBytes, stats.segmentBytes])
    }

    // MARK: Event lines

    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let sleep = "HKCategoryTypeIdentifierSleepAnalysis"

    /// The UUID of sample `n`.
    static func uuid(_ n: Int) -> String { CorruptionFixture.uuid(n) }

    /// Sample `n`: a heart rate, a step count or a sleep stage by `n % 3`; every tenth
    /// carries the sync identifier `sync-N`, version 1.
    static func sample(_ n: Int) -> String { sample(n, sync: n % 10 == 0 ? (n, 1) : nil) }

    /// Sample `n` with the sync identifier `sync-ID` at `version`, if given.
    static func sample(_ n: Int, sync: (id: Int, version: Int)?) -> String {
        let minute = String(format: "%02d", n % 60)
        let hour = String(format: "%02d", (n / 60) % 24)
        let metadata = sync.map { #","metadata":{"HKMetadataKeySyncIdentifier":"sync-\#($0.id)","HKMetadataKeySyncVersion":\#($0.version)}"# } ?? ""
        switch n % 3 {
        case 0:
            return #"{"uuid":"\#(uuid(n))","type":"\#(heartRate)","start":"2024-03-01T\#(hour):\#(minute):00Z","value":\#(60 + n % 40),"unit":"count/min","source":"Watch","device":"Watch7,1"\#(metadata)}"#
        case 1:
            return #"{"uuid":"\#(uuid(n))","type":"\#(steps)","start":"2024-03-02T\#(hour):\#(minute):00+02:00","end":"2024-03-02T\#(hour):\#(minute):30+02:00","value":\#(n * 7),"unit":"count","source":"Phone"\#(metadata)}"#
        default:
            return #"{"uuid":"\#(uuid(n))","type":"\#(sleep)","start":"2024-03-03T\#(hour):\#(minute):00Z","end":"2024-03-03T\#(hour):\#(minute):45Z","value":"HKCategoryValueSleepAnalysisAsleepCore","source":"Watch"\#(metadata)}"#
        }
    }

    /// A delete of sample `n`.
    static func delete(_ n: Int) -> String { CorruptionFixture.delete(n) }

    /// Lines joined as NDJSON bytes.
    static func ndjson(_ lines: [String]) -> [UInt8] { CorruptionFixture.ndjson(lines) }
}

extension IndexFixture {
    /// One test's store: the fixture's pristine store, restored into a fresh directory.
    struct Scene {
        let fixture: IndexFixture
        let dir: TemporaryDirectory
        let path: String
        let store: HealthStore

        init() throws {
            fixture = try IndexFixture.shared.get()
            dir = try TemporaryDirectory()
            path = dir.file("store")
            store = try IndexFixture.restore(fixture.pristine, into: path)
        }

        /// A path inside the store.
        func file(_ name: String) -> String { path + "/" + name }

        /// Every file of the store.
        func image() throws -> [String: [UInt8]] { try ByteSurgery.image(of: path) }
    }

    /// The (uuid, seq, isDelete) of each stored line, in sequence order.
    static func uuidEvents(_ lines: [String]) throws -> [(uuid: SampleUUID, seq: UInt64, isDelete: Bool)] {
        try lines.map { line in
            let uuidStart = try #require(line.range(of: #""uuid":""#)).upperBound
            let uuid = try #require(SampleUUID(String(line[uuidStart...].prefix(36))))
            return (uuid, try #require(CorruptionFixture.seqs([line]).first), line.contains(#""op":"delete""#))
        }
    }
}
