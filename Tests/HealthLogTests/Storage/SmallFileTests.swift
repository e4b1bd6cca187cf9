import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The small-file envelope (``SmallFile``) of every kind of file that uses it: each kind's
/// reader takes what its writer wrote and encodes it again to the same bytes, each kind has
/// a tag of its own, and a flipped byte, another kind's tag (checksum made good) or a file
/// cut short or grown is refused.
@Suite("Small files")
struct SmallFileTests {
    /// One kind of file, as the tests handle it.
    struct Kind: CustomTestStringConvertible, Sendable {
        /// What the tests call it.
        let name: String
        /// Its envelope.
        let file: SmallFile
        /// Makes a store directory at `directory` holding a sound file of the kind; returns
        /// the file's path.
        let make: @Sendable (_ directory: String) throws -> String
        /// Whether the kind's reader takes the file at `path` in the store `directory`
        /// whole, and the value it reads encodes to the bytes there.
        let reads: @Sendable (_ directory: String, _ path: String) -> Bool

        var testDescription: String { name }
    }

    /// A timelines record with two starts.
    static let timelines = Timelines(starts: [
        .init(id: StoreID(bytes: Array(1...16)), firstSeq: 10, keptSeq: 5, createdMillis: 1_700_000_000_000),
        .init(id: StoreID(bytes: Array(17...32)), firstSeq: 40, keptSeq: 30, createdMillis: 1_700_000_100_000),
    ])

    /// A compactions record: one that moved the checkpoint, one that did not.
    static let compactions = Compactions(entries: [
        .init(horizonSeq: 12, createdMillis: 1_700_000_000_000, droppedEvents: 4, checkpointBefore: Checkpoint(seq: 20, segmentBase: 1, endOffset: 900), checkpointNewOffset: 700),
        .init(horizonSeq: 30, createdMillis: 1_700_000_200_000, droppedEvents: 2),
    ])

    /// Entries of a scratch run over two blocks.
    static let scratchEntries: [UUIDRun.Entry] = (1...3_000).map { (n: UInt64) in
        let deleteSeq: UInt64 = n % 7 == 0 ? n + 3_000 : 0
        return UUIDRun.Entry(uuid: SampleUUID(high: n << 20, low: n), addSeq: n, deleteSeq: deleteSeq)
    }

    /// The store directory `directory` holding the index fixture's store.
    static func fixtureStore(_ directory: String) throws -> StoreLayout {
        _ = try IndexFixture.restore(try IndexFixture.shared.get().pristine, into: directory)
        return StoreLayout(directory: directory)
    }

    /// Whether the file at `path` holds exactly `bytes`.
    static func holds(_ path: String, _ bytes: [UInt8]) -> Bool {
        (try? ByteSurgery.read(path)) == bytes
    }

