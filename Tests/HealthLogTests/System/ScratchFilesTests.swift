import Foundation
import Glibc
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Where scratch files that belong to no store go (``ScratchFiles``): `$TMPDIR`, then
/// `/tmp`, the first that takes the file.
@Suite("Scratch files outside a store")
struct ScratchFilesTests {
    @Test("$TMPDIR comes first, then /tmp; unset, empty or /tmp itself leaves /tmp alone")
    func directories() {
        #expect(ScratchFiles.directories(temporaryDirectory: "/var/scratch") == ["/var/scratch", "/tmp"])
        #expect(ScratchFiles.directories(temporaryDirectory: nil) == ["/tmp"])
        #expect(ScratchFiles.directories(temporaryDirectory: "") == ["/tmp"])
        #expect(ScratchFiles.directories(temporaryDirectory: "/tmp") == ["/tmp"])
    }

    @Test("A directory that does not take the file is passed over for the next")
    func fallsBack() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let missing = dir.file("missing")
        let scratch = try ScratchFiles.makeDirectory(name: "scratch", infix: "-", in: [missing, dir.path])
        defer { scratch.release() }
        let made = scratch.path
        #expect(made.hasPrefix(dir.path + "/scratch-"))
        #expect(try ByteSurgery.mode(made) & 0o777 == 0o700)
        let file = try ScratchFiles.makeUnlinkedFile(prefix: "scratch-", in: [missing, dir.path])
        defer { file.close() }
        #expect(file.path.hasPrefix(dir.path + "/scratch-"))
        #expect(!FileManager.default.fileExists(atPath: file.path), "unlinked at once")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [String(made.dropFirst(dir.path.count + 1))])
    }

    @Test("When no directory takes it, the error names the last one tried")
    func noDirectory() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        #expect {
            try ScratchFiles.makeDirectory(name: "scratch", infix: "-", in: [dir.file("a"), dir.file("b")])
        } throws: { error in
            (error as? HealthLogError)?.code == .io && "\(error)".contains(dir.file("b"))
        }
    }

    @Test("A scratch directory a killed process left is removed by the next one made alike; one still held, and one of a like name that no run marked, stay")
    func killedLeftoverRemoved() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // A killed run: its directory made, a file written in it, its lock gone with the process.
        let killed = try ScratchFiles.makeDirectory(name: "healthlog", infix: "-uuids-", in: [dir.path])
        try Data("run".utf8).write(to: URL(fileURLWithPath: killed.path + "/1.run"))
        killed.release()
        let held = try ScratchFiles.makeDirectory(name: "healthlog", infix: "-uuids-", in: [dir.path])
        defer { held.release() }
        let unmarked = dir.file("healthlog-uuids-AbC123")
        try FileManager.default.createDirectory(atPath: unmarked, withIntermediateDirectories: false)
        let next = try ScratchFiles.makeDirectory(name: "healthlog", infix: "-uuids-", in: [dir.path])
        defer { try? next.remove() }
        #expect(!FileManager.default.fileExists(atPath: killed.path), "the killed run's directory and its run are gone")
        #expect(FileManager.default.fileExists(atPath: held.path), "a directory still in use stays")
        #expect(FileManager.default.fileExists(atPath: unmarked), "a directory no run marked stays")
    }
}
