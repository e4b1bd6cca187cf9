import Foundation
import HealthLog
import HealthLogTestSupport
import Testing

/// `healthlog-mirror` run to completion: the mirror ends equal to the store's live samples
/// whatever the store went through, pages included.
@Suite("Mirror sync")
struct MirrorSyncTests {
    @Test(
        "The mirror equals the store's live samples after adds, deletes and sync-identifier replacements, run after run",
        arguments: [1, 7, 1000])
    func followsEveryChange(batch: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("s.store"))
        var changes = StoreChanges(seed: UInt64(batch))
        for round in 1...5 {
            try changes.apply(to: store, adds: 30, deletes: round == 1 ? 0 : 8)
            let run = try MirrorBinary.run(["--store", store.directory, "--db", dir.file("m.db"), "--batch", String(batch)], outputIn: dir)
            #expect(run.status == 0, "round \(round): \(run.stderr)")
            let expected = try MirrorContents(expectedFrom: store)
            #expect(try MirrorContents(path: dir.file("m.db")) == expected, "round \(round)")
            #expect(expected.anchor == (try store.headAnchor()).token)
        }
    }

    @Test("A page holding only deletes does not end the catch-up (the bug in Apple's sample loop)")
    func pageOfOnlyDeletes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("s.store"))
        var changes = StoreChanges(seed: 42)
        try changes.apply(to: store, adds: 10, deletes: 0)
        let arguments = ["--store", store.directory, "--db", dir.file("m.db"), "--batch", "4"]
        #expect(try MirrorBinary.run(arguments, outputIn: dir).status == 0)
        // Pages of 4 after the anchor: deletes only, deletes only, then the new samples.
        try store.delete(try store.result(ReplayRequest()).addedSamples.prefix(8).map(\.uuid))
        try changes.apply(to: store, adds: 3, deletes: 0)
        let run = try MirrorBinary.run(arguments, outputIn: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("applied 0 samples and 4 deletes"))
        #expect(try MirrorContents(path: dir.file("m.db")) == (try MirrorContents(expectedFrom: store)))
    }

    @Test("A mirror of some types holds only them, and refuses to go on with other types")
    func mirrorOfSomeTypes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("s.store"))
        var changes = StoreChanges(seed: 7)
        try changes.apply(to: store, adds: 40, deletes: 10)
        let arguments = ["--store", store.directory, "--db", dir.file("m.db"), "--batch", "5", "--type", "BodyMass", "--type", "HKCategoryTypeIdentifierSleepAnalysis"]
        #expect(try MirrorBinary.run(arguments, outputIn: dir).status == 0)
        try changes.apply(to: store, adds: 20, deletes: 5)
        #expect(try MirrorBinary.run(arguments, outputIn: dir).status == 0)
        let expected = try MirrorContents(expectedFrom: store, types: [.quantity("BodyMass"), .category("SleepAnalysis")])
        #expect(!expected.events.isEmpty)
        #expect(try MirrorContents(path: dir.file("m.db")) == expected)

        let other = try MirrorBinary.run(["--store", store.directory, "--db", dir.file("m.db"), "--type", "HeartRate"], outputIn: dir)
        #expect(other.status == 2)
        #expect(other.stderr.contains("mirrors --type HKCategoryTypeIdentifierSleepAnalysis --type HKQuantityTypeIdentifierBodyMass"))
    }

    @Test("The mirror's files are private (0600)")
    func privateFiles() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("s.store"))
        var changes = StoreChanges(seed: 3)
        try changes.apply(to: store, adds: 5, deletes: 0)
        #expect(try MirrorBinary.run(["--store", store.directory, "--db", dir.file("m.db")], outputIn: dir).status == 0)
        let mode = try FileManager.default.attributesOfItem(atPath: dir.file("m.db"))[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("A mirror of another store is refused with exit 3, never resynced from the beginning")
    func mirrorOfAnotherStore() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var changes = StoreChanges(seed: 5)
        let first = HealthStore(directory: dir.file("a.store"))
        let second = HealthStore(directory: dir.file("b.store"))
        try changes.apply(to: first, adds: 5, deletes: 0)
        try changes.apply(to: second, adds: 5, deletes: 0)
        #expect(try MirrorBinary.run(["--store", first.directory, "--db", dir.file("m.db")], outputIn: dir).status == 0)
        let before = try MirrorContents(path: dir.file("m.db"))
        let run = try MirrorBinary.run(["--store", second.directory, "--db", dir.file("m.db")], outputIn: dir)
        #expect(run.status == 3)
        #expect(run.stderr.contains("belongs to another store"))
        #expect(try MirrorContents(path: dir.file("m.db")) == before)
    }

    @Test(
        "Bad usage exits 2 and a missing store exits 1, each with a message",
        arguments: [
            (["--store", "s.store"], 2, "missing --db"), (["--db", "m.db", "--batch", "0"], 2, "--batch takes a number"),
            (["--db", "m.db", "--bogus"], 2, "unknown option '--bogus'"), (["--db", "m.db", "--follow=yes"], 2, "takes no value"),
            (["--db", "m.db", "--store", "nowhere"], 1, "no store at"),
        ])
    func badUsage(arguments: [String], status: Int32, message: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let run = try MirrorBinary.run(arguments.map { $0.hasSuffix(".db") || $0.hasSuffix("nowhere") ? dir.file($0) : $0 }, outputIn: dir)
        #expect(run.status == status)
        #expect(run.stderr.contains("healthlog-mirror: error: ") && run.stderr.contains(message), "\(run.stderr)")
    }

    @Test("--help prints the overview, usage and options on stdout and exits 0")
    func help() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let run = try MirrorBinary.run(["--help"], outputIn: dir)
        #expect(run.status == 0 && run.stderr.isEmpty)
        #expect(run.stdout.hasPrefix("OVERVIEW: Keep a SQLite mirror of a healthlog store in sync by anchors.\n"))
        #expect(run.stdout.contains("USAGE: healthlog-mirror --db <file> [--store <dir>] [--type <type> ...] [--batch <n>] [--follow]\n"))
    }
}
