#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// An `export.xml` read straight from its file with `read(2)`: the import's own small
/// wrapper over the descriptor, since the core's file handling is storage internals.
final class ExportFile: ExportByteSource {
    private var fd: Int32
    let totalBytes: Int
    let documentName: String
    private(set) var bytesConsumed = 0

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

    /// Reads the next bytes with `read(2)`.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try checked { Self.read(fd, buffer) }
        bytesConsumed += count
        return count
    }

    /// Closes the descriptor with `close(2)`; later calls do nothing.
    func close() {
        guard fd >= 0 else { return }
        Self.close(fd)
        fd = -1
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
