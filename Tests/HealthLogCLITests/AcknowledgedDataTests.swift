#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import HealthLog
import HealthLogTestSupport
import Testing

/// Acknowledged data under damage, tried from the outside on the real binary: the broken state is made
/// with file surgery, a planted directory or a full tmpfs, never with a test hook that
/// says all is well. The invariant checked each time: every sequence number acknowledged
/// by an exit-0 append comes back with its original event, or the command exits 1 naming
/// the damage; no sequence number ever names two different events.
@Suite("Acknowledged data")
struct AcknowledgedDataTests {
    /// What is left of a new store's first segment after the writer that created it died.
    enum FirstSegment: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// The file exists, but none of its bytes reached the disk.
        case empty
        /// Its header is cut short.
        case headerCut
        /// Its size reached the disk, its bytes did not: the header reads as zeros.
        case headerZeroed
        var testDescription: String { rawValue }
    }

    @Test(
        "Item 1: an empty or broken first segment left by a killed writer is removed by the next append, whose events then read back",
        arguments: FirstSegment.allCases)
    func brokenFirstSegment(_ state: FirstSegment) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let killed = try HealthLogBinary.run(
            ["--store", store, "append"], stdin: Events.lines(1...3), injecting: "kill:segment-created")
        try #require(killed.wasSignalled)
        let segment = try #require(try Self.segmentPaths(store).first)
        switch state {
        case .empty: try ByteSurgery.truncate(segment, to: 0)
        case .headerCut: try ByteSurgery.truncate(segment, to: 30)
        case .headerZeroed: try ByteSurgery.write([UInt8](repeating: 0, count: SegmentLayout.prologueLength), to: segment)
        }

        let empty = try HealthLogBinary.run(["--store", store, "replay"])
        #expect(empty.status == 0 && empty.stdout.isEmpty, "\(empty.stderr)")
        let appended = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(1...4))
        #expect(appended.status == 0, "\(appended.stderr)")
        #expect(appended.stderr.hasPrefix("healthlog: note: cut a torn tail of "), "\(appended.stderr)")
        let replayed = try HealthLogBinary.run(["--store", store, "replay"])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(Events.seqs(replayed.stdout) == [1, 2, 3, 4])
        #expect(replayed.stdout.contains(Events.uuid(4)))
        let verify = try HealthLogBinary.run(["--store", store, "verify"])
        #expect(verify.status == 0 && verify.stdout.hasSuffix("ok: 4 events in 1 batch, 1 segment\n"), "\(verify.stdout)")
    }

    /// Ways acknowledged events go missing under a checkpoint that vouches for them.
    enum Loss: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case lastSegmentCutInsideBatch, lastSegmentDeleted, lastSegmentEmptied, sealedSegmentCut, sealedSegmentDeleted
        case checkpointForgedAhead, checkpointForgedOffBatch
        var testDescription: String { rawValue }
    }

    @Test(
        "Item 2: acknowledged events missing from the log are damage: every reader exits 1 naming it, every writer refuses, nothing changes",
        arguments: Loss.allCases)
    func missingAcknowledgedData(_ loss: Loss) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        for range in [1...40, 41...80, 81...120] {
            let result = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(range), environment: CrashTests.sizes)
            try #require(result.status == 0, "\(result.stderr)")
        }
        let segments = try Self.segmentPaths(store)
        try #require(segments.count >= 4)
        let last = segments[segments.count - 1]
        let sealed = segments[segments.count / 2]
        let checkpoint = store + "/checkpoint"
        let acknowledged = try #require(try Checkpoint.read(StoreLayout(directory: store)))
        #expect(acknowledged.seq == 120)
        switch loss {
        case .lastSegmentCutInsideBatch: try ByteSurgery.truncate(last, to: try ByteSurgery.size(last) - 10)
        case .lastSegmentDeleted: try ByteSurgery.remove(last)
        case .lastSegmentEmptied: try ByteSurgery.truncate(last, to: 0)
        case .sealedSegmentCut: try ByteSurgery.truncate(sealed, to: try ByteSurgery.size(sealed) / 2)
        case .sealedSegmentDeleted: try ByteSurgery.remove(sealed)
        case .checkpointForgedAhead:
            var forged = acknowledged
            forged.seq += 1000
            try ByteSurgery.write(forged.encoded(), to: checkpoint)
        case .checkpointForgedOffBatch:
            var forged = acknowledged
            forged.seq -= 1
            try ByteSurgery.write(forged.encoded(), to: checkpoint)
        }
        let damaged = try ByteSurgery.image(of: store)

        let backup = dir.file("backup")
        let commands: [[String]] = [
            ["replay"], ["replay", "--type", "HeartRate"], ["anchor"], ["stats"], ["export"], ["verify"], ["backup", backup],
            ["append"], ["add", "--type", "HeartRate", "--value", "70", "--unit", "count/min"], ["delete", Events.uuid(5)], ["reindex"],
        ]
        for command in commands {
            let result = try HealthLogBinary.run(["--store", store] + command, stdin: Events.lines(500...501))
            #expect(result.status == 1, "\(command): exit \(result.status)\n\(result.stdout)\(result.stderr)")
            let output = result.stdout + result.stderr
            #expect(output.contains("segments/") && (output.contains(" at byte ") || output.contains("(missing)")), "\(command): \(output)")
        }
        #expect(try ByteSurgery.image(of: store) == damaged, "a command changed the damaged store")
        #expect(!FileManager.default.fileExists(atPath: backup + "/checkpoint"), "backup vouched for a short log")
    }

    @Test("Item 2: the message says what was acknowledged and where the log ends")
    func missingAcknowledgedDataMessage() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        for range in [1...40, 41...80] {
            try #require(try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(range), environment: CrashTests.sizes).status == 0)
        }
        let last = try #require(try Self.segmentPaths(store).last)
        let name = (last as NSString).lastPathComponent
        try ByteSurgery.remove(last)
        let result = try HealthLogBinary.run(["--store", store, "replay"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("healthlog: error: segments/\(name) (missing): acknowledged up to sequence 80, log ends at "), "\(result.stderr)")
        #expect(result.stderr.contains(": acknowledged events are missing"), "\(result.stderr)")
    }

    @Test("Item 3: a directory in the way of checkpoint.tmp fails the append with exit 1; the store is as before, and the next append continues")
    func checkpointWriteBlocked() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try #require(try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(1...10)).status == 0)
        let before = try HealthLogBinary.run(["--store", store, "replay"]).stdout
        try FileManager.default.createDirectory(atPath: store + "/checkpoint.tmp", withIntermediateDirectories: false)

        let failed = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(11...20))
        #expect(failed.status == 1, "\(failed.stderr)")
        #expect(failed.stdout.isEmpty, "no anchor for a failed append")
        #expect(failed.stderr.contains("checkpoint.tmp"), "\(failed.stderr)")
        #expect(try HealthLogBinary.run(["--store", store, "replay"]).stdout == before)

        try FileManager.default.removeItem(atPath: store + "/checkpoint.tmp")
        let next = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(21...22))
        #expect(next.status == 0, "\(next.stderr)")
        let after = try HealthLogBinary.run(["--store", store, "replay"])
        #expect(Events.seqs(after.stdout) == Array(1...12))
        #expect(after.stdout.hasPrefix(before) && after.stdout.contains(Events.uuid(22)) && !after.stdout.contains(Events.uuid(11)))
        #expect(try HealthLogBinary.run(["--store", store, "verify"]).status == 0)
    }

    @Test(
        "Item 3: on a tmpfs with no inode left the checkpoint cannot be written: exit 1, the store as before, and a later flip in it is never cut",
        .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func checkpointWriteOnFullDisk() throws {
        let mount = try SmallTmpfs(inodes: 64)
        defer { mount.remove() }
        let store = mount.path + "/store"
        try #require(try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(1...10)).status == 0)
        let before = try HealthLogBinary.run(["--store", store, "replay"]).stdout
        try mount.useUpInodes()

        let failed = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(11...20))
        #expect(failed.status == 1, "\(failed.stderr)")
        #expect(failed.stderr.contains("No space left on device"), "\(failed.stderr)")
        #expect(try HealthLogBinary.run(["--store", store, "replay"]).stdout == before)

        try mount.freeInodes()
        let next = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(21...22))
        #expect(next.status == 0, "\(next.stderr)")
        #expect(Events.seqs(try HealthLogBinary.run(["--store", store, "replay"]).stdout) == Array(1...12))
        // The acknowledged append is vouched for: a flip inside it is damage, never a cut.
        let segment = try #require(try Self.segmentPaths(store).last)
        try ByteSurgery.flip(segment, at: try ByteSurgery.size(segment) - 20)
        let reread = try HealthLogBinary.run(["--store", store, "replay"])
        #expect(reread.status == 1 && reread.stderr.contains("frame checksum mismatch"), "\(reread.stderr)")
        let writer = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(30...30))
        #expect(!writer.stderr.contains("cut a torn tail"), "\(writer.stderr)")
        #expect(try HealthLogBinary.run(["--store", store, "verify"]).status == 1)
        #expect(try HealthLogBinary.run(["--store", store, "replay"]).status == 1)
    }

    @Test("A --no-sync append leaves the checkpoint alone, so a power cut that loses its bytes is a torn tail; the next synced append vouches for it")
    func noSyncAppendsAndTheCheckpoint() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let layout = StoreLayout(directory: store)
        try #require(try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(1...10)).status == 0)
        let synced = try #require(try Checkpoint.read(layout))
        try #require(try HealthLogBinary.run(["--store", store, "append", "--no-sync"], stdin: Events.lines(11...20)).status == 0)
        #expect(try Checkpoint.read(layout) == synced, "a --no-sync append moved the checkpoint")
        let image = try ByteSurgery.image(of: store)

        // The power cut: the unsynced append's last page never reached the disk.
        let segment = try #require(try Self.segmentPaths(store).last)
        try ByteSurgery.truncate(segment, to: try ByteSurgery.size(segment) - 100)
        let lost = try HealthLogBinary.run(["--store", store, "replay"])
        #expect(lost.status == 0 && Events.seqs(lost.stdout) == Array(1...10), "\(lost.stderr)")
        let cut = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(30...30))
        #expect(cut.status == 0 && cut.stderr.hasPrefix("healthlog: note: cut a torn tail of "), "\(cut.stderr)")
        #expect(Events.seqs(try HealthLogBinary.run(["--store", store, "replay"]).stdout) == Array(1...11))

        // Without the power cut, the next synced append fsyncs it and its checkpoint covers both.
        try ByteSurgery.restore(image, to: store)
        try #require(try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(21...22)).status == 0)
        #expect(try Checkpoint.read(layout)?.seq == 22)
        #expect(Events.seqs(try HealthLogBinary.run(["--store", store, "replay"]).stdout) == Array(1...22))
    }

    /// The segment files of `store`, in sequence order.
    static func segmentPaths(_ store: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: store + "/segments").filter { $0.hasSuffix(".log.lz4") }.sorted()
            .map { store + "/segments/" + $0 }
    }
}
