import CAtomicRename
import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The renames plain rename(2) cannot do (`CAtomicRename`, ``DirectorySwap``): called by
/// system call number, so they work the same in a statically linked binary.
@Suite("Atomic renames")
struct AtomicRenameTests {
    /// Makes a directory at `path` holding one file named `name`.
    static func directory(_ path: String, holding name: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(FileManager.default.createFile(atPath: path + "/" + name, contents: Data(name.utf8)))
    }

    @Test("A rename that never replaces moves onto a free path and refuses an existing empty directory, which plain rename(2) would replace")
    func noReplace() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.directory(dir.file("built"), holding: "new")
        try FileManager.default.createDirectory(atPath: dir.file("taken"), withIntermediateDirectories: false)
        let refused = healthlog_rename_noreplace(dir.file("built"), dir.file("taken"))
        let err = errno
        #expect(refused == -1)
        #expect(err == EEXIST)
        #expect(FileManager.default.fileExists(atPath: dir.file("built/new")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("taken")).isEmpty)
        #expect(healthlog_rename_noreplace(dir.file("built"), dir.file("free")) == 0)
        #expect(FileManager.default.fileExists(atPath: dir.file("free/new")))
        #expect(!FileManager.default.fileExists(atPath: dir.file("built")))
    }

    @Test("An exchange swaps two directories in one step, and fails when one is missing")
    func exchange() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.directory(dir.file("a"), holding: "one")
        try Self.directory(dir.file("b"), holding: "two")
        try DirectorySwap.exchange(dir.file("a"), dir.file("b"))
        #expect(FileManager.default.fileExists(atPath: dir.file("a/two")))
        #expect(FileManager.default.fileExists(atPath: dir.file("b/one")))
        #expect(throws: HealthLogError.self) { try DirectorySwap.exchange(dir.file("a"), dir.file("missing")) }
        #expect(FileManager.default.fileExists(atPath: dir.file("a/two")))
    }
}
