import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The deleted-add index (`uuids/deleted-adds`): the writer keeps it, `reindex` writes the
/// same bytes, and paged replays in HealthKit's view leave out the adds deleted by later
/// appends whether the index is sound, missing, behind, ahead of the log or damaged.
@Suite("Deleted-add index")
struct DeletedAddIndexTests {
    /// Three appends of small batches: 2,400 heart rates and 600 step counts; then 200 more
    /// samples and deletes of 1,458 of the first ones, most of them heart rates (two blocks
    /// of the index); then 100 more and deletes of five samples of both earlier appends.
    /// In a plaintext store, or an encrypted one (its index sealed).
    struct Fixture {
        let dir: TemporaryDirectory
        let store: HealthStore
        let layout: StoreLayout
        /// The store's cipher (`nil`: plaintext).
        let cipher: StoreCipher?
        /// Every event as appended: (seq, uuid, isDelete, type), in sequence order.
        var events: [(seq: UInt64, uuid: String, isDelete: Bool, type: String)] = []
        /// The index file after each append.
        var images: [[UInt8]] = []

        static let heartRate = "HKQuantityTypeIdentifierHeartRate"
        static let steps = "HKQuantityTypeIdentifierStepCount"

        init(encrypted: Bool = false) throws {
            dir = try TemporaryDirectory()
            var options = StoreOptions()
            options.batchBytes = 4000
            store = encrypted ? try EncryptedSegmentTests.makeStore(dir.file("store"), options: options) : HealthStore(directory: dir.file("store"), options: options)
            layout = store.layout
            var seq: UInt64 = 0
            var typeOf: [String: String] = [:]
            func uuid(_ n: Int) -> String { String(format: "%08X-0000-4000-8000-%012X", UInt32(truncatingIfNeeded: n &* 2_654_435_761), n) }
            let rounds: [(adds: Range<Int>, deletes: [Int])] = [
                (0..<3000, []),
                (3000..<3200, (0..<3000).filter { $0 % 5 != 0 && $0 % 2 == 0 || $0 % 7 == 1 }),
                (3200..<3300, [5, 3001, 3002, 3150, 2995]),
            ]
            for round in rounds {
                var lines: [String] = []
                for n in round.adds {
                    let type = n % 5 == 0 ? Self.steps : Self.heartRate
                    let unit = n % 5 == 0 ? "count" : "count/min"
                    lines.append(#"{"uuid":"\#(uuid(n))","type":"\#(type)","start":"2024-01-01T00:00:\#(String(format: "%02d", n % 60))Z","value":\#(60 + n % 40),"unit":"\#(unit)"}"#)
                    seq += 1
                    typeOf[uuid(n)] = type
                    events.append((seq, uuid(n), false, type))
                }
                for n in round.deletes {
                    lines.append(#"{"op":"delete","uuid":"\#(uuid(n).lowercased())"}"#)
                    seq += 1
                    events.append((seq, uuid(n), true, typeOf[uuid(n)]!))
                }
                _ = try store.append(ndjson: Array((lines.joined(separator: "\n") + "\n").utf8))
                images.append(try ByteSurgery.read(DeletedAddIndex.path(layout)))
            }
            cipher = try LogSnapshot(layout).cipher
        }

        /// The sequence numbers of the adds deleted by events up to `through`.
        func deletedAdds(through: UInt64) -> [UInt64] {
            let deleted = Set(events.filter { $0.isDelete && $0.seq <= through }.map(\.uuid))
            return events.filter { !$0.isDelete && deleted.contains($0.uuid) }.map(\.seq)
        }

        /// HealthKit's view after `anchor` of `types` (all when empty), independent of any index.
        func expected(after anchor: UInt64, types: Set<String> = []) -> [UInt64] {
            let deletedLater = Set(events.filter { $0.isDelete && $0.seq > anchor }.map(\.uuid))
            return events.filter { event in
                event.seq > anchor && (event.isDelete || !deletedLater.contains(event.uuid)) && (types.isEmpty || types.contains(event.type))
            }.map(\.seq)
        }

        /// The sequence numbers a replay delivers, with its outcome.
        func replay(_ request: ReplayRequest) throws -> ([UInt64], ReplayOutcome) {
            try CorruptionFixture.replayedSeqs(store, request)
        }

        /// Every page of `limit` from `anchor`, following each page's new anchor until one
        /// comes back short, joined.
        func pages(from anchor: UInt64, types: Set<String>, limit: Int) throws -> [UInt64] {
            var out: [UInt64] = []
            var next = QueryAnchor(fromValue: anchor)
            while true {
                let (seqs, outcome) = try replay(ReplayRequest(anchor: next, types: types, limit: limit))
                out += seqs
                next = outcome.newAnchor
                if seqs.count < limit { return out }
            }
        }

        var head: UInt64 { events.last!.seq }
        /// The last sequence number of each append: an add followed by a delete ends none.
        var appendEnds: [UInt64] {
            [3000] + events.indices.filter { events[$0].isDelete && ($0 + 1 == events.count || !events[$0 + 1].isDelete) }.map { events[$0].seq }
        }
        var indexPath: String { DeletedAddIndex.path(layout) }

        /// The binding of the store's log at `seq` (the end of an append).
        func binding(at seq: UInt64) throws -> LogBinding { try #require(try LogSnapshot(layout).binding(at: seq)) }
    }

    @Test("The writer lists every deleted add after each append, covering its head, and reindex writes the same bytes")
    func writerKeepsIt() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let index = try #require(DeletedAddIndex.open(fixture.layout, cipher: nil))
        #expect(index.coveredSeq == fixture.head)
        #expect(index.blockCount == 2)
        #expect(try index.allEntries() == fixture.deletedAdds(through: fixture.head))
        #expect(fixture.images[0] == DeletedAddIndex.encoded([], coveredSeq: 3000, binding: try fixture.binding(at: 3000), cipher: nil))
        let written = try ByteSurgery.read(fixture.indexPath)
        let report = try fixture.store.reindex()
        #expect(report.deletedAdds == fixture.deletedAdds(through: fixture.head).count)
        #expect(try ByteSurgery.read(fixture.indexPath) == written)
        let verified = try fixture.store.verify()
        #expect(verified.isSound && verified.notes.isEmpty, "\(verified)")
    }

    @Test("Each append that follows a delete records in its last batch the count and digest of every add deleted up to it; the first, which deleted nothing, records none")
    func appendsWitnessDeletedAdds() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let snapshot = try LogSnapshot(fixture.layout)
        let first = try #require(try snapshot.batch(containing: 3000)).header
        #expect(first.isEndOfAppend && first.origin == nil && first.version == 1, "no origin named, nothing deleted: the bytes of a store without witnesses")
        for end in fixture.appendEnds.dropFirst() {
            let header = try #require(try snapshot.batch(containing: end)).header
            #expect(header.lastSeq == end && header.isEndOfAppend)
            let witness = try #require(header.origin?.deletedAdds)
            let deleted = fixture.deletedAdds(through: end)
            #expect(witness.count == UInt64(deleted.count))
            #expect(witness.digest == deleted.reduce(0) { $0 &+ BatchOrigin.DeletedAddWitness.hash($1) })
            #expect(header.origin?.origin == nil, "the record carries the witness without a named origin")
        }
    }

