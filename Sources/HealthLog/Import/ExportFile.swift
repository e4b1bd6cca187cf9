#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An `export.xml` read straight from its file with `read(2)`.
final class ExportFile: ExportByteSource {
    private let fd: FileDescriptor
    let totalBytes: Int
    let documentName: String
    private(set) var bytesConsumed = 0

    /// Opens `path` for reading.
    init(_ path: String) throws {
        let raw = systemOpen(path, O_RDONLY | O_CLOEXEC, 0)
        guard raw >= 0 else {
            let err = errno
            throw HealthLogError(.badUsage, "cannot open '\(path)': \(describeErrno(err))", errno: err)
        }
        fd = FileDescriptor(rawValue: raw, path: path)
        totalBytes = (try? fd.size()) ?? 0
        documentName = path
    }

    /// Reads the first bytes without consuming them.
    func peek(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let bytes = try fd.read(at: 0, count: buffer.count)
        buffer.copyBytes(from: bytes)
        return bytes.count
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try fd.readSome(into: buffer)
        bytesConsumed += count
        return count
    }

    func close() { fd.close() }
}
