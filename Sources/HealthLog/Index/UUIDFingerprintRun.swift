#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// One immutable run of the store's UUID index, `uuids/<fromSeq>-<toSeq>.run`: for every
/// event `fromSeq...toSeq` (add or delete, those `compact` dropped included), the
/// ``UUIDFingerprint`` of its UUID and the *block* of sequence numbers it lies in, so a
/// lookup reads only the stretch of the log that can hold the UUID and finds the event
/// there. The run is derived data and inexact on its own (two UUIDs may share a
/// fingerprint); the lookup (``UUIDRunSet``, ``UUIDRunReader``) is exact, because it
/// confirms every candidate against the stored lines (``LoggedUUIDs``): a fingerprint
/// that is not there is a certain "not in this run", a candidate block is read and its
/// events compared by full UUID. Compacted events stay in their batch's dropped list
/// (``BatchHeader/dropped``), so their UUIDs are confirmed the same way.
///
/// The keys (fingerprint << 32 | block, see ``UUIDFingerprint``) are stored sorted, as an
/// Elias–Fano sequence: at 1M events in blocks of 512, about 3.2 bytes an event, against
/// 32 for a full UUID with its sequence numbers.
///
/// Its bytes: a ``SmallFile`` tagged `HLUR`; `Format.md`, "UUID index" (index version
/// ``FormatConstants/uuidIndexVersion``; a run of any other, of ``UUIDRun``'s 32-byte
/// layout included, is ignored and rebuilt, see ``IndexVersion``; bound to the log at `to
/// seq` by a ``LogBinding``).
///
/// Opening maps the file, checks both checksums and that the bit vector holds `n` ones and
/// `2ᵏ` zeros, and keeps a bucket directory in memory: for every ``bucketsPerEntry``-th
/// bucket where its ones start in the bit vector, beside the 64 bits of the vector from
/// there, so finding a bucket mostly reads one 16-byte entry, not a sample and then the
/// vector, and a lookup's first cache miss is its last but the fields'. Up to
/// ``maxDirectoryEntries`` entries (a byte a bucket, at most 4 MiB), each entry covering
/// more buckets in a larger run. A run that fails any check does not open, and writers
/// rebuild it from the log.
/// A run that opens is used only while its ``binding`` is the log's at its last number
/// (``UUIDRunSet/openChain(_:snapshot:cipher:checked:removingOthers:)``): one copied from another store,
/// or left from a log that a restore cut and wrote on, is treated as missing.
///
/// A plaintext run larger than the budget of what lookups keep resident (``residentBudget``)
/// is looked up with `pread(2)` instead of through its mapping: lookups spread over all of
/// it would pass the budget every few dozen lookups, and each time the pages of the
/// process's mappings would be let go (`madvise`, which interrupts every other processor
/// running the process to flush its TLB) and faulted back in; a read of the few words a
/// lookup needs costs less than that, and adds nothing to memory. Cursors (merges, checks)
/// still read the mapping in order.
///
/// In an encrypted store the body (bit vector and fields) is sealed in pages of
/// ``pageBytes``, each its own unit (``sealedFile``): opening opens every page in turn,
/// and lookups open the pages they read (``SealedPages``), so a sealed run of any size adds
/// a few pages to memory, as a plaintext one adds the pages of its mapping it reads.
final class UUIDFingerprintRun {
    static let headerLength = 64
    /// The file's kind: its length is the header's and the words its key count and field
    /// widths give.
    static let file = SmallFile(tag: "HLUR", version: FormatConstants.uuidIndexVersion, headerLength: headerLength) { header in
        let count = ByteReaderValue.u64(header, 24)
        let lowBits = Int(header[32])
        guard count <= UInt64(Int32.max), lowBits <= 32 else { return nil }
        return headerLength + 8 * words(count: Int(count), lowBits: lowBits, blockBits: Int(header[33])).total
    }
    /// The file's kind in an encrypted store: the body, when there is one, is sealed in
    /// pages of ``pageBytes``, page `p` the unit whose place is the header's first
    /// ``placeLength`` bytes and unit number `p`.
    static let sealedFile = file.sealed { header in
        let count = ByteReaderValue.u64(header, 24)
        guard count <= UInt64(Int32.max), header[32] <= 32 else { return 0 }
        return pageCount(bodyBytes: 8 * words(count: Int(count), lowBits: Int(header[32]), blockBits: Int(header[33])).total)
    }
    /// The header bytes a sealed body's place names: tag, version, range, key count and
    /// field widths.
    static let placeLength = 36
    /// Where the ``LogBinding`` lies in the header.
    static let bindingOffset = 40
    /// The most entries a run's bucket directory holds (16 bytes each).
    static let maxDirectoryEntries = 1 << 18

