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

    @Test("What could not be mapped is listed by line; a workout whose route was imported is not among it")
    func unmappedListed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let routed = try HealthLogBinary.run(["--store", dir.file("store"), "import", PackageFiles.appleHealthExport("healthkit-to-sqlite.xml")])
        #expect(routed.status == 0)
        #expect(!routed.stderr.contains("not mapped"))
        #expect(routed.stderr.contains("\n  HKWorkoutRouteTypeIdentifier 1\n  HKWorkoutTypeIdentifier 1\n"))
        let path = dir.file("clinical.xml")
        try """
            <HealthData locale="en_US">
             <ExportDate value="2024-03-01 08:00:00 +0100"/>
             <Thing/>
            </HealthData>
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try HealthLogBinary.run(["--store", dir.file("store"), "import", path])
        #expect(result.status == 0)
        #expect(result.stderr.contains("not mapped: 1 (Thing 1)\n  line 3: Thing: unknown element\n"))
        #expect(!result.stderr.contains("SPEC"))
    }

    @Test("Route files are counted by element, and one the zip lacks is listed by name")
    func routeFilesCounted() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = try HealthLogBinary.run(["--store", dir.file("store"), "import", PackageFiles.appleHealthExport("healthkit-to-sqlite-localised.zip")])
        #expect(result.status == 0)
        #expect(result.stderr.contains("\nroute files: 1 read (course 3, ele 3, extensions 3, gpx 1, hAcc 3, metadata 1, name 1, speed 3, time 4, trk 1, trkpt 3, trkseg 1, vAcc 3)\n"))
        #expect(result.stderr.hasSuffix("healthlog: added 10, already present 0, deleted 0, replaced 0, skipped 0\n"))
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

    @Test("A file that is not a whole export exits 2 with its own message naming the file, and creates no store")
    func notAnExport() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let cases: [(name: String, bytes: [UInt8], message: String)] = [
            ("empty.xml", [], "empty.xml: the file is empty: not an Apple Health export"),
            ("notes.txt", Array("hello\n".utf8), "notes.txt: the file is plain text, neither XML nor a zip: not an Apple Health export"),
            ("records.xml", Array("<Record type=\"HKQuantityTypeIdentifierStepCount\"/>\n<Record type=\"HKQuantityTypeIdentifierStepCount\"/>\n".utf8),
             "records.xml: line 1: Record elements without a HealthData document: not a whole export"),
            ("cut.xml", Array("<HealthData locale=\"en_US\">\n <ExportDate value=\"2024-03-01 08:00:00 +0100\"/>\n".utf8),
             "cut.xml: the export ends before </HealthData>, at line 2: the file is cut short"),
        ]
        for item in cases {
            let path = dir.file(item.name)
            try ByteSurgery.write(item.bytes, to: path)
            let result = try HealthLogBinary.run(["--store", dir.file("store"), "import", path])
            #expect(result.status == 2, "\(item.name)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("healthlog: error: \(path.replacingOccurrences(of: item.name, with: ""))\(item.message)"), "\(result.stderr)")
            #expect(!result.stderr.contains("Document is empty") && !result.stderr.contains("Extra content at the end of the document\n"))
            #expect(!FileManager.default.fileExists(atPath: dir.file("store")))
        }
    }

    @Test("After --mirror deleted a record, importing the export that holds it says it stays deleted, apart from what is already present")
    func deletedEarlierSplit() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let full = PackageFiles.appleHealthExport("tdda-applehealthdata.xml")
        #expect(try HealthLogBinary.run(["--store", store, "import", full]).status == 0)
        let text = try String(contentsOfFile: full, encoding: .utf8)
        let smaller = dir.file("smaller.xml")
        try text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("DistanceWalkingRunning") }
            .joined(separator: "\n").write(toFile: smaller, atomically: true, encoding: .utf8)
        let mirrored = try HealthLogBinary.run(["--store", store, "import", "--mirror", smaller])
        #expect(mirrored.stderr.hasSuffix("healthlog: added 0, already present 17, deleted 5, replaced 0, skipped 0\n"))
        let again = try HealthLogBinary.run(["--store", store, "import", full])
        #expect(again.status == 0)
        #expect(again.stderr.hasSuffix("healthlog: added 0, already present 17, deleted earlier and not restored 5, deleted 0, replaced 0, skipped 0\n"))
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
