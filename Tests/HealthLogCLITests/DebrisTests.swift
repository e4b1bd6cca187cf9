#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HealthLogTestSupport
import Testing

/// What writers killed mid-write leave behind: the next writer removes
/// every file named like one of the store's temporary files, and nothing else; read-only
/// commands remove nothing.
@Suite("Debris of killed writers")
struct DebrisTests {
    /// A temporary name a killed writer leaves, with the finished file it was a copy of.
    static let debris: [(temporary: String, copyOf: String)] = [
        ("checkpoint.tmp", "checkpoint"),
        ("meta.tmp", "meta"),
        ("segments/00000000000000000001.0000.idx.tmp", "segments/00000000000000000001.0000.idx"),
        ("segments/00000000000000000001.0000.log.lz4.tmp", "segments/00000000000000000001.0000.log.lz4"),
        ("uuids/00000000000000000001-00000000000000000009.run.tmp", "uuids/00000000000000000001-00000000000000000003.run"),
        ("uuids/sync.tmp", "checkpoint"),
        ("uuids/deleted-adds.tmp", "checkpoint"),
    ]

    /// Files that are not the store's: look-alikes of its temporary names among them.
    static let strangers = [
        "notes.txt", "lock.tmp", "checkpoint.tmp.old", "x.tmp", "segments/README.tmp", "segments/00000000000000000001.log.lz4.tmp",
        "uuids/foo.tmp", "uuids/00000000000000000001-00000000000000000003.run.bak",
    ]

    @Test("Temporary files that killed writers left are removed by the next writer, never by a reader, and no other file is touched")
    func nextWriterRemovesDebrisOnly() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try append(Events.lines(1...3), to: store)
        for item in Self.debris {
            try FileManager.default.copyItem(atPath: store + "/" + item.copyOf, toPath: store + "/" + item.temporary)
        }
        for (n, name) in Self.strangers.enumerated() {
            try Data("not healthlog's \(n)\n".utf8).write(to: URL(fileURLWithPath: store + "/" + name))
        }
        let planted = try FileTreeImage(store)

        for arguments in [["replay", "--raw"], ["anchor"], ["stats"], ["verify"]] {
            let result = try HealthLogBinary.run(["--store", store] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        #expect(try FileTreeImage(store) == planted, "read-only commands never modify the store")

        try append(Events.lines(4...6), to: store)
        for item in Self.debris {
            #expect(!FileManager.default.fileExists(atPath: store + "/" + item.temporary), "\(item.temporary) is removed")
        }
        let after = try FileTreeImage(store)
        for name in Self.strangers { #expect(after.entries[name] == planted.entries[name], "\(name) is left as it was") }
        #expect(Events.seqs(try HealthLogBinary.run(["--store", store, "replay", "--raw"]).stdout) == Array(1...6))
        let verify = try HealthLogBinary.run(["--store", store, "verify"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    @Test("Writers killed again and again at every commit point leave no temporary file once the next writer has run, and lose no acknowledged event")
    func repeatedKillsLeaveNoDebris() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try append(Events.lines(1...3), to: store)
        var next = 4
        for round in 0..<3 {
            for point in ["synced", "checkpoint-written", "segment-index-written", "uuid-run-written"] {
                let lines = Events.lines(next...(next + 29))
                let killed = try HealthLogBinary.run(
                    ["--store", store, "append"], stdin: lines, environment: CrashTests.sizes, injecting: "kill:\(point)")
                #expect(killed.wasSignalled && killed.status == SIGKILL, "round \(round), \(point): \(killed.stderr)")
                next += 30
            }
        }
        try append(Events.lines(next...(next + 2)), to: store)

        let temporaries = try FileTreeImage(store).entries.keys.filter { $0.hasSuffix(".tmp") }
        #expect(temporaries.isEmpty, "\(temporaries)")
        #expect(Events.seqs(try HealthLogBinary.run(["--store", store, "replay", "--raw"]).stdout) == Array(1...UInt64(next + 2)),
            "each killed append had synced: all of it is kept")
        let verify = try HealthLogBinary.run(["--store", store, "verify"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    /// Appends `lines` with the real binary and requires success.
    private func append(_ lines: String, to store: String) throws {
        let result = try HealthLogBinary.run(["--store", store, "append"], stdin: lines)
        try #require(result.status == 0, "\(result.stderr)")
    }
}
