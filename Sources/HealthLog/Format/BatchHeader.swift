#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The header of one batch: a skippable frame (magic ``FormatConstants/batchHeaderMagic``)
/// in front of the batch's LZ4 data frames, one frame per group.
///
/// A group holds the events of one type and one kind (adds or deletes) of the batch, in
/// sequence order, so a query for a rare type reads only that type's small frame and skips
/// the rest without decompressing it. The union of a batch's groups and its ``dropped``
/// events is exactly the events `firstSeq...lastSeq`.
///
/// A batch that `compact` rewrote is written in batch header version 2: after the groups it
/// lists the events compaction dropped (a deleted sample's add and its delete), each as its
/// sequence number, kind and UUID, so the sequence range stays whole, every continuity
/// check is unchanged, and a compacted UUID is still known (and refused) when the UUID
/// index is rebuilt from the log.
///
/// The batch that ends an append may carry its ``origin`` (what made the append and when it
/// committed): its header is then version 3, the version 2 layout (with a dropped list,
/// empty unless compacted) followed by the origin record.
struct BatchHeader: Equatable, Sendable {
    /// One group's entry: which events its frame holds and where the frame is.
    struct Group: Equatable, Sendable {
        /// ``FormatConstants/groupKindAdd`` or ``FormatConstants/groupKindDelete``.
        var kind: UInt8
        /// The full HealthKit type identifier of the group's events.
        var type: String
        /// How many events the frame holds.
        var count: UInt32
        /// The sequence number of the group's first event.
        var firstSeq: UInt64
        /// The sequence number of the group's last event.
        var lastSeq: UInt64
        /// The earliest `start` among the group's events, in microseconds since 1970.
        var minStart: Int64
        /// The latest `end` among the group's events, in microseconds since 1970.
        var maxEnd: Int64
        /// The length of the group's LZ4 frame in the file.
        var frameLength: UInt32
        /// The length of the frame's decompressed NDJSON.
        var rawLength: UInt32
        /// CRC-32C of the frame's stored (compressed) bytes.
        var frameCRC: UInt32

        /// Whether the group holds deletes.
        var isDelete: Bool { kind == FormatConstants.groupKindDelete }

        /// Appends the entry's fields after its type, in the table's order: count, sequence
        /// range, time range, frame length, raw length, frame CRC-32C.
        func appendRanges(to w: inout ByteWriter) {
            w.append(count)
            w.append(firstSeq)
            w.append(lastSeq)
            w.append(minStart)
            w.append(maxEnd)
            w.append(frameLength)
            w.append(rawLength)
            w.append(frameCRC)
        }
    }

    /// The store's tag (the first 8 bytes of its identity), so a batch copied from another
    /// store is recognised.
    var storeTag: UInt64
    /// ``FormatConstants/flagEndOfAppend`` and ``FormatConstants/flagHasDeletes``.
    var flags: UInt16
    /// The first sequence number in the batch.
    var firstSeq: UInt64
    /// The last sequence number in the batch.
    var lastSeq: UInt64
    /// When the append was made, in milliseconds since 1970.
    var appendedMillis: Int64
    /// The groups, in the order their frames follow the header.
    var groups: [Group]
    /// The events `compact` dropped from this batch, in sequence order (empty unless the
    /// batch was compacted; then the header is written in version 2).
    var dropped: DroppedList = []
    /// What made the append this batch ends and when it committed (version 3 headers only).
    var origin: BatchOrigin?
    /// A sealed header read without the key (a *shell*): its fixed fields only, no groups;
    /// the length of its frames, and the CRC-32C of all of them, which a sealed header keeps
    /// in clear so a reader without the key (a backup) can check the bytes it copies.
    var shell: Shell?

    /// What a sealed header shows without the key, beyond its fixed fields.
    struct Shell: Equatable, Sendable {
        /// The length of the batch's frames.
        var framesLength: Int
        /// The CRC-32C of all of the batch's stored frames.
        var framesCRC: UInt32
    }

