import Foundation
import HealthLog
import HealthLogTestSupport
import Testing

@testable import HealthLogImport

/// The import's reading ahead: the export file read in large blocks and handed out as the
/// document reader asks, and the spill read back on a thread of its own into the appends.
@Suite("Import: reading ahead")
struct ImportReadingTests {
    @Test("Reads from the block give the file's bytes in the sizes asked, short only at the end, across block boundaries", arguments: [4096, 1000, 1 << 20])
    func fileBlocks(askedBytes: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let size = 2 * ExportFile.blockBytes + 12_345
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        #expect(FileManager.default.createFile(atPath: dir.file("export.xml"), contents: Data(bytes)))
        let file = try ExportFile(dir.file("export.xml"))
        var back: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: askedBytes)
        var counts: [Int] = []
        while true {
            let count = try buffer.withUnsafeMutableBytes { try file.read(into: $0) }
            counts.append(count)
            if count == 0 { break }
            back += buffer[0..<count]
            #expect(file.bytesConsumed == back.count)
        }
        #expect(back == bytes)
        #expect(counts.dropLast(2).allSatisfy { $0 == askedBytes })
        #expect(counts.last == 0)
        #expect(counts[counts.count - 2] == size - askedBytes * (counts.count - 2))
        file.close()
    }

    /// The appends adding `records` one by one to an ``ImportWriter`` would make: each
    /// append's record count, ending only after a record that ends an element.
    static func expectedAppends(_ records: [(lineBytes: Int, endsElement: Bool)], eventsPerAppend: Int, maxBytes: Int) -> [Int] {
        var appends: [Int] = []
        var events = 0
        var bytes = 0
        for record in records {
            events += 1
            bytes += record.lineBytes
            if record.endsElement, events >= eventsPerAppend || bytes >= maxBytes {
                appends.append(events)
                (events, bytes) = (0, 0)
            }
        }
        if events > 0 { appends.append(events) }
        return appends
    }

    @Test(
        "The spill read back on its thread makes the appends, in order and with the boundaries, of adding its records one by one; members counted in one share or several",
        arguments: [1, 7, 50, 10_000], [CorrelationMembers.membersPerPass, 2])
    func feedBoundaries(eventsPerAppend: Int, membersPerPass: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // Several shares read the spill again: from its file as well as from memory.
        let spill = EventSpill(near: dir.file("store"), sealing: nil, chunkBytes: 4_000, memoryLimit: membersPerPass == 2 ? 8_000 : 1 << 30)
        var records: [(lineBytes: Int, endsElement: Bool)] = []
        let members = CorrelationMembers(near: dir.file("store"), sealing: nil, membersPerPass: membersPerPass)
        var memberTypes: [SampleUUID: String] = [:]
        for i in 0..<1_500 {
            let line = Array("{\"op\":\"delete\",\"uuid\":\"\(SampleUUID(high: 1, low: UInt64(i)))\",\"pad\":\"\(String(repeating: "p", count: i % 200))\"}\n".utf8)
            var event = ExportMapper.Event(type: "T", uuid: SampleUUID(high: 1, low: UInt64(i % 1_400)), line: line, isCorrelationMember: i % 97 == 3)
            if i % 11 == 5 { event.inStore = .live }
            if event.isCorrelationMember {
                memberTypes[event.uuid] = "M\(i % 2)"
                try members.add(event.uuid, type: "M\(i % 2)")
            }
            let ends = i % 3 != 0
            try spill.add(event, ends ? [.fromDocument, .endsElement] : .fromDocument)
            records.append((event.inStore == nil ? line.count : 0, ends))
        }
        let maxBytes = 9_000
        var made: [(events: Int, lines: Int, uuids: [SampleUUID], live: Int)] = []
        var progress: [Int] = []
        let outcome = try SpillAppendFeed.run(spill, members: members, eventsPerAppend: eventsPerAppend, maxBytes: maxBytes) { gathered in
            made.append((gathered.events, gathered.byteCount, gathered.uuids, gathered.present.live))
        } progress: { progress.append($0) }
        #expect(made.map(\.events) == Self.expectedAppends(records, eventsPerAppend: eventsPerAppend, maxBytes: maxBytes))
        #expect(made.map(\.lines).reduce(0, +) == records.map(\.lineBytes).reduce(0, +))
        let adds = (0..<1_500).filter { $0 % 11 != 5 }
        #expect(made.flatMap(\.uuids) == adds.map { SampleUUID(high: 1, low: UInt64($0 % 1_400)) })
        #expect(made.map(\.live).reduce(0, +) == 1_500 - adds.count)
        #expect(progress == progress.sorted())
        #expect(progress.last == spill.size)
        // Members' UUIDs that a record outside a correlation has too, each once.
        let topLevel = Set((0..<1_500).filter { $0 % 97 != 3 }.map { SampleUUID(high: 1, low: UInt64($0 % 1_400)) })
        var expected: [String: Int] = [:]
        for (uuid, type) in memberTypes where topLevel.contains(uuid) { expected[type, default: 0] += 1 }
        #expect(outcome.membersAlsoTopLevel == expected)
        #expect(outcome.membersAlsoTopLevel.values.reduce(0, +) > 0)
        #expect(members.passes == (membersPerPass == 2 ? (members.count + 1) / 2 : 1))
    }

    @Test("An append that fails stops the reading thread and the failure comes out")
    func feedFailure() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let spill = EventSpill(near: dir.file("store"), sealing: nil, chunkBytes: 1_000, memoryLimit: 1 << 30)
        for i in 0..<500 {
            let event = ExportMapper.Event(type: "T", uuid: SampleUUID(high: 2, low: UInt64(i)), line: Array("{\"i\":\(i)}\n".utf8), isCorrelationMember: false)
            try spill.add(event, [.fromDocument, .endsElement])
        }
        var appends = 0
        #expect(throws: HealthLogError.self) {
            _ = try SpillAppendFeed.run(spill, members: CorrelationMembers(near: dir.file("store"), sealing: nil), eventsPerAppend: 10, maxBytes: 1 << 20) { _ in
                appends += 1
                if appends == 3 { throw HealthLogError(.io, "disk full") }
            } progress: { _ in }
        }
        #expect(appends == 3)
    }
}
