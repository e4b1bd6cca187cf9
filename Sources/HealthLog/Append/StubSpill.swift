#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The writer's ``SampleStub``s by ordinal, in bounded memory: the newest `bufferRecords`
/// in memory, older ones in fixed 36-byte records of a scratch file (``ScratchFiles``,
/// unlinked at once, so nothing outlives the process), read back with `pread(2)` when a later line of the same append deletes an
/// older sample or reuses its UUID. Stubs never change once appended, and their sequence
/// numbers run on from the first one's, so a record leaves the number out. An append of
/// any size holds a buffer, not a stub per sample.
///
/// Record layout (little-endian): type u32, source u32, device u32, then start and end
/// each as microseconds i64, UTC offset minutes i16 and fraction digits u8, then a flags
/// byte (bit 0 start is Zulu, bit 1 end is Zulu, bit 2 is live) and a byte of padding.
///
/// For an encrypted store the file holds no record in the clear: each flush's records are
/// sealed ``pageRecords`` at a time (``ScratchCipher``, the page's first ordinal and record
/// count as its place), and a read opens the page holding its record. A flush is sealed and
/// written on another thread while the append goes on (the writer's thread sets an
/// append's pace); its records are read from memory until then.
final class StubSpill {
    /// Bytes per record.
    private static let recordLength = 36
    /// Stubs held in memory before they are written to the file.
    private let bufferRecords: Int
    // Unchecked exclusivity: the spill is used by one thread at a time and none of its
    // methods re-enters it, so no two accesses overlap; the runtime check cost ~5% of an append.
    /// The newest stubs, not in the file yet.
    @exclusivity(unchecked) private var recent: [SampleStub] = []
    /// How many records are in the file (the ordinal of `recent[0]`).
    @exclusivity(unchecked) private var flushed = 0
    /// The scratch file, made on the first flush.
    private var scratch: FileDescriptor?
    /// The sealing and writing of the last flush of a sealed spill, at most one at a time,
    /// with its error if it failed.
    private let sealingJobs = OrderedJobs<Result<Void, any Error>>(qos: .userInitiated)
    /// The flush being sealed and written by ``sealingJobs``: its first ordinal and its
    /// records in the clear, which reads take until it is written.
    private var inFlight: (first: Int, records: [UInt8])?
    /// The records of the flush written last, whose buffer the next flush encodes into
    /// (its padding bytes are zero already): a flush is hundreds of kilobytes, which fresh
    /// memory would have the kernel fault in and zero every time.
    private var spareRecords: [UInt8] = []
    /// The buffer a sealed flush's pages are sealed into, reused flush after flush (one
    /// sealing job holds it at a time).
    private let sealedRoom = ReusedBytes()
    /// The sequence number of the stub of ordinal 0 (set by the first append).
    private var firstSeq: UInt64 = 0
    /// The cipher sealing the file's pages; `nil`: records in the clear.
    private let sealing: ScratchCipher?
    /// Records per sealed page (the last page of a flush may hold fewer): 1,152 bytes, so
    /// a read (an append's delete of an older sample) opens little more than it needs.
    static let pageRecords = 32
    /// The records a read took from the file last (a sealed page's opened), kept for the
    /// next read: a delete of an older sample of the append reads one.
    private var opened: [UInt8] = []
    /// The sealed page a read took from the file last.
    private var sealed: [UInt8] = []

    /// An empty spill holding up to `bufferRecords` stubs in memory, its file sealed with
    /// `sealing` (an encrypted store's) or in the clear.
    init(bufferRecords: Int = 1 << 14, sealing: ScratchCipher? = nil) {
        precondition(bufferRecords >= 1, "the buffer holds a stub")
        self.bufferRecords = bufferRecords
        self.sealing = sealing
    }

    /// Waits for a flush still being written, then closes the scratch file (which is gone
    /// once closed).
    deinit {
        _ = sealingJobs.next()
        scratch?.close()
    }

    /// The scratch file, once every flush is written into it.
    var file: FileDescriptor? {
        try? settle()
        return scratch
    }

    /// Waits for the flush being sealed and written, if any; rethrows its error.
    private func settle() throws {
        guard let written = sealingJobs.next() else { return }
        if let inFlight { spareRecords = inFlight.records }
        inFlight = nil
        try written.get()
    }