    /// Whether this batch completes an append.
    var isEndOfAppend: Bool { flags & FormatConstants.flagEndOfAppend != 0 }

    /// The total length of the frames that follow the header.
    var framesLength: Int { shell?.framesLength ?? groups.reduce(0) { $0 + Int($1.frameLength) } }

    /// The header version this batch is written in: 3 with an origin, 2 when compaction
    /// dropped events, else 1.
    var version: UInt16 {
        if origin != nil { return FormatConstants.originBatchVersion }
        return dropped.isEmpty ? FormatConstants.version : FormatConstants.compactedBatchVersion
    }

    /// Whether the batch's table and frames are sealed units of an encrypted store.
    var isSealed: Bool { flags & FormatConstants.flagSealed != 0 }

    /// The bytes of the whole skippable frame: magic, length, payload with its CRC. With
    /// `place`, an encrypted store's batch: the table after the fixed fields sealed as one
    /// unit bound to the place and to the fixed fields (the header is flagged sealed),
    /// followed by `framesCRC`, the CRC-32C of the batch's sealed frames.
    func encoded(sealingAt place: BatchPlace? = nil, framesCRC: UInt32 = 0) -> [UInt8] {
        var payload = ByteWriter()
        payload.append(bytes: FormatConstants.batchTag)
        payload.append(version)
        payload.append(place == nil ? flags & ~FormatConstants.flagSealed : flags | FormatConstants.flagSealed)
        payload.append(storeTag)
        payload.append(firstSeq)
        payload.append(lastSeq)
        payload.append(appendedMillis)
        payload.append(UInt32(framesLength))
        payload.append(UInt16(groups.count))
        payload.append(UInt16(0))
        if let place {
            let unit = place.cipher.seal(encodedTable(), .batchTable, place: place.tableBytes(fixedFields: payload.bytes), scope: place.scope)
            payload.append(bytes: unit)
            payload.append(framesCRC)
        } else {
            encodeTable(into: &payload)
        }
        payload.appendChecksum()
        var frame = ByteWriter()
        frame.append(FormatConstants.batchHeaderMagic)
        frame.append(UInt32(payload.bytes.count))
        frame.append(bytes: payload.bytes)
        return frame.bytes
    }

    /// The table: the group entries, the dropped list, the origin.
    private func encodedTable() -> [UInt8] {
        var table = ByteWriter()
        encodeTable(into: &table)
        return table.bytes
    }

    private func encodeTable(into payload: inout ByteWriter) {
        encodeGroups(into: &payload)
        encodeTableTail(into: &payload)
    }

    /// The table after its group entries: the dropped list (versions 2 and 3) and the origin.
    /// Without `listingDropped`, the list is its count alone, as a segment index's sealed
    /// copy holds it (``CopiedTable/listsDropped``).
    func encodedTableTail(listingDropped: Bool = true) -> [UInt8] {
        var tail = ByteWriter()
        encodeTableTail(into: &tail, listingDropped: listingDropped)
        return tail.bytes
    }

    private func encodeGroups(into payload: inout ByteWriter) {
        for group in groups {
            let name = Array(group.type.utf8)
            payload.append(group.kind)
            payload.append(UInt8(0))
            payload.append(UInt16(name.count))
            payload.append(bytes: name)
            group.appendRanges(to: &payload)
        }
    }

    /// The length of ``encodedTableTail(listingDropped:)``, without writing the dropped list out.
    func encodedTableTailLength(listingDropped: Bool = true) -> Int {
        var origin = ByteWriter()
        self.origin?.encode(into: &origin)
        let list = listingDropped ? dropped.count * DroppedList.stride : 0
        return (version >= FormatConstants.compactedBatchVersion ? 4 + list : 0) + origin.bytes.count
    }

