@testable import HealthLog
import Testing

/// The origin an append records in its last batch's header (version 3): written only when
/// there is one, read back whole, and skipped field by field when a later build adds some.
@Suite("batch origin")
struct BatchOriginTests {
    private static func header(origin: BatchOrigin?, dropped: [BatchHeader.Dropped] = []) -> BatchHeader {
        let group = BatchHeader.Group(
            kind: FormatConstants.groupKindAdd, type: "HKQuantityTypeIdentifierHeartRate", count: 2, firstSeq: 5, lastSeq: 6,
            minStart: 0, maxEnd: 1, frameLength: 40, rawLength: 200, frameCRC: 7)
        return BatchHeader(
            storeTag: 9, flags: FormatConstants.flagEndOfAppend, firstSeq: 5, lastSeq: 6 + UInt64(dropped.count), appendedMillis: 1_000, groups: [group],
            dropped: BatchHeader.DroppedList(dropped), origin: origin)
    }

    private static func payload(_ header: BatchHeader) -> [UInt8] {
        Array(header.encoded().dropFirst(8))
    }

    @Test("A header with an origin is version 3 and decodes to the same header, with or without dropped events")
    func roundTrip() throws {
        let origin = BatchOrigin(committedMillis: 2_345, origin: AppendOrigin(command: "import", file: "export.zip", exportDate: "2024-03-01T08:00:00+01:00"))
        for dropped in [[], [BatchHeader.Dropped(seq: 7, isDelete: false, uuid: SampleUUID(high: 1, low: 2))]] {
            let header = Self.header(origin: origin, dropped: dropped)
            #expect(header.version == 3)
            #expect(try BatchHeader.decode(payload: Self.payload(header)) == header)
        }
    }

    @Test("Without an origin a header keeps its version 1 bytes: no origin record, the same length as before")
    func noOriginNoChange() throws {
        let header = Self.header(origin: nil)
        #expect(header.version == 1)
        let bytes = Self.payload(header)
        #expect(bytes[4] == 1 && bytes[5] == 0)
        #expect(bytes.count == BatchHeader.FixedFields.length + (4 + "HKQuantityTypeIdentifierHeartRate".utf8.count + 48) + 4)
        #expect(try BatchHeader.decode(payload: bytes).origin == nil)
    }

    @Test("A field of a key this build does not know is skipped; a record without a command or a witness is damage")
    func unknownFieldSkipped() throws {
        var writer = ByteWriter()
        var body = ByteWriter()
        body.append(Int64(77))
        body.append(UInt8(9))
        body.append(UInt16(3))
        body.append(bytes: Array("new".utf8))
        body.append(UInt8(1))
        body.append(UInt16(3))
        body.append(bytes: Array("add".utf8))
        writer.append(UInt16(body.bytes.count))
        writer.append(bytes: body.bytes)
        var reader = ByteReader(writer.bytes)
        #expect(try BatchOrigin.decode(&reader) == BatchOrigin(committedMillis: 77, origin: AppendOrigin(command: "add")))
        var bare = ByteWriter()
        bare.append(UInt16(8))
        bare.append(Int64(77))
        var bareReader = ByteReader(bare.bytes)
        #expect(throws: FormatViolation.self) { try BatchOrigin.decode(&bareReader) }
    }

    @Test("The deleted-add witness (key 4) is read back with or without a named origin; one of another length is damage")
    func witnessRoundTrip() throws {
        let witness = BatchOrigin.DeletedAddWitness(count: 3, digest: 0xDEAD_BEEF_0123_4567)
        for named in [AppendOrigin(command: "delete"), nil] {
            let header = Self.header(origin: BatchOrigin(committedMillis: 5, origin: named, deletedAdds: witness))
            #expect(header.version == 3)
            #expect(try BatchHeader.decode(payload: Self.payload(header)) == header)
        }
        var writer = ByteWriter()
        var body = ByteWriter()
        body.append(Int64(77))
        body.append(UInt8(4))
        body.append(UInt16(8))
        body.append(UInt64(3))
        writer.append(UInt16(body.bytes.count))
        writer.append(bytes: body.bytes)
        var reader = ByteReader(writer.bytes)
        #expect(throws: FormatViolation.self) { try BatchOrigin.decode(&reader) }
    }

    @Test("The witness's digest is the wrapping sum of the Format article's hash: the bytes of known numbers")
    func witnessDigestKnownAnswer() {
        #expect(BatchOrigin.DeletedAddWitness.hash(1) == 0x38F9_4C43_9AC3_6242)
        #expect(BatchOrigin.DeletedAddWitness(of: [1, 1_000_000]) == BatchOrigin.DeletedAddWitness(count: 2, digest: 0xCDA6_1717_8F85_C711))
        #expect(BatchOrigin.DeletedAddWitness(of: [1_000_000, 1]) == BatchOrigin.DeletedAddWitness(of: [1]).adding([1_000_000]))
    }

    @Test("Texts longer than the limit are cut at a character boundary")
    func longTextsCut() {
        let name = String(repeating: "é", count: AppendOrigin.maxLength)
        let origin = AppendOrigin(command: "append", file: name)
        #expect(origin.file!.utf8.count == AppendOrigin.maxLength)
        #expect(origin.file!.allSatisfy { $0 == "é" })
    }
}
