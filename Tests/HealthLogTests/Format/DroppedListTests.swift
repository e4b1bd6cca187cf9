@testable import HealthLog
import Testing

/// A compacted batch's list of dropped events, kept as stored and decoded where read: it
/// gives back what was listed, refuses a list out of order or out of range as the header
/// decoder always did, and reads a header held in a slice of a larger buffer (a sidecar
/// index's bytes) as it reads the same header on its own.
@Suite("dropped list")
struct DroppedListTests {
    private static let events: [BatchHeader.Dropped] = [
        .init(seq: 11, isDelete: false, uuid: SampleUUID(high: 0x0123_4567_89AB_4CDE, low: 0x8000_0000_0000_0001)),
        .init(seq: 12, isDelete: true, uuid: SampleUUID(high: .max, low: 0)),
        .init(seq: 19, isDelete: false, uuid: SampleUUID(high: 7, low: .max)),
    ]

    private static func header(dropped: BatchHeader.DroppedList) -> BatchHeader {
        let group = BatchHeader.Group(
            kind: FormatConstants.groupKindAdd, type: "HKQuantityTypeIdentifierHeartRate", count: 7, firstSeq: 10, lastSeq: 18,
            minStart: 0, maxEnd: 1, frameLength: 40, rawLength: 900, frameCRC: 7)
        return BatchHeader(storeTag: 9, flags: FormatConstants.flagEndOfAppend, firstSeq: 10, lastSeq: 19, appendedMillis: 1_000, groups: [group], dropped: dropped)
    }

    @Test("Each event reads back with its number, kind and UUID, in order, and is found by its number")
    func readsBack() throws {
        let list = BatchHeader.DroppedList(Self.events)
        #expect(Array(list) == Self.events)
        #expect(list.count == 3 && list.map(\.seq) == [11, 12, 19] && list.seq(at: 1) == 12)
        #expect([11, 12, 19].allSatisfy { list.contains(seq: $0) })
        #expect(![0, 10, 13, 18, 20].contains { list.contains(seq: $0) } && !BatchHeader.DroppedList([]).contains(seq: 11))
        let header = Self.header(dropped: list)
        let decoded = try BatchHeader.decode(payload: Array(header.encoded().dropFirst(8)))
        #expect(decoded == header && Array(decoded.dropped) == Self.events)
        #expect(header.encodedTableTailLength() == header.encodedTableTail().count)
        // As a sealed copy holds it: the count alone, which a count-only list gives too.
        let counted = header.encodedTableTail(listingDropped: false)
        #expect(counted == [3, 0, 0, 0] && header.encodedTableTailLength(listingDropped: false) == 4)
        var countOnly = header
        countOnly.dropped = list.countOnly()
        #expect(countOnly.encodedTableTail(listingDropped: false) == counted)
    }

    @Test("A list out of order or outside its batch's range is refused when the header is decoded")
    func refusesDisorder() throws {
        let swapped = [Self.events[1], Self.events[0], Self.events[2]]
        let outside = Self.events + [.init(seq: 25, isDelete: true, uuid: SampleUUID(high: 1, low: 1))]
        for events in [swapped, outside] {
            let payload = Array(Self.header(dropped: BatchHeader.DroppedList(events)).encoded().dropFirst(8))
            #expect(throws: FormatViolation.self) { try BatchHeader.decode(payload: payload) }
        }
    }

    @Test("A header without dropped events keeps nothing of the bytes it was decoded from; one with them shares them")
    func emptyListKeepsNoBytes() throws {
        /// Whether `decoded`, made from `bytes`, still holds `bytes`' storage: writing to a
        /// buffer another value shares copies it first.
        func holds(_ bytes: inout [UInt8], _ decoded: BatchHeader) -> Bool {
            let before = bytes.withUnsafeBufferPointer { $0.baseAddress }
            bytes[0] = bytes[0]
            return withExtendedLifetime(decoded) { bytes.withUnsafeBufferPointer { $0.baseAddress } != before }
        }
        // A batch that ends an append with an origin: its layout has a dropped list, empty.
        let group = BatchHeader.Group(
            kind: FormatConstants.groupKindAdd, type: "HKQuantityTypeIdentifierHeartRate", count: 10, firstSeq: 10, lastSeq: 19,
            minStart: 0, maxEnd: 1, frameLength: 40, rawLength: 900, frameCRC: 7)
        let origin = BatchOrigin(committedMillis: 2_000, origin: AppendOrigin(command: "import", file: "export.zip", exportDate: nil), deletedAdds: nil)
        let ended = BatchHeader(
            storeTag: 9, flags: FormatConstants.flagEndOfAppend, firstSeq: 10, lastSeq: 19, appendedMillis: 1_000, groups: [group], origin: origin)
        var plain = Array(ended.encoded().dropFirst(8))
        let decoded = try BatchHeader.decode(payload: plain[...])
        #expect(decoded.origin == origin && decoded.dropped.isEmpty)
        #expect(ended.encodedTableTailLength() == ended.encodedTableTail().count && ended.encodedTableTailLength() > 4)
        #expect(!holds(&plain, decoded))
        var compacted = Array(Self.header(dropped: BatchHeader.DroppedList(Self.events)).encoded().dropFirst(8))
        #expect(holds(&compacted, try BatchHeader.decode(payload: compacted[...])))
    }

    @Test("A header read from a slice inside a larger buffer decodes as it does alone")
    func fromSlice() throws {
        let payload = Array(Self.header(dropped: BatchHeader.DroppedList(Self.events)).encoded().dropFirst(8))
        let buffer = [UInt8](repeating: 0xA5, count: 37) + payload + [UInt8](repeating: 0x5A, count: 11)
        let slice = buffer[37..<37 + payload.count]
        let decoded = try BatchHeader.decode(payload: slice)
        #expect(decoded == (try BatchHeader.decode(payload: payload)))
        #expect(Array(decoded.dropped) == Self.events)
    }
}
