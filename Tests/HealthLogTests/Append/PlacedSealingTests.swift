#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// An encrypted append places each batch ahead (``SegmentAppender/place(_:length:)``),
/// seals it on another thread, and writes it in order: the units open where they were
/// written, and only there.
@Suite("Batches sealed off the writer's thread")
struct PlacedSealingTests {
    /// An appender of a new encrypted store in `directory` whose segments hold two of `batches`.
    private static func appender(_ directory: String, _ batches: [(header: BatchHeader, bytes: [UInt8])], cipher: StoreCipher) throws -> SegmentAppender {
        #expect(mkdir(directory, 0o700) == 0)
        var options = StoreOptions()
        options.sync = false
        let largest = batches.map { $0.header.sealedLength($0.bytes.count) }.max()!
        options.segmentBytes = SegmentLayout.prologueLength + 2 * largest
        return try SegmentAppender(StoreLayout(directory: directory), options: options, faults: FaultCounter(FaultPlan()), storeID: cipher.storeID, cipher: cipher, resume: nil)
    }

    @Test("Batches placed before any is written, across segment rolls, and sealed at once on other threads, open where they were written and nowhere else")
    func placedAhead() throws {
        let batches = try SegmentWritebackTests.batches()
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let id = StoreID.random()
        let cipher = StoreCipher(storeID: id, keys: [0: try SecretBytes.random(count: 32)], ciphers: [0: .preferred], current: 0)
        let layout = StoreLayout(directory: dir.file("store"))
        let appender = try Self.appender(layout.directory, batches, cipher: cipher)
        let places = try batches.map { try #require(appender.place($0.header, length: $0.bytes.count)) }
        #expect(Set(places.map(\.segmentBase)).count == 3, "the places roll to new segments")

        let sealed = Sealings(count: batches.count)
        DispatchQueue.concurrentPerform(iterations: batches.count) { k in
            sealed.set(k, batches[k].header.sealed(batches[k].bytes, at: places[k]))
        }
        var written: [(name: SegmentName, batch: BatchRef)] = []
        for k in batches.indices {
            let (header, bytes) = try #require(sealed.get(k))
            written.append(try appender.write(sealed: bytes, header: header, at: places[k]))
        }

        for (k, entry) in written.enumerated() {
            #expect(entry.name.baseSeq == places[k].segmentBase && entry.batch.offset == places[k].offset)
            let file = try ByteSurgery.read(layout.segment(baseSeq: entry.name.baseSeq, generation: entry.name.generation))
            let plain = batches[k]
            let frame = Array(plain.bytes[(plain.bytes.count - plain.header.framesLength)...])
            let group = entry.batch.header.groups[0]
            var unit = Array(file[entry.batch.groupOffsets[0]..<entry.batch.groupOffsets[0] + Int(group.frameLength)])
            var moved = unit
            let opened = unit.withUnsafeMutableBytes { places[k].openGroup(0, group, in: $0) }
            #expect(opened.map { Array(unit[$0]) } == frame, "batch \(k) opens to its frame")
            let elsewhere = BatchPlace(cipher: cipher, segmentBase: places[k].segmentBase, generation: 0, offset: places[k].offset + 1)
            #expect(moved.withUnsafeMutableBytes { elsewhere.openGroup(0, group, in: $0) } == nil, "batch \(k) does not open at another offset")
        }
    }

    @Test("A batch written out of the order it was placed in is refused and writes nothing")
    func outOfOrder() throws {
        let batches = try SegmentWritebackTests.batches()
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let cipher = StoreCipher(storeID: .random(), keys: [0: try SecretBytes.random(count: 32)], ciphers: [0: .preferred], current: 0)
        let appender = try Self.appender(dir.file("store"), batches, cipher: cipher)
        let first = try #require(appender.place(batches[0].header, length: batches[0].bytes.count))
        let second = try #require(appender.place(batches[1].header, length: batches[1].bytes.count))
        let (header0, bytes0) = batches[0].header.sealed(batches[0].bytes, at: first)
        let (header1, bytes1) = batches[1].header.sealed(batches[1].bytes, at: second)
        #expect(throws: HealthLogError.self) { try appender.write(sealed: bytes1, header: header1, at: second) }
        #expect(appender.current == nil, "nothing written")
        _ = try appender.write(sealed: bytes0, header: header0, at: first)
        let end = try #require(appender.current).offset
        #expect(throws: HealthLogError.self) { try appender.write(sealed: bytes1, header: header1, at: first) }
        #expect(try #require(appender.current).offset == end, "nothing written")
    }
}

/// The sealed batches of ``PlacedSealingTests/placedAhead()``, filled from several threads.
private final class Sealings: @unchecked Sendable {
    private var slots: [(header: BatchHeader, bytes: [UInt8])?]
    private let lock = DispatchSemaphore(value: 1)

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ k: Int, _ value: (header: BatchHeader, bytes: [UInt8])) {
        lock.wait()
        slots[k] = value
        lock.signal()
    }

    func get(_ k: Int) -> (header: BatchHeader, bytes: [UInt8])? {
        lock.wait()
        defer { lock.signal() }
        return slots[k]
    }
}
