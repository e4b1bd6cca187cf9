import Foundation
import HealthLogTestSupport
import Testing

/// `healthlog backup` of a store a killed writer left with a torn tail across a new
/// segment, and into destinations it must refuse (the store, a directory inside it, a
/// regular file) without writing anything anywhere.
@Suite("backup of torn tails and refused destinations")
struct BackupRepairCLITests {
    /// Every path under `directory` with the content of each regular file (`nil` for a directory).
    private static func tree(_ directory: String) throws -> [String: Data?] {
        var out: [String: Data?] = [:]
        for relative in try FileManager.default.subpathsOfDirectory(atPath: directory) {
            var isDirectory: ObjCBool = false
            let path = directory + "/" + relative
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            out[relative] = isDirectory.boolValue ? nil : FileManager.default.contents(atPath: path)
        }
        return out
    }

    @Test(
        "A backup of a store whose torn tail spans a just-created segment copies exactly the committed log and verifies",
        arguments: ["kill:segment-created:1", "kill:batch-written:6"])
    func tornTailAcrossNewSegment(_ fault: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try CrashTests.seed(store, with: Events.lines(1...5))
        let segmentsBefore = try CrashTests.segmentCount(store)
        let killed = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(6...45), environment: CrashTests.sizes, injecting: fault)
        try #require(killed.wasSignalled, "status \(killed.status): \(killed.stderr)")
        try #require(try CrashTests.segmentCount(store) > segmentsBefore, "the killed append created a segment")
        let storeFiles = try Self.tree(store)

        let backup = try HealthLogBinary.run(["--store", store, "backup", dir.file("backup")])
        #expect(backup.status == 0, "\(backup.stderr)")
        #expect(try Self.tree(store) == storeFiles, "backup never modifies the store")
        #expect(try CrashTests.rawReplay(dir.file("backup")) == CrashTests.rawReplay(store))
        #expect(Events.seqs(try CrashTests.rawReplay(dir.file("backup"))) == Array(1...5))
        #expect(try CrashTests.segmentCount(dir.file("backup")) == segmentsBefore, "no segment holding only the torn tail is copied")
        let verify = try HealthLogBinary.run(["--store", dir.file("backup"), "verify"])
        #expect(verify.status == 0 && !verify.stdout.contains("torn tail"), "\(verify.stdout)")
        let next = try HealthLogBinary.run(["--store", dir.file("backup"), "append"], stdin: Events.lines(100...102), environment: CrashTests.sizes)
        #expect(next.status == 0 && !next.stderr.contains("torn tail"), "\(next.stderr)")
        #expect(Events.seqs(try CrashTests.rawReplay(dir.file("backup"))) == Array(1...8))
    }

    @Test(
        "A backup into the store, a directory inside it, a new path inside it or a regular file exits 2 and writes nothing anywhere",
        arguments: ["store", "store/segments", "store/new", "store/segments/../new", "file"])
    func refusedDestination(_ destination: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try CrashTests.seed(dir.file("store"), with: Events.lines(1...5))
        try #require(FileManager.default.createFile(atPath: dir.file("file"), contents: Data("mine".utf8)))
        let before = try Self.tree(dir.path)

        let result = try HealthLogBinary.run(["--store", dir.file("store"), "backup", dir.file(destination)])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("healthlog: error: \(dir.file(destination)) is "), "\(result.stderr)")
        #expect(try Self.tree(dir.path) == before)
    }
}
