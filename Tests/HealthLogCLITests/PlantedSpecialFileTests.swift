#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HealthLogTestSupport
import Testing

/// Named pipes and unix sockets planted where a store or a backup keeps its files: every
/// command refuses them at once with exit 1 and a message naming the path, instead of
/// waiting in `open(2)` for a writer that never comes, and changes nothing.
@Suite("Named pipes and sockets planted in a store or backup")
struct PlantedSpecialFileTests {
    /// What is planted.
    enum Special: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case fifo
        case socket

        var testDescription: String { rawValue }

        /// Makes one at `path`. A socket is bound under the short name `scratch` first and
        /// renamed into place, since a socket's address is limited to about 100 bytes.
        func make(at path: String, scratch: String) throws {
            switch self {
            case .fifo:
                try #require(mkfifo(path, 0o600) == 0, "mkfifo \(path): \(errno)")
            case .socket:
                let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
                try #require(fd >= 0)
                defer { Glibc.close(fd) }
                var address = sockaddr_un()
                address.sun_family = sa_family_t(AF_UNIX)
                let bytes = Array(scratch.utf8)
                try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path), "\(scratch) is too long for a socket address")
                withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
                let bound = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
                }
                try #require(bound == 0, "bind \(scratch): \(errno)")
                try #require(rename(scratch, path) == 0, "rename to \(path): \(errno)")
            }
        }
    }

    /// Where it is planted, relative to a case's directory (which holds `store` and its
    /// `backup`).
    enum Plant: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case meta = "store/meta"
        case checkpoint = "store/checkpoint"
        case segmentIndex = "store/segments/FIRST.idx"
        case syncTable = "store/uuids/sync"
        case lastSegment = "store/segments/LAST.log.lz4"
        case timelines = "store/timelines"
        case scratchMarker = "store/.healthlog-scratch"
        case backupMeta = "backup/meta"
        case backupManifest = "backup/manifest"

        var testDescription: String { rawValue }

        /// The path in the case directory `root`: the first sealed segment's index, the
        /// last segment (replaced by what is planted).
        func path(in root: String) throws -> String {
            let names = try FileManager.default.contentsOfDirectory(atPath: root + "/store/segments").sorted()
            let first = try #require(names.first { $0.hasSuffix(".idx") }).dropLast(".idx".count)
            let last = try #require(names.last { $0.hasSuffix(".log.lz4") }).dropLast(".log.lz4".count)
            return root + "/" + rawValue.replacingOccurrences(of: "FIRST", with: first).replacingOccurrences(of: "LAST", with: last)
        }

        /// The commands that open it: every command on the store for a store file; backing
        /// up into the backup, restoring from it and reading it for a backup's file.
        func commands(in root: String) -> [[String]] {
            let store = root + "/store"
            let backup = root + "/backup"
            guard rawValue.hasPrefix("store/") else {
                return [
                    ["--store", store, "backup", backup],
                    ["--store", root + "/restored", "restore", backup],
                    ["--store", backup, "replay"],
                ]
            }
            return [
                ["--store", store, "replay", "--raw"],
                ["--store", store, "verify"],
                ["--store", store, "stats"],
                ["--store", store, "anchor"],
                ["--store", store, "add", "--type", "HKQuantityTypeIdentifierHeartRate", "--value", "70", "--unit", "count/min"],
                ["--store", store, "delete", Events.uuid(3)],
                ["--store", store, "backup", root + "/new-backup"],
                ["--store", store, "backup", backup],
                ["--store", store, "restore", "--force", backup],
                ["--store", store, "reindex"],
                ["--store", store, "compact", "--horizon", "2100-01-01"],
                ["--store", store, "recover", root + "/recovered"],
            ]
        }
    }

    @Test("A named pipe or socket in a store or backup is refused by every command at once: exit 1 naming it, nothing changed",
        arguments: Plant.allCases, Special.allCases)
    func plantedSpecialFileIsRefused(_ plant: Plant, _ special: Special) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let base = dir.file("base")
        try makeStoreAndBackup(in: base)
        for (n, arguments) in plant.commands(in: base).enumerated() {
            let root = dir.file("case\(n)")
            try FileManager.default.copyItem(atPath: base, toPath: root)
            let planted = try plant.path(in: root)
            try? FileManager.default.removeItem(atPath: planted)
            try special.make(at: planted, scratch: dir.file("s"))
            let before = try FileTreeImage(root)
            let command = arguments.map { $0.replacingOccurrences(of: base, with: root) }

            let launched = try HealthLogBinary.launch(command, outputIn: dir)
            guard let result = await launched.finish(within: 60) else {
                Issue.record("\(command.dropFirst(2).joined(separator: " ")) hung on \(planted)")
                continue
            }
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.contains(planted), "\(command): \(result.stderr)")
            #expect(try FileTreeImage(root) == before, "\(command) changed nothing")
        }
    }

    @Test("A planted named pipe removed again leaves a store every command uses as before")
    func storeWorksOnceThePipeIsRemoved() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let root = dir.file("root")
        try makeStoreAndBackup(in: root)
        let store = root + "/store"
        let before = try HealthLogBinary.run(["--store", store, "replay", "--raw"])
        let planted = store + "/uuids/sync"
        try? FileManager.default.removeItem(atPath: planted)
        try Special.fifo.make(at: planted, scratch: dir.file("s"))
        #expect(try HealthLogBinary.run(["--store", store, "replay", "--raw"]).status == 1)
        try FileManager.default.removeItem(atPath: planted)
        #expect(try HealthLogBinary.run(["--store", store, "replay", "--raw"]).stdout == before.stdout)
        #expect(try HealthLogBinary.run(["--store", store, "verify"]).status == 0)
    }

    /// A store of many small segments that a restore made (so it has `timelines`), with
    /// appends after the restore, and its backup, in `root`.
    private func makeStoreAndBackup(in root: String) throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let small = ["HEALTHLOG_SEGMENT_BYTES": "4000", "HEALTHLOG_BATCH_BYTES": "1000"]
        let origin = root + "/origin"
        for run in [
            (["--store", origin, "append"], Events.lines(1...60)),
            (["--store", origin, "backup", root + "/backup"], ""),
            (["--store", root + "/store", "restore", root + "/backup"], ""),
            (["--store", root + "/store", "append"], Events.lines(61...120, deleting: [2, 5])),
            (["--store", root + "/store", "backup", root + "/backup"], ""),
        ] {
            let result = try HealthLogBinary.run(run.0, stdin: run.1, environment: small)
            try #require(result.status == 0, "\(run.0): \(result.stderr)")
        }
        try FileManager.default.removeItem(atPath: origin)
        try #require(FileManager.default.fileExists(atPath: root + "/store/timelines"))
    }
}
