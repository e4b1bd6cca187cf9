import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// UUID runs and the sync table are bound to the log they were derived from (``LogBinding``):
/// copies from another store with the same sequence ranges, or runs of an older layout,
/// are never the only witness of an answer. Writers treat them as missing and rebuild
/// them, so the store answers as it does with its derived files deleted.
@Suite("UUID index and sync table: bound to their log")
struct UUIDIndexBindingTests {
    /// The fixture's appends made in another store, every UUID changed (same length, so the
    /// same batches, segments and sequence ranges): its runs and sync table have the names
    /// of the fixture's but describe other samples.
    static func foreignStore(_ dir: TemporaryDirectory) throws -> HealthStore {
        let other = HealthStore(directory: dir.file("other"), options: IndexFixture.options)
        for lines in IndexFixture.appends {
            _ = try other.append(ndjson: IndexFixture.ndjson(lines.map { $0.replacingOccurrences(of: "00000000-0000-4000-8000-", with: "11111111-0000-4000-8000-") }))
        }
        return other
    }

    /// The UUIDs of the adds `store` exports (in HealthKit's view: its live samples), in order.
    static func exportedUUIDs(_ store: HealthStore) throws -> [String] {
        var uuids: [String] = []
        _ = try store.export(ReplayRequest(raw: false)) { line in
            let text = String(decoding: line, as: UTF8.self)
            if let start = text.range(of: #""uuid":""#)?.upperBound { uuids.append(String(text[start...].prefix(36))) }
        }
        return uuids
    }

    @Test("Runs and a sync table copied from another store with the same ranges are ignored: live UUIDs stay refused, and the store answers as it does without derived files")
    func copiedFromAnotherStore() throws {
        let fixture = try IndexFixture.shared.get()
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let other = try Self.foreignStore(dir)
        let foreign = try ByteSurgery.image(of: other.directory).filter { $0.key.hasPrefix("uuids/") && ($0.key.hasSuffix(".run") || $0.key == "uuids/sync") }
        let own = fixture.pristine.filter { $0.key.hasPrefix("uuids/") && ($0.key.hasSuffix(".run") || $0.key == "uuids/sync") }
        #expect(foreign.keys.sorted() == own.keys.sorted(), "the same sequence ranges")
        #expect(foreign != own)

        let copied = try IndexFixture.restore(fixture.pristine, into: dir.file("copied"))
        for name in own.keys { try ByteSurgery.remove(copied.directory + "/" + name) }
        for (name, bytes) in foreign { try ByteSurgery.write(bytes, to: copied.directory + "/" + name) }
        let bare = try IndexFixture.restore(fixture.pristine.filter { !IndexFixture.isDerived($0.key) }, into: dir.file("bare"))

        let report = try copied.verify()
        #expect(Set(report.problems) == Set(foreign.keys.map { name in
            let seq = name == "uuids/sync" ? 220 : UUIDFingerprintRun.range(ofFileName: String(name.dropFirst(6)))!.upperBound
            let offset = name == "uuids/sync" ? SyncTable.bindingOffset : UUIDFingerprintRun.bindingOffset
            return "\(name) at byte \(offset): was derived from another log (store or batch at sequence \(seq)); run 'healthlog reindex'"
        }), "\(report.problems)")
        let layout = StoreLayout(directory: copied.directory)
        #expect(UUIDRunReader(layout, snapshot: try LogSnapshot(layout)) == nil, "an import does not take another store's runs")

        for store in [copied, bare] {
            for (n, reason) in IndexFixture.reusedUUIDs {
                let error = #expect(throws: HealthLogError.self) { try store.append(ndjson: IndexFixture.ndjson([IndexFixture.sample(n)])) }
                #expect(error?.message.contains(reason) == true, "\(n): \(error?.message ?? "")")
            }
            // Deletes, a replacement of a sync identifier's sample, fresh samples.
            #expect(try store.append(ndjson: IndexFixture.ndjson(IndexFixture.laterWrite)) == fixture.laterWriteSummary)
            #expect(try IndexFixture.answers(store) == fixture.answersAfterWrite)
            let exported = try Self.exportedUUIDs(store)
            #expect(Set(exported).count == exported.count, "each UUID once")
            #expect(!exported.contains { $0.hasPrefix("11111111") })
        }
        #expect(try Self.exportedUUIDs(copied) == Self.exportedUUIDs(bare))
        let after = try copied.verify()
        #expect(after.isSound && after.notes.isEmpty, "\(after)")
        let copiedAfter = try ByteSurgery.image(of: copied.directory).filter { $0.key.hasPrefix("uuids/") }
        #expect(copiedAfter.keys.sorted() == (try ByteSurgery.image(of: bare.directory).filter { $0.key.hasPrefix("uuids/") }.keys.sorted()))
        for (name, bytes) in copiedAfter where name.hasSuffix(".run") || name == "uuids/sync" { #expect(foreign[name] != bytes, "\(name) rebuilt") }
    }

    @Test("verify reports a UUID added twice in the log, naming both adds, after runs edited within the store let the second add in")
    func uuidAddedTwiceReported() throws {
        let fixture = try IndexFixture.shared.get()
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let other = try Self.foreignStore(dir)
        let store = try IndexFixture.restore(fixture.pristine, into: dir.file("store"))
        let layout = StoreLayout(directory: store.directory)
        let snapshot = try LogSnapshot(layout)
        // Another store's runs given this store's binding, their checksums recomputed: what
        // the binding cannot tell, a forgery within the store.
        for name in fixture.pristine.keys where name.hasSuffix(".run") {
            let range = try #require(UUIDFingerprintRun.range(ofFileName: String(name.dropFirst(6))))
            let foreign = try ByteSurgery.read(other.directory + "/" + name)
            try ByteSurgery.write(UUIDFingerprintRun.rebound(foreign, to: try #require(snapshot.binding(at: range.upperBound))), to: store.directory + "/" + name)
        }
        #expect(try store.append(ndjson: IndexFixture.ndjson([IndexFixture.sample(5)])).added == 1)
        let report = try store.verify()
        let uuid = try #require(SampleUUID(IndexFixture.uuid(5)))
        let twice = report.problems.filter { $0.contains("adds UUID") }
        #expect(twice.count == 1 && twice[0].hasSuffix(": event 221 adds UUID \(uuid), which event 5 added already"), "\(report.problems)")
        #expect(twice.first?.hasPrefix("segments/") == true)
    }

    /// `bytes` (a run of this build) in the layout of the version 2 runs of older builds: the
    /// 48-byte header without the binding (checksum of its first 40 bytes, then 4 zero bytes).
    static func versionTwo(_ bytes: [UInt8]) -> [UInt8] {
        var header = Array(bytes[0..<40])
        header[4] = 2
        header[5] = 0
        let crc = header.withUnsafeBytes { CRC32C.checksum($0) }
        withUnsafeBytes(of: crc.littleEndian) { header += $0 }
        header += [0, 0, 0, 0]
        return header + bytes[UUIDFingerprintRun.headerLength...]
    }

    @Test("Version 2 runs of an older build are noted, never used for lookups, and rebuilt at this build's version by the next write")
    func versionTwoRunsRebuilt() throws {
        let fixture = try IndexFixture.shared.get()
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var image = fixture.pristine
        let runs = image.keys.filter { $0.hasSuffix(".run") }.sorted()
        #expect(runs.count == 2)
        for name in runs { image[name] = Self.versionTwo(image[name]!) }
        let store = try IndexFixture.restore(image, into: dir.file("store"))
        #expect(runs.allSatisfy { UUIDFingerprintRun(path: store.directory + "/" + $0, cipher: nil) == nil })
        let before = try store.verify()
        #expect(before.problems == [])
        #expect(runs.allSatisfy { name in before.notes.contains { $0.hasPrefix("\(name) is index version 2, an older layout than this healthlog's \(FormatConstants.uuidIndexVersion)") } }, "\(before.notes)")
        let layout = StoreLayout(directory: store.directory)
        #expect(UUIDRunReader(layout, snapshot: try LogSnapshot(layout)) == nil)

        for (n, reason) in IndexFixture.reusedUUIDs {
            let error = #expect(throws: HealthLogError.self) { try store.append(ndjson: IndexFixture.ndjson([IndexFixture.sample(n)])) }
            #expect(error?.message.contains(reason) == true, "\(n): \(error?.message ?? "")")
        }
        #expect(try store.append(ndjson: IndexFixture.ndjson(IndexFixture.laterWrite)) == fixture.laterWriteSummary)
        #expect(try IndexFixture.answers(store) == fixture.answersAfterWrite)
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory + "/uuids").filter { $0.hasSuffix(".run") }
        #expect(!names.isEmpty && names.allSatisfy { UUIDFingerprintRun(path: store.directory + "/uuids/" + $0, cipher: nil) != nil }, "\(names)")
        let after = try store.verify()
        #expect(after.isSound && after.notes.isEmpty, "\(after)")
    }
}
