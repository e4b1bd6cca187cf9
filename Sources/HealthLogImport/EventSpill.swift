#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// The mapped events of an import, kept on disk between mapping (the whole export read and
/// checked, nothing written to the store) and appending, so each file of the export is read
/// and mapped once and memory stays bounded whatever the export's size.
///
/// An unlinked file: it is created with a random name (`O_CREAT | O_EXCL | O_NOFOLLOW`, mode
/// 0600, so a planted link is never followed) and removed at once, so it never shows in a
/// directory listing, nobody else can open it, and the kernel frees it when the import ends,
/// however it ends. It goes beside the store (in the store's directory when it exists, else
/// in the one that will hold it), else in `$TMPDIR` or `/tmp`.
///
/// Each record: a flags byte (``Flags``), the UUID's 16 bytes, the line's length (4 bytes,
/// little-endian), the line with its newline.
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
    }

    /// One record read back.
    struct Record {
        /// The record's flags.
        var flags: Flags
        /// The event's UUID.
        var uuid: SampleUUID
        /// The event line, newline included; valid only during the call that gets it.
        var line: UnsafeRawBufferPointer
    }

    private let fd: Int32
    /// Records gathered before a write.
    private var buffer: [UInt8] = []
    /// Bytes in the file (written or buffered).
    private(set) var size = 0
    /// The size of a record's head: flags, UUID, length.
    private static let headBytes = 1 + 16 + 4
    /// How many bytes are gathered before a write, and read at once.
    private static let chunkBytes = 1 << 20

    /// Creates the spill near `storeDirectory`.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when no candidate directory takes the file.
    init(near storeDirectory: String) throws {
        let parent = storeDirectory.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let environment = getenv("TMPDIR").map { String(cString: $0) }
        let candidates = [storeDirectory, parent.isEmpty ? (storeDirectory.hasPrefix("/") ? "/" : ".") : parent, environment, "/tmp"]
        var lastError: Int32 = 0
        for case let directory? in candidates where !directory.isEmpty {
            var random = SystemRandomNumberGenerator()
            let path = directory + "/.healthlog-import-spill-" + String(random.next() as UInt64, radix: 16)
            let opened = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard opened >= 0 else {
                lastError = errno
                continue
            }
            unlink(path)
            fd = opened
            buffer.reserveCapacity(Self.chunkBytes + (1 << 16))
            return
        }
        throw HealthLogError(.io, "cannot create the import's temporary file beside \(storeDirectory): \(String(cString: strerror(lastError)))", errno: lastError)
    }

    deinit { close(fd) }

    /// Adds an event's record.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when writing fails (a full disk).
    func add(_ event: ExportMapper.Event, _ flags: Flags) throws {
        buffer.append(flags.rawValue | (event.isCorrelationMember ? Flags.correlationMember.rawValue : 0))
        withUnsafeBytes(of: event.uuid.high.bigEndian) { buffer.append(contentsOf: $0) }
        withUnsafeBytes(of: event.uuid.low.bigEndian) { buffer.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(event.line.count).littleEndian) { buffer.append(contentsOf: $0) }
        buffer.append(contentsOf: event.line)
        size += Self.headBytes + event.line.count
        if buffer.count >= Self.chunkBytes { try drain() }
    }

    /// Writes what is gathered with `write(2)`.
    private func drain() throws {
        try buffer.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { throw Self.failure("write to", errno) }
                done += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with every record in the order written, and `progress` with the bytes
    /// read so far. Ends the writing: nothing is added after.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when reading fails; whatever `body` throws.
    func forEach(progress: (Int) -> Void, _ body: (Record) throws -> Void) throws {
        try drain()
        guard lseek(fd, 0, SEEK_SET) == 0 else { throw Self.failure("rewind", errno) }
        var chunk = [UInt8](repeating: 0, count: Self.chunkBytes)
        var held = 0
        var consumed = 0
        while true {
            if held == chunk.count { chunk += [UInt8](repeating: 0, count: chunk.count) }
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress! + held, $0.count - held) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw Self.failure("read", errno) }
            if n == 0 { break }
            held += n
            consumed += n
            let used = try chunk.withUnsafeBytes { bytes in try Self.records(UnsafeRawBufferPointer(rebasing: bytes[0..<held]), body) }
            chunk.withUnsafeMutableBytes { bytes in
                bytes.baseAddress!.copyMemory(from: bytes.baseAddress! + used, byteCount: held - used)
            }
            held -= used
            progress(consumed - held)
        }
        guard held == 0 else { throw HealthLogError(.io, "the import's temporary file ends inside a record") }
    }

    /// Calls `body` with each whole record at the start of `bytes`; returns the bytes used.
    private static func records(_ bytes: UnsafeRawBufferPointer, _ body: (Record) throws -> Void) throws -> Int {
        var at = 0
        while bytes.count - at >= headBytes {
            let length = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at + 17, as: UInt32.self)))
            guard bytes.count - at - headBytes >= length else { break }
            let high = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: at + 1, as: UInt64.self))
            let low = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: at + 9, as: UInt64.self))
            let line = UnsafeRawBufferPointer(rebasing: bytes[(at + headBytes)..<(at + headBytes + length)])
            try body(Record(flags: Flags(rawValue: bytes[at]), uuid: SampleUUID(high: high, low: low), line: line))
            at += headBytes + length
        }
        return at
    }

    /// An I/O error naming what failed on the temporary file.
    private static func failure(_ what: String, _ code: Int32) -> HealthLogError {
        HealthLogError(.io, "cannot \(what) the import's temporary file: \(String(cString: strerror(code)))", errno: code)
    }
}
