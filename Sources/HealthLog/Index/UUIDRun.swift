#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One immutable scratch run of an append's UUIDs, `<fromSeq>-<toSeq>.run` in a scratch
/// directory: for every UUID that the events `fromSeq...toSeq` add or delete, the sequence
/// number of its add and of its delete (0 when that event is not in the run), sorted by UUID.
///
/// Its bytes: a ``SmallFile`` tagged `HLUS` (version ``FormatConstants/uuidRunVersion``);
/// `Format.md`, "UUID index: `uuids/<from>-<to>.run`" (blocks of 2,048 entries of 32 bytes,
/// the UUID then its add and delete sequence numbers, under a block table).
///
/// A lookup binary-searches the block table (held in memory), then one page of the block's
/// entries read with `pread(2)`: the first time a block is touched it is read whole, its
/// CRC-32C checked and the first UUID of each of its pages (128 entries) kept, so later
/// lookups in it read 4 KB; a chunk's run, written a moment before by the append that looks
/// it up, comes with the first UUID and checksum of each 1 KB of it (``knownPages``), so a
/// lookup reads and checks that 1 KB at once. Memory holds those few bytes per page, never
/// the entries, so a writer's RSS does not grow with the store's UUID index however many
/// UUIDs it looks up. A block that fails its checksum marks the run damaged, and the writer
/// rebuilds the run from the log. For an encrypted store the run is sealed (``sealing``; see
/// `UUIDRun+Sealing.swift`), and a lookup opens one or two sealed pages of 1 KB instead.
final class UUIDRun {
    /// One entry.
    struct Entry: Equatable {
        var uuid: SampleUUID
        var addSeq: UInt64
        var deleteSeq: UInt64
    }

    static let headerLength = 48
    static let entryLength = 32
    static let blockEntries = 2048
    /// The length of one block-table entry in bytes.
    static let tableEntryLength = 20
    /// The file's kind: its length is the header's, the block table's and the entries'.
    static let file = SmallFile(tag: "HLUS", version: FormatConstants.uuidRunVersion, headerLength: headerLength) { header in
        let count = ByteReaderValue.u64(header, 24)
        let sealed = ByteReaderValue.u32(header, 40) == 1
        guard count <= UInt64(Int32.max) else { return nil }
        return headerLength + storedTableLength(blocks: Int(ByteReaderValue.u32(header, 32)), sealed: sealed) + storedEntriesLength(count: Int(count), sealed: sealed)
    }

    /// The first sequence number the run covers.
    let fromSeq: UInt64
    /// The last sequence number the run covers.
    let toSeq: UInt64
    /// How many UUIDs it holds.
    let count: Int
    /// Its path.
    let path: String
    /// The cipher its table and entries are sealed with; `nil`: in the clear.
    let sealing: ScratchCipher?

    /// The first UUID of each block.
    let firstUUIDs: [SampleUUID]
    /// The CRC-32C of each block's entries.
    let blockCRCs: [UInt32]
    /// The run file, open for lookups.
    private let file: FileDescriptor
    /// Where the entries start.
    private let entriesOffset: Int
    /// Per block, once its checksum was checked: the first UUID of each page of it.
    private var pageFirsts: [[SampleUUID]?]
    /// The page a lookup read last (a whole block read to be checked is let go after its lookup).
    var buffer: [UInt8] = []
    /// The sealed page a lookup read last, before it was opened into ``buffer`` (a whole
    /// block's pages are read into room of their own).
    var stored: [UInt8] = []
    /// Entries per page read by a lookup in a checked block.
    static let pageEntries = 128
    /// Set when a block failed its checksum.
    var isDamaged = false
    /// The bytes of sealed pages opened so far: what tests count of lookups.
    var sealedBytesOpened = 0
    /// In a sealed run whose writer kept them (``pageHighs(_:)`` of a chunk's entries, in
    /// memory when its run was written), the high half of each sealed page's first UUID: a
    /// lookup opens the page that holds its UUID at once, not one guessed by interpolation
    /// (about 1.5 pages a lookup). Eight bytes a page of 32 entries.
    var sealedPageHighs: [UInt64]?
    /// In a plaintext run whose writer kept them (``pageChecks(_:count:)`` of the bytes it
    /// wrote, a chunk's run), the first UUID and the CRC-32C of each page of
    /// ``knownPageEntries`` (1 KB): a lookup reads and checks the page that holds its UUID,
    /// where one in another run reads its 64 KB block first and 4 KB pages after. Twenty
    /// bytes a page, held while the run is a chunk's (up to ``UUIDRunBuilder/fanIn`` of them).
    var knownPages: PageChecks?
    /// Entries per page of ``knownPages``.
    static let knownPageEntries = 32
    /// The bytes of entries it holds between lookups (a page at most).
    var heldEntryBytes: Int { buffer.capacity }

