import Foundation
import HealthLogTestSupport
import Testing

/// A segment index written for an append that a kill stopped before it committed lists
/// a batch the log does not hold: derived data that is ahead, which the next write
/// rewrites, so `verify` notes it and says the store is sound.
@Suite("A segment index ahead of the log")
struct IndexAheadCLITests {
    @Test("verify notes an index listing a batch past the log's end and exits 0; readers answer from the log")
    func indexAheadIsANote() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (store, behind) = (dir.file("store"), dir.file("behind"))
        #expect(try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(1...5)).status == 0)
        try FileManager.default.copyItem(atPath: store, toPath: behind)
        #expect(try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(6...10)).status == 0)
        let indexes = try FileManager.default.contentsOfDirectory(atPath: store + "/segments").filter { $0.hasSuffix(".idx") }
        try #require(!indexes.isEmpty)
        for name in indexes {
            try? FileManager.default.removeItem(atPath: behind + "/segments/" + name)
            try FileManager.default.copyItem(atPath: store + "/segments/" + name, toPath: behind + "/segments/" + name)
        }
        let verify = try HealthLogBinary.run(["--store", behind, "verify"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect((verify.stdout + verify.stderr).contains("lists 1 batch past the log's end"), "\(verify.stdout)\(verify.stderr)")
        #expect(Events.seqs(try CrashTests.rawReplay(behind)) == Array(1...5))
    }
}
