import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The sealed copy of an encrypted segment's batch tables in its segment index: a query
/// opens it instead of each batch's table, a copy that is damaged, stale, foreign or missing
/// is ignored (the tables are opened and the answers stay right), and every writer of a
/// segment index keeps it current.
@Suite("Sealed table copies")
struct SealedTableCopyTests {
    /// An encrypted store of 1,500 events and a few deletes over many small segments, its
    /// keys, and every line it replays.
    struct Fixture {
        let dir: TemporaryDirectory
        let store: HealthStore
        let keys: [UInt32: SecretBytes]
        let raw: [String]

        init() throws {
            dir = try TemporaryDirectory()
            keys = [0: try SecretBytes.random(count: 32)]
            store = try EncryptedSegmentTests.makeStore(dir.file("store"), options: EncryptedSegmentTests.smallSegments, keys: keys)
            _ = try store.append(ndjson: CompactionTests.lines(1...1400))
            _ = try store.append(ndjson: CompactionTests.lines(1401...1500, deleting: [3, 8, 1450]))
            raw = try CompactionTests.raw(store)
        }

        /// A new handle on the store, whose cipher has opened nothing yet.
        func fresh() throws -> (HealthStore, StoreCipher) {
            let handle = try EncryptedSegmentTests.handle(store, keys: keys, current: 0)
            return (handle, try #require(try handle.layout.cipher(try StoreMeta.read(handle.layout))))
        }

        /// The segment names that have an index, and those indexes.
        func indexes() throws -> [(SegmentName, SegmentIndex)] {
            try SealedTableCopyTests.indexes(store)
        }
    }

    /// Every segment index of `store`, by segment.
    static func indexes(_ store: HealthStore) throws -> [(SegmentName, SegmentIndex)] {
        try DirectoryListing.names(in: store.layout.segments).filter { $0.hasSuffix(".idx") }.sorted().map { file in
            let name = try #require(SegmentName(fileName: String(file.dropLast(4)) + ".log.lz4"))
            return (name, try #require(SegmentIndex.read(store.layout, name), "\(file) reads"))
        }
    }

    /// Index `bytes` (its copy `old` bytes long) with the copy replaced by `copy`, and its
    /// body length and checksums made good.
    static func spliced(_ bytes: [UInt8], old: Int, copy: [UInt8]) -> [UInt8] {
        var out = Array(bytes.dropLast(old)) + copy
        let put = { (value: UInt32, at: Int) in withUnsafeBytes(of: value.littleEndian) { out.replaceSubrange(at..<at + 4, with: $0) } }
        put(UInt32(out.count - SegmentIndex.headerLength), 64)
        put(CRC32C.checksum(out[SegmentIndex.headerLength...]), 68)
        put(CRC32C.checksum(out[0..<72]), 72)
        return out
    }

    /// Whether every segment index of `store` holds a sealed copy that opens with `cipher`
    /// and gives, for every batch, the table its own sealed header gives.
    static func copiesAreCurrent(_ store: HealthStore, _ cipher: StoreCipher) throws -> Bool {
        let indexes = try indexes(store)
        guard !indexes.isEmpty else { return false }
        for (name, index) in indexes {
            guard let copy = index.openedCopy(cipher) else { return false }
            for (k, entry) in index.entries.enumerated() {
                let place = BatchPlace(cipher: cipher, segmentBase: name.baseSeq, generation: name.generation, offset: entry.offset)
                // The copy gives a dropped list's count only.
                var own = try BatchHeader.decode(payload: entry.payload, place: place)
                own.dropped = own.dropped.countOnly()
                guard let copied = copy.table(k, payload: entry.payload), try BatchHeader.decode(payload: entry.payload, place: place, copied: copied) == own
                else { return false }
            }
        }
        return true
    }

    @Test("A replay of an encrypted store opens one sealed copy per segment and a batch table only for each segment's last-batch check; without the copies it opens every table, and answers the same")
    func oneCopyPerSegment() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let indexes = try fixture.indexes()
        let batches = indexes.reduce(0) { $0 + $1.1.entries.count }
        #expect(indexes.count > 3 && batches > 4 * indexes.count, "many segments of many batches")
        #expect(indexes.allSatisfy { !$0.1.sealedCopy.isEmpty })

        let (handle, cipher) = try fixture.fresh()
        #expect(try CompactionTests.raw(handle) == fixture.raw)
        let tables = cipher.openedCount(.batchTable)
        let derived = cipher.openedCount(.derivedFile)
        #expect(tables <= indexes.count + 1, "\(tables) tables for \(indexes.count) segments")

        for (name, index) in indexes {
            try ByteSurgery.write(index.encoded(cipher: nil), to: SegmentIndex.path(fixture.store.layout, name))
        }
        #expect(try fixture.indexes().allSatisfy { $0.1.sealedCopy.isEmpty })
        let (bare, bareCipher) = try fixture.fresh()
        #expect(try CompactionTests.raw(bare) == fixture.raw)
        #expect(bareCipher.openedCount(.batchTable) >= batches, "every table opened")
        #expect(try derived - bareCipher.openedCount(.derivedFile) == Self.unitCounts(fixture.store).reduce(0, +), "each segment's directory and every type's unit")
    }

