#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// The mapped events of an import, kept between mapping (the whole export read and checked,
/// nothing written to the store) and appending, so each file of the export is read and
/// mapped once and memory stays bounded whatever the export's size.
///
/// Records are gathered in chunks of about 4 MiB, each compressed (``SpillChunk``) and kept in
/// memory up to ``memoryLimit``; the chunks after that go to
/// an unlinked file: created with a random name (`O_CREAT | O_EXCL | O_NOFOLLOW`, mode 0600,
/// so a planted link is never followed) and removed at once, so it never shows in a
/// directory listing, nobody else can open it, and the kernel frees it when the import ends,
/// however it ends. It goes beside the store (in the store's directory when it exists, else
/// in the one that will hold it), else in a scratch directory (``ScratchFiles/directories``). A chunk in the file is its
/// frame's length and its records' length (4 bytes each, little-endian), then the frame.
/// For an encrypted store the frame is sealed (``ScratchCipher``, place: the chunk's index
/// and both lengths) and the first length is the sealed frame's; the file then holds no
/// record, and no LZ4 frame, in the clear.
///
/// Each record: a flags byte (``Flags``), the UUID's 16 bytes, the line's length and its
/// preparation's length (4 bytes each, little-endian), the line with its newline, then the
/// preparation (``ExportMapper/Event/prepared``; none when its length is 0). A chunk holds
/// whole records.
final class EventSpill {
    /// What a record says about its event, besides its line.
    struct Flags: OptionSet {
        let rawValue: UInt8
        /// A member of a correlation.
        static let correlationMember = Flags(rawValue: 1)
        /// The last event of a top-level element (or a file's only one): an append may end
        /// after it, never inside the element, so a correlation and its members share one.
        static let endsElement = Flags(rawValue: 2)
        /// From the export document (not a route, electrocardiogram or clinical file).
        static let fromDocument = Flags(rawValue: 4)
        /// A live sample in the store has the UUID (``ExportMapper/InStore/live``); no line.
        static let inStoreLive = Flags(rawValue: 8)
        /// A deleted sample in the store had the UUID (``ExportMapper/InStore/deleted``); no line.
        static let inStoreDeleted = Flags(rawValue: 16)
        /// The store's UUID index showed the UUID unused (``ExportMapper/Event/checkedUnused``).
        static let checkedUnused = Flags(rawValue: 32)
    }

    /// One record read back.
    struct Record {
        /// The record's flags.
        var flags: Flags
        /// The event's UUID.
        var uuid: SampleUUID
        /// The event line, newline included; valid only during the call that gets it.
        var line: UnsafeRawBufferPointer
        /// What the mapping prepared of the line for the append, or `nil`; valid as ``line``.
        var prepared: UnsafeRawBufferPointer?
    }

    /// Where chunks past ``memoryLimit`` go: the store's directory, for the file.
    private let storeDirectory: String
    /// The unlinked file, once a chunk went there.
    private(set) var fd: Int32 = -1
    /// Records not yet in a chunk.
    private var raw: [UInt8] = []
    /// The compressed chunks kept in memory, in order, with their records' length.
    private var chunks: [(frame: [UInt8], rawCount: Int)] = []
    /// The bytes of ``chunks``.
    private var memoryBytes = 0
    /// Chunks written to the file, all after those in memory.
    private var fileChunks = 0
    /// Bytes of records added.
    private(set) var size = 0
    /// Records added with a line: those the appends will be given.
    private(set) var lineCount = 0
    /// The size of a record's head: flags, UUID, the two lengths.
    private static let headBytes = 1 + 16 + 4 + 4
    /// The records' bytes gathered before they are compressed into a chunk.
    private let chunkBytes: Int
    /// The compressed bytes kept in memory at most; later chunks go to the file.
    let memoryLimit: Int
    /// The cipher the file's chunks are sealed with; `nil`: in the clear.
    private let sealing: ScratchCipher?

