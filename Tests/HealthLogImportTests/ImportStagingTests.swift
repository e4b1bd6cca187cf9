import Foundation
import Glibc
import HealthLogTestSupport
import Testing
@testable import HealthLog
@testable import HealthLogImport

/// An import into a store that does not exist yet (``ImportStaging``, ``LiveAppendFeed``):
/// built beside the target while the export is read, renamed into place at the end; the
/// same store as an import into an existing empty directory makes, nothing at the target
/// or beside it when the import fails, leftovers of killed imports removed.
@Suite("Import: a new store built beside the target")
struct ImportStagingTests {
    /// The names in `dir` that start with `prefix`.
    static func names(in dir: TemporaryDirectory, prefix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// Every stored line, with its sequence number.
    static func rawLines(_ store: HealthStore) throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        _ = try store.replay(ReplayRequest(anchor: .beginning, raw: true)) { out.append(Array($0)) }
        return out
    }

    @Test("A new store built while the export is read holds what an import into an empty directory appends, in the same appends, each vouching for its adds as there", arguments: [2, 7, 50_000])
    func sameAsInPlace(_ eventsPerAppend: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var options = ImportOptions()
        options.eventsPerAppend = eventsPerAppend
        let export = PackageFiles.appleHealthExport("healthkit-to-sqlite.xml")
        #expect(mkdir(dir.file("inplace"), 0o700) == 0)
        let inPlace = HealthStore(directory: dir.file("inplace"))
        let expected = try inPlace.importExport(at: export, options: options)
        let fresh = HealthStore(directory: dir.file("fresh"))
        let report = try fresh.importExport(at: export, options: options)
        #expect(report.appends == expected.appends && report.appends > 0)
        #expect(report.vouchedAppends == report.appends && expected.vouchedAppends == expected.appends, "every append vouched for its adds")
        #expect(report.summary.added == expected.summary.added)
        #expect(report.typeCounts == expected.typeCounts)
        #expect(report.correlationMembersAlsoTopLevel == expected.correlationMembersAlsoTopLevel)
        #expect(try Self.rawLines(fresh) == Self.rawLines(inPlace))
        #expect(try fresh.headAnchor() == report.summary.anchor)
        #expect(try Self.names(in: dir, prefix: "fresh.import-").isEmpty)
        var status = stat()
        #expect(lstat(dir.file("fresh"), &status) == 0 && status.st_mode & 0o777 == 0o700)
        let again = try fresh.importExport(at: export, options: options)
        #expect(again.summary.added == 0 && again.summary.alreadyPresent == report.summary.added)
    }

