#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The sidecar `uuids/deleted-adds`: the sequence numbers of the adds that the events
/// `1...coveredSeq` delete, in ascending order, so an anchored replay in HealthKit's view
/// learns which of its adds were deleted later by reading the few entries in its own range
/// instead of every later delete frame of its types.
///
/// Derived data, like the other indexes: a missing or damaged file, one of another index
/// version, one reaching past the log's head, one bound to another log (``LogBinding``:
/// another store's, or a log that no longer ends a batch at its covered number the way it
/// did), or one whose entries do not match the witness that the batch ending at its covered
/// number records (``BatchOrigin/DeletedAddWitness``: a file edited within its own log) is
/// ignored by readers (they read the deletes from the log instead) and rebuilt by the next
/// writer and by `reindex`; one that covers less than the log is used for what it covers,
/// the deletes after it read from the log. Entries for adds that `compact` dropped stay (no
/// line holds their number), as the witness counts them.
///
/// Its bytes: a ``SmallFile`` tagged `HLDA`; `Format.md`, "Deleted-add index" (blocks of
/// ``blockEntries`` entries, bound to the log by a ``LogBinding``; the table gives each
/// block's first entry, checksum and witness digest). A reader loads the header and the
/// table, then only the blocks its range touches, each checked when read.
///
/// In an encrypted store the table and each block are sealed units
/// (``StoreCipher/Purpose/derivedFile``; ``sealedFile``) whose place is the header's first
/// ``placeLength`` bytes and the unit's number (0 the table, `k + 1` block `k`), so a reader
/// still opens only the blocks it reads, and a block moved within the file does not open.
/// The sealed table is checked against the log's witness through its blocks' digests, so a
/// reader opens no block it does not need.
final class DeletedAddIndex {
    /// The header's length in bytes.
    static let headerLength = 60
    /// The file's kind: its length is the header's, the block table's and the entries'.
    static let file = SmallFile(tag: "HLDA", version: FormatConstants.deletedAddIndexVersion, headerLength: headerLength) { header in
        let count = ByteReaderValue.u64(header, 16)
        guard count <= UInt64(Int32.max) else { return nil }
        return headerLength + Int(ByteReaderValue.u32(header, 24)) * tableEntryLength + Int(count) * 8
    }
    /// The file's kind in an encrypted store: the table and every block one sealed unit.
    static let sealedFile = file.sealed { header in
        let blocks = Int(ByteReaderValue.u32(header, 24))
        return blocks == 0 ? 0 : blocks + 1
    }
    /// The header bytes a sealed unit's place names: tag, version, covered, entry count and
    /// block count.
    static let placeLength = 28
    /// The length of one block-table entry in bytes.
    static let tableEntryLength = 24
    /// Entries per block (the last block may hold fewer).
    static let blockEntries = 1024

    /// The last sequence number whose deletes the file reflects.
    let coveredSeq: UInt64
    /// The log it was derived from.
    let binding: LogBinding
    /// How many adds it lists.
    let count: Int
    /// The first entry of each block.
    private let firsts: [UInt64]
    /// The CRC-32C of each block's entries.
    private let crcs: [UInt32]
    /// The witness digest of each block's entries (``BatchOrigin/DeletedAddWitness``).
    private let digests: [UInt64]
    /// The file, open for block reads while it has entries (one descriptor per reader).
    private let file: FileDescriptor?
    /// What opens the sealed table and blocks of an encrypted store's file (`nil`: plaintext).
    private let cipher: StoreCipher?
    /// The header's first ``placeLength`` bytes, which each sealed unit's place names.
    private let placePrefix: [UInt8]
    /// The file mapped into memory, blocks are then read from it: a plaintext file once its
    /// entries were checked against the log's witness, a sealed one once a second block is read.
    private var mapped: MappedFile?
    /// How many blocks were read from the file.
    private(set) var blocksRead = 0

    /// The sidecar's path.
    static func path(_ layout: StoreLayout) -> String { layout.directory + "/" + display }
    /// The sidecar's name in messages (relative to the store).
    static let display = "uuids/deleted-adds"

