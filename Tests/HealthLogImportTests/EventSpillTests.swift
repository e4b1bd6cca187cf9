import Foundation
import HealthLog
import HealthLogTestSupport
import Testing

@testable import HealthLogImport

/// The spill that keeps an import's checked events between mapping and appending.
@Suite("Import spill")
struct EventSpillTests {
    /// `count` events of varied lengths, the odd ones correlation members, every fourth
    /// with a preparation.
    static func events(_ count: Int) -> [ExportMapper.Event] {
        (0..<count).map { i in
            let line = Array("{\"type\":\"HKQuantityTypeIdentifierStepCount\",\"value\":\(i),\"pad\":\"\(String(repeating: "x", count: i % 300))\"}\n".utf8)
            var event = ExportMapper.Event(type: "T\(i % 3)", uuid: SampleUUID(high: UInt64(i), low: ~UInt64(i)), line: line, isCorrelationMember: i % 2 == 1)
            if i % 4 == 0 { event.prepared = (0..<(1 + i % 90)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ i) } }
            return event
        }
    }

    @Test("Records come back in order with their flags and preparations, from memory and from the unlinked file past the memory limit", arguments: [1 << 30, 5_000, 0])
    func roundTrip(memoryLimit: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("store"), withIntermediateDirectories: false)
        let spill = EventSpill(near: dir.file(memoryLimit == 0 ? "missing-store" : "store"), sealing: nil, chunkBytes: 10_000, memoryLimit: memoryLimit)
        let events = Self.events(2_000)
        for (i, event) in events.enumerated() { try spill.add(event, i % 5 == 0 ? [.endsElement, .fromDocument] : .fromDocument) }
        var back: [(EventSpill.Flags, SampleUUID, [UInt8], [UInt8]?)] = []
        var lastProgress = 0
        try spill.forEach(progress: { lastProgress = $0 }) { back.append(($0.flags, $0.uuid, Array($0.line), $0.prepared.map { Array($0) })) }
        #expect(back.count == events.count)
        for (i, (flags, uuid, line, prepared)) in back.enumerated() {
            #expect(uuid == events[i].uuid)
            #expect(line == events[i].line)
            #expect(prepared == events[i].prepared)
            #expect(flags.contains(.correlationMember) == events[i].isCorrelationMember)
            #expect(flags.contains(.endsElement) == (i % 5 == 0))
            #expect(flags.contains(.fromDocument))
        }
        #expect(lastProgress == spill.size)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: dir.path) == ["store"], "the file is unlinked as soon as it is created")
    }

    @Test("An encrypted store's spill file holds no UUID, type name, value or LZ4 frame in the clear, and reads back", arguments: [true, false])
    func sealedFile(_ sealed: Bool) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("store"), withIntermediateDirectories: false)
        let spill = EventSpill(near: dir.file("store"), sealing: sealed ? try ScratchCipher.forProcess() : nil, chunkBytes: 10_000, memoryLimit: 0)
        let events = Self.events(2_000)
        for event in events { try spill.add(event, .fromDocument) }
        var back: [(SampleUUID, [UInt8])] = []
        try spill.forEach(progress: { _ in }) { back.append(($0.uuid, Array($0.line))) }
        #expect(back.map(\.0) == events.map(\.uuid) && back.map(\.1) == events.map(\.line))
        let bytes = try Self.fileBytes(spill.fd)
        #expect(bytes.count > 20_000, "the chunks went to the file")
        let needles = [KnownPlaintext.lz4Magic, Array("HKQuantityTypeIdentifierStepCount".utf8)]
            + [7, 999, 1_500].flatMap { KnownPlaintext.uuidNeedles(high: events[$0].uuid.high, low: events[$0].uuid.low) }
        let found = KnownPlaintext.found(needles, in: bytes)
        if sealed { #expect(found.isEmpty) } else { #expect(found.contains { $0 == "4 22 4d 18" }, "the scan finds a plain spill's LZ4 frames") }
    }

    @Test("A flipped byte in a sealed spill file fails the reading with damage, never a changed event")
    func sealedDamage() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("store"), withIntermediateDirectories: false)
        let spill = EventSpill(near: dir.file("store"), sealing: try ScratchCipher.forProcess(), chunkBytes: 10_000, memoryLimit: 0)
        for event in Self.events(500) { try spill.add(event, .fromDocument) }
        _ = try Self.fileBytes(spill.fd)  // the last chunk is still gathered: flip in the first
        var byte: UInt8 = 0
        #expect(pread(spill.fd, &byte, 1, 200) == 1)
        byte ^= 0x04
        #expect(pwrite(spill.fd, &byte, 1, 200) == 1)
        var delivered = 0
        let error = #expect(throws: HealthLogError.self) { try spill.forEach(progress: { _ in }) { _ in delivered += 1 } }
        #expect(error?.code == .corrupt)
        #expect(delivered == 0)
    }

    /// The bytes of the (unlinked) spill file open at `fd`.
    private static func fileBytes(_ fd: Int32) throws -> [UInt8] {
        let size = Int(lseek(fd, 0, SEEK_END))
        var bytes = [UInt8](repeating: 0, count: max(0, size))
        let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, size, 0) }
        #expect(got == size)
        return bytes
    }
}
