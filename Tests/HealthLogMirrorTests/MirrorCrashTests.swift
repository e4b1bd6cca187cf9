import Foundation
import HealthLog
import HealthLogTestSupport
import Testing

/// `healthlog-mirror` killed with `SIGKILL` in the middle of a sync, at the test hook
/// `HEALTHLOG_MIRROR_TEST_CRASH=before-commit:K|after-commit:K`, then run again.
///
/// After the kill the mirror must hold exactly the pages it committed — its anchor never
/// names a position past data it lacks — and the next run must finish the sync with the
/// mirror equal to the store and nothing applied twice.
@Suite("Mirror crashes")
struct MirrorCrashTests {
    @Test(
        "A mirror killed mid-sync keeps its anchor and data together, and the next run completes it",
        arguments: ["before-commit:1", "after-commit:1", "before-commit:4", "after-commit:4", "before-commit:9"])
    func killedMidSync(crash: String) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("s.store"))
        var changes = StoreChanges(seed: 11)
        for _ in 1...3 { try changes.apply(to: store, adds: 30, deletes: 10) }
        let arguments = ["--store", store.directory, "--db", dir.file("m.db"), "--batch", "10"]

        let killed = try MirrorBinary.run(arguments, environment: ["HEALTHLOG_MIRROR_TEST_CRASH": crash], outputIn: dir)
        #expect(killed.wasSignalled && killed.status == SIGKILL, "\(killed.stderr)")

        // The anchor is that of the last page committed, and the data is exactly that
        // page's: the samples live at the anchor that are still live now.
        let number = try #require(Int(crash.split(separator: ":")[1]))
        let committed = crash.hasPrefix("after") ? number : number - 1
        let anchors = try await pageAnchors(of: store, batch: 10)
        let after = try MirrorContents(path: dir.file("m.db"))
        #expect(after.anchor == anchors[committed].token)
        let live = Set(try MirrorContents(expectedFrom: store).events.keys)
        let atAnchor = try StoreHistory(store).liveUUIDs(through: anchors[committed].seq).intersection(live)
        #expect(Set(after.events.keys) == atAnchor)

        let resumed = try MirrorBinary.run(arguments, outputIn: dir)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.components(separatedBy: "applied ").count - 1 == anchors.count - 1 - committed)
        #expect(try MirrorContents(path: dir.file("m.db")) == (try MirrorContents(expectedFrom: store)))
    }

    /// The anchor before the first page and after each page of `batch`, paging from the
    /// beginning as the mirror does.
    private func pageAnchors(of store: HealthStore, batch: Int) async throws -> [QueryAnchor] {
        var anchors = [QueryAnchor.beginning]
        while true {
            let page = try await AnchoredObjectQueryDescriptor(anchor: anchors.last, limit: batch).result(for: store)
            let count = page.addedSamples.count + page.deletedObjects.count
            if count > 0 { anchors.append(page.newAnchor) }
            if count < batch { return anchors }
        }
    }
}
