#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Write faults injected in-process through ``StoreOptions/faults`` (a short write, a
/// full disk, a failed `fsync`), and the figures of `stats` checked against a raw replay.
///
/// - A short write then `ENOSPC` (`enospc-after:BYTES`) at several points of an append,
///   one of them inside the segment roll: the append throws `.io` with `ENOSPC`, the
///   segments, meta and checkpoint are byte-identical to before (derived files may only be
///   absent or unchanged), and the next append works.
/// - A failed `fdatasync` (`fail-fsync`): the append throws `.syncFailed` and nothing of it
///   is visible. What "refuses further writes" means, as observed: the poisoned state
///   belongs to the `LogWriter` of that one append. A `HealthStore` opens a new writer for
///   each append, so the same handle goes on writing once `fsync` works again (its second
///   failure below is the fault plan firing again, not a refusal); only the poisoned writer
///   itself refuses a further batch. Format.md says so ("that writer refuses further
///   writes"); ``HealthLogError/Code/syncFailed`` ("the store refuses further writes in
///   this process") and the poisoned writer's message ("this store handle refuses
///   writes") say more than the code does.
@Suite("Write faults and stats")
struct WriteFaultTests {
    /// Where the segment writes of the faulty append run out of space.
    enum SpaceLimit: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// Before its first byte.
        case nothing
        /// Halfway through its first batch.
        case halfFirstBatch
        /// Right after its first batch: the second write stores nothing.
        case afterFirstBatch
        /// 30 bytes into the new segment's empty frame and header.
        case insideRoll
        /// Right after the new segment's header: its first batch stores nothing.
        case afterRoll
        /// 100 bytes into the new segment's first batch.
        case insideFirstBatchAfterRoll
        /// One byte short of the whole append.
        case lastByte
        /// With the last segment full, so the append's first write is a roll: 30 bytes into
        /// the new segment's header, or 100 bytes into its first batch.
        case firstWriteIsRollInsideHeader, firstWriteIsRollInsideBatch
        var testDescription: String { rawValue }

