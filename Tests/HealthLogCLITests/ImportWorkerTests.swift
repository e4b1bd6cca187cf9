import Foundation
import HealthLogTestSupport
import Testing

/// `healthlog import` runs in `healthlog-import`, the only executable that links the
/// import's libraries: the other commands must not load libxml2 or libarchive,
/// and the import must behave as if it ran in `healthlog` itself.
@Suite("import worker")
struct ImportWorkerTests {
    /// The shared libraries `path` names as `NEEDED` in its dynamic section (`readelf -d`).
    static func neededLibraries(_ path: String) throws -> [String] {
        let result = try ChildProcess.run(ChildProcess.make("/usr/bin/env", ["readelf", "-d", path]))
        #expect(result.status == 0, "readelf -d \(path) failed: \(result.stderr)")
        return result.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
            guard let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    @Test("healthlog needs neither libxml2 nor libarchive (libcrypto, for AES-256-GCM, it does); healthlog-import needs all three")
    func linkage() throws {
        let core = try Self.neededLibraries(HealthLogBinary.path)
        #expect(core.contains { $0.hasPrefix("liblz4") }, "\(core)")
        #expect(!core.contains { $0.hasPrefix("libxml2") || $0.hasPrefix("libarchive") }, "\(core)")
        let worker = try Self.neededLibraries(BuiltProgram("healthlog-import").path)
        #expect(worker.contains { $0.hasPrefix("libxml2") }, "\(worker)")
        #expect(worker.contains { $0.hasPrefix("libarchive") }, "\(worker)")
        #expect(worker.contains { $0.hasPrefix("libcrypto") }, "\(worker)")
    }

    @Test("The shipping healthlog-import refuses a fault plan: it writes nothing and kills nothing")
    func shippingWorkerTakesNoFaults() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let worker = BuiltProgram("healthlog-import")
        let result = try worker.run(
            ["--store", store, "--fault", "kill:batch-written", "--", PackageFiles.appleHealthExport("freddiefujiwara-ahcd.xml")])
        #expect(!result.wasSignalled && result.status == 1, "status \(result.status)")
        #expect(result.stdout.contains("healthlog-import injects no faults"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test("The store options reach the worker, and a worker killed by a fault kills healthlog with the same signal, saying so")
    func faultReachesWorker() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let killed = try HealthLogBinary.run(
            ["--store", store, "import", PackageFiles.appleHealthExport("freddiefujiwara-ahcd.xml")], injecting: "kill:segment-created")
        #expect(killed.wasSignalled && killed.status == SIGKILL, "status \(killed.status): \(killed.stderr)")
        // The fault tool runs the worker's test twin, under its own name.
        #expect(killed.stderr.hasSuffix(" was killed by signal 9 (Killed); importing again completes the import\n"), "\(killed.stderr)")
        #expect(killed.stderr.contains("healthlog: error: "), "\(killed.stderr)")
        let again = try HealthLogBinary.run(["--store", store, "import", PackageFiles.appleHealthExport("freddiefujiwara-ahcd.xml")])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.hasSuffix("healthlog: added 16, already present 0, deleted 0, replaced 0, skipped 0\n"), "\(again.stderr)")
    }

    @Test("A store failure in the worker is reported by healthlog with its message and exit 1")
    func storeFailure() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Data().write(to: URL(fileURLWithPath: dir.file("file")))
        let store = dir.file("file/store")
        let result = try HealthLogBinary.run(["--store", store, "import", PackageFiles.appleHealthExport("freddiefujiwara-ahcd.xml")])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("healthlog: error: "), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