    @Test("After compact drops deleted samples, the index still matches the last append's witness (it keeps the dropped adds), and reindex writes the same bytes")
    func compactionKeepsWitness() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let horizon = fixture.appendEnds[1]
        let report = try fixture.store.compact(horizon: .anchor(QueryAnchor(fromValue: horizon)))
        #expect(report.eventsDropped > 2000)
        let snapshot = try LogSnapshot(fixture.layout)
        let index = try #require(DeletedAddIndex.open(for: snapshot))
        #expect(try index.allEntries() == fixture.deletedAdds(through: fixture.head))
        #expect(try DeletedAddIndex.entries(from: snapshot, through: fixture.head) == fixture.deletedAdds(through: fixture.head))
        let written = try ByteSurgery.read(fixture.indexPath)
        _ = try fixture.store.reindex()
        #expect(try ByteSurgery.read(fixture.indexPath) == written)
        let verified = try fixture.store.verify()
        #expect(verified.isSound && verified.notes.isEmpty, "\(verified)")
        let (page, _) = try fixture.replay(ReplayRequest(anchor: QueryAnchor(fromValue: horizon), types: [Fixture.heartRate]))
        #expect(page == fixture.expected(after: horizon, types: [Fixture.heartRate]))
    }

    @Test("The adds a compacted log deletes up to any number, read from the dropped lists and merged with the live deletes, are those deleted by then; verify finds the index sound")
    func expectedAddsAfterCompaction() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let horizon = fixture.appendEnds[1]
        _ = try fixture.store.compact(horizon: .anchor(QueryAnchor(fromValue: horizon)))
        let snapshot = try LogSnapshot(fixture.layout)
        let deletes = fixture.events.filter(\.isDelete).map(\.seq)
        // Past every dropped delete (the adds taken as they are listed), before some of them
        // (looked up by the deletes' UUIDs), and the whole log with the live deletes after.
        for last in [horizon, deletes[deletes.count / 3], deletes[0], fixture.appendEnds[0], fixture.head] {
            var adds = try DeletedAddIndex.ExpectedAdds(snapshot, through: last)
            var read: [UInt64] = []
            while let seq = try adds.next() { read.append(seq) }
            #expect(read == fixture.deletedAdds(through: last), "through \(last)")
            #expect(read.count <= adds.bound)
            #expect(try DeletedAddIndex.entries(from: snapshot, through: last) == read)
        }
        let verified = try fixture.store.verify()
        #expect(verified.isSound && verified.notes.isEmpty, "\(verified)")
    }

    @Test("A compacted store restored to an earlier append keeps that append's witness: the index restore writes matches it, and the next append's witness adds its own deletes")
    func cutKeepsWitness() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        _ = try fixture.store.compact(horizon: .anchor(QueryAnchor(fromValue: fixture.appendEnds[1])))
        _ = try fixture.store.backup(to: fixture.dir.file("backup"))
        let cut = fixture.appendEnds[1]
        let restored = HealthStore(directory: fixture.dir.file("restored"))
        _ = try restored.restore(from: fixture.dir.file("backup"), to: .anchor(QueryAnchor(fromValue: cut)))
        let layout = StoreLayout(directory: fixture.dir.file("restored"))
        let index = try #require(DeletedAddIndex.open(for: try LogSnapshot(layout)), "taken: it matches the kept append's witness")
        #expect(index.coveredSeq == cut)
        #expect(try index.allEntries() == fixture.deletedAdds(through: cut))
        let victim = fixture.events.first { !$0.isDelete && $0.seq == 4 }!
        _ = try restored.append(ndjson: Array(#"{"op":"delete","uuid":"\#(victim.uuid)"}"#.utf8))
        let snapshot = try LogSnapshot(layout)
        let witness = try #require(try snapshot.batch(containing: snapshot.headSeq)?.header.origin?.deletedAdds)
        #expect(witness == BatchOrigin.DeletedAddWitness(of: fixture.deletedAdds(through: cut) + [4]))
        #expect(DeletedAddIndex.open(for: snapshot) != nil)
        let verified = try restored.verify()
        #expect(verified.isSound && verified.notes.isEmpty, "\(verified)")
    }

    /// What is done to the index before reading.
    enum State: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case sound, missing, behind, emptyBehind, ahead, blockFlipped, tableFlipped, headerFlipped, otherVersion
        /// Well-formed, covering the log, listing every add, but bound to another store or to
        /// another batch at its covered number (a log cut and written on), or of version 1.
        case otherStore, otherBatch, versionOne, versionTwo
        /// Edited within its own log, bound to it and checksums sound: listing 300 live heart
        /// rates too, or as many entries as the log's but a live add for a deleted one; or its
        /// second block so (its table's checksum, not its digest, made to match).
        case extraEntries, swappedEntry, blockEdited
        var testDescription: String { rawValue }

        /// Every add of the log: an index that lists them hides every sample when taken.
        static func everyAdd(_ fixture: Fixture) -> [UInt64] { fixture.events.filter { !$0.isDelete }.map(\.seq) }

        /// The bytes of a version 1 file (a 40-byte header without the binding) for `entries`.
        static func versionOne(_ entries: [UInt64], coveredSeq: UInt64) -> [UInt8] {
            let current = DeletedAddIndex.encoded(entries, coveredSeq: coveredSeq, binding: LogBinding(storeID: StoreID.random(), check: 0), cipher: nil)
            var header = Array(current[0..<4]) + [1, 0] + Array(current[6..<32])
            header += withUnsafeBytes(of: CRC32C.checksum(header[...]).littleEndian) { Array($0) } + [0, 0, 0, 0]
            return header + current[DeletedAddIndex.headerLength...]
        }

        /// The bytes of a version 2 file (16-byte table entries: first entry, CRC-32C,
        /// reserved; no digests) for `entries`, sealed with `cipher`.
        static func versionTwo(_ entries: [UInt64], coveredSeq: UInt64, binding: LogBinding, cipher: StoreCipher?) -> [UInt8] {
            let file = SmallFile(tag: "HLDA", version: 2, headerLength: DeletedAddIndex.headerLength, length: nil)
            let blocks = stride(from: 0, to: entries.count, by: DeletedAddIndex.blockEntries).map { Array(entries[$0..<min(entries.count, $0 + DeletedAddIndex.blockEntries)]) }
            let naming = { (w: inout ByteWriter) in
                w.append(coveredSeq)
                w.append(UInt64(entries.count))
                w.append(UInt32(blocks.count))
            }
            let prefix = file.prefix(naming)
            var table = ByteWriter()
            var body: [UInt8] = []
            for (k, block) in blocks.enumerated() {
                var w = ByteWriter()
                for entry in block { w.append(entry) }
                let stored = cipher.map { $0.seal(w.bytes, .derivedFile, place: SmallFile.place(prefix, unit: UInt32(k + 1))) } ?? w.bytes
                table.append(block[0])
                table.append(CRC32C.checksum(stored[...]))
                table.append(UInt32(0))
                body += stored
            }
            let storedTable = cipher.map { $0.seal(table.bytes, .derivedFile, place: SmallFile.place(prefix, unit: 0)) } ?? table.bytes
            return file.encode(body: storedTable + body) { w in
                naming(&w)
                w.append(CRC32C.checksum(storedTable[...]))
                binding.write(to: &w)
                w.append(UInt32(0))
            }
        }

        /// `fixture`'s index with one entry of its second block replaced by a live heart
        /// rate between its neighbours, the block's checksum in the table made to match (the
        /// table sealed anew in an encrypted store) but not its digest: taken, it would hide
        /// that sample and show a deleted one.
        static func blockEdited(_ fixture: Fixture) throws -> [UInt8] {
            let pristine = try ByteSurgery.read(fixture.indexPath)
            let index = try #require(DeletedAddIndex.open(fixture.layout, cipher: fixture.cipher))
            var entries = try index.allEntries()
            let deleted = Set(entries)
            let live = fixture.events.filter { !$0.isDelete && $0.type == Fixture.heartRate && !deleted.contains($0.seq) }.map(\.seq)
            let j = try #require((1025..<min(2047, entries.count - 1)).first { j in live.contains { entries[j - 1] < $0 && $0 < entries[j + 1] } })
            entries[j] = live.first { entries[j - 1] < $0 && $0 < entries[j + 1] }!
            let edited = DeletedAddIndex.encoded(entries, coveredSeq: index.coveredSeq, binding: index.binding, cipher: fixture.cipher)
            try #require(index.blockCount == 2, "the second block is the last")
            let block = index.offset(ofBlock: 1)..<pristine.count
            var out = pristine
            out.replaceSubrange(block, with: edited[block])
            let tableRange = DeletedAddIndex.headerLength..<index.offset(ofBlock: 0)
            let place = SmallFile.place(pristine[0..<DeletedAddIndex.placeLength], unit: 0)
            var table = try fixture.cipher.map { try #require($0.open(Array(pristine[tableRange]), .derivedFile, place: place)) } ?? Array(pristine[tableRange])
            let crc = DeletedAddIndex.tableEntryLength + 8
            table.replaceSubrange(crc..<crc + 4, with: withUnsafeBytes(of: CRC32C.checksum(out[block]).littleEndian, Array.init))
            let storedTable = fixture.cipher.map { $0.seal(table, .derivedFile, place: place) } ?? table
            out.replaceSubrange(tableRange, with: storedTable)
            return DeletedAddIndex.file.resealed(out, at: 28, with: withUnsafeBytes(of: CRC32C.checksum(storedTable[...]).littleEndian, Array.init))
        }

        func apply(_ fixture: Fixture) throws {
            let path = fixture.indexPath
            switch self {
            case .sound: break
            case .missing: try ByteSurgery.remove(path)
            case .behind: try ByteSurgery.write(fixture.images[1], to: path)
            case .emptyBehind: try ByteSurgery.write(fixture.images[0], to: path)
            case .ahead:
                // Well-formed, claiming every add of the log deleted by events past its head:
                // a reader that took it would leave out every sample.
                let every = fixture.events.filter { !$0.isDelete }.map(\.seq)
                try ByteSurgery.write(DeletedAddIndex.encoded(every, coveredSeq: fixture.head + 10, binding: try fixture.binding(at: fixture.head), cipher: fixture.cipher), to: path)
            case .blockFlipped:
                // An entry of the second block (the one the later pages need).
                try ByteSurgery.flip(path, at: try ByteSurgery.size(path) - 8 * 100, mask: 0x01)
            case .tableFlipped: try ByteSurgery.flip(path, at: DeletedAddIndex.headerLength + 20, mask: 0x04)
            case .headerFlipped: try ByteSurgery.flip(path, at: 9, mask: 0x01)
            case .otherVersion: try ByteSurgery.patch(path, at: 4, with: [9, 0])
            case .otherStore:
                let binding = LogBinding(storeID: StoreID.random(), check: try fixture.binding(at: fixture.head).check)
                try ByteSurgery.write(DeletedAddIndex.encoded(Self.everyAdd(fixture), coveredSeq: fixture.head, binding: binding, cipher: fixture.cipher), to: path)
            case .otherBatch:
                var binding = try fixture.binding(at: fixture.head)
                binding.check ^= 1
                try ByteSurgery.write(DeletedAddIndex.encoded(Self.everyAdd(fixture), coveredSeq: fixture.head, binding: binding, cipher: fixture.cipher), to: path)
            case .versionOne: try ByteSurgery.write(Self.versionOne(Self.everyAdd(fixture), coveredSeq: fixture.head), to: path)
            case .versionTwo:
                // Every add listed: a reader that took it would leave out every sample.
                try ByteSurgery.write(Self.versionTwo(Self.everyAdd(fixture), coveredSeq: fixture.head, binding: try fixture.binding(at: fixture.head), cipher: fixture.cipher), to: path)
            case .blockEdited: try ByteSurgery.write(try Self.blockEdited(fixture), to: path)
            case .extraEntries, .swappedEntry:
                let deleted = fixture.deletedAdds(through: fixture.head)
                let live = Set(Self.everyAdd(fixture)).subtracting(deleted).filter { fixture.events[Int($0) - 1].type == Fixture.heartRate }.sorted()
                let entries = self == .extraEntries ? Set(deleted).union(live.prefix(300)).sorted() : Set(deleted.dropFirst()).union(live.prefix(1)).sorted()
                try ByteSurgery.write(DeletedAddIndex.encoded(entries, coveredSeq: fixture.head, binding: try fixture.binding(at: fixture.head), cipher: fixture.cipher), to: path)
            }
        }
    }

    @Test("An unlimited replay whose deletes after the anchor pass what it holds in memory checks the index instead of reading them first, with the same answer")
    func manyDeletesTakeTheIndex() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let snapshot = try LogSnapshot(fixture.layout)
        // After the second append only the third's deletes follow, two of them heart rates in
        // one group: too few for the index to be worth its 1,463 entries, unless two deletes
        // are too many to hold.
        let anchor = fixture.appendEnds[1]
        func replay(holding resident: Int) throws -> (seqs: [UInt64], groupsRead: Int) {
            var replayer = Replayer(snapshot: snapshot, request: ReplayRequest(anchor: QueryAnchor(fromValue: anchor), types: [Fixture.heartRate]))
            replayer.residentDeletes = resident
            var seqs: [UInt64] = []
            let outcome = try replayer.run { seqs.append($0.seq) }
            return (seqs, outcome.groupsRead)
        }
        let held = try replay(holding: Replayer.defaultResidentDeletes)
        let indexed = try replay(holding: 1)
        #expect(held.seqs == fixture.expected(after: anchor, types: [Fixture.heartRate]) && indexed.seqs == held.seqs)
        #expect(indexed.groupsRead < held.groupsRead, "the delete groups are read once, not first on their own too")
    }

    @Test(
        "Statistics of a type whose deletes pass what the scan holds check the index on both threads, with the figures of a scan that holds them all, whatever state the index is in",
        arguments: [(false, State.sound), (false, .blockFlipped), (false, .blockEdited), (false, .extraEntries), (false, .missing), (true, .sound), (true, .blockFlipped)])
    func statisticsTakeTheIndex(_ encrypted: Bool, _ state: State) throws {
        let fixture = try Fixture(encrypted: encrypted)
        defer { fixture.dir.remove() }
        try state.apply(fixture)
        let bySeq = Dictionary(uniqueKeysWithValues: fixture.events.map { ($0.seq, $0) })
        let live = fixture.expected(after: 0).compactMap { bySeq[$0] }.filter { !$0.isDelete }
        for (type, options) in [("HeartRate", StatisticsOptions([.average, .minimum, .maximum])), ("StepCount", .sum)] {
            let query = StatisticsQuery(type: .quantity(type), interval: .hour, options: options)
            let held = try fixture.store.statistics(query, residentDeletes: .max)
            let indexed = try fixture.store.statistics(query, residentDeletes: 1)
            #expect(indexed == held, "\(type)")
            let identifier = "HKQuantityTypeIdentifier" + type
            #expect(held.reduce(0) { $0 + $1.count } == live.filter { $0.type == identifier }.count, "\(type)")
        }
    }

    @Test("An index that covers past the head asked for is not taken, and the descriptor it was read through is closed once, plaintext and encrypted", arguments: [false, true])
    func aheadOfHeadClosedOnce(encrypted: Bool) throws {
        let fixture = try Fixture(encrypted: encrypted)
        defer { fixture.dir.remove() }
        let index = try #require(DeletedAddIndex.open(fixture.layout, cipher: fixture.cipher))
        #expect(index.coveredSeq > 1 && index.count > 0)
        // A second close of its descriptor stops a debug build (FileDescriptor.close()).
        for _ in 0..<3 { #expect(DeletedAddIndex.open(fixture.layout, head: 1, cipher: fixture.cipher) == nil) }
        #expect(try DeletedAddIndex.open(fixture.layout, cipher: fixture.cipher)?.allEntries() == index.allEntries())
    }

    @Test("Paging a type in HealthKit's view leaves out every add deleted later and delivers each other item once, whatever state the index is in", arguments: State.allCases)
    func pagesLeaveOutDeletedAdds(_ state: State) throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        try state.apply(fixture)
        try Self.checkPages(fixture)
    }

    /// Pages of heart rates, and every type, from several anchors of `fixture` match
    /// HealthKit's view; raw replays deliver every add.
    static func checkPages(_ fixture: Fixture) throws {
        let types: Set<String> = [Fixture.heartRate]
        for anchor: UInt64 in [0, 1234, 3000, 3150] {
            let pages = try fixture.pages(from: anchor, types: types, limit: 97)
            #expect(pages == fixture.expected(after: anchor, types: types), "from \(anchor)")
            let (all, _) = try fixture.replay(ReplayRequest(anchor: QueryAnchor(fromValue: anchor)))
            #expect(all == fixture.expected(after: anchor), "all types from \(anchor)")
        }
        let deleted = Set(fixture.deletedAdds(through: fixture.head))
        let (view, _) = try fixture.replay(ReplayRequest(types: types))
        #expect(view.allSatisfy { !deleted.contains($0) })
        let (raw, _) = try fixture.replay(ReplayRequest(types: types, raw: true))
        #expect(raw == fixture.events.filter { $0.type == Fixture.heartRate }.map(\.seq))
    }

    @Test("With the index covering the log, a page reads no delete frame but its own; without it, every later one")
    func pageReadsOnlyItsOwnFrames() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let request = ReplayRequest(anchor: QueryAnchor(fromValue: 100), types: [Fixture.heartRate], limit: 50)
        let (indexed, withIndex) = try fixture.replay(request)
        try ByteSurgery.remove(fixture.indexPath)
        let (read, without) = try fixture.replay(request)
        #expect(indexed == read && indexed == Array(fixture.expected(after: 100, types: [Fixture.heartRate]).prefix(50)))
        // The page's own heart-rate groups (some eight small batches, half their adds deleted
        // later) and, only without the index, the later appends' 1,463 deletes (the heart-rate
        // groups of some sixty batches).
        #expect(withIndex.groupsRead <= 12, "\(withIndex)")
        #expect(without.groupsRead >= withIndex.groupsRead + 50, "\(without) against \(withIndex)")
    }

    @Test("An unlimited replay takes the index only when it saves reading many deletes: a type with two deletes after the anchor reads them, as without the index")
    func unlimitedReplayWeighsTheIndex() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let types: Set<String> = [Fixture.heartRate]
        // After the second append's end only the third's five deletes follow, two of heart rates.
        let few = ReplayRequest(anchor: QueryAnchor(fromValue: fixture.appendEnds[1]), types: types)
        let many = ReplayRequest(types: types)
        let (fewSeqs, fewIndexed) = try fixture.replay(few)
        let (manySeqs, manyIndexed) = try fixture.replay(many)
        try ByteSurgery.remove(fixture.indexPath)
        let (fewRead, fewWithout) = try fixture.replay(few)
        let (manyRead, manyWithout) = try fixture.replay(many)
        #expect(fewSeqs == fewRead && fewSeqs == fixture.expected(after: fixture.appendEnds[1], types: types))
        #expect(manySeqs == manyRead && manySeqs == fixture.expected(after: 0, types: types))
        #expect(fewIndexed.groupsRead == fewWithout.groupsRead, "\(fewIndexed) against \(fewWithout)")
        #expect(manyIndexed.groupsRead + 50 <= manyWithout.groupsRead, "\(manyIndexed) against \(manyWithout)")
    }

    @Test("verify reports a damaged index, or one that disagrees with the log, naming its byte; reindex repairs it")
    func verifyReportsDamage() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let pristine = try ByteSurgery.read(fixture.indexPath)
        var entries = fixture.deletedAdds(through: fixture.head)
        let cases: [(damage: () throws -> Void, text: String)] = [
            ({ try ByteSurgery.flip(fixture.indexPath, at: try ByteSurgery.size(fixture.indexPath) - 3, mask: 0x10) }, "is damaged"),
            ({ try ByteSurgery.flip(fixture.indexPath, at: 12, mask: 0x10) }, "damaged (checksum or layout)"),
            ({
                entries.remove(at: 700)
                try ByteSurgery.write(DeletedAddIndex.encoded(entries, coveredSeq: fixture.head, binding: try fixture.binding(at: fixture.head), cipher: nil), to: fixture.indexPath)
            }, "disagrees with the log"),
            ({ try ByteSurgery.write(DeletedAddIndex.encoded(entries + [fixture.head - 1], coveredSeq: fixture.head, binding: try fixture.binding(at: fixture.head), cipher: nil), to: fixture.indexPath) }, "disagrees with the log"),
        ]
        for (damage, text) in cases {
            try damage()
            let report = try fixture.store.verify()
            #expect(report.problems.contains { $0.hasPrefix("uuids/deleted-adds at byte ") && $0.contains(text) }, "\(text): \(report)")
            _ = try fixture.store.reindex()
            #expect(try ByteSurgery.read(fixture.indexPath) == pristine, "\(text)")
        }
        try ByteSurgery.write(fixture.images[1], to: fixture.indexPath)
        let behind = try fixture.store.verify()
        #expect(behind.isSound, "an index behind the log is sound: \(behind)")
    }

    /// The states a writer rebuilds the index from.
    static let rebuilt: [State] = [.missing, .behind, .emptyBehind, .ahead, .blockFlipped, .headerFlipped, .otherStore, .otherBatch, .versionOne, .versionTwo, .extraEntries, .swappedEntry, .blockEdited]

    @Test("The next writer rebuilds a missing, damaged, behind, ahead, foreign, version 1 or 2 or edited index, and adds its own deletes", arguments: rebuilt)
    func writerRebuilds(_ state: State) throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        try state.apply(fixture)
        let written = try Self.appendDelete(fixture)
        _ = try fixture.store.reindex()
        #expect(try ByteSurgery.read(fixture.indexPath) == written)
    }

    /// Appends a delete of the add at 4 to `fixture`, and checks that the writer left the
    /// index listing every deleted add up to the new head; returns its bytes.
    static func appendDelete(_ fixture: Fixture) throws -> [UInt8] {
        var fixture = fixture
        let victim = fixture.events.first { !$0.isDelete && $0.seq == 4 }!
        let seq = fixture.head + 1
        _ = try fixture.store.append(ndjson: Array(#"{"op":"delete","uuid":"\#(victim.uuid)"}"#.utf8))
        fixture.events.append((seq, victim.uuid, true, victim.type))
        let index = try #require(DeletedAddIndex.open(fixture.layout, cipher: fixture.cipher))
        #expect(index.coveredSeq == fixture.head)
        #expect(try index.allEntries() == fixture.deletedAdds(through: fixture.head))
        return try ByteSurgery.read(fixture.indexPath)
    }

    @Test("In an encrypted store, paging leaves out every add deleted later whatever state the sealed index is in, and the next writer rebuilds it", arguments: State.allCases)
    func sealedIndexStates(_ state: State) throws {
        let fixture = try Fixture(encrypted: true)
        defer { fixture.dir.remove() }
        try state.apply(fixture)
        try Self.checkPages(fixture)
        if Self.rebuilt.contains(state) {
            _ = try Self.appendDelete(fixture)
            #expect(IndexVersion(path: fixture.indexPath, of: DeletedAddIndex.file) == .current)
        }
    }

    @Test("A sealed index is checked against the log's witness by opening its table only; a lookup then opens only the block its number falls in, and one whose entries do not hash to the table's digest is damage")
    func sealedWitnessOpensOnlyTheTable() throws {
        let fixture = try Fixture(encrypted: true)
        defer { fixture.dir.remove() }
        let snapshot = try LogSnapshot(fixture.layout)
        let deleted = fixture.deletedAdds(through: fixture.head)
        let index = try #require(DeletedAddIndex.open(for: snapshot))
        #expect(index.blockCount == 2 && index.blocksRead == 0)
        var cursor = DeletedAddCursor(index)
        #expect(deleted.count > 1400)
        #expect(try cursor.isDeleted(deleted[1200]) && index.blocksRead == 1)
        #expect(try cursor.isDeleted(deleted[1400]) && index.blocksRead == 1)
        // No block is kept: reading them all reads the cursor's again.
        #expect(try index.allEntries() == deleted && index.blocksRead == 3)

        try ByteSurgery.write(try State.blockEdited(fixture), to: fixture.indexPath)
        let edited = try #require(DeletedAddIndex.open(for: snapshot), "the table still sums to the witness")
        #expect(try edited.block(0) == Array(deleted[0..<1024]))
        let error = #expect(throws: HealthLogError.self) { try edited.block(1) }
        #expect(error?.message.contains("block 2 disagrees with its table entry") == true, "\(error?.message ?? "")")
        #expect(try fixture.store.verify().problems.contains { $0.contains("block 2 disagrees") })
    }
}
