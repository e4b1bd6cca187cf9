import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Segments opened lazily through a bounded ``SegmentDescriptors``: a reader of any number
/// of segments holds a few descriptors, and a segment removed or replaced after the
/// snapshot recorded it reads as empty, never as another file's bytes.
@Suite("Segment descriptors", .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd")))
struct SegmentDescriptorTests {
    /// How many descriptors of this process point at files under `directory` (read from
    /// `/proc/self/fd`, so other tests' files are not counted).
    private static func openFiles(under directory: String) -> Int {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.filter { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd))?.hasPrefix(directory + "/") == true
        }.count
    }

    /// A store in `dir` of `count` segments, one event each.
    private static func store(_ count: Int, in dir: TemporaryDirectory) throws -> HealthStore {
        var options = StoreOptions()
        options.sync = false
        options.segmentBytes = 1
        options.batchBytes = 1
        let store = HealthStore(directory: dir.file("store"), options: options)
        let lines = (0..<count).map { i in
            #"{"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T08:00:00Z","value":\#(i % 200 + 1),"unit":"count/min"}"# + "\n"
        }
        _ = try store.append(ndjson: Array(lines.joined().utf8))
        return store
    }

    @Test("Replaying a store of 300 segments never holds more of its files open than the cache's capacity")
    func replayHoldsFewDescriptors() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.store(300, in: dir)
        #expect(Self.openFiles(under: dir.path) == 0)
        var delivered = 0
        var most = 0
        _ = try store.replay(ReplayRequest()) { _ in
            delivered += 1
            most = max(most, Self.openFiles(under: dir.path))
        }
        #expect(delivered == 300)
        // The segments the cache holds, plus `segments/` itself, which the snapshot holds
        // under the readers' lock (``ReaderLock``).
        #expect(most >= 1 && most <= SegmentDescriptors.defaultCapacity + 1, "held \(most)")
        #expect(Self.openFiles(under: dir.path) == 0)
    }

    @Test("The cache closes the least recently used segment to open another, and reopens it when read again")
    func leastRecentlyUsedIsClosed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        _ = try Self.store(3, in: dir)
        let layout = StoreLayout(directory: dir.file("store"))
        let descriptors = SegmentDescriptors(layout, capacity: 2)
        let files = try layout.listSegments().map { try #require(try SegmentFile(layout, $0, descriptors: descriptors)) }
        #expect(files.count == 3 && descriptors.openCount == 0)
        let prologues = try files.map { try $0.read(at: 0, count: SegmentLayout.prologueLength) }
        #expect(descriptors.openCount == 2 && Self.openFiles(under: dir.path) == 2)
        #expect(try files[0].read(at: 0, count: SegmentLayout.prologueLength) == prologues[0])
        #expect(descriptors.openCount == 2 && Self.openFiles(under: dir.path) == 2)
    }

    @Test("A segment removed after the snapshot recorded it reads as empty, and a frame in it is an error naming the file")
    func removedSegmentReadsAsEmpty() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        _ = try Self.store(2, in: dir)
        let layout = StoreLayout(directory: dir.file("store"))
        let name = try #require(try layout.listSegments().last)
        let file = try #require(try SegmentFile(layout, name, descriptors: SegmentDescriptors(layout)))
        try FileManager.default.removeItem(atPath: layout.segment(baseSeq: name.baseSeq))
        #expect(try file.read(at: 0, count: SegmentLayout.prologueLength).isEmpty)
        var buffer: [UInt8] = []
        let error = try #require(throws: HealthLogError.self) { try file.read(into: &buffer, at: 0, count: 8) }
        #expect(error.code == .corrupt && error.message.hasPrefix(file.location(0)), "\(error)")
        #expect(try SegmentFile(layout, name, descriptors: SegmentDescriptors(layout)) == nil)
    }

    @Test("A segment replaced by another file of the same name reads as empty, not as the new file's bytes")
    func replacedSegmentReadsAsEmpty() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        _ = try Self.store(2, in: dir)
        let layout = StoreLayout(directory: dir.file("store"))
        let name = try #require(try layout.listSegments().last)
        let path = layout.segment(baseSeq: name.baseSeq)
        let file = try #require(try SegmentFile(layout, name, descriptors: SegmentDescriptors(layout)))
        try FileManager.default.copyItem(atPath: path, toPath: path + ".new")
        #expect(rename(path + ".new", path) == 0)
        #expect(try file.read(at: 0, count: SegmentLayout.prologueLength).isEmpty)
    }

    @Test("A segment cut shorter after the snapshot recorded it reads short, up to its new end")
    func truncatedSegmentReadsShort() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        _ = try Self.store(2, in: dir)
        let layout = StoreLayout(directory: dir.file("store"))
        let name = try #require(try layout.listSegments().last)
        let file = try #require(try SegmentFile(layout, name, descriptors: SegmentDescriptors(layout)))
        #expect(truncate(layout.segment(baseSeq: name.baseSeq), off_t(SegmentLayout.prologueLength)) == 0)
        #expect(file.size > SegmentLayout.prologueLength)
        #expect(try file.read(at: 0, count: file.size).count == SegmentLayout.prologueLength)
    }
}
