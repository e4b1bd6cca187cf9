/// The sealed copy of an encrypted segment's batch tables in the by-type layout
/// (<doc:Format#Segment-index>): a directory unit, then one unit per type holding that
/// type's group records, so a query for one type opens the directory and that type's unit
/// rather than every group of the segment.
///
/// Like ``SealedTableCopy`` it is a cache of what the tables say, never trusted over the
/// segment: a batch is taken from it only when the batch's stored header payload shows the
/// clear bytes the directory recorded for it, and a group record is taken only when the
/// directory's entry for the group agrees with it (type, kind, frame length).
///
/// The copy: u32 the directory unit's length, the directory unit (unit number 1), then each
/// type's unit (number 2 + the type's number) in type order. Directory plaintext: u16 type
/// count, per type its u16 length, ASCII bytes and u32 its unit's length; then per batch,
/// in the index's order, the payload's 56 clear bytes, u32 the tail's length, per group
/// (as many as the fixed fields count) u16 type number, u8 kind, u32 frame length, then the
/// tail: the dropped list's count (or, in a copy without ``countsFlag``, written by
/// earlier builds, the list) and the origin. A type's unit holds the 51-byte records of
/// ``SealedTableCopy`` of its groups, in the index's order.
struct SealedTypeTables {
    /// The index header flag that says its copy is in this layout.
    static let flag: UInt32 = 2
    /// The index header flag that says its copy's tails hold the dropped lists' counts, not
    /// the lists: a compacted segment's lists (24 bytes a dropped event) would make the
    /// directory, which is sealed and opened whole, as large as they are. Those who read
    /// the events read the header from the segment (``LogSnapshot/fullHeader(of:)``).
    static let countsFlag: UInt32 = 4
    /// The bytes of a group's entry in the directory.
    static let entryLength = 7
    /// The unit number of the directory.
    static let directoryUnit: UInt32 = 1

    /// The unit number of type `number`'s records.
    static func unit(ofType number: Int) -> UInt32 { UInt32(2 + number) }

    /// The type names, by number.
    private let types: [String]
    /// The opened directory.
    private let bytes: [UInt8]
    /// Where each batch's record starts in ``bytes``.
    private let starts: [Int]
    /// Per batch, per type: how many of the type's records come before the batch.
    private let before: [Int]
    /// The opened types' records, one type after another.
    private let records: [UInt8]
    /// Per type, where its records start in ``records``; -1 for a type not opened.
    private let recordStarts: [Int]
    /// Whether every type's records were opened: tables are then whole.
    private let isWhole: Bool
    /// Whether the tails list the dropped events (a copy without ``countsFlag``).
    private let listsDropped: Bool

    /// What the directory keeps of each batch's stored header payload: its
    /// ``SealedTableCopy/clearLength`` clear bytes (the fixed fields and the last 8), gathered
    /// as the payloads go by, so they need not be held.
    struct ClearBytes {
        /// The clear bytes, one batch after another.
        fileprivate var bytes: [UInt8] = []
        /// Whether every payload was long enough to be a sealed one.
        fileprivate var isSealed = true

        /// Keeps the clear bytes of the next batch's stored header `payload`.
        mutating func append(_ payload: ArraySlice<UInt8>) {
            guard payload.count >= SealedTableCopy.clearLength + StoreCipher.overhead else {
                isSealed = false
                return
            }
            bytes += payload.prefix(BatchHeader.FixedFields.length)
            bytes += payload.suffix(8)
        }
    }

