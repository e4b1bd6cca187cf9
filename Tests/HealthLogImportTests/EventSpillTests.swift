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
        let spill = EventSpill(near: dir.file(memoryLimit == 0 ? "missing-store" : "store"), chunkBytes: 10_000, memoryLimit: memoryLimit)
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
}