    /// A spill that keeps its file, when it needs one, near `storeDirectory`, sealed with
    /// `sealing` (an encrypted store's) or in the clear; chunks of `chunkBytes` of records
    /// (1 MiB), `memoryLimit` compressed bytes of them in memory (1 MiB: a small import
    /// needs no file, and a large one keeps little more in memory than a small one). Tests
    /// make both small.
    init(near storeDirectory: String, sealing: ScratchCipher?, chunkBytes: Int = 1 << 20, memoryLimit: Int = 1 << 20) {
        self.storeDirectory = storeDirectory
        self.sealing = sealing
        self.chunkBytes = chunkBytes
        self.memoryLimit = memoryLimit
        raw.reserveCapacity(chunkBytes + (1 << 16))
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// A spill of short records, a UUID and a few bytes each (``add(_:line:_:)``): chunks of
    /// 256 KiB, 256 KiB of them in memory.
    static func forUUIDs(near storeDirectory: String, sealing: ScratchCipher?) -> EventSpill {
        EventSpill(near: storeDirectory, sealing: sealing, chunkBytes: 1 << 18, memoryLimit: 1 << 18)
    }

    /// Adds a record of `uuid` with `line` (a few bytes, or none) and `flags`.
    ///
    /// - Throws: as ``add(_:_:)``.
    func add(_ uuid: SampleUUID, line: [UInt8] = [], _ flags: Flags = []) throws {
        try add(ExportMapper.Event(type: "", uuid: uuid, line: line, isCorrelationMember: false), flags)
    }

    /// Adds an event's record.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when the file cannot be created or written (a
    ///   full disk).
    func add(_ event: ExportMapper.Event, _ flags: Flags) throws {
        var all = flags
        if event.isCorrelationMember { all.insert(.correlationMember) }
        switch event.inStore {
        case .live?: all.insert(.inStoreLive)
        case .deleted?: all.insert(.inStoreDeleted)
        case nil: break
        }
        if event.checkedUnused { all.insert(.checkedUnused) }
        raw.append(all.rawValue)
        withUnsafeBytes(of: event.uuid.high.bigEndian) { raw.append(contentsOf: $0) }
        withUnsafeBytes(of: event.uuid.low.bigEndian) { raw.append(contentsOf: $0) }
        let prepared = event.prepared ?? []
        withUnsafeBytes(of: UInt32(event.line.count).littleEndian) { raw.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(prepared.count).littleEndian) { raw.append(contentsOf: $0) }
        raw.append(contentsOf: event.line)
        raw.append(contentsOf: prepared)
        size += Self.headBytes + event.line.count + prepared.count
        if !event.line.isEmpty { lineCount += 1 }
        if raw.count >= chunkBytes { try seal() }
    }

    /// Compresses the gathered records into a chunk, kept in memory or written to the file.
    private func seal() throws {
        guard !raw.isEmpty else { return }
        let frame = try SpillChunk.compress(raw)
        if fileChunks == 0, memoryBytes + frame.count <= memoryLimit {
            chunks.append((frame, raw.count))
            memoryBytes += frame.count
        } else {
            if fd < 0 { fd = try Self.createFile(near: storeDirectory) }
            if let sealing {
                try writeSealed(frame, rawCount: raw.count, sealing)
                raw.removeAll(keepingCapacity: true)
                return
            }
            var bytes: [UInt8] = []
            withUnsafeBytes(of: UInt32(frame.count).littleEndian) { bytes.append(contentsOf: $0) }
            withUnsafeBytes(of: UInt32(raw.count).littleEndian) { bytes.append(contentsOf: $0) }
            try Self.writeAll(bytes, to: fd)
            try Self.writeAll(frame, to: fd)
            fileChunks += 1
        }
        raw.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with every record in the order added, and `progress` with the bytes of
    /// records delivered so far. Ends the adding: nothing is added after. The chunks kept in
    /// memory go as they are read, unless `keepingChunks`: then the records can be read
    /// again.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when reading the file fails; whatever `body`
    ///   throws.
    func forEach(progress: (Int) -> Void, keepingChunks: Bool = false, _ body: (Record) throws -> Void) throws {
        try seal()
        var records: [UInt8] = []
        var done = 0
        func deliver(_ frame: UnsafeRawBufferPointer, _ rawCount: Int) throws {
            if records.count < rawCount { records = [UInt8](repeating: 0, count: rawCount) }
            try records.withUnsafeMutableBytes { try SpillChunk.decompress(frame, into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<rawCount])) }
            let used = try records.withUnsafeBytes { try Self.records(UnsafeRawBufferPointer(rebasing: $0[0..<rawCount]), body) }
            guard used == rawCount else { throw HealthLogError(.io, "the import's temporary data ends inside a record") }
            done += rawCount
            progress(done)
        }
        for index in chunks.indices {
            let chunk = chunks[index]
            if !keepingChunks { chunks[index].frame = [] }
            try chunk.frame.withUnsafeBytes { try deliver($0, chunk.rawCount) }
        }
        if !keepingChunks { chunks = [] }
        guard fileChunks > 0 else { return }
        guard lseek(fd, 0, SEEK_SET) == 0 else { throw Self.failure("rewind", errno) }
        var head = [UInt8](repeating: 0, count: 8)
        var frame: [UInt8] = []
        var chunk = 0
        for _ in 0..<fileChunks {
            try Self.readExactly(&head, 8, from: fd)
            let (frameCount, rawCount) = head.withUnsafeBytes {
                (Int(UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self))), Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self))))
            }
            if frame.count < frameCount { frame = [UInt8](repeating: 0, count: frameCount) }
            try Self.readExactly(&frame, frameCount, from: fd)
            if let sealing {
                let opened = try openSealed(frame[0..<frameCount], chunk: chunk, rawCount: rawCount, sealing)
                try opened.withUnsafeBytes { try deliver($0, rawCount) }
            } else {
                try frame.withUnsafeBytes { try deliver(UnsafeRawBufferPointer(rebasing: $0[0..<frameCount]), rawCount) }
            }
            chunk += 1
        }
    }

    /// Writes `frame` (of `rawCount` bytes of records) sealed as the file's next chunk.
    private func writeSealed(_ frame: [UInt8], rawCount: Int, _ sealing: ScratchCipher) throws {
        let sealed = frame.withUnsafeBytes { sealing.seal($0, .importSpill, place: (UInt64(fileChunks), UInt64(rawCount), UInt64(frame.count))) }
        var bytes: [UInt8] = []
        withUnsafeBytes(of: UInt32(sealed.count).littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(rawCount).littleEndian) { bytes.append(contentsOf: $0) }
        try Self.writeAll(bytes, to: fd)
        try Self.writeAll(sealed, to: fd)
        fileChunks += 1
    }

    /// The frame the sealed chunk `chunk` (of `rawCount` bytes of records) holds.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` when it does not open.
    private func openSealed(_ sealed: ArraySlice<UInt8>, chunk: Int, rawCount: Int, _ sealing: ScratchCipher) throws -> [UInt8] {
        let frameCount = max(0, sealed.count - ScratchCipher.overhead)
        var frame = [UInt8](repeating: 0, count: frameCount)
        let opened = sealed.count >= ScratchCipher.overhead && sealed.withUnsafeBytes { sealed in
            frame.withUnsafeMutableBytes { sealing.open(sealed, .importSpill, place: (UInt64(chunk), UInt64(rawCount), UInt64(frameCount)), into: $0) }
        }
        guard opened else { throw HealthLogError(.corrupt, "the import's temporary file: chunk \(chunk) does not open (changed or cut short)") }
        return frame
    }

    /// Creates the unlinked file: in the store's directory, the one that will hold it,
    /// the scratch directories, the first that takes it.
    private static func createFile(near storeDirectory: String) throws -> Int32 {
        let parent = storeDirectory.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let candidates = [storeDirectory, parent.isEmpty ? (storeDirectory.hasPrefix("/") ? "/" : ".") : parent] + ScratchFiles.directories
        var lastError: Int32 = 0
        var random = SystemRandomNumberGenerator()
        for directory in candidates where !directory.isEmpty {
            let path = directory + "/.healthlog-import-spill-" + String(random.next() as UInt64, radix: 16)
            let opened = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard opened >= 0 else {
                lastError = errno
                continue
            }
            unlink(path)
            return opened
        }
        throw HealthLogError(.io, "cannot create the import's temporary file beside \(storeDirectory): \(String(cString: strerror(lastError)))", errno: lastError)
    }

    /// Writes all of `bytes` with `write(2)`.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32) throws {
        try bytes.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { throw failure("write to", errno) }
                done += n
            }
        }
    }

    /// Reads exactly `count` bytes into the start of `buffer` with `read(2)`.
    private static func readExactly(_ buffer: inout [UInt8], _ count: Int, from fd: Int32) throws {
        try buffer.withUnsafeMutableBytes { bytes in
            var done = 0
            while done < count {
                let n = read(fd, bytes.baseAddress! + done, count - done)
                if n < 0, errno == EINTR { continue }
                guard n >= 0 else { throw failure("read", errno) }
                guard n > 0 else { throw HealthLogError(.io, "the import's temporary file ends inside a chunk") }
                done += n
            }
        }
    }

    /// Calls `body` with each whole record at the start of `bytes`; returns the bytes used.
    private static func records(_ bytes: UnsafeRawBufferPointer, _ body: (Record) throws -> Void) throws -> Int {
        var at = 0
        while bytes.count - at >= headBytes {
            let length = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at + 17, as: UInt32.self)))
            let preparedLength = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at + 21, as: UInt32.self)))
            guard bytes.count - at - headBytes >= length + preparedLength else { break }
            let high = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: at + 1, as: UInt64.self))
            let low = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: at + 9, as: UInt64.self))
            let line = UnsafeRawBufferPointer(rebasing: bytes[(at + headBytes)..<(at + headBytes + length)])
            let prepared = preparedLength == 0 ? nil : UnsafeRawBufferPointer(rebasing: bytes[(at + headBytes + length)..<(at + headBytes + length + preparedLength)])
            try body(Record(flags: Flags(rawValue: bytes[at]), uuid: SampleUUID(high: high, low: low), line: line, prepared: prepared))
            at += headBytes + length + preparedLength
        }
        return at
    }

    /// An I/O error naming what failed on the temporary file.
    private static func failure(_ what: String, _ code: Int32) -> HealthLogError {
        HealthLogError(.io, "cannot \(what) the import's temporary file: \(String(cString: strerror(code)))", errno: code)
    }
}
