#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The sidecar `segments/<name>.idx` of a segment: a copy of its committed batch headers
/// with their offsets, so opening a store reads one small file per segment instead of one
/// header per batch, and a query finds each type's frames without touching the segment.
///
/// Derived data, never trusted blindly: its own checksums must match, its header must say
/// what its body lists, its batches must chain (offsets, sequence numbers, store tag), and
/// every batch a reader takes from it must be byte-identical in the segment (the header
/// alone vouches for a sealed segment only through its last batch, read from the segment).
/// Otherwise it is ignored (the headers are walked) and the next writer rebuilds it.
///
/// Its bytes: a ``SmallFile`` tagged `HLIX`; `Format.md`, "Segment index" (a file of any
/// other index version than ``FormatConstants/segmentIndexVersion`` is ignored, see
/// ``IndexVersion``; the last-batch check is ``lastBatchCheck(_:)``).
///
/// The header alone (its ``Summary``) lets a reader skip a sealed segment it does not need:
/// it names the segment's sequence range and lets the reader check, with one small read,
/// that the segment still ends with the batch the index last saw.
struct SegmentIndex: Equatable {
    /// One batch: where its header frame starts, and the header payload (read from a
    /// sidecar, an array of its own, which the headers decoded from it share).
    struct Entry: Equatable {
        var offset: Int
        var payload: ArraySlice<UInt8>
    }

    /// The segment it describes.
    var name: SegmentName
    /// The bytes of the segment it describes (up to the end of the last batch listed).
    var coveredLength: Int
    /// The batches, in order.
    var entries: [Entry]
    /// The decoded headers of the batches, when the index was made from them: what the
    /// sealed copy of an encrypted segment's tables is written from (``SealedTableCopy``).
    var headers: [BatchHeader] = []
    /// The sealed copy of the batches' tables that an encrypted segment's index holds after
    /// its entries, as stored (empty when there is none).
    var sealedCopy: [UInt8] = []
    /// The header bytes ``sealedCopy`` is bound to (``copyPlace(_:unit:)``).
    var copyHeader: [UInt8] = []

    /// What the header says about the segment.
    struct Summary: Equatable {
        var batchCount: Int
        var coveredLength: Int
        var firstSeq: UInt64
        var lastSeq: UInt64
        var lastOffset: Int
        var lastPayloadCRC: UInt32
        var lastIsEndOfAppend: Bool
    }

    static let headerLength = 76
    /// The file's kind: its length is the header's plus the body length the header gives.
    static let file = SmallFile(tag: "HLIX", version: FormatConstants.segmentIndexVersion, headerLength: headerLength) {
        headerLength + Int(ByteReaderValue.u32($0, 64))
    }
    /// The fewest bytes a batch header payload takes: the fixed fields and the CRC-32C, no group.
    static let minimumPayloadLength = 52
    /// The fewest segment bytes a batch takes (its header frame, no group), and so the
    /// bound a batch count must keep below the covered length: a count is never taken, or
    /// allocated for, on the file's word alone.
    static let minimumBatchLength = 8 + minimumPayloadLength
    /// The fewest body bytes an entry takes: offset, length and the shortest payload.
    static let minimumEntryLength = 12 + minimumPayloadLength

    /// The sidecar path of segment `name`.
    static func path(_ layout: StoreLayout, _ name: SegmentName) -> String {
        layout.segments + "/" + String(name.fileName.dropLast(".log.lz4".count)) + ".idx"
    }

    /// The first sequence number listed (0 when none).
    var firstSeq: UInt64
    /// The last sequence number listed (0 when none).
    var lastSeq: UInt64
    /// Whether the last batch listed ends an append.
    var lastIsEndOfAppend: Bool

