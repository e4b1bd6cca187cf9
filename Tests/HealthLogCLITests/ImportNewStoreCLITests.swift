import Foundation
import Glibc
import HealthLogTestSupport
import Testing

/// Imports into a store that does not exist yet take the store's creation lock
/// (`.NAME.healthlog-lock` beside it) before they read the export: a second import waits
/// for the first and then imports into the store it made, or gives up before reading.
@Suite("import into a new store, twice at once")
struct ImportNewStoreCLITests {
    /// An export of `count` step counts, each its own sample.
    static func export(_ count: Int) -> String {
        let records = (0..<count).map {
            "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\" value=\"\($0)\" startDate=\"2024-03-01 08:00:00 +0100\" endDate=\"2024-03-01 08:01:00 +0100\"/>"
        }
        return "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n<ExportDate value=\"2024-03-02 09:00:00 +0100\"/>\n" + records.joined(separator: "\n") + "\n</HealthData>\n"
    }

    @Test("Two imports of one export into one new store at once both succeed, and the events are in it once")
    func secondWaits() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("export.xml")
        try Self.export(20_000).write(toFile: path, atomically: true, encoding: .utf8)
        let environment = ["HEALTHLOG_LOCK_TIMEOUT": "120"]
        let imports = try (0..<2).map { _ in
            try HealthLogBinary.launch(["--store", dir.file("store"), "import", path], environment: environment, outputIn: dir)
        }
        let results = imports.map { $0.finish() }
        for result in results { #expect(result.status == 0, "\(result.stderr)") }
        let added = results.compactMap { result in
            result.stderr.split(separator: "\n").last.flatMap { $0.split(separator: " ").dropFirst(2).first }.flatMap { Int($0.dropLast()) }
        }
        #expect(added.sorted() == [0, 20_000], "\(results.map(\.stderr))")
        #expect(try HealthLogBinary.run(["--store", dir.file("store"), "verify"]).status == 0)
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: dir.path)).contains { $0.hasPrefix("store.") || $0.hasPrefix(".store") })
    }

    @Test("An import into a new store whose creation lock another process holds gives up with the lock message before it reads the export")
    func refusesBeforeReading() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("broken.xml")
        try "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n<Record type=\"x\" ".write(toFile: path, atomically: true, encoding: .utf8)
        let held = open(dir.file(".store.healthlog-lock"), O_RDWR | O_CREAT, 0o600)
        try #require(held >= 0 && flock(held, LOCK_EX) == 0)
        defer { close(held) }
        let result = try HealthLogBinary.run(["--store", dir.file("store"), "import", path], environment: ["HEALTHLOG_LOCK_TIMEOUT": "0.3"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("another healthlog process is writing to") && !result.stderr.contains("malformed"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("store")))
    }
}
