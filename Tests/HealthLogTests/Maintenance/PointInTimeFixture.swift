import Foundation
import HealthLogTestSupport
@testable import HealthLog

/// A store of five appends of 20 heart rates each (1…20, …, 81…100), each spanning several
/// batches, most ending inside a segment and some rolling to the next segment midway, each
/// made in a later millisecond than the one before; backed up at head 100, then grown to
/// 150: what the point-in-time restore tests start from.
struct PointInTimeFixture {
    /// The scratch directory.
    let dir: TemporaryDirectory
    /// The store (head 150).
    let store: HealthStore
    /// The backup (head 100).
    var backup: String { dir.file("backup") }
    /// The append time of each of the backup's five appends, milliseconds since 1970.
    let appendedMillis: [Int64]

    /// Builds the store, the backup at 100, then 50 more events.
    init() throws {
        dir = try TemporaryDirectory()
        var options = RestoreFixture.options
        options.batchBytes = 700
        options.segmentBytes = 5_000
        store = HealthStore(directory: dir.file("store"), options: options)
        var times: [Int64] = []
        for append in 0..<5 {
            Self.waitForNextMillisecond()
            _ = try store.append(ndjson: RestoreFixture.lines(20, from: append * 20))
            times.append(try Self.lastAppendMillis(store))
        }
        appendedMillis = times
        _ = try store.backup(to: dir.file("backup"))
        Self.waitForNextMillisecond()
        _ = try store.append(ndjson: RestoreFixture.lines(50, from: 100))
    }

    /// Returns once the wall clock has moved to a later millisecond, so two appends never
    /// share an append time (the outcome is fixed; no duration is assumed).
    static func waitForNextMillisecond() {
        let start = Clock.nowMillis()
        while Clock.nowMillis() == start {}
    }

    /// The append time recorded in the store's last batch header.
    static func lastAppendMillis(_ store: HealthStore) throws -> Int64 {
        let snapshot = try LogSnapshot(store.layout)
        return try snapshot.allBatches().last?.header.appendedMillis ?? 0
    }

    /// The commit time the store's last batch records (an append that names no origin
    /// records one when it carries the deleted-add witness), if any.
    static func lastCommitMillis(_ store: HealthStore) throws -> Int64? {
        let snapshot = try LogSnapshot(store.layout)
        return try snapshot.allBatches().last?.header.origin?.committedMillis
    }

    /// The backup's batches: how many there are and whether appends span several of them
    /// and cross segment boundaries.
    func backupShape() throws -> (batches: Int, segments: Int, endsOfAppend: [UInt64], endsInsideSegments: [UInt64], appendsAcrossSegments: Int) {
        let snapshot = try LogSnapshot(StoreLayout(directory: backup))
        let batches = try snapshot.allBatches()
        let ends = batches.filter(\.header.isEndOfAppend)
        let inside = ends.filter { $0.end < snapshot.segments[$0.segment].size }.map(\.header.lastSeq)
        var across = 0
        var firstSegment = batches.first?.segment ?? 0
        for (index, batch) in batches.enumerated() where batch.header.isEndOfAppend {
            if batch.segment != firstSegment { across += 1 }
            if index + 1 < batches.count { firstSegment = batches[index + 1].segment }
        }
        return (batches.count, snapshot.segments.count, ends.map(\.header.lastSeq), inside, across)
    }

    /// The store's timelines as (kept, first) pairs.
    static func starts(_ store: HealthStore) throws -> [[UInt64]] {
        try Timelines.read(store.layout).starts.map { [$0.keptSeq, $0.firstSeq] }
    }
}
