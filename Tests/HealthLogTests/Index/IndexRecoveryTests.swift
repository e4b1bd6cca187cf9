import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// One named test per failure mode of the derived files (`Format.md`, "Indexes"): a segment's `.idx`, a UUID-index run, the
/// sync-identifier table and the checkpoint, each deleted, truncated, bit-flipped, stale
/// or foreign.
///
/// Every test damages a restored copy of ``IndexFixture``'s store, then checks the same
/// contract (``expectRecovery(_:sourceLocation:damage:)``):
///
/// 1. readers answer exactly as the pristine store does (replay in both views from
///    several anchors and type filters, the head, `stats`), and change no file;
/// 2. `verify` reports damage as a problem naming the file and byte offset, and an index
///    that is only missing or behind as a note (or not at all);
/// 3. `reindex` writes derived files byte-identical to a reindex of the pristine store,
///    touches no segment, meta or checkpoint, and leaves `verify` sound and silent;
/// 4. a later add of any UUID ever used is refused with `.badInput`, writing nothing;
/// 5. a later write that deletes old samples and replaces a sync identifier does exactly
///    what it does on the pristine store, after which `verify` is sound and silent and the
///    segment indexes and sync table are what a reindex writes.
@Suite("Index recovery")
struct IndexRecoveryTests {
    @Test("On the pristine store, the later write deletes old samples copying their fields, replaces sync-30 and skips sync-40")
    func laterWriteOnPristineStore() throws {
        let fixture = try IndexFixture.shared.get()
        let summary = fixture.laterWriteSummary
        #expect(summary.added == 4 && summary.deleted == 2 && summary.replaced == 1 && summary.skipped == 1)
        let deletes = try #require(fixture.answersAfterWrite.replays["from 205 types [] raw"]).filter { $0.contains(#""op":"delete""#) }
        let uuid = { (n: Int) in IndexFixture.uuid(n) }
        let expected: [String] = [
            #"{"seq":221,"op":"delete","uuid":"\#(uuid(5))","type":"\#(IndexFixture.sleep)","start":"2024-03-03T00:05:00Z","end":"2024-03-03T00:05:45Z","source":"Watch"}"# + "\n",
            #"{"seq":222,"op":"delete","uuid":"\#(uuid(130))","type":"\#(IndexFixture.steps)","start":"2024-03-02T02:10:00+02:00","end":"2024-03-02T02:10:30+02:00","source":"Phone","metadata":{"HKMetadataKeySyncIdentifier":"sync-130","HKMetadataKeySyncVersion":1}}"# + "\n",
            #"{"seq":223,"op":"delete","uuid":"\#(uuid(30))","type":"\#(IndexFixture.heartRate)","start":"2024-03-01T00:30:00Z","end":"2024-03-01T00:30:00Z","source":"Watch","device":"Watch7,1","metadata":{"HKMetadataKeySyncIdentifier":"sync-30","HKMetadataKeySyncVersion":1}}"# + "\n",
        ]
        #expect(Array(deletes.suffix(3)) == expected)
    }

    // MARK: (a) Segment indexes

    /// Which segment's `.idx` is damaged.
    enum Target: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// The first segment: sealed since append 1.
        case first = "00000000000000000001"
        /// The segment that was last after append 1 and sealed by append 2.
        case grown = "00000000000000000085"
        /// The segment appends go to.
        case last = "00000000000000000206"