    /// Opens the sidecar of `layout` (sealed with `cipher`, for an encrypted store) for a
    /// log whose head is `head`: `nil` when it is missing, of another version, damaged in its
    /// header or table, or covers more than the log holds. Blocks are read (and checked)
    /// only when looked at.
    static func open(_ layout: StoreLayout, head: UInt64 = .max, cipher: StoreCipher?) -> DeletedAddIndex? {
        guard let fd = try? FileDescriptor.open(path(layout), flags: O_RDONLY) else { return nil }
        guard let index = DeletedAddIndex(fd, cipher: cipher) else {
            fd.close()
            return nil
        }
        // The index owns the descriptor now (closed when it goes, or already when it is
        // empty): closing it here too would close whatever file took its number since, in
        // any thread.
        guard index.coveredSeq <= head else { return nil }
        return index
    }

    /// Opens the sidecar of `snapshot`'s store as ``open(_:head:cipher:)`` does (with the
    /// store's cipher; when `after` is given, only if it covers more than `after`), and only
    /// when it is bound to that log (the same store, and the batch ending at its covered number
    /// the one it was derived from) and its entries are those that batch's witness counts
    /// (``isWitnessed(by:)``). A file whose entry count `isWorthChecking` declines is not
    /// opened further: the caller has a cheaper way to its answer than checking every entry.
    static func open(for snapshot: LogSnapshot, coveringPast after: UInt64? = nil, isWorthChecking: (Int) -> Bool = { _ in true }) -> DeletedAddIndex? {
        guard let index = open(snapshot.layout, head: snapshot.headSeq, cipher: snapshot.cipher), after.map({ index.coveredSeq > $0 }) ?? true,
            isWorthChecking(index.count)
        else {
            return nil
        }
        var ending: BatchHeader?
        if index.coveredSeq > 0 {
            guard let batch = try? snapshot.batch(containing: index.coveredSeq), batch.header.lastSeq == index.coveredSeq else { return nil }
            ending = batch.header
        }
        guard index.binding == LogBinding(storeID: snapshot.meta.storeID, lastBatch: ending), index.isWitnessed(by: ending?.origin?.deletedAdds) else { return nil }
        return index
    }

    /// Whether the entries are the deleted adds `witness` counts (the same count and digest).
    /// A sealed file's table, opened under the data key, gives each block's digest: their sum
    /// is checked here and each block against its own when read, so no block is opened for
    /// it. A plaintext table could be rewritten to any digests, so every entry of a plaintext
    /// file is hashed once, through a mapping kept for the block reads. Without a witness (a
    /// log whose appends deleted nothing, or one an older build wrote) only an empty file is
    /// taken: a listed add would hide a sample on the file's word alone.
    func isWitnessed(by witness: BatchOrigin.DeletedAddWitness?) -> Bool {
        guard let witness else { return count == 0 }
        guard witness.count == UInt64(count) else { return false }
        guard let file, count > 0 else { return true }
        if cipher != nil { return digests.reduce(0, &+) == witness.digest }
        let entries = offset(ofEntry: 0)..<offset(ofEntry: count)
        guard let map = MappedFile(file), map.count >= entries.upperBound,
            map.withBytes(entries, { BatchOrigin.DeletedAddWitness(count: count, littleEndian: $0) }) == witness
        else { return false }
        // The hash read every page: a long file's go again (block reads map back the few they read).
        if blockCount > Self.streamedBlocks { map.releaseAll() }
        mapped = map
        return true
    }