    /// The index of `batches` (all in segment `name` of `layout`, committed, in order).
    ///
    /// - Throws: as ``StoredHeaderPayloads/payload(of:)``.
    init(_ layout: StoreLayout, name: SegmentName, batches: some Collection<BatchRef>) throws {
        self.name = name
        var payloads = StoredHeaderPayloads(layout, name)
        entries = try batches.map { Entry(offset: $0.offset, payload: Array(try payloads.payload(of: $0))[...]) }
        headers = batches.map(\.header)
        (coveredLength, firstSeq, lastSeq, lastIsEndOfAppend) = Self.shape(of: batches)
    }

    /// What the header of an index of `batches` says of them beside their count.
    private static func shape(of batches: some Collection<BatchRef>) -> (coveredLength: Int, firstSeq: UInt64, lastSeq: UInt64, lastIsEndOfAppend: Bool) {
        let last = batches.reduce(nil as BatchRef?) { $1 }
        return (
            batches.reduce(SegmentLayout.prologueLength) { max($0, $1.end) }, batches.first?.header.firstSeq ?? 0, last?.header.lastSeq ?? 0,
            last?.header.isEndOfAppend ?? false
        )
    }

    /// The header a writer gives an index that lists `entries`; `nil` when a payload does
    /// not decode. `verify` holds each index's header to it, since readers take sealed
    /// segments on the header's word.
    static func summary(listing entries: [Entry]) -> Summary? {
        guard let first = entries.first, let last = entries.last else { return summary(count: 0, first: nil, last: nil) }
        guard let head = first.payload.withUnsafeBytes({ BatchHeader.FixedFields($0) }) else { return nil }
        return last.payload.withUnsafeBytes { payload in
            BatchHeader.FixedFields(payload).map { summary(count: entries.count, first: head, last: (last.offset, payload, $0)) }
        }
    }

    /// The header of an index of `count` entries whose first payload has the fixed fields
    /// `first` and whose last is `last` (its offset, payload and fixed fields): what
    /// ``summary(listing:)`` gives, for a reader that passes the entries without keeping them.
    static func summary(
        count: Int, first: BatchHeader.FixedFields?, last: (offset: Int, payload: UnsafeRawBufferPointer, fields: BatchHeader.FixedFields)?
    ) -> Summary {
        guard let first, let last else {
            return Summary(
                batchCount: 0, coveredLength: SegmentLayout.prologueLength, firstSeq: 0, lastSeq: 0, lastOffset: 0,
                lastPayloadCRC: 0, lastIsEndOfAppend: false)
        }
        return Summary(
            batchCount: count, coveredLength: last.offset + 8 + last.payload.count + last.fields.framesLength,
            firstSeq: first.firstSeq, lastSeq: last.fields.lastSeq, lastOffset: last.offset,
            lastPayloadCRC: lastBatchCheck(last.payload), lastIsEndOfAppend: last.fields.isEndOfAppend)
    }

    private init(name: SegmentName, summary: Summary, entries: [Entry]) {
        self.name = name
        coveredLength = summary.coveredLength
        firstSeq = summary.firstSeq
        lastSeq = summary.lastSeq
        lastIsEndOfAppend = summary.lastIsEndOfAppend
        self.entries = entries
    }