        var testDescription: String { "\(self)" }
        /// The `.idx` path relative to the store.
        var index: String { "segments/\(rawValue).0000.idx" }
    }

    @Test("A deleted segment index is a note for verify, and readers and writers work from the segment", arguments: Target.allCases)
    func segmentIndexDeleted(_ target: Target) throws {
        try Self.expectRecovery(.note("\(target.index) is missing")) { scene in
            try ByteSurgery.remove(scene.file(target.index))
        }
    }

    @Test(
        "A truncated segment index is damage for verify and is ignored by readers and writers",
        arguments: [(Target.grown, 0), (.grown, 75), (.grown, 77), (.grown, -1), (.last, 40), (.last, 500)])
    func segmentIndexTruncated(_ target: Target, _ length: Int) throws {
        try Self.expectRecovery(.problem(target.index)) { scene in
            let path = scene.file(target.index)
            try ByteSurgery.truncate(path, to: length >= 0 ? length : try ByteSurgery.size(path) + length)
        }
    }

    /// A bit to flip in a segment index: in its 76-byte header or in its body.
    struct IndexFlip: CustomTestStringConvertible, Sendable {
        var target: Target
        /// The offset; negative counts from the end of the file.
        var offset: Int
        var mask: UInt8
        var testDescription: String { "\(target) at \(offset) mask \(mask)" }
    }

    @Test(
        "One flipped bit in a segment index's header or body is damage for verify and is ignored by readers and writers",
        arguments: [
            // Header: tag, batch count, covered length, last batch offset, header CRC.
            IndexFlip(target: .grown, offset: 1, mask: 0x01), IndexFlip(target: .first, offset: 20, mask: 0x02),
            IndexFlip(target: .grown, offset: 24, mask: 0x40), IndexFlip(target: .last, offset: 48, mask: 0x08),
            IndexFlip(target: .last, offset: 73, mask: 0x80),
            // Body: first entry's offset, a batch header payload, the last byte.
            IndexFlip(target: .first, offset: 76, mask: 0x01), IndexFlip(target: .grown, offset: 700, mask: 0x10),
            IndexFlip(target: .grown, offset: -1, mask: 0x04), IndexFlip(target: .last, offset: 120, mask: 0x20),
        ])
    func segmentIndexBitFlipped(_ flip: IndexFlip) throws {
        try Self.expectRecovery(.problem(flip.target.index)) { scene in
            let path = scene.file(flip.target.index)
            try ByteSurgery.flip(path, at: flip.offset >= 0 ? flip.offset : try ByteSurgery.size(path) + flip.offset, mask: flip.mask)
        }
    }

    @Test("A stale segment index (from before the segment grew) is a note, and the batches after it are read from the segment")
    func segmentIndexStale() throws {
        try Self.expectRecovery(.note("\(Target.grown.index) lists ")) { scene in
            let old = try #require(scene.fixture.images[0][Target.grown.index])
            #expect(old != scene.fixture.pristine[Target.grown.index], "the index moved on after append 1")
            try ByteSurgery.write(old, to: scene.file(Target.grown.index))
        }
    }

    @Test("The index of another store's segment of the same name is damage, and is never taken on its word", arguments: Target.allCases)
    func segmentIndexFromAnotherStore(_ target: Target) throws {
        try Self.expectRecovery(.problem(target.index)) { scene in
            let foreign = try #require(scene.fixture.foreign[target.index])
            #expect(foreign.count == scene.fixture.pristine[target.index]?.count, "same shape, another store")
            try ByteSurgery.write(foreign, to: scene.file(target.index))
            // Its header is sound and names the same file size and last-batch offset; only
            // the last batch's identity gives it away.
            let snapshot = try LogSnapshot(StoreLayout(directory: scene.path))
            let position = try #require(Target.allCases.firstIndex(of: target).map { [0, 2, 5][$0] })
            #expect(snapshot.prefixSegmentCount <= position, "a reader took segment \(position) on the word of another store's index")
        }
    }

    // MARK: (b) UUID-index runs

    /// Which run is damaged.
    enum Run: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// The merged run of appends 1 and 2, which every old UUID is found in.
        case merged = "uuids/00000000000000000001-00000000000000000205.run"
        /// Append 3's run.
        case newest = "uuids/00000000000000000206-00000000000000000220.run"
        var testDescription: String { "\(self)" }
    }

    @Test("A deleted UUID run is a note (the index is behind), and writers rebuild what it covered", arguments: Run.allCases)
    func uuidRunDeleted(_ run: Run) throws {
        try Self.expectRecovery(.note("the UUID index covers events 1...")) { scene in
            try ByteSurgery.remove(scene.file(run.rawValue))
        }
    }

    @Test("A truncated UUID run is damage for verify, and writers drop and rebuild it", arguments: [(Run.merged, 0), (.merged, 60), (.newest, 47), (.newest, -1)])
    func uuidRunTruncated(_ run: Run, _ length: Int) throws {
        try Self.expectRecovery(.problem(run.rawValue)) { scene in
            let path = scene.file(run.rawValue)
            try ByteSurgery.truncate(path, to: length >= 0 ? length : try ByteSurgery.size(path) + length)
        }
    }

    @Test(
        "A flipped bit in a UUID run's body fails its checksum: damage for verify, rebuilt by the writer that opens it",
        arguments: [(Run.merged, 0), (.merged, -1), (.newest, 17)])
    func uuidRunBlockFlipped(_ run: Run, _ bodyByte: Int) throws {
        try Self.expectRecovery(.problem(run.rawValue)) { scene in
            let path = scene.file(run.rawValue)
            let size = try ByteSurgery.size(path)
            // The body starts after the 48-byte header.
            try ByteSurgery.flip(path, at: bodyByte >= 0 ? 48 + bodyByte : size + bodyByte, mask: 0x08)
        }
    }

    @Test("A stale UUID run put back (append 1's run, since merged away) is ignored and then removed")
    func uuidRunStale() throws {
        try Self.expectRecovery(.sound) { scene in
            let name = "uuids/00000000000000000001-00000000000000000120.run"
            let old = try #require(scene.fixture.images[0][name])
            try ByteSurgery.write(old, to: scene.file(name))
            // The chain (1-205, 206-220) still covers the log: nothing is behind.
            let report = try scene.store.verify()
            #expect(report.notes.isEmpty, "\(report.notes)")
        }
    }

    @Test("An interrupted merge (the merged run and both its inputs present) answers as the merged run, and the inputs are removed")
    func uuidMergeInterrupted() throws {
        try Self.expectRecovery(.sound) { scene in
            let fixture = scene.fixture
            let events = try IndexFixture.uuidEvents(try #require(fixture.answers.replays["from 0 types [] raw"]))
            // The inputs as the writer wrote them: append 1's run (checked against the real
            // one) and append 2's, which the merge removed.
            let directory = scene.file("uuids")
            let snapshot = try LogSnapshot(StoreLayout(directory: scene.path))
            func run(_ part: ArraySlice<(uuid: SampleUUID, seq: UInt64, isDelete: Bool)>, from: UInt64, to: UInt64) throws -> String {
                var keys = UUIDFingerprintRun.Events()
                for event in part { try keys.add(event.uuid, seq: event.seq) }
                return try keys.write(from: from, to: to, binding: try #require(snapshot.binding(at: to)), cipher: nil, directory: directory).path
            }
            let first = try run(events[0..<120], from: 1, to: 120)
            #expect(try ByteSurgery.read(first) == fixture.images[0]["uuids/00000000000000000001-00000000000000000120.run"])
            _ = try run(events[120..<205], from: 121, to: 205)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".run") }.count == 4)
        }
    }

    // MARK: (c) The sync-identifier table

    @Test("A deleted sync table is rebuilt from the log by the next writer that needs it")
    func syncTableDeleted() throws {
        try Self.expectRecovery(.sound) { scene in try ByteSurgery.remove(scene.file("uuids/sync")) }
    }

    @Test("A flipped bit in the sync table is damage for verify, and writers rebuild the table", arguments: [2, 26, -1])
    func syncTableFlipped(_ offset: Int) throws {
        try Self.expectRecovery(.problem("uuids/sync")) { scene in
            let path = scene.file("uuids/sync")
            try ByteSurgery.flip(path, at: offset >= 0 ? offset : try ByteSurgery.size(path) + offset, mask: 0x02)
        }
    }

    @Test("A stale sync table (from before sync-20 was replaced) is caught up from the log")
    func syncTableStale() throws {
        try Self.expectRecovery(.sound) { scene in
            let old = try #require(scene.fixture.images[1]["uuids/sync"])
            #expect(old != scene.fixture.pristine["uuids/sync"])
            try ByteSurgery.write(old, to: scene.file("uuids/sync"))
        }
    }

    // MARK: (e) The deleted-add index

    @Test("A deleted deleted-add index costs readers the later deletes' frames, and the next writer rebuilds it")
    func deletedAddIndexDeleted() throws {
        try Self.expectRecovery(.sound) { scene in try ByteSurgery.remove(scene.file(DeletedAddIndex.display)) }
    }

    @Test("A flipped bit in the deleted-add index is damage for verify; readers read the deletes instead, and writers rebuild it", arguments: [2, 12, 44, -1])
    func deletedAddIndexFlipped(_ offset: Int) throws {
        try Self.expectRecovery(.problem(DeletedAddIndex.display)) { scene in
            let path = scene.file(DeletedAddIndex.display)
            try ByteSurgery.flip(path, at: offset >= 0 ? offset : try ByteSurgery.size(path) + offset, mask: 0x02)
        }
    }

    @Test("A stale deleted-add index (from before append 3 deleted sample 125) answers for what it covers, and the next writer catches it up")
    func deletedAddIndexStale() throws {
        try Self.expectRecovery(.sound) { scene in
            let old = try #require(scene.fixture.images[1][DeletedAddIndex.display])
            #expect(old != scene.fixture.pristine[DeletedAddIndex.display])
            try ByteSurgery.write(old, to: scene.file(DeletedAddIndex.display))
        }
    }

    // MARK: (d) The checkpoint

    @Test("A missing checkpoint costs only verification: the same answers, and the next write puts it back")
    func checkpointMissing() throws {
        try Self.expectRecovery(.sound) { scene in try ByteSurgery.remove(scene.file("checkpoint")) }
    }

    /// How the checkpoint is garbled.
    enum Garble: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case flippedSeq, flippedChecksum, truncated, zeroed, tooLong, ahead
        var testDescription: String { rawValue }
    }

    @Test(
        "A garbled checkpoint, or one ahead of the log, is damage: readers, verify and writers refuse naming it, and nothing changes",
        arguments: Garble.allCases)
    func checkpointGarbled(_ garble: Garble) throws {
        let scene = try Scene()
        defer { scene.dir.remove() }
        let path = scene.file("checkpoint")
        let expected: String
        switch garble {
        case .flippedSeq: try ByteSurgery.flip(path, at: 8, mask: 0x01)
        case .flippedChecksum: try ByteSurgery.flip(path, at: 35, mask: 0x80)
        case .truncated: try ByteSurgery.truncate(path, to: 20)
        case .zeroed: try ByteSurgery.write([UInt8](repeating: 0, count: 36), to: path)
        case .tooLong: try ByteSurgery.append([0], to: path)
        case .ahead:
            // Well-formed, claiming an append that never happened.
            let last = try #require(try CorruptionFixture.segmentPaths(scene.path).last)
            let end = UInt64(try ByteSurgery.size(last))
            try ByteSurgery.write(Checkpoint(seq: 400, segmentBase: 206, endOffset: end + 5000).encoded(), to: path)
        }
        expected = garble == .ahead ? "acknowledged up to sequence 400, log ends at 220" : "checkpoint at byte 0: not a valid checkpoint"
        let damaged = try scene.image()
        let read = try #require(throws: HealthLogError.self) { try CorruptionFixture.replay(scene.store) }
        #expect(read.code == .corrupt && read.message.contains(expected), "\(read)")
        let report = try scene.store.verify()
        #expect(!report.isSound && report.problems.contains { $0.contains(expected) }, "\(report)")
        let write = try #require(throws: HealthLogError.self) {
            try scene.store.append(ndjson: IndexFixture.ndjson(IndexFixture.laterWrite))
        }
        #expect(write.code == .corrupt && write.message.contains(expected), "\(write)")
        #expect(try scene.image() == damaged, "a command changed a damaged store")
    }

    // MARK: A write that looks nothing up

    /// Damage for ``writeThatLooksNothingUp(_:)``: derived files such a write never reads
    /// (before 5e95c63, the last four outlived it).
    enum Unread: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case segmentIndexDeleted, sealedIndexHeaderFlipped, sealedIndexBodyFlipped, sealedIndexFromAnotherStore
        case runTruncated, runBlockFlipped, syncTableFlipped
        var testDescription: String { rawValue }
    }

    @Test(
        "A write of samples without UUIDs or sync identifiers, which looks nothing up, also leaves every derived file rebuilt",
        arguments: Unread.allCases)
    func writeThatLooksNothingUp(_ damage: Unread) throws {
        let scene = try Scene()
        defer { scene.dir.remove() }
        switch damage {
        case .segmentIndexDeleted: try ByteSurgery.remove(scene.file(Target.grown.index))
        case .sealedIndexHeaderFlipped: try ByteSurgery.flip(scene.file(Target.grown.index), at: 30, mask: 0x01)
        case .sealedIndexBodyFlipped: try ByteSurgery.flip(scene.file(Target.grown.index), at: 300, mask: 0x01)
        case .sealedIndexFromAnotherStore: try ByteSurgery.write(try #require(scene.fixture.foreign[Target.grown.index]), to: scene.file(Target.grown.index))
        case .runTruncated: try ByteSurgery.truncate(scene.file(Run.newest.rawValue), to: 100)
        case .runBlockFlipped: try ByteSurgery.flip(scene.file(Run.newest.rawValue), at: 80, mask: 0x01)
        case .syncTableFlipped: try ByteSurgery.flip(scene.file("uuids/sync"), at: 40, mask: 0x01)
        }
        // Fresh samples as `healthlog add` makes them: no UUID given, so none is looked up.
        let fresh = (401...404).map { n in
            IndexFixture.sample(n, sync: nil).replacingOccurrences(of: #""uuid":"\#(IndexFixture.uuid(n))","#, with: "")
        }
        #expect(!fresh[0].contains("uuid"))
        let summary = try scene.store.append(ndjson: IndexFixture.ndjson(fresh))
        #expect(summary.added == 4 && summary.anchor.seq == scene.fixture.answers.head + 4)
        let raw = try CorruptionFixture.replay(scene.store, raw: true)
        #expect(Array(raw.prefix(Int(scene.fixture.answers.head))) == scene.fixture.answers.replays["from 0 types [] raw"])
        try Self.expectHealed(scene.store)
    }

    // MARK: The contract

    /// What `verify` must say about the damaged store.
    enum Verdict {
        /// A problem whose message starts with `FILE at byte `.
        case problem(String)
        /// Sound, with a note containing the text.
        case note(String)
        /// Sound (notes allowed).
        case sound
    }

    typealias Scene = IndexFixture.Scene

    /// Damages a fresh copy of the fixture's store with `damage` and checks the contract
    /// described atop this suite.
    static func expectRecovery(
        _ verdict: Verdict, sourceLocation: SourceLocation = #_sourceLocation,
        damage: (Scene) throws -> Void
    ) throws {
        let scene = try Scene()
        defer { scene.dir.remove() }
        let fixture = scene.fixture
        try damage(scene)
        let damaged = try scene.image()
        try #require(damaged != fixture.pristine, "the damage changed nothing", sourceLocation: sourceLocation)

        // 1. Readers.
        let answers = try IndexFixture.answers(scene.store)
        #expect(answers.head == fixture.answers.head, sourceLocation: sourceLocation)
        #expect(answers.stats == fixture.answers.stats && answers.counts == fixture.answers.counts, sourceLocation: sourceLocation)
        for (query, lines) in fixture.answers.replays where answers.replays[query] != lines {
            Issue.record("replay \(query) differs from the pristine store's", sourceLocation: sourceLocation)
        }
        #expect(try scene.image() == damaged, "a reader changed the store", sourceLocation: sourceLocation)

        // 2. verify.
        let report = try scene.store.verify()
        switch verdict {
        case .problem(let file):
            #expect(report.problems.contains { $0.hasPrefix("\(file) at byte ") }, "\(report)", sourceLocation: sourceLocation)
        case .note(let text):
            #expect(report.isSound && report.notes.contains { $0.contains(text) }, "\(report)", sourceLocation: sourceLocation)
        case .sound:
            #expect(report.isSound, "\(report)", sourceLocation: sourceLocation)
        }
        #expect(try scene.image() == damaged, "verify changed the store", sourceLocation: sourceLocation)

        // 3. reindex.
        let reindexed = try scene.store.reindex()
        #expect(reindexed.events == fixture.answers.head && reindexed.segmentIndexes == 6, sourceLocation: sourceLocation)
        let rebuilt = try scene.image()
        #expect(IndexFixture.derived(rebuilt) == fixture.reindexed, "reindex differs from the pristine store's", sourceLocation: sourceLocation)
        #expect(IndexFixture.primary(rebuilt) == IndexFixture.primary(damaged), sourceLocation: sourceLocation)
        let afterReindex = try scene.store.verify()
        #expect(afterReindex.isSound && afterReindex.notes.isEmpty, "\(afterReindex)", sourceLocation: sourceLocation)

        // 4. Adds of used UUIDs are refused.
        try ByteSurgery.restore(damaged, to: scene.path)
        for (n, reason) in IndexFixture.reusedUUIDs {
            let error = try #require(throws: HealthLogError.self, "sample \(n)", sourceLocation: sourceLocation) {
                try scene.store.append(ndjson: IndexFixture.ndjson([IndexFixture.sample(300), IndexFixture.sample(n)]))
            }
            #expect(error.code == .badInput && error.message == "line 2: field 'uuid': UUID \(IndexFixture.uuid(n)) \(reason)" + (reason.hasPrefix("belonged") ? "; a UUID is used once" : ""),
                "sample \(n): \(error)", sourceLocation: sourceLocation)
            #expect(IndexFixture.primary(try scene.image()) == IndexFixture.primary(damaged), "sample \(n)", sourceLocation: sourceLocation)
        }

        // 5. A later write: deletes of old samples, a sync replacement.
        try ByteSurgery.restore(damaged, to: scene.path)
        let summary = try scene.store.append(ndjson: IndexFixture.ndjson(IndexFixture.laterWrite))
        #expect(summary == fixture.laterWriteSummary, sourceLocation: sourceLocation)
        let after = try IndexFixture.answers(scene.store)
        for (query, lines) in fixture.answersAfterWrite.replays where after.replays[query] != lines {
            Issue.record("after the write, replay \(query) differs from the pristine store's", sourceLocation: sourceLocation)
        }
        #expect(after.stats == fixture.answersAfterWrite.stats && after.counts == fixture.answersAfterWrite.counts, sourceLocation: sourceLocation)
        #expect(try ByteSurgery.read(scene.file("checkpoint")) == fixture.checkpointAfterWrite, sourceLocation: sourceLocation)
        // Rebuilt, not just tolerated: verify is silent, and the segment indexes and the sync
        // table are what reindex writes.
        let written = try scene.image()
        let copy = try IndexFixture.restore(written, into: scene.dir.file("copy"))
        _ = try copy.reindex()
        let reference = try ByteSurgery.image(of: copy.directory)
        try Self.expectHealed(scene.store, sourceLocation: sourceLocation) {
            IndexFixture.names(reference, endingWith: ".idx").filter { written[$0] != reference[$0] }
                + (written["uuids/sync"] == reference["uuids/sync"] ? [] : ["uuids/sync"])
                + (written[DeletedAddIndex.display] == reference[DeletedAddIndex.display] ? [] : [DeletedAddIndex.display])
        }
    }

    /// Checks that `verify` is sound and silent after the write, and that `stale()` names no file.
    static func expectHealed(
        _ store: HealthStore, sourceLocation: SourceLocation = #_sourceLocation, stale: () throws -> [String] = { [] }
    ) throws {
        let healed = try store.verify()
        #expect(healed.isSound && healed.notes.isEmpty, "after the write: \(healed)", sourceLocation: sourceLocation)
        let files = try stale()
        #expect(files.isEmpty, "after the write, not what reindex writes: \(files)", sourceLocation: sourceLocation)
    }
}