    /// The copy of `headers` (sealed batches, with `clear` gathered from their stored
    /// header payloads), its units sealed under `cipher` at the places `place` gives by unit
    /// number, its tails holding the dropped lists' counts (``countsFlag``), so `headers`
    /// may keep their lists as counts, or, with `listingDropped` (earlier builds' copy, for
    /// tests), the lists; `nil` when a header is not sealed or there are more types than the
    /// copy numbers.
    ///
    /// The directory is written once, into its place in the copy, and sealed there.
    static func seal(_ headers: [BatchHeader], clear: ClearBytes, cipher: StoreCipher, listingDropped: Bool = false, place: (UInt32) -> [UInt8]) -> [UInt8]? {
        let clearLength = SealedTableCopy.clearLength
        guard clear.isSealed, clear.bytes.count == headers.count * clearLength, headers.allSatisfy(\.isSealed) else { return nil }
        // The types, numbered in order of appearance, and each type's records.
        var numbers: [String: Int] = [:]
        var names: [String] = []
        var units: [ByteWriter] = []
        var numbered: [UInt16] = []
        var tailLengths: [Int] = []
        var directoryLength = 0
        for header in headers {
            for group in header.groups {
                let number: Int
                if let known = numbers[group.type] {
                    number = known
                } else {
                    guard names.count < Int(UInt16.max), group.type.utf8.count <= Int(UInt16.max) else { return nil }
                    number = names.count
                    numbers[group.type] = number
                    names.append(group.type)
                    units.append(ByteWriter())
                }
                numbered.append(UInt16(number))
                units[number].append(UInt16(number))
                units[number].append(group.kind)
                group.appendRanges(to: &units[number])
            }
            tailLengths.append(header.encodedTableTailLength(listingDropped: listingDropped))
            directoryLength += SealedTableCopy.clearLength + 4 + header.groups.count * entryLength + tailLengths[tailLengths.count - 1]
        }
        let sealed = units.indices.map { cipher.seal(units[$0].bytes, .derivedFile, place: place(unit(ofType: $0))) }
        // The copy: the directory unit's length, the unit (the directory's plaintext where
        // its ciphertext goes, between the unit's epoch and prefix and its tag), then the
        // type units.
        let plaintextStart = 4 + StoreCipher.overhead - UnitCipher.tagLength
        var directory = ByteWriter()
        directory.bytes.reserveCapacity(
            plaintextStart + 2 + names.reduce(0) { $0 + 6 + $1.utf8.count } + directoryLength + UnitCipher.tagLength + sealed.reduce(0) { $0 + $1.count })
        directory.bytes.append(contentsOf: repeatElement(0, count: plaintextStart))
        directory.append(UInt16(names.count))
        for (name, unit) in zip(names, sealed) {
            directory.append(UInt16(name.utf8.count))
            directory.append(bytes: Array(name.utf8))
            directory.append(UInt32(unit.count))
        }
        var next = 0
        for (k, header) in headers.enumerated() {
            directory.append(bytes: clear.bytes[k * clearLength..<(k + 1) * clearLength])
            directory.append(UInt32(tailLengths[k]))
            for group in header.groups {
                directory.append(numbered[next])
                directory.append(group.kind)
                directory.append(group.frameLength)
                next += 1
            }
            header.encodeTableTail(into: &directory, listingDropped: listingDropped)
        }
        directory.bytes.append(contentsOf: repeatElement(0, count: UnitCipher.tagLength))
        let directoryUnitLength = directory.bytes.count - 4
        directory.bytes.withUnsafeMutableBytes { copy in
            copy.storeBytes(of: UInt32(directoryUnitLength).littleEndian, toByteOffset: 0, as: UInt32.self)
            cipher.sealInPlace(UnsafeMutableRawBufferPointer(rebasing: copy[4...]), .derivedFile, place: place(directoryUnit))
        }
        for unit in sealed { directory.append(bytes: unit) }
        return directory.bytes
    }

    /// Opens the directory of `copy` and the units of the types in `wanted` (every type's
    /// when `nil`), sealed at the places `place` gives, for an index of `batchCount` batches,
    /// whose tails list the dropped events when `listsDropped` (else their counts, ``countsFlag``);
    /// `nil` when a unit does not open or the copy does not add up, with `failedAt` set to
    /// where in `copy` that unit starts, or where the copy stops adding up.
    static func open(
        _ copy: UnsafeRawBufferPointer, cipher: StoreCipher, place: (UInt32) -> [UInt8], batchCount: Int, listsDropped: Bool, types wanted: Set<String>?,
        failedAt: inout Int
    ) -> SealedTypeTables? {
        guard copy.count >= 4 else { return nil }
        let directoryLength = Int(UInt32(littleEndian: copy.loadUnaligned(as: UInt32.self)))
        failedAt = 4
        guard directoryLength <= copy.count - 4,
            let bytes = cipher.open(UnsafeRawBufferPointer(rebasing: copy[4..<4 + directoryLength]), .derivedFile, place: place(directoryUnit))
        else { return nil }
        return read(
            directory: bytes, typeUnits: UnsafeRawBufferPointer(rebasing: copy[(4 + directoryLength)...]), at: 4 + directoryLength, cipher: cipher, place: place,
            batchCount: batchCount, listsDropped: listsDropped, types: wanted, failedAt: &failedAt)
    }