    /// The first sequence number the run covers.
    let fromSeq: UInt64
    /// The last sequence number the run covers.
    let toSeq: UInt64
    /// How many keys (events) it holds.
    let count: Int
    /// The log it was derived from: the store, and the batch ending at ``toSeq``.
    let binding: LogBinding
    /// Its path.
    let path: String
    /// Low fingerprint bits in a field (`32 − k`).
    let lowBits: Int
    /// Block bits in a field.
    let blockBits: Int
    /// The block shift (see ``UUIDFingerprint``).
    let blockShift: Int
    /// The file's bytes (`nil` for a run without keys, or a sealed one).
    private let bytes: MappedFile?
    /// What lookups touched of the mapping of a plaintext run, within ``residentBudget``
    /// (`nil` for a sealed one).
    private let resident: ResidentWindows?
    /// The sealed body's pages (`nil` for a run without keys, or a plaintext one).
    private let pages: SealedPages?
    /// Whether the body is sealed.
    let isSealed: Bool
    /// The run file, for a plaintext run whose lookups read it with `pread(2)` (one larger
    /// than the resident budget); `nil` for the others.
    private let direct: DirectReads?
    /// The byte offset of the first read of ``direct`` that failed, or −1.
    private let unreadable = Atomic<Int>(-1)
    /// Where the bit vector and the fields start in a plaintext body (kept for lookups,
    /// which would otherwise enter a closure per read; valid while ``bytes`` lives, as long
    /// as the run); `nil` for a sealed run, read through ``pages``.
    private let highBase: UnsafeRawPointer?
    private let packedBase: UnsafeRawPointer?
    /// Words of the bit vector.
    private let highWords: Int
    /// Buckets a directory entry covers: 16, or more when `2ᵏ / 16` entries would pass
    /// ``maxDirectoryEntries`` (a power of two).
    let bucketsPerEntry: Int
    /// The bucket directory, two words an entry: for buckets `0`, `e`, `2e`, … (`e` =
    /// ``bucketsPerEntry``) the position in the bit vector where the bucket's ones start
    /// (just past the zero that closes the bucket before), then the vector's 64 bits from
    /// there (zeros past its end).
    private let directory: [UInt64]

    /// The bytes of the file checked at a time when a run is opened.
    static let checkedPieceBytes = 1 << 20
    /// The most of the plaintext runs' mappings that lookups keep resident, all runs of the
    /// process together (``ResidentWindows``): runs up to this size in all stay mapped as
    /// lookups read them; past it their pages are let go each time lookups pass it, so a
    /// chain of any number of runs of any size adds at most this much to memory.
    static let residentBudget = ResidentWindows.Budget(bytes: 4 << 20)

    /// The file name of a run covering `from...to` (the name runs have always had).
    static func fileName(from: UInt64, to: UInt64) -> String { UUIDRun.fileName(from: from, to: to) }

    /// Parses a run file name into its range.
    static func range(ofFileName name: String) -> ClosedRange<UInt64>? { UUIDRun.range(ofFileName: name) }

    /// The run's size in bytes.
    var byteCount: Int {
        let body = count > 0 ? 8 * (highWords + Self.packedWords(count: count, width: lowBits + blockBits)) : 0
        return Self.headerLength + body + (isSealed ? Self.pageCount(bodyBytes: body) * StoreCipher.overhead : 0)
    }

