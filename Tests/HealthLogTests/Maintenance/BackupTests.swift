import Foundation
import Synchronization
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// `backup`: a copy that is itself a store, consistent while a writer writes, incremental
/// and verified.
@Suite("Backup")
struct BackupTests {
    private static func lines(_ count: Int, from first: Int) -> [UInt8] {
        Array((first..<first + count).map { i in
            #"{"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T08:00:00Z","value":\#(i % 200),"unit":"count/min","metadata":{"n":\#(i)}}"# + "\n"
        }.joined().utf8)
    }

    private static func raw(_ store: HealthStore) throws -> [UInt8] {
        var out: [UInt8] = []
        _ = try store.replay(ReplayRequest(raw: true)) { out.append(contentsOf: $0) }
        return out
    }

    @Test("A backup replays like the store; the next one keeps sealed segments and copies only what changed")
    func incremental() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var options = StoreOptions()
        options.sync = false
        options.segmentBytes = 16_000
        options.batchBytes = 4_000
        let store = HealthStore(directory: dir.file("store"), options: options)
        _ = try store.append(ndjson: Self.lines(600, from: 0))
        let first = try store.backup(to: dir.file("backup"))
        let copy = HealthStore(directory: dir.file("backup"))
        #expect(try Self.raw(copy) == Self.raw(store))
        #expect(first.filesWritten > 4 && first.filesKept == 0)
        _ = try store.append(ndjson: Self.lines(10, from: 600))
        let second = try store.backup(to: dir.file("backup"))
        #expect(second.filesKept >= first.filesWritten - 2)
        #expect(second.filesWritten <= 3)
        #expect(second.headSeq == 610)
        #expect(try Self.raw(copy) == Self.raw(store))
        #expect(try copy.verify().isSound)
        let unchanged = try store.backup(to: dir.file("backup"))
        #expect(unchanged.filesWritten == 0 && unchanged.bytesWritten == 0)
        for name in try FileManager.default.subpathsOfDirectory(atPath: dir.file("backup")) {
            let mode = try FileManager.default.attributesOfItem(atPath: dir.file("backup/" + name))[.posixPermissions] as? Int
            #expect(mode == (name == "segments" ? 0o700 : 0o600), "\(name)")
        }
        let copyWrites = try copy.append(ndjson: Self.lines(1, from: 610))
        #expect(copyWrites.anchor.seq == 611)
    }

    @Test("A backup taken while a writer appends holds exactly a committed prefix of the log")
    func whileWriting() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var options = StoreOptions()
        options.sync = false
        options.segmentBytes = 32_000
        let store = HealthStore(directory: dir.file("store"), options: options)
        _ = try store.append(ndjson: Self.lines(200, from: 0))
        let writing = Mutex(true)
        let writerDone = DispatchSemaphore(value: 0)
        let writer = Thread {
            for round in 0..<40 { _ = try? store.append(ndjson: Self.lines(25, from: 200 + round * 25)) }
            writing.withLock { $0 = false }
            writerDone.signal()
        }
        writer.start()
        var backups = 0
        repeat {
            let report = try store.backup(to: dir.file("backup-\(backups)"))
            let copy = HealthStore(directory: dir.file("backup-\(backups)"))
            let copied = try Self.raw(copy)
            #expect(copied == Array(try Self.raw(store).prefix(copied.count)))
            #expect(try copy.headAnchor().seq == report.headSeq)
            #expect(report.headSeq % 25 == 0)
            backups += 1
        } while writing.withLock({ $0 }) && backups < 20
        writerDone.wait()
    }

    @Test("A backup into a directory holding something else, or another store's backup, is refused with badUsage")
    func refusesOtherDirectories() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        let other = HealthStore(directory: dir.file("other"))
        _ = try store.append(ndjson: Self.lines(3, from: 0))
        _ = try other.append(ndjson: Self.lines(3, from: 0))
        try FileManager.default.createDirectory(atPath: dir.file("junk"), withIntermediateDirectories: false)
        #expect(FileManager.default.createFile(atPath: dir.file("junk/notes.txt"), contents: Data("mine".utf8)))
        #expect(throws: HealthLogError.self) { try store.backup(to: dir.file("junk")) }
        #expect(FileManager.default.contents(atPath: dir.file("junk/notes.txt")) == Data("mine".utf8))
        _ = try other.backup(to: dir.file("other-backup"))
        let error = #expect(throws: HealthLogError.self) { try store.backup(to: dir.file("other-backup")) }
        #expect(error?.code == .badUsage)
    }
}