    /// ``open(_:cipher:place:batchCount:listsDropped:types:failedAt:)`` of a copy read into
    /// memory the caller gives up: the directory is opened where it lies and kept in the same
    /// memory, not opened into more beside its sealed bytes (one that lists dropped events,
    /// a compacted segment's, is tens of megabytes).
    static func open(
        owned copy: consuming [UInt8], cipher: StoreCipher, place: (UInt32) -> [UInt8], batchCount: Int, listsDropped: Bool, types wanted: Set<String>?,
        failedAt: inout Int
    ) -> SealedTypeTables? {
        guard copy.count >= 4 else { return nil }
        let directoryLength = Int(ByteReaderValue.u32(copy, 0))
        failedAt = 4
        guard directoryLength <= copy.count - 4,
            let opened = copy.withUnsafeMutableBytes({ cipher.openInPlace(UnsafeMutableRawBufferPointer(rebasing: $0[4..<4 + directoryLength]), .derivedFile, place: place(directoryUnit)) })
        else { return nil }
        // Copied through a pointer: a slice of `copy` would share its storage, and the
        // moves below would copy it whole while that lives.
        let typeUnits = copy.withUnsafeBytes { [UInt8](UnsafeRawBufferPointer(rebasing: $0[(4 + directoryLength)...])) }
        // The plaintext moved to the front of the same storage when it is most of the copy
        // (a compacted segment's dropped lists); else copied into room of its own size, so
        // the tables do not keep the type units' room.
        copy.removeSubrange((4 + opened.upperBound)...)
        copy.removeSubrange(0..<4 + opened.lowerBound)
        let directory = copy.count * 2 >= copy.capacity ? copy : copy.withUnsafeBytes { [UInt8]($0) }
        return typeUnits.withUnsafeBytes {
            read(
                directory: directory, typeUnits: $0, at: 4 + directoryLength, cipher: cipher, place: place, batchCount: batchCount, listsDropped: listsDropped,
                types: wanted, failedAt: &failedAt)
        }
    }

    /// The tables of an opened `directory` and of the units of the types in `wanted` among
    /// `typeUnits`, the copy's bytes after the directory's unit, which start at byte `at`
    /// of the copy.
    private static func read(
        directory bytes: [UInt8], typeUnits: UnsafeRawBufferPointer, at unitsStart: Int, cipher: StoreCipher, place: (UInt32) -> [UInt8],
        batchCount: Int, listsDropped: Bool, types wanted: Set<String>?, failedAt: inout Int
    ) -> SealedTypeTables? {
        var reader = ByteReader(bytes)
        do {
            let typeCount = Int(try reader.read(UInt16.self))
            var types: [String] = []
            types.reserveCapacity(typeCount)
            // Where each type's unit starts in `typeUnits`, then where the last one ends
            // (plain integers: an array of ranges has its type made at run time on first
            // use, more instructions than the rest of the directory takes).
            var units = [0]
            units.reserveCapacity(typeCount + 1)
            for _ in 0..<typeCount {
                let length = Int(try reader.read(UInt16.self))
                types.append(String(decoding: try reader.read(count: length), as: UTF8.self))
                units.append(units[units.count - 1] + Int(try reader.read(UInt32.self)))
            }
            failedAt = unitsStart
            guard units[typeCount] == typeUnits.count else { return nil }
            var starts: [Int] = []
            starts.reserveCapacity(batchCount)
            var counts = [Int](repeating: 0, count: typeCount)
            var before: [Int] = []
            before.reserveCapacity(batchCount * typeCount)
            for _ in 0..<batchCount {
                starts.append(reader.position)
                before += counts
                let clear = try reader.read(count: SealedTableCopy.clearLength)
                let groupCount = Int(ByteReaderValue.u16(bytes, clear.startIndex + BatchHeader.FixedFields.groupCountOffset))
                let tailLength = Int(try reader.read(UInt32.self))
                for _ in 0..<groupCount {
                    let number = Int(try reader.read(UInt16.self))
                    guard number < typeCount else { return nil }
                    counts[number] += 1
                    _ = try reader.read(count: entryLength - 2)
                }
                _ = try reader.read(count: tailLength)
            }
            guard reader.remaining == 0 else { return nil }
            var records: [UInt8] = []
            var recordStarts: [Int] = []
            recordStarts.reserveCapacity(typeCount)
            for (number, name) in types.enumerated() {
                guard wanted?.contains(name) ?? true else {
                    recordStarts.append(-1)
                    continue
                }
                failedAt = unitsStart + units[number]
                guard let opened = cipher.open(UnsafeRawBufferPointer(rebasing: typeUnits[units[number]..<units[number + 1]]), .derivedFile, place: place(unit(ofType: number))),
                    opened.count == counts[number] * SealedTableCopy.groupLength
                else { return nil }
                recordStarts.append(records.count)
                records += opened
            }
            return SealedTypeTables(
                types: types, bytes: bytes, starts: starts, before: before, records: records, recordStarts: recordStarts,
                isWhole: !recordStarts.contains(-1), listsDropped: listsDropped)
        } catch {
            return nil
        }
    }