    /// Appends the table after its group entries (``encodedTableTail(listingDropped:)``) to
    /// `payload`; without `listingDropped`, the dropped list's count only, which a count-only
    /// list (``DroppedList/countOnly()``) has.
    func encodeTableTail(into payload: inout ByteWriter, listingDropped: Bool = true) {
        if version >= FormatConstants.compactedBatchVersion {
            payload.append(UInt32(dropped.count))
            if listingDropped { dropped.encode(into: &payload) }
        }
        origin?.encode(into: &payload)
    }

    /// Decodes a header payload (the bytes after the skippable frame's magic and length).
    /// `verifyingChecksum: false` skips the payload's own CRC-32C, for bytes already covered
    /// by a checked checksum (a sidecar index's body).
    ///
    /// `names`, when given, holds the group names of the header decoded before: a group
    /// whose name is among them shares that string rather than allocating its own (the
    /// batches of one log name the same few types, mostly in the same order).
    ///
    /// A sealed header (an encrypted store's) needs `place`, where the batch lies and the
    /// store's cipher: its table opens only there. Without it, `shell: true` reads it as a
    /// ``shell`` (fixed fields only); otherwise it is refused.
    ///
    /// `copied`, for a sealed header, is its table as a sealed copy gives it (see
    /// ``CopiedTable``): taken instead of opening the table, and checked as an opened one is.
    /// When it gives only some groups (its ``CopiedTable/part``), so does the header.
    static func decode(
        payload bytes: [UInt8], verifyingChecksum: Bool = true, names: Names? = nil, place: BatchPlace? = nil, shell: Bool = false,
        copied: CopiedTable? = nil
    ) throws -> BatchHeader {
        try decode(payload: bytes[...], verifyingChecksum: verifyingChecksum, names: names, place: place, shell: shell, copied: copied)
    }

