import Testing
@testable import HealthLog

/// ``BatchBuilder``: one batch's lines grouped by type, encoded into the batch's bytes;
/// a builder emptied and filled again writes what a new one would.
@Suite("Batch builder")
struct BatchBuilderTests {
    private static let heart = "HKQuantityTypeIdentifierHeartRate", steps = "HKQuantityTypeIdentifierStepCount", glucose = "HKQuantityTypeIdentifierBloodGlucose"

    /// Adds event `seq` of `type` (interned in `names`), whose stored line depends on `seq`.
    private static func add(_ builder: inout BatchBuilder, _ names: inout Interner, _ type: String, seq: UInt64) {
        let id = Array(type.utf8).withUnsafeBytes { names.id(of: $0) }
        builder.add(kind: FormatConstants.groupKindAdd, type: id, seq: seq, start: Int64(seq) * 1_000, end: Int64(seq) * 1_000 + 500) {
            $0.append(contentsOf: #"{"seq":\#(seq),"op":"add","type":"\#(type)","value":\#(seq % 97)}"#.utf8)
            $0.append(10)
        }
    }

    /// The second batch: heart rates, step counts and a glucose, interleaved.
    private static func fillSecond(_ builder: inout BatchBuilder, _ names: inout Interner) {
        for seq in UInt64(501)...700 {
            add(&builder, &names, seq % 3 == 0 ? steps : seq % 50 == 0 ? glucose : heart, seq: seq)
        }
    }

    @Test("An emptied builder starts each group from that group's buffer of the batch before, and encodes the same bytes as a new builder")
    func reuse() throws {
        var names = Interner()
        var used = BatchBuilder()
        for seq in UInt64(1)...500 { Self.add(&used, &names, seq % 4 == 0 ? Self.steps : Self.heart, seq: seq) }
        let heartBytes = try #require(used.groups.first { names[$0.type].elementsEqual(Self.heart.utf8) }).lines.count
        _ = try used.encode(storeTag: 7, appendedMillis: 1, endOfAppend: false, names: names)
        let roomAfterFirst = used.frameRoom.room.count
        #expect(roomAfterFirst > 0)
        used.reset()
        #expect(used.isEmpty && used.groups.isEmpty && used.rawBytes == 0)

        // The first heart rate of the next batch lands in a buffer with room for all of the
        // last batch's: no group's buffer regrows line by line, batch after batch.
        Self.add(&used, &names, Self.heart, seq: 501)
        #expect(used.groups[0].lines.capacity >= heartBytes)
        used.reset()

        Self.fillSecond(&used, &names)
        var fresh = BatchBuilder()
        Self.fillSecond(&fresh, &names)
        let reused = try used.encode(storeTag: 7, appendedMillis: 2, endOfAppend: true, names: names)
        let new = try fresh.encode(storeTag: 7, appendedMillis: 2, endOfAppend: true, names: names)
        #expect(reused.bytes == new.bytes)
        // The frames were compressed into the room the first batch made, not a buffer of their own.
        #expect(used.frameRoom.room.count == roomAfterFirst)
        #expect(reused.header.groups.map(\.count) == new.header.groups.map(\.count))
        #expect(reused.header.firstSeq == 501 && reused.header.lastSeq == 700)
    }

    @Test("A batch's bytes, once written and kept, are the storage of the builder's next batch's bytes, which encode as a new builder's")
    func writtenBytesReused() throws {
        var names = Interner()
        var used = BatchBuilder()
        for seq in UInt64(1)...500 { Self.add(&used, &names, seq % 4 == 0 ? Self.steps : Self.heart, seq: seq) }
        var first = try used.encode(storeTag: 7, appendedMillis: 1, endOfAppend: false, names: names).bytes
        first.reserveCapacity(4 * first.count)
        let storage = first.withUnsafeBufferPointer { $0.baseAddress }
        used.frameRoom.keepWritten(first)
        first = []
        used.reset()
        Self.fillSecond(&used, &names)
        var fresh = BatchBuilder()
        Self.fillSecond(&fresh, &names)
        let reused = try used.encode(storeTag: 7, appendedMillis: 2, endOfAppend: true, names: names).bytes
        #expect(reused == (try fresh.encode(storeTag: 7, appendedMillis: 2, endOfAppend: true, names: names).bytes))
        #expect(reused.withUnsafeBufferPointer { $0.baseAddress } == storage)
    }
}