    /// Opens and checks the run at `path`, its body sealed with `cipher` (`nil`: a plaintext
    /// store's run); `nil` if unusable (damaged, another layout, or a sealed page that does
    /// not open), after telling `damage` where (a byte offset) and what failed. Its bucket
    /// directory holds up to `directoryEntries` entries (a power of two; tests make it small);
    /// a sealed body of at most `wholePages` pages is held whole once checked (tests make it
    /// small too); lookups keep the pages of a plaintext run's mapping resident within
    /// `residentBudget`, shared with every run opened with it (tests give a small one).
    init?(
        path: String, cipher: StoreCipher?, directoryEntries: Int = maxDirectoryEntries, wholePages: Int = SealedPages.wholePages,
        residentBudget: ResidentWindows.Budget = residentBudget, damage: (_ offset: Int, _ what: String) -> Void = { _, _ in }
    ) {
        guard let fd = try? FileDescriptor.open(path, flags: O_RDONLY) else { return nil }
        var keptOpen = false
        defer { if !keptOpen { fd.close() } }
        guard let size = try? fd.size(), let header = try? fd.read(at: 0, count: Self.headerLength),
            var r = (cipher == nil ? Self.file : Self.sealedFile).open(header, fileLength: size), let binding = LogBinding(header, at: Self.bindingOffset)
        else {
            damage(0, "header, or a length its fields do not give")
            return nil
        }
        guard let from = try? r.read(UInt64.self), let to = try? r.read(UInt64.self), let count = try? r.read(UInt64.self),
            from >= 1, from <= to, to < FormatConstants.maxSequence, count <= UInt64(Int32.max)
        else { return nil }
        let lowBits = Int(header[32])
        let blockBits = Int(header[33])
        let shift = Int(header[34])
        let n = Int(count)
        guard shift == UUIDFingerprint.blockShift(from: from, to: to), blockBits == Self.bits(for: Self.lastBlock(from: from, to: to, shift: shift)),
            lowBits == 32 - Self.highBits(count: n)
        else {
            damage(0, "header fields")
            return nil
        }
        let highWords = Self.words(count: n, lowBits: lowBits, blockBits: blockBits).high
        fromSeq = from
        toSeq = to
        self.count = n
        self.binding = binding
        self.path = path
        self.lowBits = lowBits
        self.blockBits = blockBits
        blockShift = shift
        self.highWords = highWords
        isSealed = cipher != nil
        let buckets = 1 << (32 - lowBits)
        bucketsPerEntry = max(16, buckets / directoryEntries)
        guard n > 0 else {
            guard ByteReaderValue.u32(header, 36) == 0 else {
                damage(0, "header fields")
                return nil
            }
            bytes = nil
            resident = nil
            pages = nil
            direct = nil
            directory = []
            highBase = nil
            packedBase = nil
            return
        }
        guard let mapped = MappedFile(fd), mapped.count == size else {
            damage(0, "cannot be mapped")
            return nil
        }
        // Checked a piece at a time, each piece's pages let go once read, so checking a run
        // (3.2 bytes an event) adds a piece to memory, not the run.
        var bodyCRC: UInt32 = 0
        var checked = Self.headerLength
        while checked < size {
            let end = min(size, checked + Self.checkedPieceBytes)
            bodyCRC = mapped.withBytes(checked..<end) { CRC32C.checksum($0, seed: bodyCRC) }
            mapped.release(below: end)
            checked = end
        }
        guard bodyCRC == ByteReaderValue.u32(header, 36) else {
            damage(Self.headerLength, "body checksum")
            return nil
        }
        let word: (Int) -> UInt64
        if let cipher {
            // Every page opened in turn; a large run holds a few at a time, and lookups open again those they read.
            let sealed = SealedPages(
                fd, cipher: cipher, prefix: Array(header[0..<Self.placeLength]), bodyBytes: 8 * Self.words(count: n, lowBits: lowBits, blockBits: blockBits).total,
                wholePages: wholePages)
            keptOpen = true
            if let page = sealed.check() {
                damage(SealedPages.offset(ofPage: page), "sealed page \(page) does not open")
                return nil
            }
            bytes = nil
            resident = nil
            pages = sealed
            direct = nil
            highBase = nil
            packedBase = nil
            word = { w in w < highWords ? sealed.word(w) : 0 }
        } else {
            let body = mapped.withBytes(Self.headerLength..<size) { $0 }
            bytes = mapped
            resident = ResidentWindows(mapped, budget: residentBudget)
            pages = nil
            if size > residentBudget.windows * ResidentWindows.windowBytes {
                direct = DirectReads(fd)
                keptOpen = true
            } else {
                direct = nil
            }
            highBase = body.baseAddress!
            packedBase = body.baseAddress! + 8 * highWords
            word = { w in w < highWords ? UInt64(littleEndian: body.loadUnaligned(fromByteOffset: w * 8, as: UInt64.self)) : 0 }
        }
        guard let entries = Self.directory(word, words: highWords, ones: n, zeros: buckets, bucketsPerEntry: bucketsPerEntry) else {
            damage(Self.headerLength, "bit vector")
            return nil
        }
        directory = entries
        // The checks read every page of a plaintext run: let them go (lookups read a few back).
        bytes?.releaseAll()
    }

