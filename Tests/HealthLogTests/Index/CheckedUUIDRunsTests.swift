import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The UUID index runs a handle keeps once checked (``CheckedUUIDRuns``, what an import
/// sets for its appends): a later writer or reader of the same handle takes them as they
/// are while their files are unchanged, and opens and checks any file that changed.
@Suite("UUID index runs checked once per handle")
struct CheckedUUIDRunsTests {
    /// The fixture's store in a fresh directory, and its layout.
    private static func store(_ dir: TemporaryDirectory) throws -> (HealthStore, StoreLayout) {
        let store = try IndexFixture.restore(try IndexFixture.shared.get().pristine, into: dir.file("store"))
        return (store, StoreLayout(directory: store.directory))
    }

    @Test("A second writer takes the runs the first one checked, the same objects, and answers as a writer that opens them")
    func writersShareCheckedRuns() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (_, layout) = try Self.store(dir)
        let checked = CheckedUUIDRuns()
        let first = try UUIDRunSet(layout, snapshot: try LogSnapshot(layout), cipher: nil, checked: checked)
        #expect(first.runs.count == 2 && checked.count == 2 && checked.taken == 0)
        let second = try UUIDRunSet(layout, snapshot: try LogSnapshot(layout), cipher: nil, checked: checked)
        #expect(zip(first.runs, second.runs).allSatisfy { $0 === $1 })
        #expect(checked.taken == 2)
        let reader = try #require(UUIDRunReader(layout, snapshot: try LogSnapshot(layout), checked: checked))
        #expect(checked.taken == 4)
        let fresh = try UUIDRunSet(layout, snapshot: try LogSnapshot(layout), cipher: nil)
        for n in [1, 3, 125, 150, 211, 1010, 9999] {
            let uuid = try #require(SampleUUID(IndexFixture.uuid(n)))
            #expect(try second.lookup(uuid) == fresh.lookup(uuid), "sample \(n)")
            #expect(try reader.isDeleted(uuid) == fresh.lookup(uuid).map { $0.deleteSeq != 0 }, "sample \(n)")
        }
    }

    @Test("A run file replaced since it was checked is opened and checked again: a damaged one is not taken, and the writer rebuilds it")
    func replacedRunIsCheckedAgain() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (_, layout) = try Self.store(dir)
        let checked = CheckedUUIDRuns()
        let first = try UUIDRunSet(layout, snapshot: try LogSnapshot(layout), cipher: nil, checked: checked)
        let path = first.runs[0].path
        // The same bytes in a new file: taken as a new run, not the kept one.
        let bytes = try ByteSurgery.read(path)
        try ByteSurgery.write(bytes, to: path + ".new")
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: path + ".new", toPath: path)
        let second = try UUIDRunSet(layout, snapshot: try LogSnapshot(layout), cipher: nil, checked: checked)
        #expect(second.runs[0] !== first.runs[0] && second.runs[1] === first.runs[1])
        #expect(checked.taken == 1)
        // A damaged file in its place: it does not open, and the writer rebuilds what it covered.
        var damaged = bytes
        damaged[damaged.count - 9] ^= 0xFF
        try ByteSurgery.write(damaged, to: path + ".new")
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: path + ".new", toPath: path)
        let third = try UUIDRunSet(layout, snapshot: try LogSnapshot(layout), cipher: nil, checked: checked)
        #expect(third.runs.allSatisfy { $0 !== second.runs[0] })
        #expect(third.coveredSeq == 220)
        #expect((try? ByteSurgery.read(path)) != damaged, "the damaged file is gone")
        #expect(try third.lookup(try #require(SampleUUID(IndexFixture.uuid(3)))) == UUIDRunSet.Found(addSeq: 3, deleteSeq: 201))
        #expect(try Verifier(layout: layout).run().isSound)
    }

    @Test("A handle's appends keep the chain they leave, merged and new runs included, and take it at the next append")
    func appendsOfOneHandle() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (plain, layout) = try Self.store(dir)
        var options = plain.options
        let checked = CheckedUUIDRuns()
        options.checkedRuns = checked
        let store = plain.with(options: options)
        let used = try #require(try store.usedUUIDs())
        #expect(used.state(of: try #require(SampleUUID(IndexFixture.uuid(5)))) == .live)
        #expect(checked.count == 2 && checked.taken == 0)
        _ = try store.append(ndjson: IndexFixture.ndjson(IndexFixture.laterWrite))
        #expect(checked.taken >= 2, "the append took the runs the lookup opened")
        let names = try FileManager.default.contentsOfDirectory(atPath: layout.directory + "/uuids").filter { $0.hasSuffix(".run") }
        #expect(checked.count == names.count)
        let before = checked.taken
        _ = try store.append(ndjson: IndexFixture.ndjson((400...402).map(IndexFixture.sample)))
        #expect(checked.taken - before == names.count, "every run the first append left was taken")
        #expect(try Verifier(layout: layout).run().isSound)
        #expect(used.state(of: try #require(SampleUUID(IndexFixture.uuid(401)))) == .unused, "as of when the lookup was opened")
        #expect(try #require(try store.usedUUIDs()).state(of: try #require(SampleUUID(IndexFixture.uuid(401)))) == .live)
    }
}