        /// The segment size limit of the faulty append: just above the last segment's size
        /// (3,103 bytes) when its first batch must roll.
        var segmentBytes: Int {
            self == .firstWriteIsRollInsideHeader || self == .firstWriteIsRollInsideBatch ? 3_200 : IndexFixture.options.segmentBytes
        }
    }

    /// The faulty append: 60 fresh samples and deletes of three old ones; it fills the last
    /// segment of ``IndexFixture``'s store and rolls to a new one.
    static let faultyAppend = (600...659).map(IndexFixture.sample) + [IndexFixture.delete(9), IndexFixture.delete(150), IndexFixture.delete(205)]

    @Test("A short write then ENOSPC mid-append throws .io, leaves every file as it was, and the next append works", arguments: SpaceLimit.allCases)
    func outOfSpace(_ limit: SpaceLimit) throws {
        let fixture = try IndexFixture.shared.get()
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var options = IndexFixture.options
        options.segmentBytes = limit.segmentBytes
        let writes = try Self.segmentWrites(of: Self.faultyAppend, after: fixture.pristine, options: options, in: dir)
        let rollIndex = try #require(writes.firstIndex { $0.isRoll })
        try #require((options.segmentBytes < 4_000 ? rollIndex == 0 : rollIndex >= 2) && writes.count > rollIndex + 1, "\(writes)")
        let before = writes[..<rollIndex].reduce(0) { $0 + $1.bytes }
        let bytes: Int
        switch limit {
        case .nothing: bytes = 0
        case .halfFirstBatch: bytes = writes[0].bytes / 2
        case .afterFirstBatch: bytes = writes[0].bytes
        case .insideRoll: bytes = before + 30
        case .afterRoll: bytes = before + writes[rollIndex].bytes
        case .insideFirstBatchAfterRoll: bytes = before + writes[rollIndex].bytes + 100
        case .lastByte: bytes = writes.reduce(0) { $0 + $1.bytes } - 1
        case .firstWriteIsRollInsideHeader: bytes = 30
        case .firstWriteIsRollInsideBatch: bytes = writes[0].bytes + 100
        }

        let path = dir.file("store")
        let store = try IndexFixture.restore(fixture.pristine, into: path)
        let image = try ByteSurgery.image(of: path)
        options.faults.failWritesAfterBytes = bytes
        let full = HealthStore(directory: path, options: options)
        let error = try #require(throws: HealthLogError.self) { try full.append(ndjson: IndexFixture.ndjson(Self.faultyAppend)) }
        #expect(error.code == .io && error.errno == ENOSPC, "\(error)")
        #expect(error.message.hasPrefix("cannot write \(path)/segments/") && error.message.contains(String(cString: strerror(ENOSPC))), "\(error)")

        let after = try ByteSurgery.image(of: path)
        #expect(IndexFixture.primary(after) == IndexFixture.primary(image))
        // Derived files may be gone (rebuilt later), never different; nothing new appears.
        for (name, bytes) in after where bytes != image[name] {
            Issue.record("\(name) \(image[name] == nil ? "appeared" : "changed")")
        }
        for name in image.keys where after[name] == nil {
            #expect(IndexFixture.isDerived(name), "\(name) vanished")
        }
        #expect(try store.headAnchor().seq == fixture.answers.head)
        #expect(try CorruptionFixture.replay(store, raw: true) == fixture.answers.replays["from 0 types [] raw"])

        options.faults = FaultPlan()
        let summary = try HealthStore(directory: path, options: options).append(ndjson: IndexFixture.ndjson(Self.faultyAppend))
        #expect(summary.added == 60 && summary.deleted == 3 && summary.recoveredTail == nil)
        #expect(summary.anchor.seq == fixture.answers.head + 63)
        let report = try store.verify()
        #expect(report.isSound && report.notes.isEmpty, "\(report)")
    }

    @Test("ENOSPC on the first append of a new store leaves no store behind")
    func outOfSpaceOnFirstAppend() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var options = IndexFixture.options
        options.faults.failWritesAfterBytes = 100
        let path = dir.file("store")
        let error = try #require(throws: HealthLogError.self) {
            try HealthStore(directory: path, options: options).append(ndjson: IndexFixture.ndjson((1...30).map(IndexFixture.sample)))
        }
        #expect(error.code == .io && error.errno == ENOSPC)
        #expect(!FileManager.default.fileExists(atPath: path))
        let summary = try HealthStore(directory: path, options: IndexFixture.options).append(ndjson: IndexFixture.ndjson((1...30).map(IndexFixture.sample)))
        #expect(summary.anchor.seq == 30)
    }

    @Test("A failed fdatasync throws .syncFailed, nothing of the append is visible, the same handle fails only as long as fsync does, and the next append succeeds")
    func failedSync() throws {
        let fixture = try IndexFixture.shared.get()
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("store")
        let store = try IndexFixture.restore(fixture.pristine, into: path)
        let image = try ByteSurgery.image(of: path)
        var options = IndexFixture.options
        options.sync = true
        options.faults.failSync = true
        let failing = HealthStore(directory: path, options: options)
        for attempt in 1...2 {
            let error = try #require(throws: HealthLogError.self, "attempt \(attempt)") {
                try failing.append(ndjson: IndexFixture.ndjson(Self.faultyAppend))
            }
            // Each append opens its own writer: the second failure is the fault firing again.
            #expect(error.code == .syncFailed && error.errno == EIO && error.message.hasPrefix("cannot fdatasync "), "attempt \(attempt): \(error)")
            #expect(try store.headAnchor().seq == fixture.answers.head, "attempt \(attempt)")
            #expect(try CorruptionFixture.replay(store, raw: true) == fixture.answers.replays["from 0 types [] raw"], "attempt \(attempt)")
            #expect(IndexFixture.primary(try ByteSurgery.image(of: path)) == IndexFixture.primary(image), "attempt \(attempt)")
        }
        options.faults = FaultPlan()
        let summary = try HealthStore(directory: path, options: options).append(ndjson: IndexFixture.ndjson(Self.faultyAppend))
        #expect(summary.anchor.seq == fixture.answers.head + 63)
        let report = try store.verify()
        #expect(report.isSound && report.notes.isEmpty, "\(report)")
    }

    @Test("The writer whose fsync failed refuses any further batch; rolled back, it leaves the files as they were")
    func poisonedWriter() throws {
        let fixture = try IndexFixture.shared.get()
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("store")
        let store = try IndexFixture.restore(fixture.pristine, into: path)
        let image = try ByteSurgery.image(of: path)
        // Any well-formed batch will do: the store's own last one, written again after it.
        let last = try #require(try CorruptionFixture.batches(in: path).last)
        let bytes = Array(try ByteSurgery.read(last.path)[last.offset..<last.end])
        var options = IndexFixture.options
        options.sync = true
        options.faults.failSync = true
        do {
            let writer = try LogWriter(StoreLayout(directory: path), options: options)
            try writer.write(bytes, header: last.header)
            let failed = try #require(throws: HealthLogError.self) { try writer.commit() }
            #expect(failed.code == .syncFailed)
            let refused = try #require(throws: HealthLogError.self) { try writer.write(bytes, header: last.header) }
            #expect(refused.code == .syncFailed && refused.message.contains("refuses further writes"), "\(refused)")
            writer.rollback()
        }
        #expect(IndexFixture.primary(try ByteSurgery.image(of: path)) == IndexFixture.primary(image))
        #expect(try store.headAnchor().seq == fixture.answers.head)
        #expect(try store.append(ndjson: IndexFixture.ndjson([IndexFixture.sample(700)])).anchor.seq == fixture.answers.head + 1)
    }

    @Test("stats counts per type, deletes, dates, events, segments, batches and bytes as a raw replay and the files do")
    func stats() throws {
        let fixture = try IndexFixture.shared.get()
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("store")
        let store = try IndexFixture.restore(fixture.pristine, into: path)
        let stats = try store.stats()

        var expected: [String: (adds: Int, deletes: Int, first: Int64, last: Int64)] = [:]
        let raw = try CorruptionFixture.replay(store, raw: true)
        for line in raw {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let type = try #require(object["type"] as? String)
            var entry = expected[type] ?? (0, 0, .max, .min)
            if object["op"] as? String == "delete" {
                entry.deletes += 1
            } else {
                let start = try #require((object["start"] as? String).flatMap(Timestamp.init(iso8601:)), "\(line)")
                let end = try #require((object["end"] as? String).flatMap(Timestamp.init(iso8601:)), "\(line)")
                entry.adds += 1
                entry.first = min(entry.first, start.microseconds)
                entry.last = max(entry.last, end.microseconds)
            }
            expected[type] = entry
        }
        #expect(stats.types.map(\.type) == expected.keys.sorted())
        for type in stats.types {
            let counted = try #require(expected[type.type])
            #expect(type.live == counted.adds - counted.deletes, "\(type.type)")
            #expect(type.deleted == counted.deletes, "\(type.type)")
            #expect(type.first.microseconds == counted.first && type.last.microseconds == counted.last, "\(type.type)")
        }
        #expect(stats.types.reduce(0) { $0 + $1.deleted } == 6, "4 deletes and 2 sync replacements")
        #expect(stats.events == UInt64(raw.count) && stats.events == fixture.answers.head)
        let image = try ByteSurgery.image(of: path)
        let segments = image.filter { $0.key.hasSuffix(".log.lz4") }
        #expect(stats.segments == segments.count && stats.segments == 6)
        #expect(stats.batches == (try CorruptionFixture.batches(in: path).count))
        #expect(stats.segmentBytes == segments.values.reduce(0) { $0 + $1.count })
        #expect(stats.bytesOnDisk == image.values.reduce(0) { $0 + $1.count })
        #expect(stats.rawBytes == raw.reduce(0) { $0 + $1.utf8.count })
        #expect(stats.compressionRatio > 1 && stats.compressionRatio == Double(stats.rawBytes) / Double(stats.segmentBytes))

        let missing = try #require(throws: HealthLogError.self) { try HealthStore(directory: dir.file("none")).stats() }
        #expect(missing.code == .noStore)
    }

    // MARK: Helpers

    /// One segment write of an append: a batch, or a new segment's empty frame and header.
    struct SegmentWrite: CustomStringConvertible {
        var bytes: Int
        var isRoll: Bool
        var description: String { isRoll ? "roll \(bytes)" : "batch \(bytes)" }
    }

    /// The segment writes `lines` make, in order, when appended to a store holding `image`
    /// with `options` (the same append made, without faults, in a scratch copy).
    static func segmentWrites(
        of lines: [String], after image: [String: [UInt8]], options: StoreOptions, in dir: TemporaryDirectory
    ) throws -> [SegmentWrite] {
        _ = try IndexFixture.restore(image, into: dir.file("scratch"))
        let scratch = HealthStore(directory: dir.file("scratch"), options: options)
        let head = try scratch.headAnchor().seq
        _ = try scratch.append(ndjson: IndexFixture.ndjson(lines))
        var writes: [SegmentWrite] = []
        for batch in try CorruptionFixture.batches(in: scratch.directory) where batch.header.firstSeq > head {
            let name = "segments/" + (batch.path.split(separator: "/").last.map(String.init) ?? "")
            if image[name] == nil, batch.offset == CorruptionFixture.prologueLength {
                writes.append(SegmentWrite(bytes: CorruptionFixture.prologueLength, isRoll: true))
            }
            writes.append(SegmentWrite(bytes: batch.end - batch.offset, isRoll: false))
        }
        return writes
    }
}