    /// The file name of a run covering `from...to`.
    static func fileName(from: UInt64, to: UInt64) -> String {
        func pad(_ v: UInt64) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, 20 - s.count)) + s
        }
        return pad(from) + "-" + pad(to) + ".run"
    }

    /// Parses a run file name into its range.
    static func range(ofFileName name: String) -> ClosedRange<UInt64>? {
        guard name.hasSuffix(".run") else { return nil }
        let parts = name.dropLast(4).split(separator: "-")
        guard parts.count == 2, parts[0].count == 20, parts[1].count == 20, let from = UInt64(parts[0]), let to = UInt64(parts[1]),
            from <= to
        else { return nil }
        return from...to
    }

    /// Opens and checks the run at `path` (header and block table), sealed with `sealing`
    /// or in the clear; `nil` if unusable.
    init?(path: String, sealing: ScratchCipher? = nil) {
        guard let fd = try? FileDescriptor.open(path, flags: O_RDONLY) else { return nil }
        guard let run = Self.check(fd, sealing: sealing) else {
            fd.close()
            return nil
        }
        self.path = path
        self.sealing = sealing
        file = fd
        fromSeq = run.from
        toSeq = run.to
        count = run.count
        firstUUIDs = run.firsts
        blockCRCs = run.crcs
        entriesOffset = run.entriesOffset
        pageFirsts = [[SampleUUID]?](repeating: nil, count: run.crcs.count)
    }

    /// Reads and checks the header and block table of the run open at `fd`.
    private static func check(_ fd: FileDescriptor, sealing: ScratchCipher?) -> (from: UInt64, to: UInt64, count: Int, firsts: [SampleUUID], crcs: [UInt32], entriesOffset: Int)? {
        guard let size = try? fd.size(), let header = try? fd.read(at: 0, count: Self.headerLength),
            var r = Self.file.open(header, fileLength: size)
        else { return nil }
        guard let from = try? r.read(UInt64.self), let to = try? r.read(UInt64.self), let count = try? r.read(UInt64.self),
            let blocks = try? r.read(UInt32.self), let tableCRC = try? r.read(UInt32.self), let sealed = try? r.read(UInt32.self),
            sealed == (sealing == nil ? 0 : 1), from >= 1, from <= to, to < FormatConstants.maxSequence,
            count <= UInt64(Int32.max), Int(blocks) == (Int(count) + Self.blockEntries - 1) / Self.blockEntries
        else { return nil }
        let tableLength = storedTableLength(blocks: Int(blocks), sealed: sealing != nil)
        let entriesOffset = Self.headerLength + tableLength
        guard let stored = try? fd.read(at: Self.headerLength, count: tableLength), stored.count == tableLength,
            CRC32C.checksum(stored[...]) == tableCRC,
            let table = openedTable(stored, from: from, to: to, count: Int(count), sealing: sealing)
        else { return nil }
        var t = ByteReader(table)
        var firsts: [SampleUUID] = []
        var crcs: [UInt32] = []
        for _ in 0..<blocks {
            guard let high = try? t.read(UInt64.self), let low = try? t.read(UInt64.self), let crc = try? t.read(UInt32.self) else { return nil }
            firsts.append(SampleUUID(high: high, low: low))
            crcs.append(crc)
        }
        return (from, to, Int(count), firsts, crcs, entriesOffset)
    }

    /// Closes the run file.
    deinit { file.close() }

    /// The entry of `uuid`, or `nil`; throws ``HealthLogError/Code/corrupt`` when the block
    /// holding it fails its checksum.
    func lookup(_ uuid: SampleUUID) throws -> Entry? {
        guard count > 0 else { return nil }
        let block = Self.lastIndex(atMost: uuid, in: firstUUIDs)
        guard block >= 0 else { return nil }
        if sealing != nil { return try sealedLookup(uuid, block: block) }
        if let knownPages { return try knownPageLookup(uuid, in: knownPages) }
        let start = block * Self.blockEntries
        let end = min(count, start + Self.blockEntries)
        guard let pages = pageFirsts[block] else {
            try read(start..<end)
            guard buffer.withUnsafeBytes({ CRC32C.checksum($0) }) == blockCRCs[block] else {
                isDamaged = true
                throw HealthLogError(.corrupt, "\(path): block \(block) fails its checksum")
            }
            pageFirsts[block] = buffer.withUnsafeBytes { raw in
                stride(from: 0, to: end - start, by: Self.pageEntries).map { Self.entry(raw, $0).uuid }
            }
            defer { buffer = [] }
            return search(uuid, entries: end - start)
        }
        let page = Self.lastIndex(atMost: uuid, in: pages)
        let pageStart = start + page * Self.pageEntries
        try read(pageStart..<min(end, pageStart + Self.pageEntries))
        return search(uuid, entries: buffer.count / Self.entryLength)
    }

    /// The first UUID and the CRC-32C of each page of a run.
    struct PageChecks {
        var firsts: [SampleUUID]
        var crcs: [UInt32]
    }

    /// Where the entries of a plaintext run of `count` entries start: after the header and
    /// the block table.
    static func plainEntriesStart(count: Int) -> Int {
        headerLength + storedTableLength(blocks: (count + blockEntries - 1) / blockEntries, sealed: false)
    }

    /// The ``PageChecks`` of the run file `bytes` (as ``write(_:from:to:directory:sealing:buffer:)``
    /// encoded it) of `count` entries.
    static func pageChecks(_ bytes: [UInt8], count: Int) -> PageChecks {
        let entriesStart = plainEntriesStart(count: count)
        var checks = PageChecks(firsts: [], crcs: [])
        bytes.withUnsafeBytes { raw in
            let entries = UnsafeRawBufferPointer(rebasing: raw[entriesStart..<entriesStart + count * entryLength])
            for first in stride(from: 0, to: count, by: knownPageEntries) {
                let page = UnsafeRawBufferPointer(rebasing: entries[first * entryLength..<min(count, first + knownPageEntries) * entryLength])
                checks.firsts.append(entry(page, 0).uuid)
                checks.crcs.append(CRC32C.checksum(page))
            }
        }
        return checks
    }

    /// Looks `uuid` up in the one page `pages` says may hold it, checking the page.
    private func knownPageLookup(_ uuid: SampleUUID, in pages: PageChecks) throws -> Entry? {
        let page = Self.lastIndex(atMost: uuid, in: pages.firsts)
        guard page >= 0 else { return nil }
        let start = page * Self.knownPageEntries
        try read(start..<min(count, start + Self.knownPageEntries))
        guard buffer.withUnsafeBytes({ CRC32C.checksum($0) }) == pages.crcs[page] else {
            isDamaged = true
            throw HealthLogError(.corrupt, "\(path) at byte \(entryOffset(start)): page \(page) fails its checksum")
        }
        return search(uuid, entries: buffer.count / Self.entryLength)
    }

    /// Reads entries `range` into ``buffer``.
    func read(_ range: Range<Int>) throws {
        guard try readEntries(range, from: file, into: &buffer) else {
            isDamaged = true
            throw HealthLogError(.corrupt, "\(path) at byte \(entryOffset(range.lowerBound)): entries end early")
        }
    }

    /// Binary-searches the first `entries` entries in ``buffer`` for `uuid`.
    func search(_ uuid: SampleUUID, entries: Int) -> Entry? {
        buffer.withUnsafeBytes { bytes in
            var lo = 0
            var hi = entries
            while lo < hi {
                let mid = (lo + hi) / 2
                let entry = Self.entry(bytes, mid)
                if entry.uuid == uuid { return entry }
                if entry.uuid < uuid { lo = mid + 1 } else { hi = mid }
            }
            return nil
        }
    }

    /// The entry of `uuid` among `entries` (sorted by UUID), or `nil`.
    static func search(_ uuid: SampleUUID, in entries: [Entry]) -> Entry? {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].uuid == uuid { return entries[middle] }
            if entries[middle].uuid < uuid { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// The index of the last of `sorted` at most `value`, or the one before its first.
    static func lastIndex<Sorted: RandomAccessCollection>(atMost value: Sorted.Element, in sorted: Sorted) -> Int where Sorted.Element: Comparable, Sorted.Index == Int {
        var low = sorted.startIndex
        var high = sorted.endIndex
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] <= value { low = mid + 1 } else { high = mid }
        }
        return low - 1
    }

    /// The byte offset of entry `k` in the file (of a sealed run: `k` is a page's first).
    func entryOffset(_ k: Int) -> Int {
        entriesOffset + (sealing == nil ? k * Self.entryLength : k / Self.sealedPageEntries * Self.sealedPageLength)
    }

    /// Entry `k` of `bytes`, entries laid out from byte 0.
    static func entry(_ bytes: UnsafeRawBufferPointer, _ k: Int) -> Entry {
        let at = k * entryLength
        func u64(_ offset: Int) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at + offset, as: UInt64.self)) }
        return Entry(uuid: SampleUUID(high: u64(0), low: u64(8)), addSeq: u64(16), deleteSeq: u64(24))
    }

    /// Appends the 32-byte records of `entries` to `out`, each field stored in place (a
    /// run's bulk: appending the fields a byte at a time cost a merge more than its reads).
    static func encode(_ entries: ArraySlice<Entry>, to out: inout [UInt8]) {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: entries.count * entryLength))
        out.withUnsafeMutableBytes { raw in
            var at = start
            for entry in entries {
                raw.storeBytes(of: entry.uuid.high.littleEndian, toByteOffset: at, as: UInt64.self)
                raw.storeBytes(of: entry.uuid.low.littleEndian, toByteOffset: at + 8, as: UInt64.self)
                raw.storeBytes(of: entry.addSeq.littleEndian, toByteOffset: at + 16, as: UInt64.self)
                raw.storeBytes(of: entry.deleteSeq.littleEndian, toByteOffset: at + 24, as: UInt64.self)
                at += entryLength
            }
        }
    }

    /// Writes a run of `entries` (sorted by UUID, no repeats) covering `from...to` into
    /// `directory` (temporary file and rename; derived data, so not synced), sealed with
    /// `sealing` or in the clear.
    static func write(_ entries: [Entry], from: UInt64, to: UInt64, directory: String, sealing: ScratchCipher? = nil) throws -> String {
        var file: [UInt8] = []
        return try write(entries, from: from, to: to, directory: directory, sealing: sealing, buffer: &file)
    }

    /// Writes a run of `entries` as ``write(_:from:to:directory:sealing:)`` does, encoding
    /// it in `file`'s storage (its contents replaced): a writer reuses one buffer from run to run.
    static func write(_ entries: [Entry], from: UInt64, to: UInt64, directory: String, sealing: ScratchCipher? = nil, buffer file: inout [UInt8]) throws -> String {
        let entriesStart = plainEntriesStart(count: entries.count)
        // One buffer for the whole file, the entries encoded after room for the header and
        // block table (filled in last): no copy of the entries to put the header first.
        file.removeAll(keepingCapacity: true)
        // Grown with room to spare: a writer's chunks fold to slightly different counts.
        let length = entriesStart + entries.count * entryLength
        if file.capacity < length { file.reserveCapacity(length + length / 8) }
        file.append(contentsOf: repeatElement(0, count: entriesStart))
        var blockTable = ByteWriter()
        var blockStart = 0
        while blockStart < entries.count {
            let end = min(entries.count, blockStart + blockEntries)
            let bodyStart = file.count
            encode(entries[blockStart..<end], to: &file)
            blockTable.append(entries[blockStart].uuid.high)
            blockTable.append(entries[blockStart].uuid.low)
            blockTable.append(CRC32C.checksum(file[bodyStart...]))
            blockStart = end
        }
        let path = directory + "/" + fileName(from: from, to: to)
        if let sealing {
            let table = storedTable(blockTable.bytes, from: from, to: to, count: entries.count, sealing: sealing)
            let head = header(from: from, to: to, count: entries.count, table: table, sealed: true) + table
            // Sealed from the buffer in place and written a few pages at a time, through one
            // buffer: no sealed copy of all the entries beside them (megabytes, at an
            // append's peak memory), and no fresh memory per piece.
            let pieceLength = sealedPiecePages * sealedPageEntries * entryLength
            var sealed: [UInt8] = []
            try DurableFile.replace(path, sync: false) { fd in
                try fd.write(head, at: 0)
                try file.withUnsafeBytes { raw in
                    let plain = UnsafeRawBufferPointer(rebasing: raw[entriesStart...])
                    for start in stride(from: 0, to: plain.count, by: pieceLength) {
                        let piece = UnsafeRawBufferPointer(rebasing: plain[start..<min(plain.count, start + pieceLength)])
                        sealedPages(piece, first: start / entryLength, from: from, to: to, sealing: sealing, into: &sealed)
                        try fd.write(sealed, at: head.count + start / (sealedPageEntries * entryLength) * sealedPageLength)
                    }
                }
            }
            return path
        }
        file.replaceSubrange(0..<headerLength, with: header(from: from, to: to, count: entries.count, table: blockTable.bytes))
        file.replaceSubrange(headerLength..<entriesStart, with: blockTable.bytes)
        try SmallFile.write(path, file, sync: false)
        return path
    }

    /// The sealed header of a run covering `from...to` with `count` entries and the block
    /// table `table` (as stored), saying whether the run is `sealed` (encrypted).
    static func header(from: UInt64, to: UInt64, count: Int, table: [UInt8], sealed: Bool = false) -> [UInt8] {
        Self.file.encode { w in
            w.append(from)
            w.append(to)
            w.append(UInt64(count))
            w.append(UInt32((table.count - (sealed ? ScratchCipher.overhead : 0)) / tableEntryLength))
            w.append(table.withUnsafeBytes { CRC32C.checksum($0) })
            w.append(UInt32(sealed ? 1 : 0))
        }
    }
}
