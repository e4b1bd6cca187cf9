import Foundation
import HealthLog
import HealthLogTestSupport
import Testing

/// UUID runs and a sync table copied into a store from another store with the same
/// sequence ranges, through the real binary: `add` of a UUID live in the store is refused
/// as it is with no runs at all, and `export` shows each UUID once, as the store does with
/// its derived files deleted.
@Suite("Derived files copied from another store")
struct CopiedIndexCLITests {
    /// The seed's lines with every UUID changed (same length: the same batches and ranges).
    static func foreignLines(_ lines: String) -> String {
        lines.replacingOccurrences(of: "00000000-0000-4000-8000-", with: "11111111-0000-4000-8000-")
    }

    /// The files in `store`'s `uuids/` that are runs or the sync table (relative names).
    static func uuidFiles(_ store: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: store + "/uuids").filter { $0.hasSuffix(".run") || $0 == "sync" }.sorted()
    }

    @Test("add of a live UUID is refused (exit 2) and export shows each UUID once, with another store's UUID runs and sync table copied in")
    func copiedRunsIgnored() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let lines = Events.lines(1...30, deleting: [2, 4])
        let stores = ["copied", "bare", "other"].map { dir.file($0) }
        for store in stores { try CrashTests.seed(store, with: store == stores[2] ? Self.foreignLines(lines) : lines) }
        // Another store's sync table too (reindex writes one).
        for store in stores { #expect(try HealthLogBinary.run(["--store", store, "reindex"]).status == 0) }
        let (copied, bare, other) = (stores[0], stores[1], stores[2])
        let names = try Self.uuidFiles(other)
        #expect(try Self.uuidFiles(copied) == names && names.contains("sync") && names.count >= 2, "the same ranges")
        for name in names {
            try FileManager.default.removeItem(atPath: copied + "/uuids/" + name)
            try FileManager.default.copyItem(atPath: other + "/uuids/" + name, toPath: copied + "/uuids/" + name)
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: bare + "/uuids") { try FileManager.default.removeItem(atPath: bare + "/uuids/" + name) }
        for name in try FileManager.default.contentsOfDirectory(atPath: bare + "/segments") where name.hasSuffix(".idx") {
            try FileManager.default.removeItem(atPath: bare + "/segments/" + name)
        }

        let exported = try [copied, bare].map { store in
            let live = Events.uuid(7)
            let refused = try HealthLogBinary.run(["--store", store, "add", "--uuid", live, "--type", "HeartRate", "--value", "70", "--unit", "count/min"])
            #expect(refused.status == 2, "\(store): \(refused.stderr)")
            #expect(refused.stderr.contains("is already in the store"), "\(refused.stderr)")
            let added = try HealthLogBinary.run(["--store", store, "add", "--type", "HeartRate", "--value", "71", "--unit", "count/min"])
            #expect(added.status == 0, "\(added.stderr)")
            let fresh = added.stdout.split(separator: "\n").first.map(String.init)?.lowercased()
            let result = try HealthLogBinary.run(["--store", store, "export"])
            #expect(result.status == 0, "\(result.stderr)")
            let uuids = result.stdout.split(separator: "\n").compactMap { line in
                line.range(of: #""uuid":""#).map { String(line[$0.upperBound...].prefix(36)).lowercased() }
            }
            #expect(Set(uuids).count == uuids.count, "each UUID once: \(uuids)")
            #expect(uuids.filter { $0 == fresh }.count == 1)
            return uuids.filter { $0 != fresh }
        }
        #expect(exported[0] == exported[1])
        #expect(exported[0].count == 28)
        #expect(!exported[0].contains { $0.hasPrefix("11111111") })
        #expect(try HealthLogBinary.run(["--store", copied, "verify"]).status == 0)
    }
}