    /// How many times lookups let the pages of a plaintext run's mapping go
    /// (``residentBudget``).
    var residentReleases: Int { resident?.releases ?? 0 }

    /// The bytes the bucket directory holds.
    var directoryBytes: Int { 8 * directory.count }

    /// Whether a page of a sealed run did not open when read after the run opened (its
    /// file changed), or a lookup's read of a run read with `pread(2)` failed: what was read
    /// from it is not the run's.
    var isDamaged: Bool { pages?.isDamaged ?? false || unreadable.load(ordering: .relaxed) >= 0 }

    /// The byte offset of the first page of this sealed run that did not open since the
    /// run opened, if any.
    var failedPageOffset: Int? { isDamaged ? pages?.failedPage.map(SealedPages.offset(ofPage:)) : nil }

    /// Throws if a page of this sealed run did not open since the run opened, or a lookup
    /// could not read the run.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` naming the file and the byte offset.
    func checkIntact() throws {
        let failedRead = unreadable.load(ordering: .relaxed)
        if failedRead >= 0 { throw HealthLogError(.corrupt, "\(path) at byte \(failedRead): cannot be read (changed since the run was checked)") }
        guard let offset = failedPageOffset else { return }
        throw HealthLogError(.corrupt, "\(path) at byte \(offset): sealed page does not open (changed since the run was checked)")
    }

    /// Lets the kernel drop the pages of a plaintext run's mapping read so far from this
    /// process's memory (a sealed run holds a few opened pages anyway), so reading a large
    /// run whole adds a bounded amount to it.
    func releasePages() {
        if let resident { resident.releaseAll() } else { bytes?.releaseAll() }
    }

    /// The bits of a bucket number for `count` keys: `⌊log₂ count⌋` (0 for none or one).
    static func highBits(count: Int) -> Int { count <= 1 ? 0 : min(31, Int.bitWidth - 1 - count.leadingZeroBitCount) }

    /// The last block number of a run covering `from...to`.
    static func lastBlock(from: UInt64, to: UInt64, shift: Int) -> UInt64 { (to >> UInt64(shift)) - (from >> UInt64(shift)) }

    /// The bits that hold every number up to `value`.
    static func bits(for value: UInt64) -> Int { value == 0 ? 0 : UInt64.bitWidth - value.leadingZeroBitCount }

    /// The u64 words of `count` fields of `width` bits, and one more (a field read takes two words).
    static func packedWords(count: Int, width: Int) -> Int { (count * width + 63) / 64 + 1 }

    /// The u64 words of the bit vector and of the whole body of a run of `count` keys whose
    /// fields hold `lowBits` fingerprint bits and `blockBits` block bits.
    static func words(count: Int, lowBits: Int, blockBits: Int) -> (high: Int, total: Int) {
        guard count > 0 else { return (0, 0) }
        let high = (count + (1 << (32 - lowBits)) + 63) / 64
        return (high, high + packedWords(count: count, width: lowBits + blockBits))
    }