    /// The table of batch `index` when `payload`, the header payload the segment holds for
    /// it, shows the clear bytes the directory recorded; `nil` otherwise (the table is opened
    /// instead). Unless every type was opened, it gives the groups of the opened types only,
    /// with their positions in the table, their frames' offsets and the length of all the
    /// batch's frames.
    func table(_ index: Int, payload: ArraySlice<UInt8>) -> BatchHeader.CopiedTable? {
        guard index >= 0, index < starts.count,
            let (groupCount, entriesStart, tailStart, tailEnd) = SealedTableCopy.record(bytes, at: starts[index], payload: payload, entryLength: Self.entryLength)
        else { return nil }
        var groups: [BatchHeader.Group] = []
        groups.reserveCapacity(isWhole ? groupCount : 0)
        var positions: [Int] = []
        var offsets: [Int] = []
        var frames = 0
        // The next record of each type: its start in ``records`` (on the stack: this runs for
        // every batch a query takes).
        let found = withUnsafeTemporaryAllocation(of: Int.self, capacity: types.count) { next -> Bool in
            for k in 0..<types.count { next[k] = recordStarts[k] + before[index * types.count + k] * SealedTableCopy.groupLength }
            return bytes.withUnsafeBytes { directory -> Bool in
                records.withUnsafeBytes { records -> Bool in
                    var p = entriesStart
                    for position in 0..<groupCount {
                        let number = Int(UInt16(littleEndian: directory.loadUnaligned(fromByteOffset: p, as: UInt16.self)))
                        let kind = directory[p + 2]
                        let frameLength = UInt32(littleEndian: directory.loadUnaligned(fromByteOffset: p + 3, as: UInt32.self))
                        p += Self.entryLength
                        let frame = frames
                        frames += Int(frameLength)
                        guard recordStarts[number] >= 0 else { continue }
                        let record = next[number]
                        next[number] += SealedTableCopy.groupLength
                        // A record of another type, kind or frame length than the directory's
                        // entry for its group, or past its type's records, is not taken.
                        guard record + SealedTableCopy.groupLength <= records.count,
                            UInt16(littleEndian: records.loadUnaligned(fromByteOffset: record, as: UInt16.self)) == UInt16(number),
                            let group = SealedTableCopy.group(records, at: record, types: types), group.kind == kind, group.frameLength == frameLength
                        else { return false }
                        groups.append(group)
                        if !isWhole {
                            positions.append(position)
                            offsets.append(frame)
                        }
                    }
                    return true
                }
            }
        }
        guard found else { return nil }
        let part = isWhole ? nil : BatchHeader.CopiedTable.Part(positions: positions, frameOffsets: offsets, framesLength: frames)
        return BatchHeader.CopiedTable(groups: groups, tail: bytes[tailStart..<tailEnd], part: part, listsDropped: listsDropped)
    }
}