    @Test("A copy damaged (checksums made good or not), taken from another store, or from an older index of the same segment is ignored: the tables are opened and the answers are right")
    func badCopiesIgnored() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let other = try Fixture()
        defer { other.dir.remove() }
        let layout = fixture.store.layout
        let pristine = try fixture.indexes().map { ($0.0, try ByteSurgery.read(SegmentIndex.path(layout, $0.0)), $0.1) }
        let batches = pristine.reduce(0) { $0 + $1.2.entries.count }
        let foreign = try other.indexes().map(\.1.sealedCopy)
        let (last, lastBytes, lastIndex) = try #require(pristine.last)
        // The last segment's index before the last append: the same segment, generation
        // and store, a copy of fewer batches.
        let older = try Fixture.olderIndexCopy(fixture)

        let damages: [(String, ([UInt8], SegmentIndex, Int) -> [UInt8])] = [
            ("flipped", { bytes, _, _ in var b = bytes; b[b.count - 30] ^= 0x20; return b }),
            ("flipped, checksums good", { bytes, index, _ in
                var copy = index.sealedCopy
                copy[copy.count / 2] ^= 1
                return Self.spliced(bytes, old: index.sealedCopy.count, copy: copy)
            }),
            ("another store's", { bytes, index, k in Self.spliced(bytes, old: index.sealedCopy.count, copy: foreign[k % foreign.count]) }),
            ("cut short", { bytes, index, _ in Self.spliced(bytes, old: index.sealedCopy.count, copy: Array(index.sealedCopy.dropLast(17))) }),
        ]
        for (what, damage) in damages {
            for (k, (name, bytes, index)) in pristine.enumerated() {
                try ByteSurgery.write(damage(bytes, index, k), to: SegmentIndex.path(layout, name))
            }
            let (handle, cipher) = try fixture.fresh()
            #expect(try CompactionTests.raw(handle) == fixture.raw, "\(what)")
            #expect(cipher.openedCount(.batchTable) >= batches, "\(what): every table opened")
        }

        for (name, bytes, _) in pristine { try ByteSurgery.write(bytes, to: SegmentIndex.path(layout, name)) }
        try ByteSurgery.write(Self.spliced(lastBytes, old: lastIndex.sealedCopy.count, copy: older), to: SegmentIndex.path(layout, last))
        let (handle, cipher) = try fixture.fresh()
        #expect(try CompactionTests.raw(handle) == fixture.raw, "older copy")
        #expect(cipher.openedCount(.batchTable) >= lastIndex.entries.count, "the last segment's tables opened")
    }

    @Test("verify says which segment index holds a sealed copy of its tables with a unit that does not open, at that unit's byte offset (the directory's or a type's); current copies verify clean")
    func verifyChecksCopies() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let (handle, _) = try fixture.fresh()
        #expect(try handle.verify().problems.isEmpty)