    /// Checks that the bit vector of `count` words, read in order by `word` (0 past its
    /// end), holds `ones` ones and `zeros` zeros (any bit past them 0 too) and returns its
    /// bucket directory with an entry every `bucketsPerEntry` buckets (see ``directory``);
    /// `nil` if not.
    private static func directory(_ word: (Int) -> UInt64, words count: Int, ones: Int, zeros: Int, bucketsPerEntry: Int) -> [UInt64]? {
        let length = ones + zeros
        let entries = (zeros + bucketsPerEntry - 1) / bucketsPerEntry
        // Each entry as its start is found (no list of starts beside the directory).
        var out: [UInt64] = []
        out.reserveCapacity(2 * entries)
        func appendEntry(_ start: Int) {
            let offset = start % 64
            let bits = offset == 0 ? word(start / 64) : word(start / 64) >> UInt64(offset) | word(start / 64 + 1) << UInt64(64 - offset)
            out.append(UInt64(start))
            out.append(bits)
        }
        appendEntry(0)
        var seen = 0
        var onesSeen = 0
        for w in 0..<count {
            let bits = word(w)
            let valid = min(64, length - w * 64)
            let validMask: UInt64 = valid == 64 ? ~0 : (1 << UInt64(valid)) - 1
            guard bits & ~validMask == 0 else { return nil }
            onesSeen += bits.nonzeroBitCount
            let free = ~bits & validMask
            // Zero number `bucketsPerEntry × e − 1` closes the bucket before entry e's first.
            var x = free
            var taken = 0
            while out.count / 2 < entries, out.count / 2 * bucketsPerEntry - 1 < seen + free.nonzeroBitCount {
                let target = out.count / 2 * bucketsPerEntry - 1 - seen
                while taken < target {
                    x &= x - 1
                    taken += 1
                }
                appendEntry(w * 64 + x.trailingZeroBitCount + 1)
            }
            seen += free.nonzeroBitCount
        }
        guard onesSeen == ones, seen == zeros, out.count / 2 == entries else { return nil }
        return out
    }

    /// The keys of bucket `bucket` (below `2ᵏ`), as a range of key indexes, read from its
    /// directory entry, and from the bit vector when the entry's 64 bits end before the
    /// bucket does; empty for a run without keys.
    func keys(ofBucket bucket: Int) -> Range<Int> {
        guard count > 0 else { return 0..<0 }
        let entry = 2 * (bucket / bucketsPerEntry)
        let start = Int(directory[entry])
        let rest = bucket % bucketsPerEntry
        let free = ~directory[entry + 1]
        let first: Int
        if free.nonzeroBitCount > rest {
            // Zero `rest − 1` of the 64 bits closes the bucket before this one; zero `rest` closes it.
            let begin = rest == 0 ? 0 : Self.select(rest - 1, in: free) + 1
            first = start + begin - bucket
            return first..<first + (free >> UInt64(begin)).trailingZeroBitCount
        }
        first = (rest == 0 ? start : zero(rest - 1, from: start) + 1) - bucket
        return first..<first + onesRun(from: first + bucket)
    }

    /// Word `w` of the bit vector.
    private func highWord(_ w: Int) -> UInt64 {
        if let highBase { return Self.word(highBase, w) }
        return pages?.word(w) ?? 0
    }

