import Foundation
import HealthLog
import HealthLogTestSupport
import Testing
@testable import HealthLogMirror

/// `healthlog-mirror --follow`, and the guard against two processes syncing one mirror.
@Suite("Mirror follow")
struct MirrorFollowTests {
    @Test(
        "--follow mirrors each later append as it comes, and SIGINT or SIGTERM ends it with exit 0 after the transaction in hand",
        arguments: [SIGINT, SIGTERM])
    func followsAppends(signal: Int32) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("s.store"))
        var changes = StoreChanges(seed: 21)
        try changes.apply(to: store, adds: 25, deletes: 5)
        let mirror = try FollowingMirror(["--store", store.directory, "--db", dir.file("m.db"), "--batch", "10"])
        #expect(mirror.waitForLine(containing: "following") != nil)
        #expect(try MirrorContents(path: dir.file("m.db")) == (try MirrorContents(expectedFrom: store)))

        for _ in 1...3 {
            try changes.apply(to: store, adds: 5, deletes: 3)
            #expect(mirror.waitForLine(containing: "anchor \(try store.headAnchor().token)") != nil, "\(mirror.lines)")
            #expect(try MirrorContents(path: dir.file("m.db")) == (try MirrorContents(expectedFrom: store)))
            let walMode = try FileManager.default.attributesOfItem(atPath: dir.file("m.db-wal"))[.posixPermissions] as? Int
            #expect(walMode == 0o600)
        }
        let end = mirror.stop(with: signal)
        #expect(end.status == 0 && !end.wasSignalled, "\(mirror.lines)")
        #expect(mirror.lines.last?.contains("stopped at anchor \(try store.headAnchor().token)") == true, "\(mirror.lines)")
    }

    @Test("A batch queried after an anchor the mirror has moved past is refused, with nothing applied")
    func staleBatchRefused() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("s.store"))
        var changes = StoreChanges(seed: 31)
        try changes.apply(to: store, adds: 10, deletes: 0)
        let mirror = try MirrorDatabase(path: dir.file("m.db"), types: [], crashHook: try CrashHook(environment: nil))
        let first = try await AnchoredObjectQueryDescriptor(limit: 4).result(for: store)
        try mirror.apply(first, after: .beginning)
        let before = try MirrorContents(path: dir.file("m.db"))
        // Another process, say, queried from the beginning too and now applies its page.
        let stale = try await AnchoredObjectQueryDescriptor(limit: 8).result(for: store)
        #expect(throws: HealthLogError.self) { try mirror.apply(stale, after: .beginning) }
        #expect(try MirrorContents(path: dir.file("m.db")) == before)
        #expect(before.anchor == first.newAnchor.token && before.events.count == first.addedSamples.count)
    }
}