    static let kinds: [Kind] = [
        Kind(name: "checkpoint", file: Checkpoint.file, make: { directory in
            let layout = try fixtureStore(directory)
            return layout.checkpoint
        }, reads: { directory, path in
            guard let checkpoint = (try? Checkpoint.read(StoreLayout(directory: directory))) ?? nil else { return false }
            return holds(path, checkpoint.encoded())
        }),
        Kind(name: "timelines", file: Timelines.file, make: { directory in
            let layout = try fixtureStore(directory)
            try timelines.write(layout)
            return layout.timelines
        }, reads: { directory, path in
            (try? Timelines.read(StoreLayout(directory: directory))) == timelines && holds(path, timelines.encoded())
        }),
        Kind(name: "compactions", file: Compactions.file, make: { directory in
            let layout = try fixtureStore(directory)
            try compactions.write(layout)
            return layout.compactions
        }, reads: { directory, path in
            (try? Compactions.read(StoreLayout(directory: directory))) == compactions && holds(path, compactions.encoded())
        }),
        Kind(name: "segment index", file: SegmentIndex.file, make: { directory in
            let layout = try fixtureStore(directory)
            return SegmentIndex.path(layout, SegmentName(baseSeq: 1, generation: 0))
        }, reads: { directory, path in
            guard let index = SegmentIndex.read(StoreLayout(directory: directory), SegmentName(baseSeq: 1, generation: 0)) else { return false }
            return !index.entries.isEmpty && holds(path, index.encoded(cipher: nil))
        }),
        Kind(name: "deleted-add index", file: DeletedAddIndex.file, make: { directory in
            let layout = try fixtureStore(directory)
            return DeletedAddIndex.path(layout)
        }, reads: { directory, path in
            guard let index = DeletedAddIndex.open(StoreLayout(directory: directory), cipher: nil), let entries = try? index.allEntries() else { return false }
            return !entries.isEmpty && holds(path, DeletedAddIndex.encoded(entries, coveredSeq: index.coveredSeq, binding: index.binding, cipher: nil))
        }),
        Kind(name: "sync table", file: SyncTable.file, make: { directory in
            let layout = try fixtureStore(directory)
            return SyncTable.path(layout)
        }, reads: { directory, path in
            guard let table = SyncTable.read(StoreLayout(directory: directory), cipher: nil) else { return false }
            return !table.entries.isEmpty && holds(path, table.encoded(binding: table.binding, cipher: nil))
        }),
        Kind(name: "UUID-index run", file: UUIDFingerprintRun.file, make: { directory in
            _ = try fixtureStore(directory)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory + "/uuids").filter { $0.hasSuffix(".run") }.sorted()
            guard let first = names.first else { throw CocoaError(.fileNoSuchFile) }
            return directory + "/uuids/" + first
        }, reads: { _, path in
            guard let run = UUIDFingerprintRun(path: path, cipher: nil), run.count > 0 else { return false }
            var encoder = UUIDFingerprintRun.Encoder(count: run.count, from: run.fromSeq, to: run.toSeq)
            run.forEachKey { encoder.append($0) }
            return holds(path, encoder.takeFileBytes(binding: run.binding, cipher: nil))
        }),
        Kind(name: "scratch run", file: UUIDRun.file, make: { directory in
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            return try UUIDRun.write(scratchEntries, from: 1, to: 6_000, directory: directory)
        }, reads: { _, path in
            guard let run = UUIDRun(path: path) else { return false }
            return (try? run.allEntries()) == scratchEntries
        }),
    ]

    @Test("Each kind's reader takes what its writer wrote, and it encodes to the same bytes", arguments: kinds)
    func roundTrip(_ kind: Kind) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try kind.make(dir.file("store"))
        let bytes = try ByteSurgery.read(path)
        #expect(Array(bytes[0..<4]) == kind.file.tag)
        #expect(kind.file.open(bytes, fileLength: bytes.count) != nil)
        #expect(kind.reads(dir.file("store"), path))
    }

    @Test("Every kind has a tag of its own")
    func tags() {
        let tags = Self.kinds.map { String(decoding: $0.file.tag, as: UTF8.self) }
        #expect(Set(tags).count == tags.count, "\(tags)")
    }

    @Test("A flipped byte anywhere in the file is refused", arguments: kinds)
    func flippedByte(_ kind: Kind) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let path = try kind.make(store)
        let pristine = try ByteSurgery.read(path)
        let header = kind.file.headerLength ?? pristine.count
        let offsets = Array(0..<header) + Array(stride(from: header, to: pristine.count, by: max(1, (pristine.count - header) / 61)))
        for offset in offsets {
            try ByteSurgery.write(pristine, to: path)
            try ByteSurgery.flip(path, at: offset, mask: 0x10)
            #expect(!kind.reads(store, path), "flipped byte \(offset) of \(pristine.count)")
        }
        try ByteSurgery.write(pristine, to: path)
        #expect(kind.reads(store, path))
    }

    @Test("Another kind's tag, with the header checksum made good, is refused", arguments: kinds)
    func wrongTag(_ kind: Kind) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let path = try kind.make(store)
        let pristine = try ByteSurgery.read(path)
        let header = kind.file.headerLength ?? pristine.count
        for other in Self.kinds where other.file.tag != kind.file.tag {
            try ByteSurgery.write(pristine, to: path)
            try ByteSurgery.patch(path, at: 0, with: other.file.tag)
            try ByteSurgery.rechecksum(path, range: 0..<header - 4, storedAt: header - 4)
            #expect(!kind.reads(store, path), "tag of \(other.name)")
        }
    }

    @Test("A file cut short or grown by a byte is refused", arguments: kinds)
    func truncated(_ kind: Kind) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let path = try kind.make(store)
        let pristine = try ByteSurgery.read(path)
        let header = kind.file.headerLength ?? pristine.count
        for length in Set([0, 4, 11, header - 1, header, pristine.count - 8, pristine.count - 1]) where length < pristine.count {
            try ByteSurgery.write(Array(pristine[0..<length]), to: path)
            #expect(!kind.reads(store, path), "cut to \(length) of \(pristine.count)")
        }
        try ByteSurgery.write(pristine + [0], to: path)
        #expect(!kind.reads(store, path), "one byte longer")
    }

    /// `values` little-endian, one after another.
    static func littleEndian(_ values: [any FixedWidthInteger]) -> [UInt8] {
        values.flatMap { value -> [UInt8] in
            (0..<value.bitWidth / 8).map { UInt8(truncatingIfNeeded: Int64(truncatingIfNeeded: value) >> ($0 * 8)) }
        }
    }

    /// `bytes` followed by their CRC-32C.
    static func sealed(_ bytes: [UInt8]) -> [UInt8] {
        bytes + littleEndian([CRC32C.checksum(bytes[...])])
    }

    @Test("The records keep the bytes of the layouts the Format article gives them")
    func recordBytes() throws {
        let checkpoint = Self.sealed(Array("HLCP".utf8) + Self.littleEndian([UInt16(1), UInt16(0), UInt64(2), UInt64(1), UInt64(732)]))
        #expect(Checkpoint(seq: 2, segmentBase: 1, endOffset: 732).encoded() == checkpoint)
        var timelines = Array("HLTL".utf8) + Self.littleEndian([UInt16(1), UInt16(0), UInt32(2)])
        for start in Self.timelines.starts {
            timelines += start.id.bytes + Self.littleEndian([start.firstSeq, start.keptSeq, start.createdMillis])
        }
        #expect(Self.timelines.encoded() == Self.sealed(timelines))
        #expect(Timelines.decode(Self.sealed(timelines)) == Self.timelines)
        var compactions = Array("HLCO".utf8) + Self.littleEndian([UInt16(1), UInt16(0), UInt32(2)])
        compactions += Self.littleEndian([UInt64(12), Int64(1_700_000_000_000), UInt64(4), UInt64(20), UInt64(1), UInt64(900), UInt64(700)])
        compactions += Self.littleEndian([UInt64(30), Int64(1_700_000_200_000), UInt64(2), UInt64(0), UInt64(0), UInt64(0), UInt64(0)])
        #expect(Self.compactions.encoded() == Self.sealed(compactions))
        #expect(Compactions.decode(Self.sealed(compactions)) == Self.compactions)
    }
}
