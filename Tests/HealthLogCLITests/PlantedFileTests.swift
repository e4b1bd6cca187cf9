#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HealthLogTestSupport
import Testing

/// Symbolic links planted in a store, and store directories open to others: the real `healthlog` never writes or chmods anything outside the store through
/// a planted link, refuses what it may not use with exit 1 and a message naming the path,
/// and loses no acknowledged event.
@Suite("Planted links and open store directories")
struct PlantedFileTests {
    /// A store path replaced by a symbolic link to a file or directory outside the store.
    enum Plant: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case checkpointTemporary = "checkpoint.tmp"
        case checkpoint
        case lock
        case meta
        case segment = "segments/00000000000000000001.0000.log.lz4"
        case segmentIndex = "segments/00000000000000000001.0000.idx"
        case segmentIndexTemporary = "segments/00000000000000000001.0000.idx.tmp"
        case uuidRunTemporary = "uuids/00000000000000000004-00000000000000000006.run.tmp"
        case syncTableTemporary = "uuids/sync.tmp"
        case deletedAddIndex = "uuids/deleted-adds"
        case deletedAddIndexTemporary = "uuids/deleted-adds.tmp"
        case segments
        case uuids

        var testDescription: String { rawValue }

        /// Whether a writer must refuse the store (else it replaces or removes the link).
        var refusesWriters: Bool {
            switch self {
            case .lock, .meta, .checkpoint, .segment, .segments, .uuids: true
            default: false
            }
        }

        /// Whether readers must refuse the store (else they ignore the link). The
        /// checkpoint is the proof of what was acknowledged, so one that cannot be read is
        /// damage, not a derived file to rebuild.
        var refusesReaders: Bool { self == .meta || self == .checkpoint || self == .segment || self == .segments }
    }

    @Test("A symbolic link planted in a store is never followed: its target keeps its bytes and mode, and no acknowledged event is lost", arguments: Plant.allCases)
    func plantedLinkIsNotFollowed(_ plant: Plant) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try append(Events.lines(1...3), to: store)
        let planted = store + "/" + plant.rawValue
        let victim = dir.file("victim")
        if FileManager.default.fileExists(atPath: planted) {
            try FileManager.default.moveItem(atPath: planted, toPath: victim)
        } else {
            try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        }
        try #require(chmod(victim, 0o755) == 0)
        try FileManager.default.createSymbolicLink(atPath: planted, withDestinationPath: victim)
        let before = try FileTreeImage(victim)

        let reader = try HealthLogBinary.run(["--store", store, "replay", "--raw"])
        let writer = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(4...6))

        #expect(try FileTreeImage(victim) == before, "the link's target is unchanged, bytes and mode")
        for (result, isRefused) in [(reader, plant.refusesReaders), (writer, plant.refusesWriters)] {
            if isRefused {
                #expect(result.status == 1, "\(result.stderr)")
                #expect(result.stderr == "healthlog: error: \(planted) is a symbolic link: healthlog never follows symbolic links in a store; remove it\n")
            } else {
                #expect(result.status == 0, "\(result.stderr)")
            }
        }
        if plant.refusesWriters {
            try FileManager.default.removeItem(atPath: planted)
            if plant != .lock { try FileManager.default.moveItem(atPath: victim, toPath: planted) }
        }
        let seqs = Events.seqs(try HealthLogBinary.run(["--store", store, "replay", "--raw"]).stdout)
        #expect(seqs == Array(1...(plant.refusesWriters ? 3 : 6)), "every acknowledged event is still there")
        let verify = try HealthLogBinary.run(["--store", store, "verify"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    @Test("A store directory that group or others may access is refused for readers and writers with exit 1 and the chmod that fixes it, and left as it is",
        arguments: [0o750, 0o705, 0o755, 0o777] as [mode_t])
    func storeDirectoryOpenToOthersIsRefused(_ mode: mode_t) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try append(Events.lines(1...3), to: store)
        try #require(chmod(store, mode) == 0)
        let image = try FileTreeImage(store)

        let message = "healthlog: error: \(store) has invalid permissions (mode 0\(String(mode, radix: 8))): group or others may access it; a store directory must be private: chmod 700 \(store)\n"
        for arguments in [["replay"], ["anchor"], ["stats"], ["verify"], ["append"], ["reindex"]] {
            let result = try HealthLogBinary.run(["--store", store] + arguments, stdin: Events.lines(4...4))
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr == message, "\(arguments)")
        }
        #expect(try FileTreeImage(store) == image, "a refused store is not modified, not even tightened")

        try #require(chmod(store, 0o700) == 0)
        #expect(Events.seqs(try HealthLogBinary.run(["--store", store, "replay"]).stdout) == [1, 2, 3])
    }

    @Test("A directory the user made open to others is refused as a new store, and nothing is written into it")
    func existingOpenDirectoryIsNotMadeAStore() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try #require(mkdir(store, 0o755) == 0 && chmod(store, 0o755) == 0)
        let result = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(1...1))
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(store) has invalid permissions (mode 0755)") && result.stderr.contains("chmod 700 \(store)"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: store).isEmpty)
    }

    @Test("A store directory created under umask 000 is tightened to 0700")
    func createdStoreDirectoryIsPrivate() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let result = try HealthLogBinary.launch(["--store", store, "add", "--type", "HeartRate", "--value", "70", "--unit", "count/min"], umask: "000", outputIn: dir).finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileTreeImage.mode(of: store) == 0o700)
    }

    @Test("A store directory that belongs to another user is refused with exit 1 naming it", .enabled(if: geteuid() == 0, "only root can give a directory away"))
    func storeDirectoryOfAnotherUserIsRefused() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try append(Events.lines(1...3), to: store)
        try #require(chown(store, 1, 1) == 0)
        for arguments in [["replay"], ["append"]] {
            let result = try HealthLogBinary.run(["--store", store] + arguments, stdin: Events.lines(4...4))
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("healthlog: error: \(store) belongs to user 1, not to this user (0)"), "\(result.stderr)")
        }
    }

    @Test("A store path that is itself a symbolic link (the user's choice) is followed, and the directory it names must still be private")
    func linkedStoreDirectoryIsFollowed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let real = dir.file("real")
        let linked = dir.file("linked")
        try append(Events.lines(1...3), to: real)
        try #require(symlink(real, linked) == 0)
        try append(Events.lines(4...4), to: linked)
        #expect(Events.seqs(try HealthLogBinary.run(["--store", real, "replay"]).stdout) == [1, 2, 3, 4])
        try #require(chmod(real, 0o755) == 0)
        let refused = try HealthLogBinary.run(["--store", linked, "replay"])
        #expect(refused.status == 1 && refused.stderr.contains("has invalid permissions (mode 0755)"), "\(refused.stderr)")
    }

    /// Appends `lines` with the real binary and requires success.
    private func append(_ lines: String, to store: String) throws {
        let result = try HealthLogBinary.run(["--store", store, "append"], stdin: lines)
        try #require(result.status == 0, "\(result.stderr)")
    }
}