    @Test("A record repeated in a later append of a new store is counted present, not added twice, though the appends vouch for their adds")
    func repeatedRecordAcrossAppends() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let text = try String(contentsOfFile: PackageFiles.appleHealthExport("healthkit-to-sqlite.xml"), encoding: .utf8)
        let record = #"<Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Apple Watch" sourceVersion="4.3.1" unit="count/min" creationDate="2018-09-10 02:47:35 -0700" startDate="2018-09-10 02:28:55 -0700" endDate="2018-09-10 02:28:55 -0700" value="72"/>"#
        let path = dir.file("repeated.xml")
        try text.replacingOccurrences(of: "<HealthData locale=\"en_US\">", with: "<HealthData locale=\"en_US\">\n" + record)
            .replacingOccurrences(of: "</HealthData>", with: record + "\n</HealthData>").write(toFile: path, atomically: true, encoding: .utf8)
        var options = ImportOptions()
        options.eventsPerAppend = 2
        let report = try HealthStore(directory: dir.file("fresh")).importExport(at: path, options: options)
        #expect(report.appends > 2 && report.vouchedAppends == report.appends)
        #expect(report.summary.alreadyPresent == 1)
        let uuids = try Self.rawLines(HealthStore(directory: dir.file("fresh"))).compactMap { line in
            (try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])?["uuid"] as? String
        }
        #expect(Set(uuids).count == uuids.count && uuids.count == report.summary.added)
    }

    @Test("Malformed XML after appends were made leaves neither the target nor anything beside it")
    func malformedLeavesNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let broken = dir.file("broken.xml")
        try DocumentPassTests.steps(3_000, tail: "<Record type=\"x\" ").write(toFile: broken, atomically: true, encoding: .utf8)
        var options = ImportOptions()
        options.eventsPerAppend = 100
        let store = HealthStore(directory: dir.file("store"))
        #expect(throws: HealthLogError.self) { try store.importExport(at: broken, options: options) }
        #expect(!FileManager.default.fileExists(atPath: dir.file("store")))
        #expect(try Self.names(in: dir, prefix: "store").isEmpty)
    }

    @Test("An export without events creates no store")
    func emptyExport() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("empty.xml")
        try DocumentPassTests.steps(0).write(toFile: path, atomically: true, encoding: .utf8)
        let report = try HealthStore(directory: dir.file("store")).importExport(at: path)
        #expect(report.appends == 0)
        #expect(try Self.names(in: dir, prefix: "store").isEmpty)
    }

    @Test("A killed import's directory is removed by the next import; one whose lock is held (an import running) is kept")
    func leftovers() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let killed = dir.file("store.import-AAAAAA")
        try FileManager.default.createDirectory(atPath: killed + "/segments", withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: killed + "/segments/x"))
        try Data().write(to: URL(fileURLWithPath: killed + "/" + ScratchDirectory.markerName))
        let running = dir.file("store.import-BBBBBB")
        #expect(mkdir(running, 0o700) == 0)
        try Data().write(to: URL(fileURLWithPath: running + "/" + ScratchDirectory.markerName))
        let held = open(running, O_RDONLY | O_DIRECTORY)
        #expect(held >= 0 && flock(held, LOCK_EX) == 0)
        defer { close(held) }
        let other = dir.file("other.import-CCCCCC")
        #expect(mkdir(other, 0o700) == 0)
        let good = dir.file("good.xml")
        try DocumentPassTests.steps(10).write(toFile: good, atomically: true, encoding: .utf8)
        let report = try HealthStore(directory: dir.file("store")).importExport(at: good)
        #expect(report.summary.added == 10)
        #expect(try Self.names(in: dir, prefix: "store.import-") == ["store.import-BBBBBB"])
        #expect(FileManager.default.fileExists(atPath: other))
        #expect(!FileManager.default.fileExists(atPath: dir.file("store/" + ScratchDirectory.markerName)), "the store put in place carries no marker")
    }

    @Test("What a user keeps beside the target under a name like a leftover's (a directory, a link, a file) survives an import")
    func userEntriesKept() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let mine = ["store.import-backup", "store.import-old", "store.import-2024-01"]
        for name in mine {
            #expect(mkdir(dir.file(name), 0o700) == 0)
            try Data([9]).write(to: URL(fileURLWithPath: dir.file(name + "/mine")))
        }
        #expect(mkdir(dir.file("elsewhere"), 0o700) == 0)
        try Data([9]).write(to: URL(fileURLWithPath: dir.file("elsewhere/mine")))
        #expect(symlink(dir.file("elsewhere"), dir.file("store.import-LINKED")) == 0)
        try Data([9]).write(to: URL(fileURLWithPath: dir.file("store.import-FILEXX")))
        let good = dir.file("good.xml")
        try DocumentPassTests.steps(10).write(toFile: good, atomically: true, encoding: .utf8)
        #expect(try HealthStore(directory: dir.file("store")).importExport(at: good).summary.added == 10)
        #expect(try Self.names(in: dir, prefix: "store.import-") == (mine + ["store.import-FILEXX", "store.import-LINKED"]).sorted())
        for name in mine + ["elsewhere"] { #expect(FileManager.default.fileExists(atPath: dir.file(name + "/mine")), "\(name)") }
    }

    @Test("Something created at the target while the store was built is never replaced: the built store goes, the error says so")
    func targetAppeared() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let target = dir.file("store")
        let staging = try #require(try ImportStaging.begin(for: target))
        #expect(try HealthStore(directory: staging.directory).append(ndjson: Array("{\"type\":\"HKQuantityTypeIdentifierStepCount\",\"start\":\"2024-03-01T08:00:00Z\",\"value\":1,\"unit\":\"count\"}\n".utf8)).added == 1)
        #expect(mkdir(target, 0o700) == 0)
        try Data([7]).write(to: URL(fileURLWithPath: target + "/mine"))
        let error = try #require(throws: HealthLogError.self) { try staging.commit() }
        #expect(error.code == .io)
        #expect(error.message.contains("was created while the import ran; nothing was imported"), "\(error.message)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: target) == ["mine"])
        #expect(try Self.names(in: dir, prefix: "store.import-").isEmpty)
    }

    @Test("A target that exists (an empty directory, a file, a link) or ends in a slash of an existing path is imported into in place")
    func existingTargets() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        #expect(mkdir(dir.file("empty"), 0o700) == 0)
        #expect(try ImportStaging.begin(for: dir.file("empty")) == nil)
        #expect(try ImportStaging.begin(for: dir.file("empty") + "/") == nil)
        #expect(symlink(dir.file("nowhere"), dir.file("link")) == 0)
        #expect(try ImportStaging.begin(for: dir.file("link")) == nil)
        #expect(try ImportStaging.begin(for: dir.file("missing/store")) == nil, "no directory to build it beside")
        let staging = try #require(try ImportStaging.begin(for: dir.file("new") + "/"))
        #expect(staging.target == dir.file("new"))
        staging.abandon()
        #expect(try Self.names(in: dir, prefix: "new").isEmpty)
    }
}
