#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HealthLogTestSupport
import Testing

/// `healthlog import` on hostile exports made here, end to end: each ends within its time
/// limit with the line or file named, leaves no `STORE.import-*` behind, and the worker
/// peaks under 256 MiB of resident memory; a signal stops an import cleanly, and the
/// worker ends with its parent.
@Suite("import command: bounded on any input")
struct BoundedImportCLITests {
    /// What a measured run gave.
    struct Measured {
        var status: Int32
        var stderr: String
        /// The worker's peak resident memory, in KiB.
        var peakKiB: Int
    }

    /// The most resident memory an import of a hostile file may reach.
    static let peakLimitKiB = 256 * 1024

    /// Runs `import` with the fault tool (no fault: `healthlog` itself, whose worker is the
    /// test twin) with `environment` added; returns its status, standard error and the
    /// worker's peak memory, which the twin writes as it exits. (A child's `wait4` usage
    /// would not do: `posix_spawn` shares this process's memory until the exec, and that
    /// high-water mark stays in the child's count.)
    static func measured(_ arguments: [String], environment: [String: String] = [:], in dir: TemporaryDirectory) throws -> Measured {
        let peakPath = dir.file("peak-\(UInt32.random(in: 0...UInt32.max))")
        var environment = environment
        environment["HEALTHLOG_TEST_PEAK_RSS"] = peakPath
        let result = try HealthLogBinary.faultTool.run(arguments, environment: environment)
        let line = String(decoding: try ByteSurgery.read(peakPath), as: UTF8.self)
        let kib = line.split(separator: " ").compactMap { Int($0) }.first ?? Int.max
        return Measured(status: result.status, stderr: result.stderr, peakKiB: kib)
    }

