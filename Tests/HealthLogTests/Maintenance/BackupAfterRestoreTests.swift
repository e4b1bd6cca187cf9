import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// A backup into a directory holding an earlier backup of the store, taken after a
/// point-in-time restore replaced the history that earlier backup copied.
@Suite("Backup after a point-in-time restore")
struct BackupAfterRestoreTests {
    @Test("A backup whose growing segment an earlier backup held sealed (with its index) drops that index and verifies")
    func staleIndexOfGrowingSegment() throws {
        let fixture = try PointInTimeFixture()
        defer { fixture.dir.remove() }
        let first = try LogSnapshot(StoreLayout(directory: fixture.backup)).segments[0].name
        #expect(FileManager.default.fileExists(atPath: SegmentIndex.path(StoreLayout(directory: fixture.backup), first)), "the backup holds the first segment sealed")
        let store = fixture.store
        _ = try store.restore(from: fixture.backup, force: true, to: .anchor(QueryAnchor(seq: 20, storeTag: try store.headAnchor().storeTag)))
        _ = try store.append(ndjson: RestoreFixture.lines(3, from: 500))
        _ = try store.backup(to: fixture.backup)
        #expect(try HealthStore(directory: fixture.backup).verify().isSound)
        _ = try store.restore(from: fixture.backup, force: true)
        #expect(try RestoreFixture.seqs(store).count == 23)
    }

    @Test("A backup of a store a restore left empty removes the checkpoint an earlier backup left there")
    func emptyLogLeavesNoCheckpoint() throws {
        let fixture = try PointInTimeFixture()
        defer { fixture.dir.remove() }
        let store = fixture.store
        _ = try store.restore(from: fixture.backup, force: true, to: .anchor(QueryAnchor(fromValue: 0)))
        #expect(try store.headAnchor().seq == 0)
        _ = try store.backup(to: fixture.backup)
        #expect(!FileManager.default.fileExists(atPath: fixture.backup + "/checkpoint"))
        #expect(try HealthStore(directory: fixture.backup).verify().isSound)
        _ = try store.restore(from: fixture.backup, force: true)
        #expect(try RestoreFixture.seqs(store).isEmpty)
        #expect(try store.verify().isSound)
    }
}