    /// How many stubs it holds.
    var count: Int { flushed + recent.count }

    /// Appends `stub`, whose sequence number follows the last one's; returns its ordinal.
    func append(_ stub: SampleStub) throws -> Int {
        if count == 0 { firstSeq = stub.seq }
        precondition(stub.seq == firstSeq + UInt64(count), "stubs are appended in sequence order")
        if recent.count == bufferRecords { try flush() }
        recent.append(stub)
        return count - 1
    }

    /// The stub at `ordinal` (below ``count``).
    func stub(_ ordinal: Int) throws -> SampleStub {
        if ordinal >= flushed { return recent[ordinal - flushed] }
        if let inFlight, ordinal >= inFlight.first {
            return inFlight.records.withUnsafeBytes { Self.decode($0, at: (ordinal - inFlight.first) * Self.recordLength, seq: firstSeq + UInt64(ordinal)) }
        }
        guard let file = scratch else { throw HealthLogError(.io, "stub \(ordinal) was never written out") }
        if let sealing { return try sealedStub(ordinal, file, sealing) }
        opened.resize(forOverwrite: Self.recordLength)
        guard try file.read(into: &opened, at: ordinal * Self.recordLength) == Self.recordLength else {
            throw HealthLogError(.io, "\(file.path): stub \(ordinal) ends early")
        }
        return opened.withUnsafeBytes { Self.decode($0, at: 0, seq: firstSeq + UInt64(ordinal)) }
    }

    /// Writes the buffered stubs to the file (made on first use) and empties the buffer.
    private func flush() throws {
        let target = try scratch ?? Self.makeFile()
        scratch = target
        // The flush before, still being sealed and written, gives back its records' buffer.
        if sealing != nil { try settle() }
        var out: [UInt8] = []
        swap(&out, &spareRecords)
        // New, it is zeroed, so the padding bytes are; reused, they still are.
        if out.count != recent.count * Self.recordLength { out = [UInt8](repeating: 0, count: recent.count * Self.recordLength) }
        out.withUnsafeMutableBytes { raw in
            for (k, stub) in recent.enumerated() { Self.encode(stub, into: raw, at: k * Self.recordLength) }
        }
        if let sealing {
            let (records, first, at, room) = (out, flushed, flushed / bufferRecords * sealedFlushLength, sealedRoom)
            sealingJobs.submit {
                Result {
                    Self.sealPages(records, first: first, sealing, into: &room.bytes)
                    try target.write(room.bytes, at: at)
                }
            }
            inFlight = (first, records)
            flushed += recent.count
            recent.removeAll(keepingCapacity: true)
            return
        }
        try target.write(out, at: flushed * Self.recordLength)
        spareRecords = out
        flushed += recent.count
        recent.removeAll(keepingCapacity: true)
    }

    /// The bytes one flush of ``bufferRecords`` records takes sealed: its pages, each
    /// ``ScratchCipher/overhead`` bytes more than its records.
    private var sealedFlushLength: Int {
        bufferRecords * Self.recordLength + (bufferRecords + Self.pageRecords - 1) / Self.pageRecords * ScratchCipher.overhead
    }

    /// Seals the records `out` of the flush starting at ordinal `flushed` a page at a time
    /// into `sealed`, whose bytes they replace.
    private static func sealPages(_ out: [UInt8], first flushed: Int, _ sealing: ScratchCipher, into sealed: inout [UInt8]) {
        let records = out.count / Self.recordLength
        let pages = (records + Self.pageRecords - 1) / Self.pageRecords
        // The sealed pages fill it end to end.
        sealed.resize(forOverwrite: out.count + pages * ScratchCipher.overhead)
        sealed.withUnsafeMutableBytes { target in
            out.withUnsafeBytes { plain in
                for page in 0..<pages {
                    let first = page * pageRecords
                    let count = min(pageRecords, records - first)
                    let at = first * recordLength + page * ScratchCipher.overhead
                    let length = count * recordLength
                    sealing.seal(
                        UnsafeRawBufferPointer(rebasing: plain[first * Self.recordLength..<first * Self.recordLength + length]), .stubs,
                        place: (UInt64(flushed + first), UInt64(count), 0), into: UnsafeMutableRawBufferPointer(rebasing: target[at..<at + length + ScratchCipher.overhead]))
                }
            }
        }
    }