    /// The names in `dir` that a store's staging directory has.
    static func staging(_ dir: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".import-") }
    }

    /// The hostile documents: name, bytes, what the error ends with.
    static let hostileDocuments: [(name: String, bytes: @Sendable () -> [UInt8], message: String)] = [
        (
            "deep.xml", { HostileExport.document(HostileExport.record + ">\n" + String(repeating: "<a>", count: 30_000) + String(repeating: "</a>", count: 30_000) + "</Record>") },
            "deep.xml: line 4: element a is nested 257 deep, deeper than the 256 the import reads"
        ),
        (
            "entities.xml",
            {
                HostileExport.document(
                    HostileExport.record.replacingOccurrences(of: "\"Phone\"", with: "\"" + String(repeating: "&e;", count: 20_000) + "\"") + "/>",
                    dtd: "<!ENTITY e \"" + String(repeating: "x", count: 100_000) + "\">\n")
            },
            "entities.xml: line 6: attribute sourceName: entity references expand to more than 1 MiB, the most the import expands in one value"
        ),
        (
            "attributes.xml", { HostileExport.document(HostileExport.record + (0..<300_000).map { " k\($0)=\"v\"" }.joined() + "/>") },
            "attributes.xml: line 3: element Record has more than 1000 attributes, the most the import reads on one element"
        ),
        (
            "entity-attributes.xml",
            {
                HostileExport.document(
                    HostileExport.record + ">&crowd;</Record>", dtd: "<!ENTITY crowd \"&#60;a" + (0..<300_000).map { " k\($0)='v'" }.joined() + "/&#62;\">\n")
            },
            "entity-attributes.xml: line 3: entity 'crowd' holds element a with more than 1000 attributes, the most the import reads on one element"
        ),
        (
            "defaults.xml",
            {
                HostileExport.document(
                    String(repeating: HostileExport.record + "/>\n", count: 1000),
                    dtd: "<!ATTLIST Record" + (0..<30_000).map { " d\($0) CDATA \"x\"" }.joined() + ">\n")
            },
            "defaults.xml: line 3: the DTD declares more than 32 attribute defaults, the most the import reads"
        ),
    ]

    @Test(
        "Deep nesting, entity expansion, 300,000 attributes (in a tag or an entity) and 30,000 attribute defaults are refused with their line, under 256 MiB, leaving nothing",
        .timeLimit(.minutes(10)), arguments: 0..<5)
    func hostileDocument(_ index: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let hostile = Self.hostileDocuments[index]
        try ByteSurgery.write(hostile.bytes(), to: dir.file(hostile.name))
        let run = try Self.measured(["--store", dir.file("store"), "import", dir.file(hostile.name)], in: dir)
        #expect(run.status == 2)
        #expect(run.stderr.hasSuffix(hostile.message + "\n"), "\(run.stderr)")
        #expect(run.peakKiB < Self.peakLimitKiB)
        #expect(try Self.staging(dir).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: dir.file("store")))
    }

    /// A zip of the document (a record and a workout whose route is `route_1.gpx`) and
    /// `extra` after it.
    static func zip(_ extra: [CraftedZip.Entry]) -> [UInt8] {
        CraftedZip.make([CraftedZip.stored("apple_health_export/export.xml", HostileExport.document(HostileExport.record + "/>\n" + HostileExport.workout))] + extra)
    }

    @Test("A route and an electrocardiogram that unpack to 1 GiB are listed as refused, the rest imports, under 256 MiB", .timeLimit(.minutes(10)))
    func zipBombs() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let gpx = CraftedZip.repeated(
            "apple_health_export/workout-routes/route_1.gpx", prefix: Array("<?xml version=\"1.0\"?><gpx version=\"1.1\"><trk><trkseg>".utf8),
            pattern: Array(HostileExport.point.utf8), size: 1 << 30, suffix: Array("</trkseg></trk></gpx>\n".utf8))
        let csv = CraftedZip.repeated(
            "apple_health_export/electrocardiograms/ecg_2024-03-01.csv",
            prefix: Array("Name,A\nRecorded Date,2024-03-01 08:00:00 +0000\nSample Rate,512 hertz\n\n".utf8), pattern: Array("-265.868\n".utf8),
            size: 1 << 30, suffix: [])
        try ByteSurgery.write(Self.zip([gpx, csv]), to: dir.file("export.zip"))
        // Refused once past 8 MiB rather than 32, so the debug build parses less of each.
        let run = try Self.measured(
            ["--store", dir.file("store"), "import", dir.file("export.zip")], environment: ["HEALTHLOG_IMPORT_RATIO_FLOOR": "\(8 << 20)"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("route_1.gpx: unpacks to more than 100 times its compressed size past 8 MiB (a zip bomb?): not read"))
        #expect(run.stderr.contains("ecg_2024-03-01.csv: unpacks to more than 100 times its compressed size past 8 MiB (a zip bomb?): not read"))
        #expect(run.stderr.hasSuffix("healthlog: added 2, already present 0, deleted 0, replaced 0, skipped 0\n"))
        #expect(run.peakKiB < Self.peakLimitKiB)
    }

    @Test("A zip entry over HEALTHLOG_IMPORT_ENTRY_BYTES is refused by size, whatever its ratio, and the rest imports")
    func entrySize() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let gpx = "<?xml version=\"1.0\"?><gpx version=\"1.1\"><trk><trkseg>" + String(repeating: HostileExport.point, count: 2000) + "</trkseg></trk></gpx>\n"
        try ByteSurgery.write(Self.zip([CraftedZip.stored("apple_health_export/workout-routes/route_1.gpx", Array(gpx.utf8))]), to: dir.file("export.zip"))
        let refused = try Self.measured(
            ["--store", dir.file("store"), "import", dir.file("export.zip")], environment: ["HEALTHLOG_IMPORT_ENTRY_BYTES": "65536"], in: dir)
        #expect(refused.status == 0)
        #expect(refused.stderr.contains("route_1.gpx: unpacks to more than 65536 bytes, the most the import reads of one file in a zip: not read"))
        #expect(refused.stderr.hasSuffix("healthlog: added 2, already present 0, deleted 0, replaced 0, skipped 0\n"))
        let read = try Self.measured(["--store", dir.file("store2"), "import", dir.file("export.zip")], in: dir)
        #expect(read.stderr.contains("route files: 1 read"))
        #expect(read.stderr.hasSuffix("healthlog: added 3, already present 0, deleted 0, replaced 0, skipped 0\n"))
    }

    @Test("Files of one name in a zip are named in a note")
    func repeatedEntriesNoted() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let gpx = "<?xml version=\"1.0\"?><gpx version=\"1.1\"><trk><trkseg>" + HostileExport.point + "</trkseg></trk></gpx>\n"
        let route = CraftedZip.stored("apple_health_export/workout-routes/route_1.gpx", Array(gpx.utf8))
        try ByteSurgery.write(Self.zip([route, route]), to: dir.file("export.zip"))
        let run = try HealthLogBinary.run(["--store", dir.file("store"), "import", dir.file("export.zip")])
        #expect(run.status == 0)
        #expect(run.stderr.contains("healthlog: note: the zip holds 2 files named apple_health_export/workout-routes/route_1.gpx: the first is read, the others passed over\n"))
    }

    /// An export of `count` records, about 210 bytes each.
    static func manyRecords(_ count: Int) -> [UInt8] {
        var text = HostileExport.head + "<HealthData locale=\"en_US\">\n"
        text.reserveCapacity(count * 220)
        for k in 0..<count {
            text += HostileExport.record.replacingOccurrences(of: "value=\"12\"", with: "value=\"\(k)\"") + "/>\n"
        }
        return Array((text + "</HealthData>\n").utf8)
    }

    /// The worker `healthlog` (process `parent`) runs, once its staging directory exists.
    static func workerOnceStaging(_ parent: pid_t, _ dir: TemporaryDirectory) async throws -> pid_t? {
        for _ in 0..<600 {
            if try !staging(dir).isEmpty,
                let text = try? String(contentsOfFile: "/proc/\(parent)/task/\(parent)/children", encoding: .utf8),
                let worker = text.split(separator: " ").first.flatMap({ pid_t($0) })
            {
                return worker
            }
            // A blocking sleep: an await could leave this task waiting for a thread of a pool
            // other tests keep busy while the import runs to its end.
            usleep(20_000)
        }
        return nil
    }

    /// Whether process `pid` has ended (gone, or a zombie no one reaped yet).
    static func ended(_ pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        let state = status.split(separator: ")").last?.split(separator: " ").first
        return state == "Z" || state == "X"
    }

    @Test("SIGINT or SIGTERM during an import ends it with a message and no staging left", .timeLimit(.minutes(10)), arguments: [SIGINT, SIGTERM])
    func interrupted(_ signalNumber: Int32) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try ByteSurgery.write(Self.manyRecords(300_000), to: dir.file("export.xml"))
        let launched = try HealthLogBinary.launch(["--store", dir.file("store"), "import", dir.file("export.xml")], outputIn: dir)
        let worker = try await Self.workerOnceStaging(launched.process.processIdentifier, dir)
        #expect(worker != nil)
        kill(launched.process.processIdentifier, signalNumber)
        let result = launched.finish()
        #expect(result.status == 1)
        #expect(result.stderr.hasSuffix("healthlog: error: the import was stopped by \(signalNumber == SIGINT ? "SIGINT" : "SIGTERM")\n"))
        #expect(try Self.staging(dir).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: dir.file("store")))
    }

    @Test("When healthlog is killed, its worker stops its import, cleans up and ends", .timeLimit(.minutes(10)))
    func workerEndsWithParent() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try ByteSurgery.write(Self.manyRecords(300_000), to: dir.file("export.xml"))
        let launched = try HealthLogBinary.launch(["--store", dir.file("store"), "import", dir.file("export.xml")], outputIn: dir)
        let worker = try #require(try await Self.workerOnceStaging(launched.process.processIdentifier, dir))
        kill(launched.process.processIdentifier, SIGKILL)
        _ = launched.finish()
        var waited = 0
        while !Self.ended(worker), waited < 60_000 {
            usleep(50_000)
            waited += 50
        }
        #expect(Self.ended(worker))
        #expect(waited < 30_000, "the worker took \(waited) ms to end")
        #expect(try Self.staging(dir).isEmpty)
    }
}
