#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The sealed copy of an encrypted segment's batch tables that its segment index carries
/// after its entries in the whole layout (<doc:Format#Segment-index>): one unit, so a query
/// that reads most of a segment's batches opens one unit instead of one table per batch.
/// Indexes are written in the by-type layout (``SealedTypeTables``); this one is read.
///
/// It is a cache of what the tables say, never trusted over the segment: a batch is taken
/// from it only when the batch's stored header payload shows, byte for byte, the clear
/// bytes the copy recorded for it (its fixed fields, the frames' CRC-32C and the payload's
/// CRC-32C); otherwise the batch's own table is opened. Its frames stay bound to what the
/// table says of each group, as they are when the table is opened.
///
/// Plaintext: u16 type count, per type its u16 length and ASCII bytes; then per batch, in
/// the index's order, the payload's 56 clear bytes (its first 48 and its last 8), u32 the
/// tail's length, per group (as many as the fixed fields count) u16 type number, u8 kind,
/// u32 count, u64 first and u64 last sequence number, i64 earliest start, i64 latest end,
/// u32 frame length, u32 raw length, u32 frame CRC-32C, then the tail (the table's bytes
/// after its groups: dropped list, origin).
struct SealedTableCopy {
    /// The bytes of a group in the copy.
    static let groupLength = 51
    /// The clear bytes of a sealed header payload the copy records: the fixed fields, then
    /// the frames' CRC-32C and the payload's own.
    static let clearLength = BatchHeader.FixedFields.length + 8

    /// The type names, by number.
    private let types: [String]
    /// The opened plaintext.
    private let bytes: [UInt8]
    /// Where each batch's record starts in ``bytes``.
    private let starts: [Int]

    /// Opens the copy `unit`, sealed at `place` for an index of `batchCount` batches; `nil`
    /// when it does not open or its records do not add up to exactly `batchCount` batches.
    static func open(_ unit: UnsafeRawBufferPointer, cipher: StoreCipher, place: [UInt8], batchCount: Int) -> SealedTableCopy? {
        guard let bytes = cipher.open(unit, .derivedFile, place: place) else { return nil }
        var reader = ByteReader(bytes)
        do {
            let typeCount = Int(try reader.read(UInt16.self))
            var types: [String] = []
            types.reserveCapacity(typeCount)
            for _ in 0..<typeCount {
                let length = Int(try reader.read(UInt16.self))
                types.append(String(decoding: try reader.read(count: length), as: UTF8.self))
            }
            var starts: [Int] = []
            starts.reserveCapacity(batchCount)
            for _ in 0..<batchCount {
                starts.append(reader.position)
                let clear = try reader.read(count: clearLength)
                let groupCount = Int(ByteReaderValue.u16(bytes, clear.startIndex + BatchHeader.FixedFields.groupCountOffset))
                let tailLength = Int(try reader.read(UInt32.self))
                _ = try reader.read(count: groupCount * groupLength + tailLength)
            }
            guard reader.remaining == 0 else { return nil }
            return SealedTableCopy(types: types, bytes: bytes, starts: starts)
        } catch {
            return nil
        }
    }

    /// The table of batch `index` when `payload`, the header payload the segment holds for
    /// it, shows the clear bytes the copy recorded; `nil` otherwise (the table is opened
    /// instead).
    func table(_ index: Int, payload: ArraySlice<UInt8>) -> BatchHeader.CopiedTable? {
        // ``open(_:cipher:place:batchCount:)`` found every record whole; checked again.
        guard index >= 0, index < starts.count, let record = Self.record(bytes, at: starts[index], payload: payload, entryLength: Self.groupLength) else { return nil }
        var groups: [BatchHeader.Group] = []
        groups.reserveCapacity(record.groupCount)
        let whole = bytes.withUnsafeBytes { copy in
            for k in 0..<record.groupCount {
                guard let group = Self.group(copy, at: record.entries + k * Self.groupLength, types: types) else { return false }
                groups.append(group)
            }
            return true
        }
        guard whole else { return nil }
        return BatchHeader.CopiedTable(groups: groups, tail: bytes[record.tailStart..<record.tailEnd])
    }

