#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
/// `2ᵏ` zeros, and keeps a bucket directory in memory (a byte a bucket; with more than
/// `n / 2` and at most `n` buckets, half a byte to one an event): for every 16th bucket
/// where its ones start in the bit vector, beside the 64 bits of the vector from there, so
/// finding a bucket mostly reads one 16-byte entry, not a sample and then the vector, and
/// a lookup's first cache miss is its last but the fields'. A run that fails any check does not open, and writers rebuild it from the log.
/// A run that opens is used only while its ``binding`` is the log's at its last number
/// (``UUIDRunSet/openChain(_:snapshot:cipher:removingOthers:)``): one copied from another store,
/// or left from a log that a restore cut and wrote on, is treated as missing.
///
/// In an encrypted store the body (bit vector and fields) is one sealed unit
/// (``sealedFile``), opened into memory when the run opens: lookups then read that copy as
/// they read the mapped file of a plaintext run.
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
    /// The file's kind in an encrypted store: the body, when there is one, is one sealed
    /// unit whose place is the header's first ``placeLength`` bytes and unit number 0.
    static let sealedFile = file.sealed { ByteReaderValue.u64($0, 24) > 0 ? 1 : 0 }
    /// The header bytes a sealed body's place names: tag, version, range, key count and
    /// field widths.
    static let placeLength = 36
    /// Where the ``LogBinding`` lies in the header.
    static let bindingOffset = 40
    /// Every how many buckets the directory holds an entry (a power of two).
    static let bucketsPerEntry = 16

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
    /// The opened body of a sealed run (`nil` for a run without keys, or a plaintext one).
    private let opened: UnsafeMutableRawBufferPointer?
    /// Whether the body is sealed.
    private let isSealed: Bool
    /// Where the bit vector and the fields start in the body (kept for lookups, which
    /// would otherwise enter a closure per read; valid while ``bytes`` or ``opened`` lives,
    /// as long as the run).
    private let highBase: UnsafeRawPointer?
    private let packedBase: UnsafeRawPointer?
    /// Words of the bit vector.
    private let highWords: Int
    /// The bucket directory, two words an entry: for buckets `16g`, `16(g + 1)`, … the
    /// position in the bit vector where bucket `16g`'s ones start (just past the zero that
    /// closes bucket `16g − 1`), then the vector's 64 bits from there (zeros past its end).
    private let directory: [UInt64]

    /// The bytes of the file checked at a time when a run is opened.
    static let checkedPieceBytes = 1 << 20

    /// The file name of a run covering `from...to` (the name runs have always had).
    static func fileName(from: UInt64, to: UInt64) -> String { UUIDRun.fileName(from: from, to: to) }

    /// Parses a run file name into its range.
    static func range(ofFileName name: String) -> ClosedRange<UInt64>? { UUIDRun.range(ofFileName: name) }

    /// The run's size in bytes.
    var byteCount: Int {
        let body = 8 * (highWords + Self.packedWords(count: count, width: lowBits + blockBits))
        return Self.headerLength + body + (isSealed && count > 0 ? StoreCipher.overhead : 0)
    }

    /// Opens and checks the run at `path`, its body sealed with `cipher` (`nil`: a plaintext
    /// store's run); `nil` if unusable (damaged, another layout, or a sealed body that does
    /// not open).
    init?(path: String, cipher: StoreCipher?) {
        guard let fd = try? FileDescriptor.open(path, flags: O_RDONLY) else { return nil }
        defer { fd.close() }
        guard let size = try? fd.size(), let header = try? fd.read(at: 0, count: Self.headerLength),
            var r = (cipher == nil ? Self.file : Self.sealedFile).open(header, fileLength: size), let binding = LogBinding(header, at: Self.bindingOffset)
        else { return nil }
        guard let from = try? r.read(UInt64.self), let to = try? r.read(UInt64.self), let count = try? r.read(UInt64.self),
            from >= 1, from <= to, to < FormatConstants.maxSequence, count <= UInt64(Int32.max)
        else { return nil }
        let lowBits = Int(header[32])
        let blockBits = Int(header[33])
        let shift = Int(header[34])
        let n = Int(count)
        guard shift == UUIDFingerprint.blockShift(from: from, to: to), blockBits == Self.bits(for: Self.lastBlock(from: from, to: to, shift: shift)),
            lowBits == 32 - Self.highBits(count: n)
        else { return nil }
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
        guard n > 0 else {
            guard ByteReaderValue.u32(header, 36) == 0 else { return nil }
            bytes = nil
            opened = nil
            directory = []
            highBase = nil
            packedBase = nil
            return
        }
        guard let mapped = MappedFile(fd), mapped.count == size else { return nil }
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
        guard bodyCRC == ByteReaderValue.u32(header, 36) else { return nil }
        let body: UnsafeRawBufferPointer
        if let cipher {
            let plain = UnsafeMutableRawBufferPointer.allocate(byteCount: size - Self.headerLength - StoreCipher.overhead, alignment: 8)
            let place = SmallFile.place(header[0..<Self.placeLength], unit: 0)
            guard mapped.withBytes(Self.headerLength..<size, { cipher.open($0, .derivedFile, place: place, into: plain) }) else {
                plain.deallocate()
                return nil
            }
            bytes = nil
            opened = plain
            body = UnsafeRawBufferPointer(plain)
        } else {
            bytes = mapped
            opened = nil
            body = mapped.withBytes(Self.headerLength..<size) { $0 }
        }
        guard let entries = Self.directory(UnsafeRawBufferPointer(rebasing: body[0..<8 * highWords]), ones: n, zeros: 1 << (32 - lowBits)) else {
            opened?.deallocate()
            return nil
        }
        directory = entries
        highBase = body.baseAddress!
        packedBase = body.baseAddress! + 8 * highWords
        // The checks read every page of a plaintext run: let them go (lookups read a few back).
        bytes?.releaseAll()
    }

    /// Lets the kernel drop the pages of a plaintext run's mapping read so far from this
    /// process's memory (a sealed run's opened body stays), so reading a large run whole
    /// adds a bounded amount to it.
    func releasePages() {
        bytes?.releaseAll()
    }

    deinit { opened?.deallocate() }

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

    /// Checks that the bit vector `words` holds `ones` ones and `zeros` zeros (any bit past
    /// them 0 too) and returns its bucket directory (see ``directory``); `nil` if not.
    private static func directory(_ words: UnsafeRawBufferPointer, ones: Int, zeros: Int) -> [UInt64]? {
        let length = ones + zeros
        let count = words.count / 8
        let entries = (zeros + bucketsPerEntry - 1) / bucketsPerEntry
        func word(_ w: Int) -> UInt64 {
            w < count ? UInt64(littleEndian: words.loadUnaligned(fromByteOffset: w * 8, as: UInt64.self)) : 0
        }
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
            let word = UInt64(littleEndian: words.loadUnaligned(fromByteOffset: w * 8, as: UInt64.self))
            let valid = min(64, length - w * 64)
            let validMask: UInt64 = valid == 64 ? ~0 : (1 << UInt64(valid)) - 1
            guard word & ~validMask == 0 else { return nil }
            onesSeen += word.nonzeroBitCount
            let free = ~word & validMask
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
        guard let high = highBase else { return 0..<0 }
        let entry = 2 * (bucket / Self.bucketsPerEntry)
        let start = Int(directory[entry])
        let rest = bucket % Self.bucketsPerEntry
        let free = ~directory[entry + 1]
        let first: Int
        if free.nonzeroBitCount > rest {
            // Zero `rest − 1` of the 64 bits closes the bucket before this one; zero `rest` closes it.
            let begin = rest == 0 ? 0 : Self.select(rest - 1, in: free) + 1
            first = start + begin - bucket
            return first..<first + (free >> UInt64(begin)).trailingZeroBitCount
        }
        first = (rest == 0 ? start : Self.zero(rest - 1, from: start, high) + 1) - bucket
        return first..<first + Self.onesRun(from: first + bucket, high)
    }

    /// The position in the bit vector at `high` of zero number `j` (from 0) counted from
    /// position `start`.
    private static func zero(_ j: Int, from start: Int, _ high: UnsafeRawPointer) -> Int {
        var rest = j
        var w = start / 64
        var x = ~word(high, w) & (~0 << UInt64(start % 64))
        while true {
            let c = x.nonzeroBitCount
            if rest < c { return w * 64 + select(rest, in: x) }
            rest -= c
            w += 1
            x = ~word(high, w)
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

    /// How many ones follow position `position` of the bit vector at `high`, up to the next zero.
    private static func onesRun(from position: Int, _ high: UnsafeRawPointer) -> Int {
        var w = position / 64
        var offset = position % 64
        var count = 0
        while true {
            let zeros = ~word(high, w) >> UInt64(offset)
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

    /// Field `i` of the packed words at `packed`, `width` bits wide.
    private static func field(_ packed: UnsafeRawPointer, _ i: Int, width: Int) -> UInt64 {
        guard width > 0 else { return 0 }
        let bit = i * width
        let w = bit / 64
        let offset = bit % 64
        var value = word(packed, w) >> UInt64(offset)
        if offset + width > 64 { value |= word(packed, w + 1) << UInt64(64 - offset) }
        return width == 64 ? value : value & ((1 << UInt64(width)) - 1)
    }

    /// Calls `body` with each block holding an event whose UUID has `uuid`'s fingerprint,
    /// ascending (none: no event of the run has `uuid`).
    func forEachCandidateBlock(_ uuid: SampleUUID, _ body: (UInt64) throws -> Void) rethrows {
        try forEachCandidateBlock(fingerprint: UUIDFingerprint.of(uuid), body)
    }

    /// Calls `body` with each block holding an event whose UUID has the fingerprint
    /// `fingerprint`, ascending.
    func forEachCandidateBlock(fingerprint: UInt32, _ body: (UInt64) throws -> Void) rethrows {
        guard let packed = packedBase else { return }
        let hash = UInt64(fingerprint)
        let bucket = Int(hash >> UInt64(lowBits))
        let lowMask: UInt64 = (1 << UInt64(lowBits)) - 1
        let low = hash & lowMask
        let width = lowBits + blockBits
        for i in keys(ofBucket: bucket) {
            let value = Self.field(packed, i, width: width)
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
    /// unit that holds it, for a sealed run.
    func fieldOffset(_ k: Int) -> Int { isSealed ? Self.headerLength : Self.headerLength + 8 * highWords + k * (lowBits + blockBits) / 8 }

    /// The sequence numbers of block `block` within the run's range.
    func seqs(ofBlock block: UInt64) -> ClosedRange<UInt64> {
        let all = UUIDFingerprint.seqs(ofBlock: block, from: fromSeq, shift: blockShift)
        return max(all.lowerBound, fromSeq)...min(all.upperBound, toSeq)
    }

    /// Calls `body` with every key in order (fingerprint << 32 | block).
    func forEachKey(_ body: (UInt64) throws -> Void) rethrows {
        guard let high = highBase, let packed = packedBase else { return }
        let width = lowBits + blockBits
        let lowMask: UInt64 = (1 << UInt64(lowBits)) - 1
        var i = 0
        for w in 0..<highWords {
            var x = Self.word(high, w)
            while x != 0 {
                let bucket = UInt64(w * 64 + x.trailingZeroBitCount - i)
                let value = Self.field(packed, i, width: width)
                try body((bucket << UInt64(lowBits) | value & lowMask) << 32 | value >> UInt64(lowBits))
                x &= x - 1
                i += 1
            }
        }
    }

    /// The run's keys in order, one at a time (``forEachKey(_:)`` as a cursor, for a merge
    /// that interleaves runs without holding their keys).
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
            x = run.highWords > 0 && run.highBase != nil ? UUIDFingerprintRun.word(run.highBase!, 0) : 0
        }

        /// The next key (fingerprint << 32 | block), or `nil` past the last.
        mutating func next() -> UInt64? {
            guard let high = run.highBase, let packed = run.packedBase else { return nil }
            while x == 0 {
                w += 1
                guard w < run.highWords else { return nil }
                x = UUIDFingerprintRun.word(high, w)
            }
            let lowBits = UInt64(run.lowBits)
            let bucket = UInt64(w * 64 + x.trailingZeroBitCount - i)
            let value = UUIDFingerprintRun.field(packed, i, width: run.lowBits + run.blockBits)
            x &= x - 1
            i += 1
            // Every 2^20 keys (about 3 MB of the run), the pages read go.
            if i & ((1 << 20) - 1) == 0 { run.releasePages() }
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