    /// The stub at `ordinal` (in the file), read from its sealed page.
    private func sealedStub(_ ordinal: Int, _ file: FileDescriptor, _ sealing: ScratchCipher) throws -> SampleStub {
        let flushStart = ordinal / bufferRecords * bufferRecords
        let page = (ordinal - flushStart) / Self.pageRecords
        let first = flushStart + page * Self.pageRecords
        let count = min(Self.pageRecords, flushStart + bufferRecords - first)
        let at = flushStart / bufferRecords * sealedFlushLength + page * (Self.pageRecords * Self.recordLength + ScratchCipher.overhead)
        sealed.resize(forOverwrite: count * Self.recordLength + ScratchCipher.overhead)
        opened.resize(forOverwrite: count * Self.recordLength)
        let isOpen = try file.read(into: &sealed, at: at) == sealed.count && sealed.withUnsafeBytes { sealed in
            opened.withUnsafeMutableBytes { sealing.open(sealed, .stubs, place: (UInt64(first), UInt64(count), 0), into: $0) }
        }
        guard isOpen else { throw HealthLogError(.corrupt, "\(file.path) at byte \(at): the append's sealed stubs do not open (changed or cut short)") }
        return opened.withUnsafeBytes { Self.decode($0, at: (ordinal - first) * Self.recordLength, seq: firstSeq + UInt64(ordinal)) }
    }

    /// Stores the record of `stub` at byte `at` of `raw` (zeroed: the padding stays 0),
    /// each field in place.
    private static func encode(_ stub: SampleStub, into raw: UnsafeMutableRawBufferPointer, at: Int) {
        raw.storeBytes(of: stub.type.littleEndian, toByteOffset: at, as: UInt32.self)
        raw.storeBytes(of: stub.source.littleEndian, toByteOffset: at + 4, as: UInt32.self)
        raw.storeBytes(of: stub.device.littleEndian, toByteOffset: at + 8, as: UInt32.self)
        encode(stub.start, into: raw, at: at + 12)
        encode(stub.end, into: raw, at: at + 23)
        raw[at + 34] = (stub.start.isZulu ? 1 : 0) | (stub.end.isZulu ? 2 : 0) | (stub.isLive ? 4 : 0)
    }

    /// Stores the 11 bytes of `time` at byte `at` of `raw`: microseconds, UTC offset
    /// minutes, fraction digits (whether it is Zulu goes in the record's flags).
    private static func encode(_ time: Timestamp, into raw: UnsafeMutableRawBufferPointer, at: Int) {
        raw.storeBytes(of: UInt64(bitPattern: time.microseconds).littleEndian, toByteOffset: at, as: UInt64.self)
        raw.storeBytes(of: UInt16(bitPattern: time.offsetMinutes).littleEndian, toByteOffset: at + 8, as: UInt16.self)
        raw[at + 10] = time.fractionDigits
    }

    /// The stub the record at byte `record` of `raw` holds, whose sequence number is `seq`.
    private static func decode(_ raw: UnsafeRawBufferPointer, at record: Int, seq: UInt64) -> SampleStub {
        func load<T: FixedWidthInteger>(_ at: Int, _: T.Type) -> T { T(littleEndian: raw.loadUnaligned(fromByteOffset: record + at, as: T.self)) }
        let flags = raw[record + 34]
        func time(_ at: Int, isZulu: Bool) -> Timestamp {
            Timestamp(microseconds: load(at, Int64.self), offsetMinutes: load(at + 8, Int16.self), isZulu: isZulu, fractionDigits: raw[record + at + 10])
        }
        return SampleStub(
            seq: seq, type: load(0, UInt32.self), source: load(4, UInt32.self), device: load(8, UInt32.self),
            start: time(12, isZulu: flags & 1 != 0), end: time(23, isZulu: flags & 2 != 0), isLive: flags & 4 != 0)
    }

    /// A new scratch file, already unlinked.
    private static func makeFile() throws -> FileDescriptor {
        try ScratchFiles.makeUnlinkedFile(prefix: "healthlog-stubs-")
    }
}