    /// Decodes a header payload held in a slice of a larger buffer (a sidecar index's
    /// bytes), as ``decode(payload:verifyingChecksum:names:place:shell:copied:)`` does; its
    /// dropped list shares the buffer.
    static func decode(
        payload bytes: ArraySlice<UInt8>, verifyingChecksum: Bool = true, names: Names? = nil, place: BatchPlace? = nil, shell: Bool = false,
        copied: CopiedTable? = nil
    ) throws -> BatchHeader {
        guard bytes.count >= 4 else { throw FormatViolation("batch header is too short") }
        let stored = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: bytes.count - 4, as: UInt32.self) }
        guard !verifyingChecksum || CRC32C.checksum(bytes.dropLast(4)) == UInt32(littleEndian: stored) else {
            throw FormatViolation("batch header checksum mismatch")
        }
        var reader = ByteReader(bytes)
        do {
            guard Array(try reader.read(count: 4)) == FormatConstants.batchTag else {
                throw FormatViolation("batch header tag is not HLBA")
            }
            let version = try reader.read(UInt16.self)
            guard version <= FormatConstants.originBatchVersion else {
                throw FormatViolation(
                    "batch was written by format version \(version); this healthlog reads up to \(FormatConstants.originBatchVersion)",
                    isNewerVersion: true)
            }
            let flags = try reader.read(UInt16.self)
            let tag = try reader.read(UInt64.self)
            let first = try reader.read(UInt64.self)
            let last = try reader.read(UInt64.self)
            let appended = try reader.read(Int64.self)
            let framesLength = try reader.read(UInt32.self)
            let groupCount = Int(try reader.read(UInt16.self))
            _ = try reader.read(UInt16.self)
            guard first >= 1, last >= first else { throw FormatViolation("batch header has an empty sequence range") }
            guard last < FormatConstants.maxSequence else { throw FormatViolation("batch header names sequence \(last), past the format's limit") }
            var trailer = 4
            var given: [Group]?
            if flags & FormatConstants.flagSealed != 0 {
                guard bytes.count >= reader.position + StoreCipher.overhead + 8 else { throw FormatViolation("batch header is truncated") }
                let framesCRC = UInt32(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt32.self) })
                guard let place else {
                    guard shell else { throw FormatViolation("batch header is sealed (an encrypted store's) and no key was given to open it") }
                    var header = BatchHeader(storeTag: tag, flags: flags, firstSeq: first, lastSeq: last, appendedMillis: appended, groups: [])
                    header.shell = Shell(framesLength: Int(framesLength), framesCRC: framesCRC)
                    return header
                }
                if let copied {
                    guard copied.part != nil || copied.groups.count == groupCount else { throw FormatViolation("batch header's copied table lists other groups") }
                    given = copied.groups
                    reader = ByteReader(copied.tail)
                    trailer = 0
                } else {
                    let units = reader.position..<bytes.count - 8
                    let tablePlace = place.tableBytes(fixedFields: bytes.prefix(reader.position))
                    // Opened from the payload's own bytes: no copy of the unit first.
                    let opened = bytes.withUnsafeBytes { place.cipher.open(UnsafeRawBufferPointer(rebasing: $0[units]), .batchTable, place: tablePlace) }
                    guard let table = opened else {
                        var violation = FormatViolation("batch header's table: " + bytes.withUnsafeBytes { place.cipher.failure(of: UnsafeRawBufferPointer(rebasing: $0[units])) })
                        if verifyingChecksum {
                            let epoch = bytes.withUnsafeBytes { StoreCipher.epoch(of: UnsafeRawBufferPointer(rebasing: $0[units])) } ?? 0
                            violation.unopened = place.cipher.epochs.contains(epoch) ? 0 : epoch
                        }
                        throw violation
                    }
                    reader = ByteReader(table)
                    trailer = 0
                }
            } else if place != nil {
                throw FormatViolation("batch header is not sealed in an encrypted store")
            }
            var groups: [Group] = []
            var total: UInt64 = 0
            var events: UInt64 = 0
            if let given {
                // By index, not by element: an element taken out of the array is a copy (its
                // type retained and released), 0.8 of the 2 million instructions that decoding
                // the tables a sealed copy gives takes in a query from 0.
                for k in given.indices {
                    try check(given[k], first: first, last: last)
                    total += UInt64(given[k].frameLength)
                    events += UInt64(given[k].count)
                }
                groups = given
            } else {
                groups.reserveCapacity(groupCount)
                for _ in 0..<groupCount {
                    let kind = try reader.read(UInt8.self)
                    _ = try reader.read(UInt8.self)
                    let nameLength = Int(try reader.read(UInt16.self))
                    let nameBytes = try reader.read(count: nameLength)
                    let name = names?.name(nameBytes, at: groups.count) ?? String(decoding: nameBytes, as: UTF8.self)
                    guard name.utf8.count == nameLength else { throw FormatViolation("batch group's type name is not UTF-8") }
                    let group = try Group(kind: kind, type: name, readingRangesFrom: &reader)
                    try check(group, first: first, last: last)
                    total += UInt64(group.frameLength)
                    events += UInt64(group.count)
                    groups.append(group)
                }
            }
            var dropped: DroppedList = []
            if version >= FormatConstants.compactedBatchVersion {
                let count = try reader.read(UInt32.self)
                let listed = copied?.listsDropped ?? true
                guard UInt64(count) <= last - first + 1, !listed || Int(count) * DroppedList.stride <= reader.remaining else {
                    throw FormatViolation("batch header lists \(count) dropped events for sequence range \(first)...\(last)")
                }
                dropped = listed ? try DroppedList(stored: try reader.read(count: Int(count) * DroppedList.stride), first: first, last: last) : DroppedList(countOnly: Int(count))
                events += UInt64(count)
            }
            let origin = version >= FormatConstants.originBatchVersion ? try BatchOrigin.decode(&reader) : nil
            guard reader.remaining == trailer else { throw FormatViolation("batch header has trailing bytes") }
            // A part of the table (a by-type copy's) gives its groups' frames, and the sum of
            // every group's frame lengths; the events of the groups it leaves out are not known.
            let part = copied?.part
            guard (part.map { UInt64($0.framesLength) } ?? total) == UInt64(framesLength), total <= UInt64(framesLength) else {
                throw FormatViolation("batch header frame lengths disagree")
            }
            guard part == nil ? events == last - first + 1 : events <= last - first + 1 else {
                throw FormatViolation("batch header counts \(events) events for sequence range \(first)...\(last)")
            }
            names?.previous = groups.map(\.type)
            return BatchHeader(storeTag: tag, flags: flags, firstSeq: first, lastSeq: last, appendedMillis: appended, groups: groups, dropped: dropped, origin: origin)
        } catch is ByteReader.Truncated {
            throw FormatViolation("batch header is truncated")
        } catch let violation as FormatViolation {
            throw violation
        } catch {
            throw FormatViolation("batch header is unreadable")
        }
    }
}