    /// Word `w` of the bit vector, for a lookup: read with `pread(2)` from a run read so.
    private func bitVectorWord(_ w: Int) -> UInt64 {
        guard let direct else { return highWord(w) }
        var word: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &word) { read(direct, into: $0, at: Self.headerLength + 8 * w) }
        return UInt64(littleEndian: word)
    }

    /// Fills `buffer` from byte `offset` of the run read with `pread(2)`; `false` (the run
    /// marked damaged, ``checkIntact()``) when the read fails or falls short.
    private func read(_ direct: DirectReads, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Bool {
        guard (try? direct.fd.read(into: buffer, at: offset)) == buffer.count else {
            _ = unreadable.compareExchange(expected: -1, desired: offset, ordering: .relaxed)
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
            return false
        }
        return true
    }

    /// Word `w` of the packed fields.
    private func packedWord(_ w: Int) -> UInt64 {
        if let packedBase { return Self.word(packedBase, w) }
        return pages?.word(highWords + w) ?? 0
    }

    /// The position in the bit vector of zero number `j` (from 0) counted from position
    /// `start`.
    private func zero(_ j: Int, from start: Int) -> Int {
        var rest = j
        var w = start / 64
        var x = ~bitVectorWord(w) & (~0 << UInt64(start % 64))
        while true {
            let c = x.nonzeroBitCount
            if rest < c { return w * 64 + Self.select(rest, in: x) }
            rest -= c
            w += 1
            guard w < highWords else { return w * 64 }
            x = ~bitVectorWord(w)
        }
    }

    /// The position of set bit number `r` (from 0) of `x`, which has more than `r`.
    private static func select(_ r: Int, in x: UInt64) -> Int {
        var x = x
        var r = r
        var base = 0
        var c = (x & 0xFFFF_FFFF).nonzeroBitCount
        if r >= c {
            r -= c
            x >>= 32
            base += 32
        }
        c = (x & 0xFFFF).nonzeroBitCount
        if r >= c {
            r -= c
            x >>= 16
            base += 16
        }
        c = (x & 0xFF).nonzeroBitCount
        if r >= c {
            r -= c
            x >>= 8
            base += 8
        }
        while r > 0 {
            x &= x - 1
            r -= 1
        }
        return base + x.trailingZeroBitCount
    }

    /// How many ones follow position `position` of the bit vector, up to the next zero.
    private func onesRun(from position: Int) -> Int {
        var w = position / 64
        var offset = position % 64
        var count = 0
        while true {
            guard w < highWords else { return count }
            let zeros = ~bitVectorWord(w) >> UInt64(offset)
            if zeros != 0 { return count + zeros.trailingZeroBitCount }
            count += 64 - offset
            w += 1
            offset = 0
        }
    }

    /// Word `w` of the words at `words`.
    private static func word(_ words: UnsafeRawPointer, _ w: Int) -> UInt64 {
        UInt64(littleEndian: words.loadUnaligned(fromByteOffset: w * 8, as: UInt64.self))
    }

    /// Field `i` of the packed words, `width` bits wide.
    private func field(_ i: Int, width: Int) -> UInt64 {
        Self.field(i, width: width, packedWord)
    }

    /// Field `i`, `width` bits wide, of the packed words `word` gives. Inlined, so `word`
    /// is no closure made and released for each key a merge reads.
    @inline(__always)
    private static func field(_ i: Int, width: Int, _ word: (Int) -> UInt64) -> UInt64 {
        guard width > 0 else { return 0 }
        let bit = i * width
        let w = bit / 64
        let offset = bit % 64
        var value = word(w) >> UInt64(offset)
        if offset + width > 64 { value |= word(w + 1) << UInt64(64 - offset) }
        return width == 64 ? value : value & ((1 << UInt64(width)) - 1)
    }

    /// The run file of a run looked up with `pread(2)`, closed with it.
    private final class DirectReads {
        let fd: FileDescriptor

        init(_ fd: FileDescriptor) { self.fd = fd }

        deinit { fd.close() }
    }

    /// Calls `body` with each block holding an event whose UUID has `uuid`'s fingerprint,
    /// ascending (none: no event of the run has `uuid`).
    func forEachCandidateBlock(_ uuid: SampleUUID, _ body: (UInt64) throws -> Void) rethrows {
        try forEachCandidateBlock(fingerprint: UUIDFingerprint.of(uuid), body)
    }

    /// Calls `body` with each block holding an event whose UUID has the fingerprint
    /// `fingerprint`, ascending.
    /// A page of a sealed run that does not open (its file changed since the run opened)
    /// reads as zeros and marks the run damaged: see ``checkIntact()``.
    func forEachCandidateBlock(fingerprint: UInt32, _ body: (UInt64) throws -> Void) rethrows {
        guard count > 0 else { return }
        let hash = UInt64(fingerprint)
        let bucket = Int(hash >> UInt64(lowBits))
        let lowMask: UInt64 = (1 << UInt64(lowBits)) - 1
        let low = hash & lowMask
        let width = lowBits + blockBits
        let keys = keys(ofBucket: bucket)
        if let direct {
            guard !keys.isEmpty else { return }
            // The words holding the bucket's fields, read at once (a field takes two words at most).
            let first = keys.lowerBound * width / 64
            let count = (keys.upperBound * width + 63) / 64 + 1 - first
            try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: count) { words in
                guard read(direct, into: UnsafeMutableRawBufferPointer(words), at: Self.headerLength + 8 * (highWords + first)) else { return }
                for i in keys {
                    let value = Self.field(i, width: width) { UInt64(littleEndian: words[$0 - first]) }
                    if value & lowMask == low { try body(value >> UInt64(lowBits)) }
                }
            }
            return
        }
        // Where the lookup read the bit vector (the bucket's ones) and the fields.
        resident?.note(Self.headerLength + 8 * ((keys.lowerBound + bucket) / 64), Self.headerLength + 8 * highWords + keys.lowerBound * width / 8)
        for i in keys {
            let value = field(i, width: width)
            if value & lowMask == low { try body(value >> UInt64(lowBits)) }
        }
    }

    /// The blocks ``forEachCandidateBlock(_:_:)`` names for `uuid`.
    func candidateBlocks(_ uuid: SampleUUID) -> [UInt64] {
        var out: [UInt64] = []
        forEachCandidateBlock(uuid) { out.append($0) }
        return out
    }

    /// The byte offset in the file of the field of key `k` (where it starts); of the sealed
    /// page that holds it, for a sealed run.
    func fieldOffset(_ k: Int) -> Int {
        let inBody = 8 * highWords + k * (lowBits + blockBits) / 8
        return isSealed ? SealedPages.offset(ofPage: inBody / Self.pageBytes) : Self.headerLength + inBody
    }

    /// The sequence numbers of block `block` within the run's range.
    func seqs(ofBlock block: UInt64) -> ClosedRange<UInt64> {
        let all = UUIDFingerprint.seqs(ofBlock: block, from: fromSeq, shift: blockShift)
        return max(all.lowerBound, fromSeq)...min(all.upperBound, toSeq)
    }

    /// Calls `body` with every key in order (fingerprint << 32 | block).
    func forEachKey(_ body: (UInt64) throws -> Void) rethrows {
        guard count > 0 else { return }
        let width = lowBits + blockBits
        let lowMask: UInt64 = (1 << UInt64(lowBits)) - 1
        var i = 0
        for w in 0..<highWords {
            var x = highWord(w)
            while x != 0, i < count {
                let bucket = UInt64(w * 64 + x.trailingZeroBitCount - i)
                let value = field(i, width: width)
                try body((bucket << UInt64(lowBits) | value & lowMask) << 32 | value >> UInt64(lowBits))
                x &= x - 1
                i += 1
            }
        }
    }

    /// The run's keys in order, one at a time (``forEachKey(_:)`` as a cursor, for a merge
    /// that interleaves runs without holding their keys). It ends early when a page of a
    /// sealed run does not open (``isDamaged``), so what it gives is always the run's.
    struct KeyCursor {
        /// The run read.
        private let run: UUIDFingerprintRun
        /// The bit-vector word being read, the ones not taken yet, and the key index.
        private var w = 0
        private var x: UInt64 = 0
        private var i = 0

        /// A cursor at the first key of `run`.
        init(_ run: UUIDFingerprintRun) {
            self.run = run
            x = run.count > 0 ? run.highWord(0) : 0
        }

        /// The next key (fingerprint << 32 | block), or `nil` past the last (or at a sealed
        /// page that does not open).
        mutating func next() -> UInt64? {
            guard i < run.count else { return nil }
            while x == 0 {
                w += 1
                guard w < run.highWords else { return nil }
                x = run.highWord(w)
            }
            let lowBits = UInt64(run.lowBits)
            let bucket = UInt64(w * 64 + x.trailingZeroBitCount - i)
            let value = run.field(i, width: run.lowBits + run.blockBits)
            guard !run.isDamaged else { return nil }
            x &= x - 1
            i += 1
            // Every 2^17 keys (about 400 KB of the run), the pages read go: a merge reads
            // several runs at once, twice.
            if i & ((1 << 17) - 1) == 0 { run.releasePages() }
            return (bucket << lowBits | value & ((1 << lowBits) - 1)) << 32 | value >> lowBits
        }
    }

    /// Every key in order.
    func keys() -> [UInt64] {
        var out: [UInt64] = []
        out.reserveCapacity(count)
        forEachKey { out.append($0) }
        return out
    }
}