        let (name, index) = try #require(try fixture.indexes().first)
        let path = SegmentIndex.path(fixture.store.layout, name)
        let bytes = try ByteSurgery.read(path)
        let start = bytes.count - index.sealedCopy.count
        let directory = Int(ByteReaderValue.u32(index.sealedCopy, 0))
        for (what, flip, unit) in [("directory", 12, start + 4), ("first type's unit", 4 + directory + 12, start + 4 + directory)] {
            var copy = index.sealedCopy
            copy[flip] ^= 1
            try ByteSurgery.write(Self.spliced(bytes, old: index.sealedCopy.count, copy: copy), to: path)
            let (damaged, _) = try fixture.fresh()
            let problems = try damaged.verify().problems
            #expect(problems.count == 1, "\(what)")
            #expect(problems.first?.contains("\(name.baseSeq)") == true && problems.first?.contains("at byte \(unit): the sealed copy of its batch tables does not open") == true, "\(what): \(problems)")
            #expect(try CompactionTests.raw(damaged) == fixture.raw, "\(what): a reader ignores the copy")
        }
    }

    @Test("A replay of one type opens of each segment's copy the directory and that type's unit only, one unit fewer than a replay of every type, and answers as the batch tables do; a damaged type unit is ignored")
    func oneTypeOpensItsUnit() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let layout = fixture.store.layout
        let indexes = try fixture.indexes()
        let pristine = try indexes.map { try ByteSurgery.read(SegmentIndex.path(layout, $0.0)) }
        let types = ["HKQuantityTypeIdentifierHeartRate", "HKQuantityTypeIdentifierStepCount"]
        #expect(try Self.unitCounts(fixture.store).allSatisfy { $0 == 1 + types.count }, "every segment holds both types")

        var answers: [[String]] = []
        var units: [Int] = []
        for type in types {
            let (handle, cipher) = try fixture.fresh()
            answers.append(try Self.replay(handle, type: type))
            units.append(cipher.openedCount(.derivedFile))
        }
        let (all, allCipher) = try fixture.fresh()
        #expect(try CompactionTests.raw(all) == fixture.raw)
        let everyType = allCipher.openedCount(.derivedFile)
        #expect(answers.allSatisfy { !$0.isEmpty } && answers.map(\.count).reduce(0, +) == fixture.raw.count)
        #expect(units.allSatisfy { everyType - $0 == indexes.count }, "one unit fewer per segment: \(units) of \(everyType)")

        for (name, index) in indexes {
            try ByteSurgery.write(index.encoded(cipher: nil), to: SegmentIndex.path(layout, name))
        }
        for (type, answer) in zip(types, answers) {
            let (bare, bareCipher) = try fixture.fresh()
            #expect(try Self.replay(bare, type: type) == answer, "\(type): the tables' answer")
            #expect(units.allSatisfy { $0 - bareCipher.openedCount(.derivedFile) == 2 * indexes.count }, "the directory and one unit per segment")
        }

        for ((name, index), bytes) in zip(indexes, pristine) {
            var copy = index.sealedCopy
            copy[copy.count - 3] ^= 1
            try ByteSurgery.write(Self.spliced(bytes, old: copy.count, copy: copy), to: SegmentIndex.path(layout, name))
        }
        for (type, answer) in zip(types, answers) {
            let (damaged, _) = try fixture.fresh()
            #expect(try Self.replay(damaged, type: type) == answer, "\(type), the last type's unit flipped")
        }
    }

    @Test("A replay of one type from near a segment's end opens that segment's tables while it needs fewer than a fourteenth of its batches, and its directory and type unit from a fourteenth on; the answers agree")
    func oneTypeCopyFromAFourteenth() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let (_, index) = try #require(try fixture.indexes().max { $0.1.entries.count < $1.1.entries.count })
        let batches = index.entries.count
        try #require(batches > 14, "a segment of more batches than the copy's threshold: \(batches)")
        let type = "HKQuantityTypeIdentifierHeartRate"
        let head = try fixture.store.headAnchor()
        /// What a fresh handle opens replaying `type` after all but the segment's last `needed`
        /// batches, and the lines it returns.
        func replay(needing needed: Int) throws -> (tables: Int, derived: Int, lines: [String]) {
            let last = try #require(index.entries[batches - 1 - needed].payload.withUnsafeBytes { BatchHeader.FixedFields($0) }).lastSeq
            let (handle, cipher) = try fixture.fresh()
            var lines: [String] = []
            _ = try handle.replay(ReplayRequest(anchor: QueryAnchor(seq: last, storeTag: head.storeTag, generation: head.generation), types: [type], raw: true)) {
                lines.append(String(decoding: $0, as: UTF8.self))
            }
            return (cipher.openedCount(.batchTable), cipher.openedCount(.derivedFile), lines)
        }
        let threshold = (batches + 13) / 14
        let none = try replay(needing: 0)
        let below = try replay(needing: threshold - 1)
        let at = try replay(needing: threshold)
        #expect(below.tables - none.tables == threshold - 1 && below.derived == none.derived, "below: \(below.tables), \(below.derived) against \(none.tables), \(none.derived)")
        #expect(at.tables == none.tables && at.derived - none.derived == 2, "at: \(at.tables), \(at.derived) against \(none.tables), \(none.derived)")
        let expected = fixture.raw.filter { $0.contains(type) }
        for (needed, answer) in [(0, none), (threshold - 1, below), (threshold, at)] {
            #expect(Array(expected.suffix(answer.lines.count)) == answer.lines, "needing \(needed)")
        }
        #expect(at.lines.count > below.lines.count && below.lines.count > none.lines.count)
    }

    @Test("An index whose copy is in the whole layout (one unit) still answers from it, a replay of every type and of one: the tables are not opened, and it verifies clean")
    func wholeLayoutStillRead() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let layout = fixture.store.layout
        let indexes = try fixture.indexes()
        let type = "HKQuantityTypeIdentifierStepCount"
        let (byType, cipher) = try fixture.fresh()
        let answer = try Self.replay(byType, type: type)
        for (name, _) in indexes {
            try ByteSurgery.write(try Self.wholeLayoutIndex(layout, name, cipher: cipher), to: SegmentIndex.path(layout, name))
        }
        #expect(try fixture.indexes().allSatisfy { !$0.1.sealedCopy.isEmpty && !SegmentIndex.isCopyByType($0.1.copyHeader) })

        let (handle, handleCipher) = try fixture.fresh()
        #expect(try CompactionTests.raw(handle) == fixture.raw)
        #expect(handleCipher.openedCount(.batchTable) <= indexes.count + 1, "the copies give the tables")
        let (typed, typedCipher) = try fixture.fresh()
        #expect(try Self.replay(typed, type: type) == answer)
        #expect(typedCipher.openedCount(.batchTable) <= indexes.count + 1, "the copies give the tables")
        #expect(try handle.verify().problems.isEmpty)
    }

    @Test("A compacted batch's header decoded from a sealed copy, read where the opened copy holds it, not copied out, keeps its dropped list as the count its own table gives")
    func droppedCountsReadInPlace() throws {
        let fixture = try Fixture()
        _ = try fixture.store.compact(horizon: .anchor(try fixture.store.headAnchor()))
        let (_, cipher) = try fixture.fresh()
        var dropped = 0
        for (name, index) in try fixture.indexes() {
            let copy = try #require(index.openedCopy(cipher))
            for (k, entry) in index.entries.enumerated() {
                let place = BatchPlace(cipher: cipher, segmentBase: name.baseSeq, generation: name.generation, offset: entry.offset)
                let copied = try #require(copy.table(k, payload: entry.payload))
                let header = try BatchHeader.decode(payload: entry.payload, place: place, copied: copied)
                #expect(header.dropped == (try BatchHeader.decode(payload: entry.payload, place: place)).dropped.countOnly())
                // A tail copied out would be an array of its own, indexed from 0.
                #expect(copied.tail.startIndex > 0)
                dropped += header.dropped.count
            }
        }
        #expect(dropped == 6)
    }

    @Test("A reader's batches, from the segment indexes and their sealed copies (all of them, or up to a count) or from a walk, keep no sealed payload and have the headers a walk of the segments gives")
    func readersKeepNoPayloads() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        _ = try fixture.store.compact(horizon: .anchor(try fixture.store.headAnchor()))
        let layout = fixture.store.layout
        let walked = try LogSnapshot(layout, usingIndexes: false).batches(after: 0)
        #expect(walked.allSatisfy { $0.header.isSealed && $0.sealedPayload == nil })
        let read = try LogSnapshot(layout).batches(after: 0)
        #expect(read.count == walked.count && read.count > 20)
        #expect(read.allSatisfy { $0.sealedPayload == nil })
        #expect(read.map(\.header) == walked.map(\.header))
        #expect(read.map(\.offset) == walked.map(\.offset) && read.map(\.groupOffsets) == walked.map(\.groupOffsets))
        #expect(read.reduce(0) { $0 + $1.header.dropped.count } == 6)
        let counted = try LogSnapshot(layout).batches(after: 0, upTo: 300) { $0.header.groups.reduce(0) { $0 + Int($1.count) } }
        #expect(counted.batches.count > 1 && counted.batches.allSatisfy { $0.sealedPayload == nil })
        #expect(counted.batches.map(\.header) == Array(walked.prefix(counted.batches.count)).map(\.header))
        let snapshot = try LogSnapshot(layout)
        for segment in snapshot.segments.indices {
            #expect(try snapshot.batches(inSegment: segment).allSatisfy { $0.sealedPayload == nil })
        }
    }

    @Test("A copy opened in the memory it was read into gives every batch the table a copy opened from the file gives; a unit that does not open is named at the same byte")
    func openedWhereRead() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        _ = try fixture.store.compact(horizon: .anchor(try fixture.store.headAnchor()))
        let (_, cipher) = try fixture.fresh()
        var tails = 0
        for (_, index) in try fixture.indexes() {
            let fromFile = try #require(index.openedCopy(cipher))
            var failedAt = 0
            let inPlace = try #require(OpenedTableCopy.open(owned: index.sealedCopy, header: index.copyHeader, cipher: cipher, batchCount: index.entries.count, failedAt: &failedAt))
            for (k, entry) in index.entries.enumerated() {
                let table = try #require(inPlace.table(k, payload: entry.payload))
                let expected = try #require(fromFile.table(k, payload: entry.payload))
                #expect(table.groups == expected.groups && table.tail == expected.tail)
                if !table.tail.isEmpty { tails += 1 }
            }
            // A byte of the directory's unit, then of the last type's unit, flipped.
            for at in [9, index.sealedCopy.count - 3] {
                var damaged = index.sealedCopy
                damaged[at] ^= 1
                var fromFileAt = -1
                var inPlaceAt = -1
                #expect(damaged.withUnsafeBytes { OpenedTableCopy.open($0, header: index.copyHeader, cipher: cipher, batchCount: index.entries.count, failedAt: &fromFileAt) } == nil)
                #expect(OpenedTableCopy.open(owned: damaged, header: index.copyHeader, cipher: cipher, batchCount: index.entries.count, failedAt: &inPlaceAt) == nil)
                #expect(inPlaceAt == fromFileAt && inPlaceAt > 0)
            }
        }
        #expect(tails > 0)
    }

    @Test("Appends, reindex, compact, rekey, recover and restore --encrypt each leave every segment index with a current sealed copy; a plaintext store's indexes hold none")
    func writersKeepCopiesCurrent() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let (store, cipher) = try fixture.fresh()
        #expect(try Self.copiesAreCurrent(store, cipher), "append")
        for (name, index) in try fixture.indexes() {
            try ByteSurgery.write(index.encoded(cipher: nil), to: SegmentIndex.path(store.layout, name))
        }
        #expect(try !Self.copiesAreCurrent(store, cipher))
        _ = try store.reindex()
        #expect(try Self.copiesAreCurrent(store, cipher), "reindex")
        _ = try store.compact(horizon: .anchor(try store.headAnchor()))
        #expect(try Self.indexes(store).contains { $0.0.generation == 1 }, "compact rewrote segments")
        #expect(try Self.copiesAreCurrent(store, cipher), "compact")
        _ = try store.append(ndjson: CompactionTests.lines(1501...1600, deleting: [1501]))
        #expect(try Self.copiesAreCurrent(store, cipher), "append after compact")

        let newKey = try SecretBytes.random(count: 32)
        let rotated = try EncryptedSegmentTests.handle(store, keys: fixture.keys.merging([1: newKey]) { $1 }, current: 1)
        _ = try rotated.append(ndjson: CompactionTests.lines(1601...1650))
        let rekeyed = try rotated.rekey()
        #expect(rekeyed.segmentsRewritten >= 1)
        let newCipher = try #require(try rotated.layout.cipher(try StoreMeta.read(rotated.layout)))
        #expect(try Self.copiesAreCurrent(rotated, newCipher), "rekey")

        _ = try rotated.recover(to: fixture.dir.file("recovered"))
        let recovered = HealthStore(directory: fixture.dir.file("recovered"), options: StoreOptions(), keys: StoreKeys(cipher: newCipher))
        #expect(try Self.copiesAreCurrent(recovered, newCipher), "recover")
        #expect(try CompactionTests.raw(recovered) == CompactionTests.raw(rotated))

        let plain = HealthStore(directory: fixture.dir.file("plain"), options: EncryptedSegmentTests.smallSegments)
        _ = try plain.append(ndjson: CompactionTests.lines(1...600))
        let plainIndexes = try Self.indexes(plain)
        #expect(!plainIndexes.isEmpty && plainIndexes.allSatisfy { $0.1.sealedCopy.isEmpty })
        #expect(try plainIndexes.allSatisfy { try ByteSurgery.read(SegmentIndex.path(plain.layout, $0.0)) == $0.1.encoded(cipher: nil) })
        _ = try plain.backup(to: fixture.dir.file("backup"))
        var options = StoreOptions()
        options.faults.weakKeyDerivation = true
        let secret = StoreSecret.passphrase(Array("copy secret".utf8))
        let restored = HealthStore(directory: fixture.dir.file("restored"), secret: secret, options: options)
        _ = try restored.restore(from: fixture.dir.file("backup"), encryptingWith: secret)
        let restoredCipher = try #require(try restored.layout.cipher(try StoreMeta.read(restored.layout)))
        #expect(try Self.copiesAreCurrent(restored, restoredCipher), "restore --encrypt")
        #expect(try CompactionTests.raw(restored) == CompactionTests.raw(plain))
    }
}

