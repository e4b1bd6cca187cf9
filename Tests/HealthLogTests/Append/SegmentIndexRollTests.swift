import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Appends stop going to a segment whose sidecar index has grown past
/// ``StoreOptions/segmentIndexBytes``: every commit writes that index again whole, so a
/// segment of many small appends, or one a compaction left holding many dropped events,
/// would make every append cost its whole batch table.
@Suite("Segments whose index is full")
struct SegmentIndexRollTests {
    /// Options whose segments take many appends by size, but whose indexes fill after a few.
    static var smallIndexes: StoreOptions {
        var options = StoreOptions()
        options.segmentIndexBytes = 2048
        return options
    }

    /// The segment names of `store`, oldest first.
    static func segments(_ store: HealthStore) throws -> [SegmentName] {
        try LogSnapshot(store.layout).segments.map(\.name)
    }

    /// The size of each segment's index file, by segment.
    static func indexSizes(_ store: HealthStore) throws -> [Int] {
        try segments(store).map { name in
            var info = stat()
            #expect(stat(SegmentIndex.path(store.layout, name), &info) == 0, "segment \(name.baseSeq) has an index")
            return Int(info.st_size)
        }
    }

    @Test("One-event appends, in one handle and in a new handle each (which reads the sealed payloads of the segment it resumes back from it), start a new segment once the index passes its size: no index grows past it by more than one append's entry, and every event replays in order", arguments: [false, true])
    func oneEventAppends(encrypted: Bool) throws {
        let keys: [UInt32: SecretBytes] = [0: try SecretBytes.random(count: 32)]
        for handlePerAppend in [false, true] {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            let kept = encrypted ? try EncryptedSegmentTests.makeStore(dir.path + "/s", options: Self.smallIndexes, keys: keys) : HealthStore(directory: dir.path + "/s", options: Self.smallIndexes)
            for n in 1...120 {
                let store = !handlePerAppend ? kept : encrypted ? try EncryptedSegmentTests.handle(kept, keys: keys, current: 0) : HealthStore(directory: kept.directory, options: Self.smallIndexes)
                _ = try store.append(ndjson: CompactionTests.lines(n...n))
            }
            let sizes = try Self.indexSizes(kept)
            #expect(sizes.count >= 4, "\(sizes)")
            #expect(sizes.allSatisfy { $0 <= 2048 + 256 }, "\(sizes)")
            let baseSeqs = try Self.segments(kept).map(\.baseSeq)
            #expect(baseSeqs.first == 1 && baseSeqs == baseSeqs.sorted() && Set(baseSeqs).count == baseSeqs.count)
            let replayed = try CompactionTests.raw(kept)
            #expect(replayed.count == 120)
            let plain = HealthStore(directory: kept.directory)
            let reader = encrypted ? try EncryptedSegmentTests.handle(plain, keys: keys, current: 0) : plain
            #expect(try replayed == CompactionTests.raw(reader), "a handle with the default options reads the same")
            #expect(try kept.verify().isSound)
        }
    }

    @Test("A compacted segment whose index is past its size is not appended to: the next append starts a segment and leaves the compacted one and its index byte for byte")
    func compactedSegmentIsLeft() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var options = StoreOptions()
        options.segmentIndexBytes = 4096
        let store = HealthStore(directory: dir.path + "/s", options: options)
        _ = try store.append(ndjson: CompactionTests.lines(1...400))
        _ = try store.append(ndjson: CompactionTests.lines(401...402, deleting: Array(1...300)))
        _ = try store.compact(horizon: .anchor(try store.headAnchor()))
        let compacted = try #require(try Self.segments(store).last)
        #expect(compacted.generation > 0)
        #expect(try Self.indexSizes(store).last! > 4096, "the dropped lists fill the index")
        let segmentPath = store.layout.segment(baseSeq: compacted.baseSeq, generation: compacted.generation)
        let before = (try ByteSurgery.read(segmentPath), try ByteSurgery.read(SegmentIndex.path(store.layout, compacted)))
        let expected = try CompactionTests.raw(store)

