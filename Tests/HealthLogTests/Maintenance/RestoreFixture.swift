import Foundation
import HealthLogTestSupport
@testable import HealthLog

/// A store of 100 heart rates backed up at head 100, then grown to 150: what the restore
/// tests start from.
struct RestoreFixture {
    /// The scratch directory.
    let dir: TemporaryDirectory
    /// The store (head 150).
    let store: HealthStore
    /// The backup (head 100).
    var backup: String { dir.file("backup") }

    /// `count` heart-rate add lines, numbered from `first`.
    static func lines(_ count: Int, from first: Int) -> [UInt8] {
        Array((first..<first + count).map { i in
            #"{"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T08:00:00Z","value":\#(i % 200),"unit":"count/min","metadata":{"n":\#(i)}}"# + "\n"
        }.joined().utf8)
    }

    /// Small segments and batches, so the backup holds sealed segments with indexes.
    static var options: StoreOptions {
        var options = StoreOptions()
        options.sync = false
        options.segmentBytes = 8_000
        options.batchBytes = 2_000
        return options
    }

    /// Builds the store, the backup at 100, then 50 more events.
    init() throws {
        dir = try TemporaryDirectory()
        store = HealthStore(directory: dir.file("store"), options: Self.options)
        _ = try store.append(ndjson: Self.lines(100, from: 0))
        _ = try store.backup(to: dir.file("backup"))
        _ = try store.append(ndjson: Self.lines(50, from: 100))
    }

    /// The sequence numbers `replay --raw` delivers from `anchor`.
    static func seqs(_ store: HealthStore, from anchor: QueryAnchor = .beginning) throws -> [UInt64] {
        var out: [UInt64] = []
        _ = try store.replay(ReplayRequest(anchor: anchor, raw: true)) { line in
            let text = String(decoding: line, as: UTF8.self)
            if let seq = text.split(separator: ",").first?.split(separator: ":").last.flatMap({ UInt64($0) }) { out.append(seq) }
        }
        return out
    }

    /// Every path under `directory` with each regular file's bytes (`nil` for a directory).
    static func tree(_ directory: String) throws -> [String: Data?] {
        guard FileManager.default.fileExists(atPath: directory) else { return [:] }
        var out: [String: Data?] = [:]
        for relative in try FileManager.default.subpathsOfDirectory(atPath: directory) {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: directory + "/" + relative, isDirectory: &isDirectory)
            out[relative] = isDirectory.boolValue ? nil : FileManager.default.contents(atPath: directory + "/" + relative)
        }
        return out
    }
}