    private init?(_ fd: FileDescriptor, cipher: StoreCipher?) {
        guard let size = try? fd.size(), size >= Self.headerLength,
            let head = try? fd.read(at: 0, count: min(size, 4096)), var r = (cipher == nil ? Self.file : Self.sealedFile).open(head, fileLength: size),
            let binding = LogBinding(head, at: 32)
        else { return nil }
        guard let covered = try? r.read(UInt64.self), let count = try? r.read(UInt64.self), let blockCount = try? r.read(UInt32.self),
            let tableCRC = try? r.read(UInt32.self), count <= UInt64(size / 8),
            Int(blockCount) == (Int(count) + Self.blockEntries - 1) / Self.blockEntries
        else { return nil }
        let placePrefix = Array(head[0..<Self.placeLength])
        let tableLength = Self.storedTableLength(blocks: Int(blockCount), sealed: cipher != nil)
        var table = Array(head[Self.headerLength..<min(head.count, Self.headerLength + tableLength)])
        if table.count < tableLength {
            guard let rest = try? fd.read(at: Self.headerLength + table.count, count: tableLength - table.count),
                rest.count == tableLength - table.count
            else { return nil }
            table += rest
        }
        guard CRC32C.checksum(table[...]) == tableCRC else { return nil }
        if let cipher, blockCount > 0 {
            guard let opened = cipher.open(table, .derivedFile, place: SmallFile.place(placePrefix, unit: 0)) else { return nil }
            table = opened
        }
        var t = ByteReader(table)
        var firsts: [UInt64] = []
        var crcs: [UInt32] = []
        var digests: [UInt64] = []
        for _ in 0..<Int(blockCount) {
            guard let first = try? t.read(UInt64.self), let crc = try? t.read(UInt32.self), (try? t.read(UInt32.self)) != nil,
                let digest = try? t.read(UInt64.self)
            else { return nil }
            firsts.append(first)
            crcs.append(crc)
            digests.append(digest)
        }
        coveredSeq = covered
        self.binding = binding
        self.count = Int(count)
        self.firsts = firsts
        self.crcs = crcs
        self.digests = digests
        self.cipher = cipher
        self.placePrefix = placePrefix
        if count == 0 { fd.close() }
        file = count == 0 ? nil : fd
    }

    deinit { file?.close() }

    /// The entries of block `k`, read and checked each time, not kept (a reader keeps the
    /// block it walks, as ``DeletedAddCursor`` does), the mapping's pages let go every
    /// ``streamedBlocks`` blocks read: a walk through every block holds one, however long
    /// the file. Throws ``HealthLogError/Code/corrupt`` naming the file and byte offset when
    /// the block fails its checksum, does not open (sealed), or does not rise from the first
    /// entry the table gives it or hash to the digest the table gives it.
    func block(_ k: Int) throws -> [UInt64] {
        guard let file, k < firsts.count else { return [] }
        let first = k * Self.blockEntries
        let length = min(Self.blockEntries, count - first)
        let offset = offset(ofBlock: k)
        let stored = length * 8 + (cipher == nil ? 0 : StoreCipher.overhead)
        func damaged() -> HealthLogError {
            HealthLogError(.corrupt, "\(Self.display) at byte \(offset): block \(k + 1) is damaged; run 'healthlog reindex'")
        }
        // A sealed block opens straight into the entries' storage; `nil` when the stored
        // bytes fail their checksum or do not open.
        let take = { (raw: UnsafeRawBufferPointer) -> [UInt64]? in
            guard raw.count == stored, CRC32C.checksum(raw) == self.crcs[k] else { return nil }
            var opened = true
            let entries = [UInt64](unsafeUninitializedCapacity: length) { out, filled in
                let room = UnsafeMutableRawBufferPointer(out)
                if let cipher = self.cipher {
                    opened = cipher.open(raw, .derivedFile, place: SmallFile.place(self.placePrefix, unit: UInt32(k + 1)), into: room)
                } else {
                    room.copyMemory(from: raw)
                }
                filled = length
            }
            return opened ? entries : nil
        }
        // A sealed file is mapped once a second block is read (a replay from an early anchor
        // reads most of them): its blocks are then opened from the mapping, without a read
        // call and a copy each.
        if mapped == nil, cipher != nil, blocksRead > 0 { mapped = MappedFile(file) }
        let read: [UInt64]?
        if let mapped, offset + stored <= mapped.count {
            read = mapped.withBytes(offset..<offset + stored, take)
        } else {
            read = try file.read(at: offset, count: stored).withUnsafeBytes(take)
        }
        guard var entries = read else { throw damaged() }
        blocksRead += 1
        if blocksRead % Self.streamedBlocks == 0 { mapped?.releaseAll() }
        for j in entries.indices { entries[j] = UInt64(littleEndian: entries[j]) }
        for j in entries.indices.dropFirst() where entries[j] <= entries[j - 1] {
            throw HealthLogError(.corrupt, "\(Self.display) at byte \(cipher == nil ? offset + j * 8 : offset): entries do not rise; run 'healthlog reindex'")
        }
        guard entries.first == firsts[k], BatchOrigin.DeletedAddWitness.empty.adding(entries).digest == digests[k] else {
            throw HealthLogError(.corrupt, "\(Self.display) at byte \(offset): block \(k + 1) disagrees with its table entry; run 'healthlog reindex'")
        }
        return entries
    }