        _ = try store.append(ndjson: CompactionTests.lines(403...403))
        #expect(try Self.segments(store).count == 2)
        #expect(try ByteSurgery.read(segmentPath) == before.0 && ByteSurgery.read(SegmentIndex.path(store.layout, compacted)) == before.1)
        let after = try CompactionTests.raw(store)
        #expect(Array(after.dropLast()) == expected && after.count == expected.count + 1)
        #expect(try store.verify().isSound)
        // A UUID a compaction dropped stays refused from the new segment.
        #expect(throws: HealthLogError.self) { try store.append(ndjson: CompactionTests.lines(5...5)) }
    }

    @Test("With its index removed, a compacted last segment whose headers would list past the size is still not appended to, plaintext or encrypted: the next append starts a segment, the index is written again, and every index verifies", arguments: [false, true])
    func missingIndexNotResumed(encrypted: Bool) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var options = StoreOptions()
        options.segmentIndexBytes = 4096
        let keys: [UInt32: SecretBytes] = [0: try SecretBytes.random(count: 32)]
        let store = encrypted ? try EncryptedSegmentTests.makeStore(dir.path + "/s", options: options, keys: keys) : HealthStore(directory: dir.path + "/s", options: options)
        _ = try store.append(ndjson: CompactionTests.lines(1...400))
        _ = try store.append(ndjson: CompactionTests.lines(401...402, deleting: Array(1...300)))
        _ = try store.compact(horizon: .anchor(try store.headAnchor()))
        let compacted = try #require(try Self.segments(store).last)
        let segmentPath = store.layout.segment(baseSeq: compacted.baseSeq, generation: compacted.generation)
        let before = try ByteSurgery.read(segmentPath)
        let expected = try CompactionTests.raw(store)
        try ByteSurgery.remove(SegmentIndex.path(store.layout, compacted))

        _ = try store.append(ndjson: CompactionTests.lines(403...403))
        #expect(try Self.segments(store).count == 2)
        #expect(try ByteSurgery.read(segmentPath) == before)
        #expect(try Self.indexSizes(store).first! > 4096)
        let after = try CompactionTests.raw(store)
        #expect(Array(after.dropLast()) == expected && after.count == expected.count + 1)
        #expect(try store.verify().problems.isEmpty && store.verify().notes.isEmpty)
    }

    @Test("An encrypted store whose last segment is full still refuses to append under an older key epoch than its last batch's, writing nothing")
    func olderEpochRefusedWhenNotResuming() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let keys: [UInt32: SecretBytes] = [0: try SecretBytes.random(count: 32), 1: try SecretBytes.random(count: 32)]
        var options = Self.smallIndexes
        options.segmentIndexBytes = 1024
        let store = try EncryptedSegmentTests.makeStore(dir.path + "/s", options: options, keys: keys)
        let newer = try EncryptedSegmentTests.handle(store, keys: keys, current: 1)
        for n in 1...12 { _ = try newer.append(ndjson: CompactionTests.lines(n...n)) }
        #expect(try Self.indexSizes(store).last! > 1024, "the last segment's index is full")
        let older = try EncryptedSegmentTests.handle(store, keys: keys, current: 0)
        let before = try ByteSurgery.image(of: store.layout.segments)
        #expect {
            try older.append(ndjson: CompactionTests.lines(13...13))
        } throws: { error in
            (error as? HealthLogError)?.code == .corrupt && (error as? HealthLogError)?.message.contains("is sealed under epoch 1") == true
        }
        #expect(try ByteSurgery.image(of: store.layout.segments) == before)
        _ = try newer.append(ndjson: CompactionTests.lines(13...13))
        #expect(try CompactionTests.raw(newer).count == 13)
    }
}
