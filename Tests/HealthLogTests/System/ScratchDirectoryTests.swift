import Foundation
import Glibc
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The directories an import, a restore and a salvage build a store in
/// (``ScratchDirectory``): private, locked and marked while in use, and a leftover removed
/// only when it is unmistakably one of them.
@Suite("Scratch directories beside a target")
struct ScratchDirectoryTests {
    /// The entries of `dir`, sorted.
    static func entries(_ dir: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    }

    /// Makes a directory at `path` holding the marker and a file `data`.
    static func plantLeftover(_ path: String) throws {
        #expect(mkdir(path, 0o700) == 0)
        #expect(FileManager.default.createFile(atPath: path + "/" + ScratchDirectory.markerName, contents: nil))
        #expect(FileManager.default.createFile(atPath: path + "/data", contents: Data([1, 2, 3])))
    }

    @Test("A new one is private, marked and locked; unmarked before it is put in place; removed whole")
    func lifecycle() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let scratch = try ScratchDirectory.make(beside: dir.file("store"), infix: ".import-")
        let name = String(scratch.path.dropFirst(dir.path.count + 1))
        #expect(name.hasPrefix("store.import-") && name.count == "store.import-".count + 6, "\(name)")
        var status = stat()
        #expect(lstat(scratch.path, &status) == 0 && status.st_mode & 0o777 == 0o700)
        #expect(FileManager.default.fileExists(atPath: scratch.path + "/" + ScratchDirectory.markerName))
        let other = open(scratch.path, O_RDONLY | O_DIRECTORY)
        defer { close(other) }
        #expect(flock(other, LOCK_EX | LOCK_NB) != 0, "held while in use")
        #expect(try ScratchDirectory.removeLeftovers(beside: dir.file("store"), infix: ".import-").isEmpty)
        try scratch.unmark()
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/" + ScratchDirectory.markerName))
        try scratch.remove()
        #expect(try Self.entries(dir).isEmpty)
        #expect(flock(other, LOCK_EX | LOCK_NB) == 0, "let go once removed")
    }

    @Test("Only a marked, unlocked directory of this user, named exactly target + infix + six letters or digits, is removed")
    func onlyTrueLeftovers() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.plantLeftover(dir.file("store.import-Ab3xYz"))
        // A user's own directories named alike: no marker, or the wrong length.
        #expect(mkdir(dir.file("store.import-backup"), 0o700) == 0)
        #expect(FileManager.default.createFile(atPath: dir.file("store.import-backup/mine"), contents: Data([9])))
        try Self.plantLeftover(dir.file("store.import-old"))
        try Self.plantLeftover(dir.file("store.import-ABCDEFG"))
        try Self.plantLeftover(dir.file("store.import-AB_DEF"))
        // A link to a marked directory, and a file with the pattern's name.
        try Self.plantLeftover(dir.file("elsewhere"))
        #expect(symlink(dir.file("elsewhere"), dir.file("store.import-LINKED")) == 0)
        #expect(FileManager.default.createFile(atPath: dir.file("store.import-FILEXX"), contents: Data([1])))
        // The marker as a directory, not a file.
        #expect(mkdir(dir.file("store.import-DIRMKR"), 0o700) == 0)
        #expect(mkdir(dir.file("store.import-DIRMKR/" + ScratchDirectory.markerName), 0o700) == 0)
        // Another user's (only root can make one).
        if geteuid() == 0 {
            try Self.plantLeftover(dir.file("store.import-THEIRS"))
            #expect(chown(dir.file("store.import-THEIRS"), 4242, 4242) == 0)
        }
        // Held by a run still building it.
        try Self.plantLeftover(dir.file("store.import-HELDXX"))
        let held = open(dir.file("store.import-HELDXX"), O_RDONLY | O_DIRECTORY)
        #expect(held >= 0 && flock(held, LOCK_EX) == 0)
        defer { close(held) }
        // Another target's, and another infix.
        try Self.plantLeftover(dir.file("other.import-ABCDEF"))
        try Self.plantLeftover(dir.file("store.restore-ABCDEF"))
        let before = try Self.entries(dir)

        let removed = try ScratchDirectory.removeLeftovers(beside: dir.file("store"), infix: ".import-")
        #expect(removed == [dir.file("store.import-Ab3xYz")])
        #expect(try Self.entries(dir) == before.filter { $0 != "store.import-Ab3xYz" })
        #expect(FileManager.default.fileExists(atPath: dir.file("elsewhere/data")), "a link's target is never touched")
        #expect(FileManager.default.fileExists(atPath: dir.file("store.import-backup/mine")))
    }

    @Test("A target without a parent directory has no leftovers; a path splits into its parent and name")
    func parents() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        #expect(try ScratchDirectory.removeLeftovers(beside: dir.file("missing/store"), infix: ".import-").isEmpty, "no parent: nothing to do")
        #expect(ScratchDirectory.split("store") == (".", "store"))
        #expect(ScratchDirectory.split("/store") == ("/", "store"))
        #expect(ScratchDirectory.split(dir.file("a/b")) == (dir.file("a"), "b"))
    }

    @Test("A directory marked for the swap and unmarked again holds no marker")
    func markAndUnmark() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        #expect(mkdir(dir.file("store"), 0o700) == 0)
        try ScratchDirectory.mark(dir.file("store"))
        #expect(FileManager.default.fileExists(atPath: dir.file("store/" + ScratchDirectory.markerName)))
        ScratchDirectory.unmark(dir.file("store"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("store")).isEmpty)
        #expect(symlink(dir.file("store"), dir.file("link")) == 0)
        #expect(throws: HealthLogError.self) { try ScratchDirectory.mark(dir.file("link")) }
    }
}