extension SealedTableCopyTests {
    /// Every line a replay of `type` delivers from the beginning.
    static func replay(_ store: HealthStore, type: String) throws -> [String] {
        var out: [String] = []
        _ = try store.replay(ReplayRequest(types: [type], raw: true)) { out.append(String(decoding: $0, as: UTF8.self)) }
        return out
    }

    /// The position of segment `name` among the store's segments.
    static func segment(_ layout: StoreLayout, _ name: SegmentName) throws -> Int {
        try #require(try LogSnapshot(layout).segments.firstIndex { $0.name == name })
    }

    /// Per segment index of `store`, how many units its by-type copy holds: the directory
    /// and one per type its batches name.
    static func unitCounts(_ store: HealthStore) throws -> [Int] {
        let snapshot = try LogSnapshot(store.layout)
        return try indexes(store).map { name, _ in
            let segment = try #require(snapshot.segments.firstIndex { $0.name == name })
            return 1 + Set(try snapshot.batches(inSegment: segment).flatMap { $0.header.groups.map(\.type) }).count
        }
    }

    /// The index of segment `name` with its copy in the whole layout, sealed under `cipher`:
    /// one unit (number 0) whose plaintext gives each batch's clear bytes, its groups'
    /// 51-byte records and its tail, after the type names.
    static func wholeLayoutIndex(_ layout: StoreLayout, _ name: SegmentName, cipher: StoreCipher) throws -> [UInt8] {
        let batches = try LogSnapshot(layout).batches(inSegment: try segment(layout, name))
        let index = try SegmentIndex(layout, name: name, batches: batches)
        let bare = index.encoded(cipher: nil)
        var numbers: [String: UInt16] = [:]
        var names: [String] = []
        for batch in batches {
            for group in batch.header.groups where numbers[group.type] == nil {
                numbers[group.type] = UInt16(names.count)
                names.append(group.type)
            }
        }
        var w = ByteWriter()
        w.append(UInt16(names.count))
        for name in names {
            w.append(UInt16(name.utf8.count))
            w.append(bytes: Array(name.utf8))
        }
        for (batch, entry) in zip(batches, index.entries) {
            let payload = Array(entry.payload)
            let tail = batch.header.encodedTableTail()
            w.append(bytes: payload[0..<BatchHeader.FixedFields.length])
            w.append(bytes: payload[(payload.count - 8)...])
            w.append(UInt32(tail.count))
            for group in batch.header.groups {
                w.append(numbers[group.type]!)
                w.append(group.kind)
                group.appendRanges(to: &w)
            }
            w.append(bytes: tail)
        }
        let copy = cipher.seal(w.bytes, .derivedFile, place: SegmentIndex.copyPlace(bare.prefix(SegmentIndex.copyPlaceLength)))
        return spliced(bare, old: 0, copy: copy)
    }
}

extension SealedTableCopyTests.Fixture {
    /// The sealed copy the last segment's index held before the store's last append, made
    /// again in a store of the same keys and appends up to then.
    static func olderIndexCopy(_ fixture: SealedTableCopyTests.Fixture) throws -> [UInt8] {
        let indexes = try fixture.indexes()
        let (last, index) = try #require(indexes.last)
        let cipher = StoreCipher(
            storeID: try StoreMeta.read(fixture.store.layout).storeID, keys: fixture.keys, ciphers: fixture.keys.mapValues { _ in .preferred }, current: 0)
        let snapshot = try LogSnapshot(fixture.store.layout)
        let segment = try #require(snapshot.segments.firstIndex { $0.name == last })
        let batches = try snapshot.batches(inSegment: segment)
        #expect(batches.count == index.entries.count && batches.count > 1)
        let older = try SegmentIndex(fixture.store.layout, name: last, batches: batches.dropLast())
        return try #require(SegmentIndex.decode(older.encoded(cipher: cipher), name: last)).sealedCopy
    }
}
