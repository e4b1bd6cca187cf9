import Foundation
import HealthLogTestSupport
import Testing

/// `healthlog import` end to end: the anchor on stdout, the per-element and per-type
/// report on stderr, idempotence, and exit 2 with line and column for malformed XML.
@Suite("import command")
struct ImportCLITests {
    @Test("import prints the anchor on stdout and counts per element and per type on stderr; again, it adds nothing")
    func reportAndIdempotence() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let first = try HealthLogBinary.run(["--store", store, "import", PackageFiles.appleHealthExport("freddiefujiwara-ahcd.xml")])
        #expect(first.status == 0)
        #expect(first.stdout.split(separator: "\n").count == 1)
        #expect(first.stderr.contains("\n  Record 11 (2 in correlations)\n"))
        #expect(first.stderr.contains("\n  HKQuantityTypeIdentifierBloodPressureSystolic 7\n"))
        #expect(first.stderr.hasSuffix("healthlog: added 16, already present 0, deleted 0, replaced 0, skipped 0\n"))
        let second = try HealthLogBinary.run(["--store", store, "import", PackageFiles.appleHealthExport("freddiefujiwara-ahcd.xml")])
        #expect(second.status == 0)
        #expect(second.stdout == first.stdout)
        #expect(second.stderr.hasSuffix("healthlog: added 0, already present 16, deleted 0, replaced 0, skipped 0\n"))
    }

    @Test("What could not be mapped is listed by line")
    func unmappedListed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = try HealthLogBinary.run(["--store", dir.file("store"), "import", PackageFiles.appleHealthExport("healthkit-to-sqlite.xml")])
        #expect(result.status == 0)
        #expect(result.stderr.contains("not mapped: 1 (Workout 1)\n  line 14: Workout: 2 route Location points"))
    }

    @Test("Malformed XML exits 2 naming line and column, and creates no store")
    func malformed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = try HealthLogBinary.run(["--store", dir.file("store"), "import", PackageFiles.appleHealthExport("legacy-ios8-malformed.xml")])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("healthlog: error: "))
        #expect(result.stderr.contains("legacy-ios8-malformed.xml: line 5, column 198: malformed XML"))
        #expect(!FileManager.default.fileExists(atPath: dir.file("store")))
    }

    @Test("A missing or unreadable export file, or none, is bad usage: exit 2")
    func badUsage() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let missing = try HealthLogBinary.run(["--store", dir.file("store"), "import", dir.file("nope.xml")])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot open"))
        let none = try HealthLogBinary.run(["--store", dir.file("store"), "import"])
        #expect(none.status == 2)
        #expect(none.stderr.hasPrefix("healthlog: error: missing the export file\nUsage: healthlog [--store <dir>] import [--mirror] [--no-sync] <file>\n"))
    }
}
