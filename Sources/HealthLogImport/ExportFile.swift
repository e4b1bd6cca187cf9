#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// An `export.xml` read straight from its file with `read(2)`: the import's own small
/// wrapper over the descriptor, since the core's file handling is storage internals.
///
/// The file is read ahead in blocks of ``blockBytes`` and each ``read(into:)`` is served from
/// the block: the document reader asks for 4,096 bytes at a time (as `xmlTextReader` did),
/// and a `read(2)` per 4 KiB cost the parsing thread a tenth of its time in the kernel. A
/// read fills the whole buffer unless the file ends first, as `read(2)` of a regular file
/// does, so the reader is fed the same pieces; a failing `read(2)` is reported when the
/// caller asks for the bytes it would have given, not before.
final class ExportFile: ExportByteSource {
    private var fd: Int32
    let totalBytes: Int
    let documentName: String
    /// The bytes handed to the caller so far (not the bytes read ahead).
    private(set) var bytesConsumed = 0
    /// The bytes read from the file at a time.
    static let blockBytes = 1 << 20
    /// The block read ahead; its bytes from ``blockStart`` to ``blockEnd`` are not handed out yet.
    private var block: UnsafeMutableRawBufferPointer?
    /// Where the bytes of ``block`` not yet handed out start.
    private var blockStart = 0
    /// Where the bytes of ``block`` end.
    private var blockEnd = 0
    /// Whether a `read(2)` gave 0: the file ended.
    private var reachedEnd = false

    /// Opens `path` for reading with `open(2)` and takes its size with `fstat(2)`.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` when the file cannot be opened.
    init(_ path: String) throws {
        let raw = Self.retryingOnInterrupt { Self.open(path) }
        guard raw >= 0 else {
            let err = errno
            throw HealthLogError(.badUsage, "cannot open '\(path)': \(Self.describe(err))", errno: err)
        }
        fd = raw
        documentName = path
        var info = stat()
        totalBytes = fstat(raw, &info) == 0 ? Int(info.st_size) : 0
    }

    deinit { close() }

    /// Reads the first bytes with `pread(2)` without consuming them.
    func peek(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var done = 0
        while done < buffer.count {
            let n = try checked { pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(done)) }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// Reads the next bytes: all of `buffer` unless the file ends first (then what is
    /// left, 0 at the end), from the block read ahead, which is refilled with `read(2)` as
    /// it runs out.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try ImportStop.check()
        guard buffer.count > 0 else { return 0 }
        var done = 0
        while done < buffer.count {
            if blockStart == blockEnd {
                guard !reachedEnd else { break }
                let block = self.block ?? Self.allocateBlock(forFileOf: totalBytes)
                self.block = block
                blockStart = 0
                blockEnd = 0
                let count: Int
                do {
                    count = try checked { Self.read(fd, block) }
                } catch where done > 0 {
                    // The bytes already copied are given now; the failure comes with the next read.
                    break
                }
                if count == 0 {
                    reachedEnd = true
                    break
                }
                blockEnd = count
            }
            let take = min(buffer.count - done, blockEnd - blockStart)
            (buffer.baseAddress! + done).copyMemory(from: block!.baseAddress! + blockStart, byteCount: take)
            blockStart += take
            done += take
        }
        bytesConsumed += done
        return done
    }

    /// Closes the descriptor with `close(2)` and frees the block; later calls do nothing.
    func close() {
        block?.deallocate()
        block = nil
        blockStart = 0
        blockEnd = 0
        guard fd >= 0 else { return }
        Self.close(fd)
        fd = -1
    }

    /// A block for reading ahead a file of `size` bytes: ``blockBytes``, or less for a small
    /// file (a route or electrocardiogram file), at least a page.
    private static func allocateBlock(forFileOf size: Int) -> UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer.allocate(byteCount: max(4096, min(blockBytes, size + 1)), alignment: 64)
    }

    /// Runs a read, retried on `EINTR`; a failure is an I/O error naming the file.
    private func checked(_ call: () -> Int) throws -> Int {
        let result = Self.retryingOnInterrupt(call)
        guard result >= 0 else {
            let err = errno
            throw HealthLogError(.io, "cannot read \(documentName): \(Self.describe(err))", errno: err)
        }
        return result
    }

    /// Runs `call` again while it fails with `EINTR`; returns its last result.
    private static func retryingOnInterrupt<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    /// `strerror(3)`'s text for `code`.
    private static func describe(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "errno \(code)"
    }

    /// `open(2)`, read-only and close-on-exec.
    private static func open(_ path: String) -> Int32 {
        #if canImport(Glibc)
        Glibc.open(path, O_RDONLY | O_CLOEXEC)
        #else
        Darwin.open(path, O_RDONLY | O_CLOEXEC)
        #endif
    }

    /// `read(2)` into `buffer`.
    private static func read(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, buffer.baseAddress, buffer.count)
        #else
        Darwin.read(fd, buffer.baseAddress, buffer.count)
        #endif
    }

    /// `close(2)`.
    private static func close(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }
}