    /// The file's bytes. With `cipher` (an encrypted store's), the body ends with the sealed
    /// copy of the batches' tables in the by-type layout (``SealedTypeTables``), when the
    /// index was made from sealed batches; the header's flags say so.
    func encoded(cipher: StoreCipher?) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Self.headerLength)
        Self.stream(
            name: name, count: entries.count, entry: { entries[$0] }, shape: (coveredLength, firstSeq, lastSeq, lastIsEndOfAppend),
            headers: headers, cipher: cipher
        ) { bytes, at in
            if at == 0 { out.replaceSubrange(0..<bytes.count, with: bytes) } else { out.append(contentsOf: bytes) }
        }
        return out
    }

    /// Writes the index of `batches` (all in segment `name`, committed, in order) as the
    /// sidecar of `name` (temporary file and rename; not synced: it is derived data), the
    /// bytes ``encoded(cipher:)`` gives for ``init(_:name:batches:)``, a megabyte at a time:
    /// each header payload is encoded, or read back from the segment, as it is written
    /// (``StoredHeaderPayloads``), so a segment of large headers (a compacted one's dropped
    /// lists) is not held twice. `staged` leaves it under its temporary name instead, for a
    /// segment sealed by an append still open: ``publishStaged(_:_:)`` puts it in place once
    /// the append commits, and a rollback (or ``Debris``, after a crash) removes it.
    ///
    /// `listingDropped` writes the sealed copy as earlier builds did, each tail with its
    /// dropped list (``SealedTypeTables/countsFlag`` clear), from `batches` with whole headers:
    /// for tests of reading such copies.
    static func write(_ layout: StoreLayout, name: SegmentName, batches: [BatchRef], cipher: StoreCipher?, staged: Bool = false, listingDropped: Bool = false) throws {
        var payloads = StoredHeaderPayloads(layout, name)
        let writeBody = { (fd: FileDescriptor) throws in
            try stream(
                name: name, count: batches.count, entry: { Entry(offset: batches[$0].offset, payload: try payloads.payload(of: batches[$0])) },
                shape: shape(of: batches), headers: batches.map(\.header), cipher: cipher, listingDropped: listingDropped
            ) { bytes, at in try fd.write(bytes, at: at) }
        }
        if staged {
            try DurableFile.stage(path(layout, name), writing: writeBody)
        } else {
            try DurableFile.replace(path(layout, name), sync: false, writing: writeBody)
        }
    }

    /// The file of an index of `count` batches, `entry` giving each in turn, handed to
    /// `emit` in pieces with the file offset of each: the body in order from the end of the
    /// header, then the header (whose length and checksum cover the body) at 0.
    private static func stream<Failure: Error>(
        name: SegmentName, count: Int, entry: (Int) throws(Failure) -> Entry, shape: (coveredLength: Int, firstSeq: UInt64, lastSeq: UInt64, lastIsEndOfAppend: Bool),
        headers: [BatchHeader], cipher: StoreCipher?, listingDropped: Bool = false, emit: (_ bytes: [UInt8], _ at: Int) throws(Failure) -> Void
    ) throws(Failure) {
        var body = ByteWriter()
        var at = headerLength
        var bodyCRC: UInt32 = 0
        var last: Entry?
        // What the sealed copy keeps of each payload (``SealedTypeTables``), gathered as the
        // entries go by, each read once.
        let copies = cipher != nil && count > 0 && headers.count == count && headers.allSatisfy(\.isSealed)
        var clear = SealedTypeTables.ClearBytes()
        func flush(_ body: inout ByteWriter) throws(Failure) {
            bodyCRC = body.bytes.withUnsafeBytes { CRC32C.checksum($0, seed: bodyCRC) }
            try emit(body.bytes, at)
            at += body.bytes.count
            body.bytes.removeAll(keepingCapacity: true)
        }
        for k in 0..<count {
            let next = try entry(k)
            if copies { clear.append(next.payload) }
            body.append(UInt64(next.offset))
            body.append(UInt32(next.payload.count))
            body.append(bytes: next.payload)
            last = next
            if body.bytes.count >= 1 << 20 { try flush(&body) }
        }
        let fields = { (w: inout ByteWriter, copyFlag: UInt32) in
            w.append(name.baseSeq)
            w.append(name.generation)
            w.append(UInt32(count))
            w.append(UInt64(shape.coveredLength))
            w.append(shape.firstSeq)
            w.append(shape.lastSeq)
            w.append(UInt64(last?.offset ?? 0))
            w.append(last.map { Self.lastBatchCheck($0.payload) } ?? 0)
            w.append(UInt32(shape.lastIsEndOfAppend ? 1 : 0) | copyFlag)
        }
        if !body.bytes.isEmpty { try flush(&body) }
        var flag: UInt32 = 0
        if let cipher, copies {
            let copyFlags = SealedTypeTables.flag | (listingDropped ? 0 : SealedTypeTables.countsFlag)
            let header = Self.file.prefix { fields(&$0, copyFlags) }
            // Emitted as it is, not copied into the body first (a compacted segment's is
            // tens of megabytes).
            if var copy = SealedTypeTables.seal(headers, clear: clear, cipher: cipher, listingDropped: listingDropped, place: { Self.copyPlace(header, unit: $0) }) {
                swap(&copy, &body.bytes)
                try flush(&body)
                flag = copyFlags
            }
        }
        try emit(
            Self.file.encode { w in
                fields(&w, flag)
                w.append(UInt32(at - headerLength))
                w.append(bodyCRC)
            }, 0)
    }

    /// The `place` of unit `unit` of the sealed copy of an index whose header starts with
    /// `header`: its first ``copyPlaceLength`` bytes (tag, version, the segment's base and
    /// generation, batch count, covered length, sequence range, last batch's offset and
    /// check, flags) and the unit's number (0 for a copy in the whole layout).
    static func copyPlace(_ header: some Collection<UInt8>, unit: UInt32 = 0) -> [UInt8] {
        SmallFile.place(header.prefix(copyPlaceLength), unit: unit)
    }

    /// Whether the index whose header starts with `header` holds its copy in the by-type
    /// layout (its flags' bit 1).
    static func isCopyByType(_ header: [UInt8]) -> Bool {
        copyFlags(header) & SealedTypeTables.flag != 0
    }

    /// Whether the index whose header starts with `header` holds a by-type copy whose tails
    /// give the dropped lists' counts, not the lists (its flags' bit 2).
    static func isCopyOfCounts(_ header: [UInt8]) -> Bool {
        isCopyByType(header) && copyFlags(header) & SealedTypeTables.countsFlag != 0
    }

    /// The flags of the index whose header starts with `header` (0 for a header too short).
    private static func copyFlags(_ header: [UInt8]) -> UInt32 {
        header.count >= copyPlaceLength ? ByteReaderValue.u32(header, copyPlaceLength - 4) : 0
    }

    /// The header bytes a sealed copy is bound to: all but the body's length and checksum
    /// and the header's checksum.
    static let copyPlaceLength = 64

    /// Whether bytes that follow an index's entries may be a sealed copy of their tables:
    /// only in an index of sealed batches (the last entry's `payload`).
    static func mayHoldCopy(after payload: UnsafeRawBufferPointer) -> Bool {
        guard let fields = BatchHeader.FixedFields(payload) else { return false }
        return fields.flags & FormatConstants.flagSealed != 0
    }

    /// The sealed copy of the tables, every unit opened; `nil` when there is none or it
    /// does not open.
    func openedCopy(_ cipher: StoreCipher) -> OpenedTableCopy? {
        var failedAt = 0
        return openedCopy(cipher, failedAt: &failedAt)
    }

    /// ``openedCopy(_:)`` that, when the copy does not open, sets `failedAt` to where in
    /// ``sealedCopy`` the unit that does not open starts (0 for a copy in the whole layout).
    func openedCopy(_ cipher: StoreCipher, failedAt: inout Int) -> OpenedTableCopy? {
        guard !sealedCopy.isEmpty else { return nil }
        return sealedCopy.withUnsafeBytes { OpenedTableCopy.open($0, header: copyHeader, cipher: cipher, batchCount: entries.count, failedAt: &failedAt) }
    }

    /// What the header keeps of the last batch: the CRC-32C of its header payload without
    /// the payload's trailing CRC-32C. (The CRC-32C of bytes that end in their own CRC-32C
    /// is the same constant for every valid batch header, so it would identify nothing.)
    static func lastBatchCheck(_ payload: ArraySlice<UInt8>) -> UInt32 {
        payload.withUnsafeBytes(lastBatchCheck)
    }

    /// ``lastBatchCheck(_:)-(ArraySlice<UInt8>)`` of a payload read in place.
    static func lastBatchCheck(_ payload: UnsafeRawBufferPointer) -> UInt32 {
        CRC32C.checksum(UnsafeRawBufferPointer(rebasing: payload.dropLast(4)))
    }

    /// Whether the sidecar of `file` is whole and true: its checksums hold, its header
    /// agrees with its body, and every batch it lists is, byte for byte, the header at its
    /// offset in the segment. Writers ask this of the segments readers take on their
    /// header's word, so a damaged, edited or foreign body is rewritten rather than only
    /// worked around. Checked in one pass over the sidecar (``check(_:_:visit:)``), not read
    /// whole: every writer asks this when it opens, and a compacted segment's headers can
    /// run to tens of megabytes.
    static func vouches(_ layout: StoreLayout, for file: SegmentFile) -> Bool {
        var holds = true
        var buffer: [UInt8] = []
        let isSound = check(layout, file.name) { offset, payload in
            if holds, !file.holdsHeader(payload, at: offset, buffer: &buffer) { holds = false }
        }
        return isSound == true && holds
    }

    /// Renames the staged index of `name` into place.
    static func publishStaged(_ layout: StoreLayout, _ name: SegmentName) throws {
        try DurableFile.publish(path(layout, name))
    }

    /// The temporary name of the index of `name`.
    static func stagedPath(_ layout: StoreLayout, _ name: SegmentName) -> String {
        path(layout, name) + DurableFile.temporarySuffix
    }

    /// Reads the sidecar of `name` whole, through a mapping whose pages go after each MiB
    /// decoded; `nil` when missing or when its checksums or shape are wrong, or its header
    /// does not say what its body lists. Readers walk an index where it is mapped instead
    /// (``walk(_:_:after:matching:storeTag:continues:visit:copy:)``).
    static func read(_ layout: StoreLayout, _ name: SegmentName) -> SegmentIndex? {
        guard let fd = try? FileDescriptor.open(path(layout, name), flags: O_RDONLY) else { return nil }
        defer { fd.close() }
        guard let file = MappedFile(fd), file.count >= headerLength, file.count <= 1 << 30 else { return nil }
        return file.withBytes(0..<file.count) { decode($0, name: name, letGo: file.releaseAll) }
    }

    /// Reads only the header of the sidecar of `name`; `nil` when missing or unsound.
    static func readSummary(_ layout: StoreLayout, _ name: SegmentName) -> Summary? {
        guard let fd = try? FileDescriptor.open(path(layout, name), flags: O_RDONLY) else { return nil }
        defer { fd.close() }
        guard let size = try? fd.size(), let bytes = try? fd.read(at: 0, count: headerLength),
            let header = decodeHeader(bytes, name: name, fileLength: size)
        else { return nil }
        return header.summary
    }

    /// Decodes and checks the 76-byte header of a file `fileLength` bytes long.
    static func decodeHeader(_ bytes: [UInt8], name: SegmentName, fileLength: Int) -> (summary: Summary, bodyLength: Int, bodyCRC: UInt32)? {
        guard var r = file.open(bytes, fileLength: fileLength),
            let base = try? r.read(UInt64.self), let generation = try? r.read(UInt32.self),
            let count = try? r.read(UInt32.self), let covered = try? r.read(UInt64.self),
            let first = try? r.read(UInt64.self), let last = try? r.read(UInt64.self), let lastOffset = try? r.read(UInt64.self),
            let lastCRC = try? r.read(UInt32.self), let flags = try? r.read(UInt32.self),
            let bodyLength = try? r.read(UInt32.self), let bodyCRC = try? r.read(UInt32.self),
            base == name.baseSeq, generation == name.generation, covered <= UInt64(Int32.max), lastOffset <= covered,
            covered >= UInt64(SegmentLayout.prologueLength), UInt64(count) * UInt64(minimumBatchLength) <= covered - UInt64(SegmentLayout.prologueLength),
            UInt64(count) * UInt64(minimumEntryLength) <= UInt64(bodyLength),
            count == 0 ? first == 0 && last == 0 : first >= 1 && first <= last && last < FormatConstants.maxSequence
        else { return nil }
        let summary = Summary(
            batchCount: Int(count), coveredLength: Int(covered), firstSeq: first, lastSeq: last, lastOffset: Int(lastOffset),
            lastPayloadCRC: lastCRC, lastIsEndOfAppend: flags & 1 != 0)
        return (summary, Int(bodyLength), bodyCRC)
    }

    /// Decodes sidecar bytes for segment `name`; `nil` if anything is off.
    static func decode(_ bytes: [UInt8], name: SegmentName) -> SegmentIndex? {
        bytes.withUnsafeBytes { decode($0, name: name, letGo: {}) }
    }

    /// Decodes the sidecar `bytes` of segment `name` (its checksums, the entries' shape, the
    /// header's summary), each entry's payload in an array of its own and the sealed copy,
    /// if any, in ``sealedCopy``; `nil` if anything is off. `bytes` are read once, and
    /// `letGo` is called after each MiB, for a mapping to let its pages go.
    private static func decode(_ bytes: UnsafeRawBufferPointer, name: SegmentName, letGo: () -> Void) -> SegmentIndex? {
        guard bytes.count >= headerLength, let header = decodeHeader(Array(bytes[0..<headerLength]), name: name, fileLength: bytes.count) else { return nil }
        // The body's checksum taken as the entries are read, then over the copy read out.
        var crc: UInt32 = 0
        var entries: [Entry] = []
        var at = headerLength
        var read = at
        for _ in 0..<header.summary.batchCount {
            guard let entry = entry(in: bytes, at: at) else { return nil }
            entries.append(Entry(offset: entry.offset, payload: Array(bytes[entry.payload])[...]))
            at = entry.payload.upperBound
            if at - read >= copyPiece {
                crc = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[read..<at]), seed: crc)
                letGo()
                read = at
            }
        }
        crc = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[read..<at]), seed: crc)
        guard at == bytes.count || entries.last.map({ $0.payload.withUnsafeBytes(mayHoldCopy(after:)) }) == true,
            summary(listing: entries) == header.summary
        else { return nil }
        var index = SegmentIndex(name: name, summary: header.summary, entries: entries)
        if at < bytes.count {
            index.copyHeader = Array(bytes[0..<copyPlaceLength])
            index.sealedCopy = copyOut(UnsafeRawBufferPointer(rebasing: bytes[at...])) { _ in letGo() }
            crc = index.sealedCopy.withUnsafeBytes { CRC32C.checksum($0, seed: crc) }
        }
        guard crc == header.bodyCRC else { return nil }
        return index
    }

    /// How much of a mapped index is read before its pages are let go.
    private static let copyPiece = 1 << 20

    /// `bytes` (of a mapping) copied into memory of their own a MiB at a time, `letGo`
    /// told after each how many have been read, for the mapping to let their pages go.
    static func copyOut(_ bytes: UnsafeRawBufferPointer, letGo: (_ read: Int) -> Void) -> [UInt8] {
        var copy: [UInt8] = []
        copy.reserveCapacity(bytes.count)
        var read = 0
        while read < bytes.count {
            let end = min(bytes.count, read + copyPiece)
            copy.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[read..<end]))
            letGo(end)
            read = end
        }
        return copy
    }

    /// The entry of an index body at byte `at` of `bytes` (the whole file): the offset in
    /// the segment of the batch it lists and where its header payload lies in `bytes`;
    /// `nil` when it runs past the end or does not fit the format's bounds.
    static func entry(in bytes: UnsafeRawBufferPointer, at: Int) -> (offset: Int, payload: Range<Int>)? {
        guard at + 12 <= bytes.count else { return nil }
        let offset = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        let length = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self)))
        guard length <= FormatConstants.maxBatchHeaderLength, at + 12 + length <= bytes.count, offset <= UInt64(Int.max) else { return nil }
        return (Int(offset), at + 12..<at + 12 + length)
    }
}