extension BatchHeader {
    /// Checks what a group entry says against itself and its batch's range `first...last`.
    /// Inlined, so a group checked in an array is read where it lies, not copied out.
    @inline(__always)
    private static func check(_ group: borrowing Group, first: UInt64, last: UInt64) throws {
        guard group.kind <= FormatConstants.groupKindDelete else { throw FormatViolation("batch group has unknown kind \(group.kind)") }
        guard group.count >= 1, group.firstSeq >= first, group.lastSeq <= last, group.firstSeq <= group.lastSeq,
            group.lastSeq - group.firstSeq + 1 >= UInt64(group.count)
        else { throw FormatViolation("batch group '\(group.type)' has an inconsistent sequence range") }
        guard Int(group.rawLength) <= FormatConstants.maxGroupRawLength,
            UInt64(group.rawLength) <= UInt64(group.frameLength) * FormatConstants.maxLZ4Expansion
        else {
            throw FormatViolation("batch group '\(group.type)' claims \(group.rawLength) bytes from a \(group.frameLength)-byte frame")
        }
        guard UInt64(group.count) * FormatConstants.minStoredLineLength <= UInt64(group.rawLength) else {
            throw FormatViolation("batch group '\(group.type)' claims \(group.count) events in \(group.rawLength) bytes")
        }
    }
}

extension BatchHeader {
    /// The group names of the last header decoded with it, for the next to share (see
    /// ``decode(payload:verifyingChecksum:names:)``). One reader's: not shared between threads.
    final class Names {
        fileprivate var previous: [String] = []

        /// A table that knows no names yet.
        init() {}

        /// The name `bytes` spell, as a string of the previous header when one matches
        /// (tried first at the same group position); `nil` when none does.
        fileprivate func name(_ bytes: ArraySlice<UInt8>, at position: Int) -> String? {
            if position < previous.count, Self.spells(previous[position], bytes) { return previous[position] }
            return previous.first { Self.spells($0, bytes) }
        }

        private static func spells(_ name: String, _ bytes: ArraySlice<UInt8>) -> Bool {
            guard name.utf8.count == bytes.count else { return false }
            var name = name
            return name.withUTF8 { utf8 in bytes.withUnsafeBytes { memcmp(utf8.baseAddress!, $0.baseAddress!, bytes.count) == 0 } }
        }
    }
}

extension BatchHeader.Group {
    /// The entry of `kind` and `type` whose fields after its type, as
    /// ``appendRanges(to:)`` writes them, are at `reader`'s position.
    init(kind: UInt8, type: String, readingRangesFrom reader: inout ByteReader) throws {
        self.init(
            kind: kind, type: type, count: try reader.read(), firstSeq: try reader.read(), lastSeq: try reader.read(), minStart: try reader.read(),
            maxEnd: try reader.read(), frameLength: try reader.read(), rawLength: try reader.read(), frameCRC: try reader.read())
    }
}