    /// The batch record at `at` of `bytes`, a copy's plaintext (the payload's clear bytes,
    /// u32 the tail's length, the groups' entries of `entryLength` bytes, the tail), when
    /// `payload` (the stored header payload) shows the clear bytes it recorded and it lies
    /// whole in `bytes`: its group count, where its entries start, and its tail's start and end.
    @inline(__always)
    static func record(_ bytes: [UInt8], at: Int, payload: ArraySlice<UInt8>, entryLength: Int) -> (groupCount: Int, entries: Int, tailStart: Int, tailEnd: Int)? {
        let fixed = BatchHeader.FixedFields.length
        guard payload.count >= clearLength, at >= 0, at + clearLength + 4 <= bytes.count else { return nil }
        let matches = bytes.withUnsafeBytes { copy in
            payload.withUnsafeBytes { stored in
                memcmp(copy.baseAddress! + at, stored.baseAddress!, fixed) == 0
                    && memcmp(copy.baseAddress! + at + fixed, stored.baseAddress! + stored.count - 8, 8) == 0
            }
        }
        guard matches else { return nil }
        let groupCount = Int(ByteReaderValue.u16(bytes, at + BatchHeader.FixedFields.groupCountOffset))
        let tailLength = Int(ByteReaderValue.u32(bytes, at + clearLength))
        let entries = at + clearLength + 4
        let tailStart = entries + groupCount * entryLength
        guard tailStart + tailLength <= bytes.count else { return nil }
        return (groupCount, entries, tailStart, tailStart + tailLength)
    }

    /// The group whose 51-byte record starts at `at` of `copy` (whole there), its type
    /// named from `types`; `nil` when its type number is not one of them. Read by fixed
    /// offsets (a quarter of the instructions of a checked read per field: a query from 0
    /// takes a table for every batch).
    @inline(__always)
    static func group(_ copy: UnsafeRawBufferPointer, at p: Int, types: [String]) -> BatchHeader.Group? {
        let number = Int(UInt16(littleEndian: copy.loadUnaligned(fromByteOffset: p, as: UInt16.self)))
        guard number < types.count else { return nil }
        return BatchHeader.Group(
            kind: copy[p + 2], type: types[number],
            count: UInt32(littleEndian: copy.loadUnaligned(fromByteOffset: p + 3, as: UInt32.self)),
            firstSeq: UInt64(littleEndian: copy.loadUnaligned(fromByteOffset: p + 7, as: UInt64.self)),
            lastSeq: UInt64(littleEndian: copy.loadUnaligned(fromByteOffset: p + 15, as: UInt64.self)),
            minStart: Int64(littleEndian: copy.loadUnaligned(fromByteOffset: p + 23, as: Int64.self)),
            maxEnd: Int64(littleEndian: copy.loadUnaligned(fromByteOffset: p + 31, as: Int64.self)),
            frameLength: UInt32(littleEndian: copy.loadUnaligned(fromByteOffset: p + 39, as: UInt32.self)),
            rawLength: UInt32(littleEndian: copy.loadUnaligned(fromByteOffset: p + 43, as: UInt32.self)),
            frameCRC: UInt32(littleEndian: copy.loadUnaligned(fromByteOffset: p + 47, as: UInt32.self)))
    }

    /// Whether opening the copy costs less than opening the tables of the `needed` batches
    /// of a segment of `batchCount`. The whole copy is about half a table's bytes per batch.
    /// A by-type copy opened for `someTypes` costs its directory (each group's type, kind
    /// and frame length) and those types' records: on the yardstick's 10M store, a rare-type
    /// query of the last segment (291 batches) ran as many instructions either way at about
    /// 21 batches, and 0.44 M fewer (of 4.83 M) through the copy at 38.
    static func pays(_ needed: Int, of batchCount: Int, someTypes: Bool) -> Bool {
        someTypes ? needed * 14 >= batchCount : needed * 2 >= batchCount
    }
}