    /// Reads the entries in order, a block at a time through ``block(_:)``: memory holds a
    /// block, however long the file.
    struct EntryCursor {
        private let index: DeletedAddIndex
        private var block: [UInt64] = []
        private var at = 0
        private var nextBlock = 0

        fileprivate init(_ index: DeletedAddIndex) { self.index = index }

        /// The next entry, or `nil` after the last.
        ///
        /// - Throws: as ``DeletedAddIndex/block(_:)``.
        mutating func next() throws -> UInt64? {
            while at == block.count {
                guard nextBlock < index.blockCount else { return nil }
                block = try index.block(nextBlock)
                nextBlock += 1
                at = 0
            }
            at += 1
            return block[at - 1]
        }
    }

    /// A cursor over every entry, from the first.
    func entryCursor() -> EntryCursor { EntryCursor(self) }

    /// The blocks read before the mapping's pages are let go (1 MiB).
    static let streamedBlocks = 128

    /// Every block read and checked, none kept: throws where ``block(_:)`` would.
    func checkEntries() throws {
        var cursor = entryCursor()
        while try cursor.next() != nil {}
    }

    /// How many blocks it has.
    var blockCount: Int { firsts.count }

    /// The block that would hold `seq`: the last whose first entry is at or below it (0
    /// when none is).
    func blockIndex(for seq: UInt64) -> Int {
        var low = 0
        var high = firsts.count
        while low < high {
            let mid = (low + high) / 2
            if firsts[mid] <= seq { low = mid + 1 } else { high = mid }
        }
        return max(0, low - 1)
    }

    /// Whether `seq` lies in block `k`'s range: at or above its first entry and below the
    /// next block's (the last block's range is open).
    @inline(__always)
    func blockHolds(_ k: Int, _ seq: UInt64) -> Bool {
        seq >= firsts[k] && (k + 1 == firsts.count || seq < firsts[k + 1])
    }

    /// Every entry, in order (each block checked).
    func allEntries() throws -> [UInt64] {
        var out: [UInt64] = []
        out.reserveCapacity(count)
        var cursor = entryCursor()
        while let entry = try cursor.next() { out.append(entry) }
        return out
    }

    /// Where entry `k` lies in the file; in a sealed file, where the unit of its block starts.
    func offset(ofEntry k: Int) -> Int {
        cipher == nil ? offset(ofBlock: 0) + k * 8 : offset(ofBlock: k / Self.blockEntries)
    }

    /// Where block `k` starts in the file.
    func offset(ofBlock k: Int) -> Int {
        let sealed = cipher != nil
        return Self.headerLength + Self.storedTableLength(blocks: firsts.count, sealed: sealed)
            + k * (Self.blockEntries * 8 + (sealed ? StoreCipher.overhead : 0))
    }

    /// The bytes the block table of `blocks` blocks takes in the file, sealed or not.
    static func storedTableLength(blocks: Int, sealed: Bool) -> Int {
        blocks * tableEntryLength + (sealed && blocks > 0 ? StoreCipher.overhead : 0)
    }
}
